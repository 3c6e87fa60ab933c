package transcribe

import (
	"math"
	"slices"
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

// The words judged misheard are the substitutions and insertions of the
// alignment the word errors are counted on.
func TestJudgeWords(t *testing.T) {
	c := func(p float64) *float64 { return &p }
	words := []Word{{Word: "to", Confidence: c(0.9)}, {Word: "project", Confidence: c(0.2)}, {Word: "the", Confidence: c(0.8)},
		{Word: "the"}, {Word: "Practice.", Confidence: c(0.7)}}
	got := JudgeWords("To protect the practice, always.", words)
	var misheard []string
	for _, w := range got {
		if w.Misheard {
			misheard = append(misheard, w.Word)
		}
	}
	if want := []string{"project", "the"}; !slices.Equal(misheard, want) || len(got) != 5 || got[4].Word != "practice" || *got[4].Confidence != 0.7 {
		t.Errorf("misheard %q in %+v, want %q", misheard, got, want)
	}
	if errs, _ := CountWordErrors("To protect the practice, always.", "to project the the practice"); errs != 3 {
		t.Errorf("%d word errors, want 3: one substitution, one insertion, one deletion", errs)
	}
}

func TestConfidenceAUROC(t *testing.T) {
	c := func(p float64) *float64 { return &p }
	word := func(conf *float64, misheard bool) HeardWord { return HeardWord{Confidence: conf, Misheard: misheard} }
	for _, tc := range []struct {
		name  string
		words []HeardWord
		want  float64
		ok    bool
	}{
		{"misheard words lowest", []HeardWord{word(c(0.1), true), word(c(0.2), true), word(c(0.8), false), word(c(0.9), false)}, 1, true},
		{"misheard words highest", []HeardWord{word(c(0.9), true), word(c(0.1), false), word(c(0.2), false)}, 0, true},
		// 0.5 is below 0.6 and 0.9, level with 0.5; 0.7 is below 0.9 only.
		{"ties count half", []HeardWord{word(c(0.5), true), word(c(0.7), true), word(c(0.5), false), word(c(0.6), false), word(c(0.9), false)},
			(2.5 + 1) / 6, true},
		{"words without confidence left out", []HeardWord{word(nil, true), word(c(0.2), true), word(c(0.4), false), word(nil, false)}, 1, true},
		{"no misheard word", []HeardWord{word(c(0.2), false)}, 0, false},
	} {
		got, ok := ConfidenceAUROC(tc.words)
		if ok != tc.ok || math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: AUROC %v (ok %v), want %v (ok %v)", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}
