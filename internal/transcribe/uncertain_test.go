package transcribe

import (
	"reflect"
	"testing"
)

func confident(word string, c float64) Word { return Word{Word: word, Confidence: &c} }

// The words under their kind's threshold are pointed at in the punctuated,
// capitalised transcript, whatever the text around them.
func TestUncertainPointsAtTheWordsInTheTranscript(t *testing.T) {
	text := "So, I want to protect the practice's patients."
	words := []Word{confident("so", 0.9), confident("i", 1), confident("want", 0.019), confident("to", 0.98),
		confident("protect", 0.001), confident("the", 0.6), confident("practice's", 0.015), confident("patients", 0.3)}
	got := Uncertain(text, words, ConfidenceLattice)
	var said []string
	for _, r := range got {
		said = append(said, text[r[0]:r[1]])
	}
	if want := []string{"want", "protect", "practice's"}; !reflect.DeepEqual(said, want) {
		t.Errorf("uncertain %q, want %q", said, want)
	}
	// A segment's confidence is shared by its words: only a segment the
	// engine doubted marks them.
	if got := Uncertain(text, words, ConfidenceSegment); len(got) != 4 {
		t.Errorf("segment confidence: %d words marked, want the 4 under 0.4", len(got))
	}
	unmeasured := make([]Word, len(words))
	for i, w := range words {
		unmeasured[i] = Word{Word: w.Word}
	}
	for name, tc := range map[string]struct {
		words []Word
		kind  string
	}{
		"no measure":                  {words, ConfidenceNone},
		"no words":                    {nil, ConfidenceLattice},
		"words that are not the text": {words[:5], ConfidenceLattice},
		"null confidences":            {unmeasured, ConfidenceWord},
	} {
		if got := Uncertain(text, tc.words, tc.kind); got != nil {
			t.Errorf("%s: marked %v", name, got)
		}
	}
}
