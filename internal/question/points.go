package question

import (
	"regexp"
	"slices"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/whitecoat/whitecoat/internal/httpx"
)

// What a strong answer to a question makes, and what it must not (issue
// 40): the judge checks an answer against its question's points and traps,
// quotes a point met as evidence, tells the student the most valuable
// point missed, and caps the score of an answer that walks into a trap.

// Point is one thing an answer to a question says: a point a strong answer
// makes (Question.Points, most valuable first), or a trap it must avoid
// (Question.Traps). Cues are phrases a student making it would say, which
// the judge looks for in the transcript alongside the text's own words.
type Point struct {
	Text string   `json:"text" minLength:"1" doc:"For a point, what to say, as the student is told it (\"Say how you would find out why she refuses.\"); for a trap, the wrong move (\"Transfusing her once she loses consciousness\")."`
	Cues []string `json:"cues" doc:"Short phrases a student making it would say (\"ask her why\", \"understand her reasons\"), lower case."`
}

// Limits on points and traps: a bank question has MinPoints to MaxPoints
// points; an admin's own question may have none (it is judged by the
// general rubric for its kind).
const (
	MinPoints    = 3
	MaxPoints    = 6
	MaxTraps     = 3
	MaxPointLen  = 160
	MaxCues      = 12
	MaxCueLen    = 60
	maxCueWords  = 6
	cuesOpen     = " [cues: "
	cueSeparator = "; "
)

// TransformSchema publishes the limits the admin editor checks.
func (Point) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	httpx.SetMaxLength(s, "text", MaxPointLen)
	httpx.SetMaxItems(s, "cues", MaxCues)
	s.Properties["cues"].Items.MaxLength = ptr(MaxCueLen)
	return s
}

func ptr[T any](v T) *T { return &v }

// normalizePoints trims every text and cue, lower-cases cues, and drops
// empty points and cues and repeated cues; nil when none are left.
func normalizePoints(ps []Point) []Point {
	var out []Point
	for _, p := range ps {
		p.Text = strings.Join(strings.Fields(p.Text), " ")
		var cues []string
		for _, c := range p.Cues {
			c = strings.ToLower(strings.Join(strings.Fields(c), " "))
			if c != "" && !slices.Contains(cues, c) {
				cues = append(cues, c)
			}
		}
		p.Cues = cues
		if p.Text != "" || len(p.Cues) > 0 {
			out = append(out, p)
		}
	}
	return out
}

// pointProblems reports what is wrong with the points or traps of field.
func pointProblems(field string, ps []Point, most int, add func(field, format string, args ...any)) {
	if len(ps) > most {
		add(field, "has %d, more than the limit of %d", len(ps), most)
	}
	for i, p := range ps {
		switch msg := checkLabel(p.Text, MaxPointLen); {
		case p.Text == "":
			add(field, "%d has cues but no text", i+1)
		case msg != "":
			add(field, "%d %s", i+1, msg)
		case strings.Contains(p.Text, strings.TrimSpace(cuesOpen)):
			add(field, "%d must not contain %q", i+1, strings.TrimSpace(cuesOpen))
		}
		if len(p.Cues) > MaxCues {
			add(field, "%d has %d cues, more than the limit of %d", i+1, len(p.Cues), MaxCues)
		}
		for _, c := range p.Cues {
			switch msg := checkLabel(c, MaxCueLen); {
			case msg != "":
				add(field, "%d: cue %q %s", i+1, c, msg)
			case strings.ContainsAny(c, ";[]"):
				add(field, "%d: cue %q must not contain ; [ or ]", i+1, c)
			case len(strings.Fields(c)) > maxCueWords:
				add(field, "%d: cue %q has more than %d words; a cue is a short phrase", i+1, c, maxCueWords)
			}
		}
	}
}

// formatPoints writes points one to a line, each with its cues, for a CSV
// cell: "Say why. [cues: ask her why; her reasons]".
func formatPoints(ps []Point) string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.Text
		if len(p.Cues) > 0 {
			lines[i] += cuesOpen + strings.Join(p.Cues, cueSeparator) + "]"
		}
	}
	return strings.Join(lines, "\n")
}

var cuedLine = regexp.MustCompile(`^(.*?)\s*\[cues:\s*(.*?)\s*\]\s*$`)

// parsePoints reads what formatPoints writes; a line without cues is a
// point without any.
func parsePoints(cell string) []Point {
	var ps []Point
	for _, line := range strings.Split(strings.ReplaceAll(cell, "\r\n", "\n"), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		p := Point{Text: line}
		if m := cuedLine.FindStringSubmatch(line); m != nil {
			p.Text = m[1]
			p.Cues = strings.Split(m[2], ";")
		}
		ps = append(ps, p)
	}
	return ps
}
