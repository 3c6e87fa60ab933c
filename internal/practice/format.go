package practice

import (
	"math"
	"slices"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/whitecoat/whitecoat/internal/answer"
	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/httpx"
	"github.com/whitecoat/whitecoat/internal/question"
)

// Format is the kind of interview a session rehearses (issue 15).
type Format string

const (
	// FormatTraditional is one question after another, recorded when the
	// student is ready, up to the answer limit (the spec's 3 minutes).
	FormatTraditional Format = "traditional"
	// FormatMMI is a multiple mini interview: at each station the scenario
	// is read for a set time (with a notes pad), then the answer starts by
	// itself and the follow-up prompts appear while it runs.
	FormatMMI Format = "mmi"
	// FormatKira is a Kira Talent-style timed question: preparation, then
	// one take that starts by itself.
	FormatKira Format = "kira"
	// FormatCasper is a Casper-style set: a video part (a scenario and two
	// questions, one minute each) and a typed part (a scenario and two
	// questions answered in writing within one limit).
	FormatCasper Format = "casper"
)

var formats = []Format{FormatTraditional, FormatMMI, FormatKira, FormatCasper}

// TransformSchema publishes the formats as the contract's enum.
func (Format) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	s.Enum = nil
	for _, f := range formats {
		s.Enum = append(s.Enum, string(f))
	}
	return s
}

// Known reports whether f is one of the formats.
func (f Format) Known() bool { return slices.Contains(formats, f) }

// stations reports whether the format is built of scenario stations
// rather than questions asked on their own.
func (f Format) stations() bool { return f == FormatMMI || f == FormatCasper }

// autoStart reports whether recording starts by itself when preparation
// ends (after a 3-2-1 countdown); in the traditional format the student
// presses Start Recording.
func (f Format) autoStart() bool { return f != FormatTraditional }

// Extension is the student's timing adjustment (WCAG 2.2.1, Timing
// Adjustable): every limit of the session is multiplied by it, the
// accommodations Casper grants, or timing is off for untimed practice.
type Extension string

const (
	ExtensionNone    Extension = "1"
	ExtensionQuarter Extension = "1.25"
	ExtensionHalf    Extension = "1.5"
	ExtensionDouble  Extension = "2"
	ExtensionOff     Extension = "off"
)

var extensions = []Extension{ExtensionNone, ExtensionQuarter, ExtensionHalf, ExtensionDouble, ExtensionOff}

// TransformSchema publishes the adjustments as the contract's enum.
func (Extension) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	s.Enum = nil
	for _, e := range extensions {
		s.Enum = append(s.Enum, string(e))
	}
	return s
}

// factor is how much longer every limit becomes; 0 when timing is off.
func (e Extension) factor() float64 {
	switch e {
	case ExtensionQuarter:
		return 1.25
	case ExtensionHalf:
		return 1.5
	case ExtensionDouble:
		return 2
	case ExtensionOff:
		return 0
	}
	return 1
}

// Bounds on the timings a student may set, in seconds.
const (
	MaxPrepSeconds   = 600
	MinAnswerSeconds = 10
	MaxAnswerSeconds = 600
	MinTypedSeconds  = 30
	MaxTypedSeconds  = 900
	// UntimedAnswerSeconds stops a recording when timing is off: untimed
	// practice still ends somewhere, at twice the longest limit (what the
	// largest extension allows), so that one answer cannot occupy the
	// speech engine for an hour.
	UntimedAnswerSeconds = 2 * MaxAnswerSeconds
)

// Timings are a format's limits before any extension, in seconds.
type Timings struct {
	PrepSeconds   int `json:"prepSeconds" doc:"Reading or preparation time before each answer; 0 for none."`
	AnswerSeconds int `json:"answerSeconds" doc:"Limit of each spoken answer."`
	TypedSeconds  int `json:"typedSeconds,omitempty" doc:"Limit of a typed part, its questions together (Casper-style sessions only)."`
}

// TransformSchema publishes the bounds Create checks.
func (Timings) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	httpx.SetRange(s, "prepSeconds", 0, MaxPrepSeconds)
	httpx.SetRange(s, "answerSeconds", MinAnswerSeconds, MaxAnswerSeconds)
	httpx.SetRange(s, "typedSeconds", MinTypedSeconds, MaxTypedSeconds)
	return s
}

func (t Timings) check(f Format) error {
	switch {
	case t.PrepSeconds < 0 || t.PrepSeconds > MaxPrepSeconds:
		return apperr.Invalid("timings.prepSeconds", "Preparation time must be between 0 and %d seconds.", MaxPrepSeconds)
	case t.AnswerSeconds < MinAnswerSeconds || t.AnswerSeconds > MaxAnswerSeconds:
		return apperr.Invalid("timings.answerSeconds", "Answer time must be between %d and %d seconds.", MinAnswerSeconds, MaxAnswerSeconds)
	case f == FormatCasper && (t.TypedSeconds < MinTypedSeconds || t.TypedSeconds > MaxTypedSeconds):
		return apperr.Invalid("timings.typedSeconds", "Typing time must be between %d and %d seconds.", MinTypedSeconds, MaxTypedSeconds)
	case f != FormatCasper && t.TypedSeconds != 0:
		return apperr.Invalid("timings.typedSeconds", "Only Casper-style sessions have typed answers.")
	}
	return nil
}

// Preset is a format's defaults, as the setup offers them.
type Preset struct {
	Format  Format  `json:"format"`
	Timings Timings `json:"timings"`
	// Count is how many questions (stations, scenarios) a session has by default.
	Count int `json:"count"`
}

// Presets are the formats' defaults. The traditional answer limit is the
// configured one (the spec's 3 minutes); the rest follow the real formats:
// MMI stations of 2 minutes' reading and 7 minutes inside (McMaster ran
// 8), Kira's 30-60 s to prepare and 60-120 s to record, Casper's minute
// per spoken question and 3.5 minutes for a typed pair.
func (s *Service) Presets() []Preset {
	return []Preset{
		{Format: FormatTraditional, Timings: Timings{AnswerSeconds: int(s.cfg.AnswerLimit / time.Second)}, Count: DefaultQuestions},
		{Format: FormatMMI, Timings: Timings{PrepSeconds: 120, AnswerSeconds: 420}, Count: 6},
		{Format: FormatKira, Timings: Timings{PrepSeconds: 45, AnswerSeconds: 90}, Count: DefaultQuestions},
		{Format: FormatCasper, Timings: Timings{PrepSeconds: 30, AnswerSeconds: 60, TypedSeconds: 210}, Count: 2},
	}
}

func (s *Service) preset(f Format) (Preset, bool) {
	i := slices.IndexFunc(s.Presets(), func(p Preset) bool { return p.Format == f })
	if i < 0 {
		return Preset{}, false
	}
	return s.Presets()[i], true
}

// Item kinds: how an answer is given.
const (
	KindSpoken = answer.KindSpoken
	KindTyped  = answer.KindTyped
)

// scaled applies the extension to one limit; with timing off, a spoken
// answer stops at UntimedAnswerSeconds and a typed one never.
func scaled(seconds int, e Extension, untimed int) int {
	f := e.factor()
	if f == 0 {
		return untimed
	}
	return int(math.Round(float64(seconds) * f))
}

// formatItems turns the chosen questions into the session's items with
// their timings: one item per question, or for Casper-style sessions, per
// scenario alternately a video part (two spoken items, one per question)
// and a typed part (one typed item holding both questions).
func formatItems(f Format, t Timings, e Extension, chosen []question.Question) []Item {
	prep := scaled(t.PrepSeconds, e, t.PrepSeconds)
	answerLimit := scaled(t.AnswerSeconds, e, UntimedAnswerSeconds)
	var items []Item
	add := func(it Item) {
		it.Position = len(items) + 1
		if it.Kind == "" {
			it.Kind = KindSpoken
		}
		if it.FollowUps == nil {
			it.FollowUps = []string{}
		}
		items = append(items, it)
	}
	for i, q := range chosen {
		base := Item{Answer: answer.Answer{Question: q.Text, Scenario: q.Scenario}, Tip: q.Tip, Subtag: string(q.Subtag),
			PrepSeconds: prep, AnswerSeconds: answerLimit, questionID: questionRef(q)}
		switch {
		case f != FormatCasper:
			if f == FormatMMI {
				base.FollowUps = q.FollowUps
			}
			add(base)
		case i%2 == 0: // a video part: the scenario, then two questions
			add(base)
			second := base
			second.PrepSeconds = 0 // the scenario was read before the first
			second.Question = firstOr(q.FollowUps, q.Text)
			add(second)
		default: // a typed part: both questions on one screen, one limit
			base.Kind = KindTyped
			base.FollowUps = q.FollowUps[:min(1, len(q.FollowUps))]
			base.AnswerSeconds = scaled(t.TypedSeconds, e, 0)
			add(base)
		}
	}
	return items
}

func questionRef(q question.Question) *string {
	if q.ID == "" {
		return nil
	}
	id := q.ID
	return &id
}

func firstOr(list []string, fallback string) string {
	if len(list) == 0 {
		return fallback
	}
	return list[0]
}

// answerLimit is how long the item's recording may run: the speech
// engine decodes that much of it (and a margin), and the delivery figures
// measure the answer against it.
func (it Item) answerLimit() time.Duration {
	return time.Duration(it.AnswerSeconds) * time.Second
}

// scoredQuestion is what an answer is judged against: the scenario it
// responds to, the prompt, and for a typed part the second question its
// text also answers.
func scoredQuestion(it Item) string {
	parts := []string{it.Scenario, it.Question}
	if it.Kind == KindTyped {
		parts = append(parts, it.FollowUps...)
	}
	return strings.TrimSpace(strings.Join(parts, " "))
}
