package rubric

import (
	"strconv"
	"strings"
	"testing"

	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/feedback/feedbacktest"
)

// Issue 29: texts that agree with their own checks.

// A criterion's words agree with its own checks, and advice fits the
// format.
func TestTextsAgreeWithTheirChecks(t *testing.T) {
	in := feedbacktest.StarInput(feedbacktest.StarAnswer)
	in.Delivery = &feedback.Delivery{DurationSeconds: 36, WordsPerMinute: 194}
	fb := score(t, in)
	if d := evidenceNamed(fb, "Delivery"); strings.Contains(d.Anchor, "comfortable length and pace") {
		t.Errorf("delivery %d/7 %q beside unmet length and pace checks: %s", d.Level, d.Anchor, evidenceNotes(fb))
	}

	short := whyDentistry(vagueWhyDentistry)
	short.LimitSeconds, short.Delivery = 12, &feedback.Delivery{DurationSeconds: 11, WordsPerMinute: 150}
	for _, s := range score(t, short).Suggestions {
		if strings.Contains(s, "Aim for 4-8 s") || strings.Contains(s, "4-8 s") {
			t.Errorf("length advice the 12 s format leaves no room for: %q", s)
		}
	}
}

func TestQuotesKeepTheSpeakersCapitals(t *testing.T) {
	in := feedbacktest.StarInput("I Would Just say that at the end of the day, I think teamwork is important and I learned a lot. " + feedbacktest.StarAnswer)
	for _, s := range score(t, in).Suggestions {
		if i := strings.Index(s, "“"); i >= 0 {
			quoted := s[i+len("“"):]
			quoted = quoted[:strings.Index(quoted, "”")]
			if !strings.Contains(in.Transcript, strings.TrimPrefix(quoted, "…")) {
				t.Errorf("suggestion quotes %q, which the speaker did not say in those words: %q", quoted, s)
			}
		}
	}
}

// Spoken hedges count as fillers, and an engine that cannot hear "um" and
// "uh" does not report none of them.
func TestFillersSayWhatCanBeHeard(t *testing.T) {
	in := whyDentistry(vagueWhyDentistry)
	fillers := observation(score(t, in), "fillers")
	if n, err := strconv.Atoi(strings.Fields(fillers.Note + " x")[0]); err != nil || n < 3 {
		t.Errorf("“I guess”, “kind of” twice and “and stuff” counted as %q", fillers.Note)
	}
	in = whyDentistry(doneWhyDentistry)
	in.Delivery.FillersEstimated = true
	fillers = observation(score(t, in), "fillers")
	if fillers.Met || fillers.Unjudged != feedback.UnjudgedNotMeasured || !strings.HasPrefix(fillers.Note, "Not measured") {
		t.Errorf("fillers from an engine that drops them: met %v, %q", fillers.Met, fillers.Note)
	}
}

func observation(fb feedback.Feedback, criterion string) feedback.Evidence {
	for _, e := range fb.Evidence {
		if e.Criterion == criterion && e.Level == 0 {
			return e
		}
	}
	return feedback.Evidence{}
}
