package feedback

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"regexp"
	"strconv"
	"strings"
)

// scoreFromJSON reads a score as the spec demands: numbers (and numeric
// strings, which older clients wrote) are clamped to 0-100; anything else —
// null, words, objects — is 0.
func scoreFromJSON(raw json.RawMessage) int {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return 0
	}
	switch x := v.(type) {
	case float64:
		return clampScore(x)
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		if err != nil {
			return 0
		}
		return clampScore(f)
	}
	return 0
}

// Stored is feedback as kept with a saved session: either the structured
// Feedback or, for sessions saved before it existed, a legacy plain-text or
// HTML string.
type Stored struct {
	// Feedback is set when the stored value was an object.
	Feedback *Feedback
	// Legacy is the sanitised plain text of a legacy string.
	Legacy string
}

// IsLegacy reports whether the stored feedback predates structured feedback.
func (s Stored) IsLegacy() bool { return s.Feedback == nil }

// MarshalJSON writes back what was read: the object, or the legacy text.
func (s Stored) MarshalJSON() ([]byte, error) {
	if s.Feedback != nil {
		return json.Marshal(s.Feedback)
	}
	return json.Marshal(s.Legacy)
}

// UnmarshalJSON accepts the structured object (scores clamped, non-numeric
// scores 0, a missing rubricVersion read as "v1") or a legacy string.
func (s *Stored) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) > 0 && b[0] == '"':
		var str string
		if err := json.Unmarshal(b, &str); err != nil {
			return fmt.Errorf("feedback: legacy feedback: %w", err)
		}
		*s = Stored{Legacy: SanitizeLegacy(str)}
		return nil
	case len(b) > 0 && b[0] == '{':
		var r struct {
			storedReply
			RubricVersion  string       `json:"rubricVersion"`
			Engine         string       `json:"engine"`
			Model          string       `json:"model"`
			Fallback       bool         `json:"fallback"`
			FallbackReason string       `json:"fallbackReason"`
			RedFlags       []RedFlag    `json:"redFlags"`
			Competencies   []Competency `json:"competencies"`
		}
		if err := json.Unmarshal(b, &r); err != nil {
			return fmt.Errorf("feedback: stored feedback: %w", err)
		}
		fb := Feedback{
			OverallScore: scoreFromJSON(r.OverallScore),
			SectionScores: SectionScores{
				OverallImpression: scoreFromJSON(r.SectionScores[SectionOverallImpression]),
				ClarityStructure:  scoreFromJSON(r.SectionScores[SectionClarityStructure]),
				Content:           scoreFromJSON(r.SectionScores[SectionContent]),
			},
			Summary:        r.Summary,
			Suggestions:    r.Suggestions,
			RubricVersion:  r.RubricVersion,
			Engine:         r.Engine,
			Model:          r.Model,
			Evidence:       r.Evidence,
			Fallback:       r.Fallback,
			FallbackReason: r.FallbackReason,
			RedFlags:       r.RedFlags,
			Competencies:   r.Competencies,
		}
		if fb.RubricVersion == "" {
			fb.RubricVersion = "v1"
		}
		fb.fillLists()
		*s = Stored{Feedback: &fb}
		return nil
	case string(b) == "null":
		*s = Stored{}
		return nil
	}
	return fmt.Errorf("feedback: stored feedback is neither an object nor a string")
}

var (
	// Elements whose content is never text a person wrote for the reader.
	dropElements = regexp.MustCompile(`(?is)<(script|style|head|template|iframe|object|svg|noscript)\b.*?</(script|style|head|template|iframe|object|svg|noscript)\s*>`)
	comments     = regexp.MustCompile(`(?s)<!--.*?-->`)
	// Tags that end a line or start a list item keep the text's shape.
	lineBreaks = regexp.MustCompile(`(?i)<\s*(br|/p|/div|/h[1-6]|/tr|/ul|/ol|hr)\b[^>]*>`)
	listItems  = regexp.MustCompile(`(?i)<\s*li\b[^>]*>`)
	anyTag     = regexp.MustCompile(`(?s)<[^>]*>?`)
	blankLines = regexp.MustCompile(`\n{3,}`)
)

// SanitizeLegacy turns legacy feedback (plain text or HTML) into plain text
// that is safe to show anywhere: no markup survives, entities are decoded
// once, and the paragraph and list shape is kept as line breaks. The UI must
// still render the result as text, never as HTML.
func SanitizeLegacy(s string) string {
	s = comments.ReplaceAllString(s, "")
	s = dropElements.ReplaceAllString(s, "")
	s = lineBreaks.ReplaceAllString(s, "\n")
	s = listItems.ReplaceAllString(s, "\n- ")
	s = anyTag.ReplaceAllString(s, "")
	s = html.UnescapeString(s)
	// Decoding can reveal "<script>" written as entities; it is text now,
	// but strip angle brackets so no consumer can mistake it for markup.
	s = strings.NewReplacer("<", "‹", ">", "›").Replace(s)
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.Join(strings.Fields(l), " ")
	}
	return strings.TrimSpace(blankLines.ReplaceAllString(strings.Join(lines, "\n"), "\n\n"))
}
