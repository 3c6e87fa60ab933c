package main

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/feedback/rubric"
)

// Calibration floors, checked on every test run so that a rubric change
// that makes the scores agree less with the interviewers fails CI rather
// than a later benchmark. Issue #13 asks for more than the rubric reaches —
// Spearman 0.9 on the second set and 0.85 on its never-tuned split, every
// red flag below 60, every concise strong answer at 75 or more, the first
// set not below its earlier 0.941 — so these floors sit just under what the
// rubric measured when it was frozen (see bench/feedback/README.md), and
// the targets are reported by the benchmark, not asserted here.
func TestCalibrationTargets(t *testing.T) {
	as, err := loadAnswers()
	if err != nil {
		t.Fatal(err)
	}
	ss, err := scoreAll(context.Background(), rubric.New(), as)
	if err != nil {
		t.Fatal(err)
	}
	heard, err := scoreAll(context.Background(), rubric.New(), transcribed(as))
	if err != nil {
		t.Fatal(err)
	}
	if n := len((group{"v2", "all"}).pick(ss)); n < 60 {
		t.Errorf("%d answers in the second set, want at least 60", n)
	}
	floors := []struct {
		g           group
		minSpearman float64
	}{
		{group{"v1", "all"}, 0.92},     // measured 0.932 (issue 29)
		{group{"v1", "holdout"}, 0.89}, // 0.904
		{group{"v1", "fresh"}, 0.94},   // 0.948
		{group{"v2", "dev"}, 0.81},     // 0.820
		{group{"v2", "fresh"}, 0.42},   // 0.434: v2d, never tuned on, at the freeze 8cd8f10 (0.427 at d11e889)
	}
	for _, tt := range floors {
		picked := tt.g.pick(ss)
		if len(picked) == 0 {
			t.Errorf("%s/%s: no answers", tt.g.set, tt.g.split)
			continue
		}
		r, h := summarize(picked), summarize(tt.g.pick(heard))
		if r.spearman < tt.minSpearman {
			t.Errorf("%s/%s: Spearman %.3f, want >= %.2f", tt.g.set, tt.g.split, r.spearman, tt.minSpearman)
		}
		// Issue #13: the engine judges transcripts as a speech engine
		// writes them nearly as well as clean text.
		if h.spearman < r.spearman-0.05 {
			t.Errorf("%s/%s: Spearman as transcribed %.3f, more than 0.05 below clean text's %.3f", tt.g.set, tt.g.split, h.spearman, r.spearman)
		}
	}
	for _, g := range []struct {
		group
		minStrong float64
	}{{group{"v1", "all"}, 85}, {group{"v2", "dev"}, 78}} { // 88.7 and 80.0
		r := summarize(g.pick(ss))
		if r.meanByLbl["strong"] < g.minStrong {
			t.Errorf("%s/%s: mean strong %.1f, want >= %.0f", g.set, g.split, r.meanByLbl["strong"], g.minStrong)
		}
		if r.meanByLbl["weak"] >= 60 {
			t.Errorf("%s/%s: mean weak %.1f, want < 60", g.set, g.split, r.meanByLbl["weak"])
		}
	}
	for _, inv := range summarize((group{"v1", "all"}).pick(ss)).inversions {
		t.Errorf("v1: %s", inv)
	}
	dev := (group{"v2", "dev"}).pick(ss)
	for _, c := range []struct {
		category string
		minShare float64
	}{
		{catRedFlag, 0.9}, // 39 of 42 below 60 with a flag raised
		// 11 of 26: delivery with an unmet length check stays at level 4
		// (issue 29), which costs short answers 2-3 points.
		{catConcise, 0.4},
		{catKeywordStuff, 1},   // 5 of 5
		{catNegatedFlag, 0.65}, // 10 of 15
		{catSignpostList, 1},   // 8 of 8 (issue 29)
		{catVague, 1},          // 8 of 8, none flagged
		{catFalsified, 1},      // 8 of 8, each with a flag
	} {
		r := byCategory(dev, "v2", c.category)
		if r.n == 0 || float64(r.onTarget) < c.minShare*float64(r.n) {
			t.Errorf("v2/dev %s: %d of %d on target, want at least %.0f%%", c.category, r.onTarget, r.n, 100*c.minShare)
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
	good := "question: Why?\nprofession: dental\nbig3: why-profession\nsplit: dev\n\n=== strong\nduration: 90\nnote: because\n---\nAn answer.\n" +
		"\n=== weak\ncategory: red-flag\nflag: money-motive\nnote: pay\n---\nIt pays well.\n"
	as, err := parseQuestionFile("q", good)
	if err != nil || len(as) != 2 || as[0].input.Delivery.DurationSeconds != 90 || as[0].input.Transcript != "An answer." ||
		as[0].category != catStandard || as[1].category != catRedFlag || as[1].flag != feedback.FlagMoneyMotive {
		t.Fatalf("parse good file: %v %+v", err, as)
	}
	for name, bad := range map[string]string{
		"no split":      strings.Replace(good, "split: dev", "", 1),
		"unknown label": strings.Replace(good, "=== strong", "=== brilliant", 1),
		"no note":       strings.Replace(good, "note: because", "", 1),
		"no separator":  strings.Replace(good, "---\n", "", 1),
		"bad duration":  strings.Replace(good, "duration: 90", "duration: ninety", 1),
		"bad category":  strings.Replace(good, "category: red-flag", "category: sneaky", 1),
		"unknown flag":  strings.Replace(good, "flag: money-motive", "flag: greed", 1),
		"flag missing":  strings.Replace(good, "flag: money-motive\n", "", 1),
	} {
		if _, err := parseQuestionFile("q", bad); err == nil {
			t.Errorf("%s: parsed without error", name)
		}
	}
}

// Holdout and fresh answers are the never-tuned estimate: a report shows
// them only in aggregate unless it is unsealed, so that whoever tunes the
// rubric does not read them one by one in the inversions or the worst list.
func TestReportShowsOnlyDevAnswersOneByOne(t *testing.T) {
	answerOf := func(id, split, label string, score int) scored {
		return scored{answer: answer{id: id, set: "v2", question: "v2/" + split, split: split, label: label, category: catStandard, note: "n"},
			fb: feedback.Feedback{OverallScore: score, Summary: "s"}}
	}
	ss := []scored{
		answerOf("v2/dev-q/strong", "dev", "strong", 40), answerOf("v2/dev-q/weak", "dev", "weak", 90),
		answerOf("v2/fresh-q/strong", "fresh", "strong", 40), answerOf("v2/fresh-q/weak", "fresh", "weak", 90),
	}
	for _, unseal := range []bool{false, true} {
		var out strings.Builder
		if err := printReport(context.Background(), &out, nil, ss, ss, reportOptions{worst: 8, all: true, unseal: unseal}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), "v2/dev-q/weak") {
			t.Errorf("unseal %v: a dev answer is not shown:\n%s", unseal, out.String())
		}
		if shown := strings.Contains(out.String(), "fresh-q"); shown != unseal {
			t.Errorf("unseal %v: fresh answers shown one by one: %v, want %v:\n%s", unseal, shown, unseal, out.String())
		}
	}
}
