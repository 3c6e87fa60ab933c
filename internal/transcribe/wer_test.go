package transcribe

import (
	"strings"
	"testing"
)

func TestWordErrors(t *testing.T) {
	for _, tc := range []struct {
		ref, hyp string
		want     int
	}{
		{"i want to help", "i want to help", 0},
		{"i want to help", "i want help", 1},           // deletion
		{"i want to help", "i really want to help", 1}, // insertion
		{"i want to help", "i want to yelp", 1},        // substitution
		{"i want to help", "", 4},
		{"", "um uh", 2},
	} {
		if got := WordErrors(strings.Fields(tc.ref), strings.Fields(tc.hyp)); got != tc.want {
			t.Errorf("WordErrors(%q, %q) = %d, want %d", tc.ref, tc.hyp, got, tc.want)
		}
	}
}

func TestCountWordErrorsIgnoresCaseAndPunctuation(t *testing.T) {
	errs, words := CountWordErrors("I'd like to help, Dr. Patel.", "i'd like to help doctor patel")
	if errs != 1 || words != 6 {
		t.Fatalf("got %d errors in %d words, want 1 in 6", errs, words)
	}
}
