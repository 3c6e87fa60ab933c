// Package feedback is what scoring one interview answer means: the Input,
// the Feedback, the Engine interface and the score formula (score.go) that
// turns judged criteria into scores.
//
// Two engines implement Engine, each in its own package: rubric (pure Go,
// deterministic, the embedded default that needs no account) and llm (any
// OpenAI-compatible chat-completions endpoint), which falls back to the
// rubric engine — visibly — when the model cannot be used. The app package
// chooses between them.
package feedback

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/whitecoat/whitecoat/internal/profession"
	"github.com/whitecoat/whitecoat/internal/question"
	"github.com/whitecoat/whitecoat/internal/video"
)

// RubricVersion names the rubric every score produced here rests on. Stored
// feedback without a version predates this package and is read as "v1" (spec).
// v3 builds each section from criteria with anchored 1-7 levels, raises red
// flags with their reasons, and tags competencies.
const RubricVersion = "v3"

// Engine names as they appear in Config.Engine and Feedback.Engine.
const (
	EngineRubric = "rubric"
	EngineLLM    = "llm"
)

// Engine scores one answer. Implementations are safe for concurrent use.
type Engine interface {
	Score(ctx context.Context, in Input) (Feedback, error)
}

// Big 3 questions, as carried in Input.Big3. Strings rather than big3Order so
// that a reordered question bank cannot silently change how answers are judged.
const (
	Big3TellMeAboutYourself = "tell-me-about-yourself"
	Big3WhyProfession       = "why-profession"
	Big3WhySchool           = "why-school"
)

// Big3ByOrder is the Big 3 question a question bank's big3Order stands for
// ("" for none).
func Big3ByOrder(order int) string {
	switch order {
	case 1:
		return Big3TellMeAboutYourself
	case 2:
		return Big3WhyProfession
	case 3:
		return Big3WhySchool
	}
	return ""
}

// Input is one answer to score.
type Input struct {
	// Profession is a spec slug: dental, medical, pt, pa, pharmacy, ot, veterinary.
	Profession string
	Question   string
	// Subtag is the question bank's subtag (Ethical, Behavioral, Teamwork,
	// Leadership, Communication) or empty; matched case-insensitively.
	Subtag string
	// Big3 is one of the Big3* constants, or empty for other questions.
	Big3       string
	Transcript string
	// Delivery is nil when no timing is known (text-only scoring); the rubric
	// then estimates length from the word count and says so.
	Delivery *Delivery
	// Video is what the student's browser measured of a video answer's
	// presence (eye contact, framing, steadiness); nil for an audio or
	// typed answer, or when the student turned the measurement off.
	Video *video.Delivery
	// Written is true for a typed answer: there is no delivery to judge,
	// and its length is counted in words against what a timed written
	// response holds.
	Written bool
	// LimitSeconds is how long the answer could run (a Casper-style
	// minute, an MMI station's 7); the length it is judged against scales
	// with it. 0 means the spec's 3 minutes.
	LimitSeconds float64
	// Uncertain are the byte ranges of Transcript holding a word the
	// speech engine may have misheard: never quoted back, and when they
	// are too much of the answer its content is not judged (uncertain.go).
	// Empty for a typed or corrected answer.
	Uncertain [][2]int
	// Points are what a strong answer to this question makes, most
	// valuable first, and Traps the wrong moves it must avoid, each with
	// the cues a student making it would say (issue 40); none for a
	// question without its own (a student's custom question).
	Points []question.Point
	Traps  []question.Point
}

// SpecLimitSeconds is the spec's answer limit, which the length targets
// (60-120 s) were written for.
const SpecLimitSeconds = 180

// Delivery is what the speech-to-text step measured. Zero fields are
// "not measured"; the rubric derives what it can from the transcript instead.
type Delivery struct {
	DurationSeconds     float64 `json:"durationSeconds"`
	WordsPerMinute      float64 `json:"wordsPerMinute"`
	FillerCount         int     `json:"fillerCount"`
	FillersPer100Words  float64 `json:"fillersPer100Words"`
	LongestPauseSeconds float64 `json:"longestPauseSeconds"`
	PausesOver2s        int     `json:"pausesOver2s"`
	// FillersEstimated is true when the speech engine guessed fillers (for
	// example from gaps) rather than transcribing them.
	FillersEstimated bool `json:"fillersEstimated"`
}

// Feedback is the spec's Feedback plus the engine that produced it and the
// evidence each score and suggestion rests on.
type Feedback struct {
	OverallScore  int           `json:"overallScore"`
	SectionScores SectionScores `json:"sectionScores"`
	Summary       string        `json:"summary"`
	Suggestions   []string      `json:"suggestions"`
	RubricVersion string        `json:"rubricVersion"`
	Engine        string        `json:"engine"`
	// Model is the LLM that scored the answer; empty for the rubric engine.
	Model    string     `json:"model,omitempty"`
	Evidence []Evidence `json:"evidence"`
	// RedFlags are what an interviewer would treat as disqualifying; any one
	// caps the overall score below 60.
	RedFlags []RedFlag `json:"redFlags"`
	// Competencies are the AAMC-style competencies the answer shows, for the
	// progress views.
	Competencies []Competency `json:"competencies"`
	// Fallback is true when the configured LLM could not be used and the rubric
	// engine scored the answer instead; the UI must say so.
	Fallback       bool   `json:"fallback"`
	FallbackReason string `json:"fallbackReason,omitempty"`
	// ContentUnjudged is true when too much of the answer may have been
	// misheard to judge its content (see TooUncertainShare): the content
	// criteria abstain, the content score is 0 and stands for nothing, and
	// the answer has no overall score (Overall; the JSON leaves it out).
	ContentUnjudged bool `json:"contentUnjudged,omitempty"`
}

// Overall is the answer's overall score; false when it has none: its
// content was not judged (ContentUnjudged), so it shows its delivery and
// structure alone and counts in no average until the transcript is
// corrected and scored again. Everything that reads an overall score reads
// it here.
func (f Feedback) Overall() (int, bool) {
	if f.ContentUnjudged {
		return 0, false
	}
	return f.OverallScore, true
}

// MarshalJSON leaves the overall score out of feedback that has none
// (Overall): the contract's overallScore is absent, not a number formed
// without the content.
func (f Feedback) MarshalJSON() ([]byte, error) {
	type plain Feedback // without this method
	if _, ok := f.Overall(); ok {
		return json.Marshal(plain(f))
	}
	return json.Marshal(struct {
		plain
		OverallScore *int `json:"overallScore,omitempty"`
	}{plain: plain(f)})
}

// TransformSchema publishes that the overall score is absent from feedback
// whose content was not judged (Overall).
func (Feedback) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	s.Required = slices.DeleteFunc(s.Required, func(name string) bool { return name == "overallScore" })
	s.Properties["overallScore"].Description = "Absent when the content was not judged (contentUnjudged): such an answer has no overall score and counts in no average until its transcript is corrected and scored again."
	return s
}

// UnmarshalJSON reads feedback of any version: the lists an older version
// did not have come back empty, never null, as the contract requires.
func (f *Feedback) UnmarshalJSON(b []byte) error {
	type plain Feedback // without this method
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return fmt.Errorf("feedback: %w", err)
	}
	*f = Feedback(p)
	f.fillLists()
	return nil
}

// fillLists makes every missing list an empty one.
func (f *Feedback) fillLists() {
	if f.Suggestions == nil {
		f.Suggestions = []string{}
	}
	if f.Evidence == nil {
		f.Evidence = []Evidence{}
	}
	if f.RedFlags == nil {
		f.RedFlags = []RedFlag{}
	}
	if f.Competencies == nil {
		f.Competencies = []Competency{}
	}
}

// SectionScores are each 0-100.
type SectionScores struct {
	OverallImpression int `json:"overallImpression"`
	ClarityStructure  int `json:"clarityStructure"`
	Content           int `json:"content"`
}

// Section names used in Evidence.Section, matching the JSON of SectionScores.
const (
	SectionOverallImpression = "overallImpression"
	SectionClarityStructure  = "clarityStructure"
	SectionContent           = "content"
)

// Evidence is one thing the engine looked for, whether it found it, and the
// words of the answer that show it. A scored criterion also carries its
// level on a 1-7 scale and the anchor that describes that level, the way an
// MMI scoring sheet does; supporting observations (and feedback stored
// before v3) have level 0.
type Evidence struct {
	Section   string `json:"section"`
	Criterion string `json:"criterion"`
	Met       bool   `json:"met"`
	Quote     string `json:"quote,omitempty"`
	Note      string `json:"note,omitempty"`
	Level     int    `json:"level,omitempty"`
	Anchor    string `json:"anchor,omitempty"`
	// Unjudged says why the check was not made, empty when it was (then
	// Met and Level are its verdict; otherwise Met is false and Level 0,
	// and neither means anything): one of the Unjudged* constants.
	Unjudged string `json:"unjudged,omitempty" enum:"not-measured,too-uncertain"`
	// Point marks one of the question's own points (issue 40): Criterion
	// is what to say, Met whether the answer said it, Quote where.
	Point bool `json:"point,omitempty" doc:"One of the question's own points: the criterion is what a strong answer says, met whether this one said it, the quote where."`
}

// Why an Evidence was not judged.
const (
	// UnjudgedNotMeasured: the speech engine cannot hear what the check
	// counts (filled pauses, for an engine that misses most of them).
	UnjudgedNotMeasured = "not-measured"
	// UnjudgedTooUncertain: too much of the answer may have been misheard
	// to judge it.
	UnjudgedTooUncertain = "too-uncertain"
)

// TransformSchema publishes the level's bounds.
func (Evidence) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	lo, hi := 0.0, float64(MaxLevel)
	s.Properties["level"].Minimum, s.Properties["level"].Maximum = &lo, &hi
	return s
}

// Validate reports whether the input can be scored: a registered
// profession, a question, and a known Big 3 question if any.
func (in Input) Validate() error {
	if _, ok := practitioner(in.Profession); !ok {
		return fmt.Errorf("feedback: unknown profession %q", in.Profession)
	}
	if strings.TrimSpace(in.Question) == "" {
		return fmt.Errorf("feedback: question is empty")
	}
	switch in.Big3 {
	case "", Big3TellMeAboutYourself, Big3WhyProfession, Big3WhySchool:
	default:
		return fmt.Errorf("feedback: unknown big3 %q", in.Big3)
	}
	return nil
}

// Practitioner is who the answer's profession trains ("dentist" for
// dental), which the engines name to make feedback specific; empty for an
// input that does not Validate.
func (in Input) Practitioner() string {
	who, _ := practitioner(in.Profession)
	return who
}

// Count is n with the noun in its number: "1 filler", "3 fillers".
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// WithArticle is noun after the article its first sound takes: "a
// dentist", "an occupational therapist". (Every practitioner the registry
// names begins as it is spelled: a vowel letter, a vowel sound.)
func WithArticle(noun string) string {
	if noun != "" && strings.ContainsRune("aeiouAEIOU", rune(noun[0])) {
		return "an " + noun
	}
	return "a " + noun
}

// practitioner reads the profession registry. Slugs are matched exactly,
// as they are stored, not as a URL may spell them.
func practitioner(slug string) (string, bool) {
	p, ok := profession.Lookup(slug)
	if !ok || p.Slug != slug {
		return "", false
	}
	return p.Practitioner, true
}
