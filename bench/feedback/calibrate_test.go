package main

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/whitecoat/whitecoat/internal/feedback"
)

// The calibration targets, checked on every test run so that a
// rubric change that breaks them fails CI rather than a later benchmark.
func TestCalibrationTargets(t *testing.T) {
	as, err := loadAnswers()
	if err != nil {
		t.Fatal(err)
	}
	if len(as) < 40 {
		t.Fatalf("%d labelled answers, want at least 40", len(as))
	}
	ss, err := scoreAll(context.Background(), feedback.NewRubric(), as)
	if err != nil {
		t.Fatal(err)
	}
	for _, split := range []string{"all", "holdout", "fresh"} {
		r := summarize(filterSplit(ss, split))
		if r.spearman < 0.8 {
			t.Errorf("%s: Spearman %.3f, want >= 0.8", split, r.spearman)
		}
		if r.meanByLbl["strong"] < 80 {
			t.Errorf("%s: mean strong %.1f, want >= 80", split, r.meanByLbl["strong"])
		}
		if r.meanByLbl["weak"] >= 60 {
			t.Errorf("%s: mean weak %.1f, want < 60", split, r.meanByLbl["weak"])
		}
		for _, inv := range r.inversions {
			t.Errorf("%s: %s", split, inv)
		}
	}
}

func TestSpearman(t *testing.T) {
	tests := []struct {
		x, y []float64
		want float64
	}{
		{[]float64{1, 2, 3, 4}, []float64{10, 20, 30, 40}, 1},
		{[]float64{1, 2, 3, 4}, []float64{4, 3, 2, 1}, -1},
		// Ties share their average rank: ranks x = 1.5 1.5 3 4, y = 1 2 3 4.
		{[]float64{5, 5, 7, 9}, []float64{1, 2, 3, 4}, 0.9486832980505138},
		{[]float64{1, 1, 1}, []float64{1, 2, 3}, 0},
	}
	for _, tt := range tests {
		if got := spearman(tt.x, tt.y); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("spearman(%v, %v) = %v, want %v", tt.x, tt.y, got, tt.want)
		}
	}
}

func TestParseQuestionFile(t *testing.T) {
	good := "question: Why?\nprofession: dental\nbig3: why-profession\nsplit: dev\n\n=== strong\nduration: 90\nnote: because\n---\nAn answer.\n"
	as, err := parseQuestionFile("q", good)
	if err != nil || len(as) != 1 || as[0].input.Delivery.DurationSeconds != 90 || as[0].input.Transcript != "An answer." {
		t.Fatalf("parse good file: %v %+v", err, as)
	}
	for name, bad := range map[string]string{
		"no split":      strings.Replace(good, "split: dev", "", 1),
		"unknown label": strings.Replace(good, "=== strong", "=== brilliant", 1),
		"no note":       strings.Replace(good, "note: because", "", 1),
		"no separator":  strings.Replace(good, "---\n", "", 1),
		"bad duration":  strings.Replace(good, "duration: 90", "duration: ninety", 1),
	} {
		if _, err := parseQuestionFile("q", bad); err == nil {
			t.Errorf("%s: parsed without error", name)
		}
	}
}
