package rubric

import (
	"strings"
	"testing"

	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/feedback/feedbacktest"
)

// A typed answer is judged on what it says and how long it is in words:
// nothing about speaking time, pace, pauses or fillers, which it cannot have.
func TestWrittenAnswersAreNotJudgedAsSpeech(t *testing.T) {
	in := feedbacktest.StarInput(strings.ReplaceAll(feedbacktest.StarAnswer, "um, ", ""))
	in.Delivery, in.Written = nil, true
	fb := score(t, in)
	for _, ev := range fb.Evidence {
		if ev.Section != feedback.SectionOverallImpression {
			continue
		}
		if ev.Level > 0 { // a feedback.Criterion's level: delivery stands in as length
			if ev.Criterion == "Delivery" {
				t.Errorf("a written answer's delivery was judged: %+v", ev)
			}
			continue
		}
		if ev.Criterion != "length" {
			t.Errorf("a written answer was judged on %s: %+v", ev.Criterion, ev)
		}
		if strings.Contains(ev.Note, " s ") || !strings.Contains(ev.Note, "words written") {
			t.Errorf("length of a written answer told as %q", ev.Note)
		}
	}
	for _, s := range fb.Suggestions {
		if strings.Contains(s, "second") || strings.Contains(s, "pace") || strings.Contains(s, "Pause") {
			t.Errorf("a written answer was told how to speak: %q", s)
		}
	}

	short := feedbacktest.StarInput("I would ask the patient what scared him and let him hold the suction.")
	short.Delivery, short.Written = nil, true
	fb = score(t, short)
	if !strings.Contains(strings.Join(fb.Suggestions, " "), "Write more:") {
		t.Errorf("a one-line written answer got %q", fb.Suggestions)
	}

	// The same words spoken are timed as speech.
	spoken := feedbacktest.StarInput(feedbacktest.StarAnswer)
	if fb := score(t, spoken); !strings.Contains(fb.Evidence[len(fb.Evidence)-1].Note+evidenceNotes(fb), "target 60-120 s") {
		t.Errorf("a spoken answer's length: %s", evidenceNotes(fb))
	}
}

func evidenceNotes(fb feedback.Feedback) string {
	var notes []string
	for _, ev := range fb.Evidence {
		notes = append(notes, ev.Note)
	}
	return strings.Join(notes, "; ")
}

// An answer is judged against the time its format gives: five minutes is
// too long for a 3-minute question and right for a 7-minute MMI station.
func TestLengthFollowsTheFormatsTime(t *testing.T) {
	long := feedbacktest.StarInput(feedbacktest.StarAnswer)
	long.Delivery = &feedback.Delivery{DurationSeconds: 300, WordsPerMinute: 150}
	fb := score(t, long)
	if notes := evidenceNotes(fb); !strings.Contains(notes, "300 s (target 60-120 s)") {
		t.Errorf("at the spec's limit: %s", notes)
	}
	if !strings.Contains(strings.Join(fb.Suggestions, " "), "Tighten to under 120 s") {
		t.Errorf("a 5-minute answer to a 3-minute question was not told to tighten: %q", fb.Suggestions)
	}

	long.LimitSeconds = 420
	station := score(t, long)
	if notes := evidenceNotes(station); !strings.Contains(notes, "300 s (target 140-280 s)") {
		t.Errorf("at an MMI station: %s", notes)
	}
	if strings.Contains(strings.Join(station.Suggestions, " "), "Tighten") {
		t.Errorf("a 5-minute answer at a 7-minute station was told to tighten: %q", station.Suggestions)
	}
	if station.SectionScores.OverallImpression <= fb.SectionScores.OverallImpression {
		t.Errorf("the station's delivery (%d) should beat the overlong answer's (%d)", station.SectionScores.OverallImpression, fb.SectionScores.OverallImpression)
	}
}
