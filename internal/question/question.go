// Package question owns the interview question model, the built-in question
// bank, question selection for practice sessions and the import/export codec.
package question

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/danielgtaylor/huma/v2"

	"github.com/whitecoat/whitecoat/internal/httpx"
	"github.com/whitecoat/whitecoat/internal/profession"
)

// Subtag is a question's focus area. The empty Subtag means none.
type Subtag string

const (
	Ethical       Subtag = "Ethical"
	Behavioral    Subtag = "Behavioral"
	Teamwork      Subtag = "Teamwork"
	Leadership    Subtag = "Leadership"
	Communication Subtag = "Communication"
)

// TransformSchema publishes the subtags, and "" for none, as the
// contract's enum.
func (Subtag) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	s.Enum = []any{""}
	for _, st := range Subtags() {
		s.Enum = append(s.Enum, string(st))
	}
	return s
}

// Subtags returns every known subtag in display order.
func Subtags() []Subtag {
	return []Subtag{Ethical, Behavioral, Teamwork, Leadership, Communication}
}

// ParseSubtag returns the canonical subtag for s, ignoring case and
// surrounding spaces; blank input means no subtag.
func ParseSubtag(s string) (Subtag, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", nil
	}
	for _, st := range Subtags() {
		if strings.EqualFold(s, string(st)) {
			return st, nil
		}
	}
	return "", fmt.Errorf("question: subtag %q is not one of %s", s, subtagList())
}

// Valid reports whether s is a known subtag or empty.
func (s Subtag) Valid() bool {
	return s == "" || slices.Contains(Subtags(), s)
}

func subtagList() string {
	names := make([]string, 0, 5)
	for _, st := range Subtags() {
		names = append(names, string(st))
	}
	return strings.Join(names, ", ")
}

// Limits on a question's fields, checked by Problems for imports and admin
// edits alike: the text and tip must fit the practice screen.
const (
	MaxTextLen   = 1000
	MaxTipLen    = 600
	MaxIDLen     = 100
	MaxAuthorLen = 200
	// MaxScenarioLen fits a station's stem on a phone screen with room for
	// the notes pad: about 300 words, more than any MMI door sign.
	MaxScenarioLen = 2000
	// MaxFollowUps and MaxFollowUpLen bound a station's further prompts:
	// an interviewer at an 8-minute station gets through three or four.
	MaxFollowUps   = 4
	MaxFollowUpLen = 300
)

// Question is one interview question in the bank.
//
// SeedKey is set only on questions that came from the built-in bank: the
// store inserts a bank question only when its seed key is absent, so
// re-seeding never duplicates a question or overwrites an admin's edit.
//
// A question with a Scenario is a station (MMI- or Casper-style): the
// candidate reads the scenario first, Text is the station's prompt and
// FollowUps are what the interviewer asks next. Stations are drawn only
// for those formats; the others draw only questions without a scenario.
type Question struct {
	ID        string   `json:"id,omitempty"`
	SeedKey   string   `json:"seedKey,omitempty"`
	Scenario  string   `json:"scenario"`
	Text      string   `json:"text"`
	FollowUps []string `json:"followUps,omitempty"`
	Subtag    Subtag   `json:"subtag"`
	Tip       string   `json:"tip"`
	Big3      bool     `json:"big3"`
	Big3Order int      `json:"big3Order"`
	MainTags  []string `json:"mainTags"`
	// Points are what a strong answer to this question makes, most
	// valuable first, and Traps what it must not do (see Point); a
	// question without points is judged by the general rubric for its kind.
	Points    []Point   `json:"points,omitempty"`
	Traps     []Point   `json:"traps,omitempty"`
	CreatedAt time.Time `json:"createdAt,omitzero"`
	UpdatedAt time.Time `json:"updatedAt,omitzero"`
	CreatedBy string    `json:"createdBy,omitempty"`
	UpdatedBy string    `json:"updatedBy,omitempty"`
	// Version counts the question's saves in this database; an edit
	// names the version it was made on. An export file leaves it out:
	// another database counts its own.
	Version int `json:"version,omitzero" required:"true" minimum:"1" doc:"How many times the question has been saved; an edit sends back the version it was made on."`
}

// IsStation reports whether q is a scenario station rather than a question
// asked on its own.
func (q Question) IsStation() bool { return q.Scenario != "" }

// TransformSchema publishes the station limits the admin editor checks.
func (Question) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	httpx.SetMaxLength(s, "scenario", MaxScenarioLen)
	httpx.SetMaxItems(s, "followUps", MaxFollowUps)
	httpx.SetMaxItems(s, "points", MaxPoints)
	httpx.SetMaxItems(s, "traps", MaxTraps)
	return s
}

// HasTag reports whether q belongs to the profession with the given slug.
func (q Question) HasTag(slug string) bool {
	return slices.ContainsFunc(q.MainTags, func(t string) bool { return strings.EqualFold(t, slug) })
}

// Normalize returns q in canonical form: trimmed text, canonical subtag
// spelling, lower-case de-duplicated profession slugs and UTC timestamps.
// Values it cannot canonicalise are left for Validate to report.
func (q Question) Normalize() Question {
	q.ID = strings.TrimSpace(q.ID)
	q.SeedKey = strings.TrimSpace(q.SeedKey)
	q.Text = strings.TrimSpace(q.Text)
	q.Tip = strings.TrimSpace(q.Tip)
	q.Scenario = strings.TrimSpace(q.Scenario)
	var followUps []string // nil when there are none, as stored and decoded
	for _, f := range q.FollowUps {
		if f = strings.Join(strings.Fields(f), " "); f != "" {
			followUps = append(followUps, f)
		}
	}
	q.FollowUps = followUps
	q.Points, q.Traps = normalizePoints(q.Points), normalizePoints(q.Traps)
	q.CreatedBy = strings.TrimSpace(q.CreatedBy)
	q.UpdatedBy = strings.TrimSpace(q.UpdatedBy)
	if st, err := ParseSubtag(string(q.Subtag)); err == nil {
		q.Subtag = st
	} else {
		q.Subtag = Subtag(strings.TrimSpace(string(q.Subtag)))
	}
	tags := make([]string, 0, len(q.MainTags))
	for _, t := range q.MainTags {
		t = strings.ToLower(strings.TrimSpace(t))
		if t != "" && !slices.Contains(tags, t) {
			tags = append(tags, t)
		}
	}
	q.MainTags = tags
	if !q.CreatedAt.IsZero() {
		q.CreatedAt = q.CreatedAt.UTC()
	}
	if !q.UpdatedAt.IsZero() {
		q.UpdatedAt = q.UpdatedAt.UTC()
	}
	return q
}

// Problem is one reason a question is invalid.
type Problem struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

func (p Problem) String() string {
	if p.Field == "" {
		return p.Message
	}
	return p.Field + ": " + p.Message
}

// Validate reports every problem with q, which should already be normalised.
func (q Question) Validate() error {
	ps := q.Problems()
	if len(ps) == 0 {
		return nil
	}
	msgs := make([]string, len(ps))
	for i, p := range ps {
		msgs[i] = p.String()
	}
	return fmt.Errorf("question: invalid question: %s", strings.Join(msgs, "; "))
}

var seedKeyPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// Problems lists every problem with q, which should already be normalised.
func (q Question) Problems() []Problem {
	var ps []Problem
	add := func(field, format string, args ...any) {
		ps = append(ps, Problem{Field: field, Message: fmt.Sprintf(format, args...)})
	}

	if q.ID != "" {
		if msg := checkLabel(q.ID, MaxIDLen); msg != "" {
			add("id", "%s", msg)
		}
	}
	if q.SeedKey != "" && (len(q.SeedKey) > MaxIDLen || !seedKeyPattern.MatchString(q.SeedKey)) {
		add("seedKey", "%q must be lower-case letters and digits separated by single hyphens, at most %d characters", q.SeedKey, MaxIDLen)
	}

	if q.Text == "" {
		add("text", "is empty")
	} else if msg := checkProse(q.Text, MaxTextLen); msg != "" {
		add("text", "%s", msg)
	}
	if msg := checkProse(q.Tip, MaxTipLen); msg != "" {
		add("tip", "%s", msg)
	}
	if msg := checkProse(q.Scenario, MaxScenarioLen); msg != "" {
		add("scenario", "%s", msg)
	}
	switch {
	case len(q.FollowUps) > 0 && !q.IsStation():
		add("followUps", "only a scenario station has follow-up prompts; add its scenario or remove them")
	case len(q.FollowUps) > MaxFollowUps:
		add("followUps", "has %d prompts, more than the limit of %d", len(q.FollowUps), MaxFollowUps)
	}
	for i, f := range q.FollowUps {
		if msg := checkLabel(f, MaxFollowUpLen); msg != "" {
			add("followUps", "prompt %d %s", i+1, msg)
		}
	}
	pointProblems("points", q.Points, MaxPoints, add)
	pointProblems("traps", q.Traps, MaxTraps, add)
	if q.IsStation() && q.Big3 {
		add("big3", "a scenario station cannot be one of the Big 3")
	}

	if !q.Subtag.Valid() {
		add("subtag", "%q is not one of %s (or empty)", q.Subtag, subtagList())
	}

	switch {
	case q.Big3 && (q.Big3Order < 1 || q.Big3Order > 3):
		add("big3Order", "is %d but a Big 3 question needs 1, 2 or 3", q.Big3Order)
	case !q.Big3 && q.Big3Order != 0:
		add("big3Order", "is %d but only Big 3 questions have an order; set big3 to true or big3Order to 0", q.Big3Order)
	}

	if len(q.MainTags) == 0 {
		add("mainTags", "is empty; list at least one of %s", strings.Join(profession.Slugs(), ", "))
	}
	for _, t := range q.MainTags {
		if !profession.IsKnown(t) {
			add("mainTags", "%q is not a profession; use %s", t, strings.Join(profession.Slugs(), ", "))
		}
	}

	if !q.CreatedAt.IsZero() && !q.UpdatedAt.IsZero() && q.UpdatedAt.Before(q.CreatedAt) {
		add("updatedAt", "%s is before createdAt %s", q.UpdatedAt.Format(time.RFC3339Nano), q.CreatedAt.Format(time.RFC3339Nano))
	}
	for field, v := range map[string]string{"createdBy": q.CreatedBy, "updatedBy": q.UpdatedBy} {
		if v != "" {
			if msg := checkLabel(v, MaxAuthorLen); msg != "" {
				add(field, "%s", msg)
			}
		}
	}
	slices.SortStableFunc(ps, func(a, b Problem) int { return fieldRank(a.Field) - fieldRank(b.Field) })
	return ps
}

// fieldRank orders problems like the columns of an export, so messages read
// left to right whatever order the checks ran in.
func fieldRank(field string) int {
	for i, c := range columns {
		if c == field {
			return i
		}
	}
	return len(columns)
}

// checkProse allows tabs and line breaks because long MMI prompts may have
// paragraphs, but no other control characters: they do not survive a CSV
// round trip and render as garbage.
func checkProse(s string, maxLen int) string {
	if !utf8.ValidString(s) {
		return "is not valid UTF-8"
	}
	if n := utf8.RuneCountInString(s); n > maxLen {
		return fmt.Sprintf("is %d characters, more than the limit of %d", n, maxLen)
	}
	if strings.ContainsFunc(s, func(r rune) bool { return unicode.IsControl(r) && r != '\n' && r != '\t' }) {
		return "contains a control character"
	}
	return ""
}

func checkLabel(s string, maxLen int) string {
	if !utf8.ValidString(s) {
		return "is not valid UTF-8"
	}
	if n := utf8.RuneCountInString(s); n > maxLen {
		return fmt.Sprintf("is %d characters, more than the limit of %d", n, maxLen)
	}
	if strings.ContainsFunc(s, unicode.IsControl) {
		return "contains a control character"
	}
	return ""
}
