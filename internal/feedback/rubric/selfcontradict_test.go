package rubric

import (
	"strings"
	"testing"

	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/feedback/feedbacktest"
)

// Issue 39 item 6: the delivery evidence does not contradict itself. A
// pace shown as "170 words per minute (target 130-170)" is met (the
// target is inclusive of what is shown); one filler is "1 filler"
// (TestFillersComeOnlyFromHesitationsHeardInTheAudio).
func TestTheDeliveryEvidenceAgreesWithItsOwnWords(t *testing.T) {
	for _, wpm := range []float64{170, 170.4, 129.6} {
		in := feedback.Input{Profession: "dental", Question: "Tell me about a time you helped a frightened patient.", Subtag: "Behavioral",
			Transcript: feedbacktest.StarAnswer, Delivery: &feedback.Delivery{DurationSeconds: 90, WordsPerMinute: wpm, FillerCount: 1, FillersPer100Words: 0.4}}
		for _, e := range score(t, in).Evidence {
			switch e.Criterion {
			case "pace":
				if !e.Met {
					t.Errorf("%v wpm: %q shown as not met", wpm, e.Note)
				}
			}
		}
	}
}

// Issue 39 item 4: an engine that drops hesitations (fillers estimated
// from its words) gives no fillers figure — "Not measured" — however many
// "like"s its words hold, and nothing is quoted as a filler; a measured
// count is the count, not raised by the words.
func TestFillersComeOnlyFromHesitationsHeardInTheAudio(t *testing.T) {
	in := feedback.Input{Profession: "dental", Question: whyDentist, Transcript: "So, like, I want to be a dentist because, like, you know, I like helping people, um, and I shadowed a dentist who, like, calmed a frightened child.",
		Delivery: &feedback.Delivery{DurationSeconds: 60, WordsPerMinute: 150, FillersEstimated: true}}
	for _, e := range score(t, in).Evidence {
		if e.Criterion == "fillers" && (e.Unjudged != feedback.UnjudgedNotMeasured || e.Quote != "") {
			t.Errorf("estimated fillers judged: %+v", e)
		}
	}
	// An engine that writes hesitations: the "um" it heard is one filler,
	// but not when it may have misheard it; the "like"s and "you know"
	// that may have been misheard are not counted either.
	in.Transcript = "So I want to be a dentist because I enjoy helping people, um, and I shadowed a dentist who calmed a frightened child."
	in.Delivery = &feedback.Delivery{DurationSeconds: 60, WordsPerMinute: 150, FillerCount: 1, FillersPer100Words: 4}
	for _, e := range score(t, in).Evidence {
		if e.Criterion == "fillers" && !strings.HasPrefix(e.Note, "1 filler,") {
			t.Errorf("heard 1 filler, noted %q", e.Note)
		}
	}
	in.Transcript = "So, like, I want to be a dentist because, you know, I enjoy helping people and I shadowed a dentist who calmed a frightened child."
	in.Delivery = &feedback.Delivery{DurationSeconds: 60, WordsPerMinute: 150}
	for _, w := range []string{"like", "you know"} {
		at := strings.Index(in.Transcript, w)
		in.Uncertain = append(in.Uncertain, [2]int{at, at + len(w)})
	}
	for _, e := range score(t, in).Evidence {
		if e.Criterion == "fillers" && !strings.HasPrefix(e.Note, "0 fillers,") {
			t.Errorf("fillers counted from words that may be misheard: %q", e.Note)
		}
	}
}
