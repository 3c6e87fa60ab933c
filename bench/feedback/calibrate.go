package main

import (
	"bufio"
	"context"
	"embed"
	"fmt"
	"io/fs"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/whitecoat/whitecoat/internal/feedback"
)

// answerFiles holds one file per question: a header, then one section per
// labelled answer ("=== strong"), each with its own header, "---" and text.
//
//go:embed answers/*.txt
var answerFiles embed.FS

// Labels in rank order; the number is the label's rank for Spearman.
var labelRank = map[string]float64{"weak": 0, "adequate": 1, "strong": 2}

// Bands the targets ask for: strong answers at 80 or above, weak below 60.
var labelBand = map[string][2]int{"weak": {0, 59}, "adequate": {55, 84}, "strong": {80, 100}}

type answer struct {
	id       string // file name without extension, plus label
	question string
	split    string
	label    string
	note     string
	input    feedback.Input
}

type scored struct {
	answer
	fb feedback.Feedback
}

func loadAnswers() ([]answer, error) {
	paths, err := fs.Glob(answerFiles, "answers/*.txt")
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	sort.Strings(paths)
	var out []answer
	for _, p := range paths {
		raw, err := answerFiles.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
		as, err := parseQuestionFile(strings.TrimSuffix(strings.TrimPrefix(p, "answers/"), ".txt"), string(raw))
		if err != nil {
			return nil, fmt.Errorf("bench: %s: %w", p, err)
		}
		out = append(out, as...)
	}
	return out, nil
}

func parseQuestionFile(name, raw string) ([]answer, error) {
	sections := strings.Split(raw, "\n=== ")
	head := parseHeader(sections[0])
	base := feedback.Input{
		Profession: head["profession"],
		Question:   head["question"],
		Subtag:     head["subtag"],
		Big3:       head["big3"],
	}
	switch head["split"] {
	case "dev", "holdout", "fresh":
	default:
		return nil, fmt.Errorf("split must be dev, holdout or fresh, got %q", head["split"])
	}
	var out []answer
	for _, sec := range sections[1:] {
		label, rest, _ := strings.Cut(sec, "\n")
		label = strings.TrimSpace(label)
		if _, ok := labelRank[label]; !ok {
			return nil, fmt.Errorf("unknown label %q", label)
		}
		meta, transcript, ok := strings.Cut(rest, "\n---\n")
		if !ok {
			return nil, fmt.Errorf("%s: missing --- before the transcript", label)
		}
		h := parseHeader(meta)
		in := base
		in.Transcript = strings.TrimSpace(transcript)
		if d := h["duration"]; d != "" {
			secs, err := strconv.ParseFloat(d, 64)
			if err != nil {
				return nil, fmt.Errorf("%s: duration: %w", label, err)
			}
			in.Delivery = &feedback.Delivery{DurationSeconds: secs}
		}
		if h["note"] == "" {
			return nil, fmt.Errorf("%s: every answer needs a note saying why it has its label", label)
		}
		out = append(out, answer{id: name + "/" + label, question: name, split: head["split"], label: label, note: h["note"], input: in})
	}
	return out, nil
}

func parseHeader(s string) map[string]string {
	h := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(s))
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok {
			h[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return h
}

func scoreAll(ctx context.Context, eng feedback.Engine, as []answer) ([]scored, error) {
	out := make([]scored, 0, len(as))
	for _, a := range as {
		fb, err := eng.Score(ctx, a.input)
		if err != nil {
			return nil, fmt.Errorf("bench: %s: %w", a.id, err)
		}
		out = append(out, scored{answer: a, fb: fb})
	}
	return out, nil
}

// report is what the calibration targets are checked against.
type report struct {
	n          int
	spearman   float64
	meanByLbl  map[string]float64
	inversions []string // weak >= strong on the same question
}

func summarize(ss []scored) report {
	r := report{n: len(ss), meanByLbl: map[string]float64{}}
	scores := make([]float64, len(ss))
	labels := make([]float64, len(ss))
	counts := map[string]int{}
	for i, s := range ss {
		scores[i] = float64(s.fb.OverallScore)
		labels[i] = labelRank[s.label]
		r.meanByLbl[s.label] += scores[i]
		counts[s.label]++
	}
	for l, c := range counts {
		r.meanByLbl[l] /= float64(c)
	}
	r.spearman = spearman(scores, labels)
	byQuestion := map[string]map[string]int{}
	for _, s := range ss {
		if byQuestion[s.question] == nil {
			byQuestion[s.question] = map[string]int{}
		}
		byQuestion[s.question][s.label] = s.fb.OverallScore
	}
	qs := make([]string, 0, len(byQuestion))
	for q := range byQuestion {
		qs = append(qs, q)
	}
	sort.Strings(qs)
	for _, q := range qs {
		m := byQuestion[q]
		weak, hasWeak := m["weak"]
		strong, hasStrong := m["strong"]
		if hasWeak && hasStrong && weak >= strong {
			r.inversions = append(r.inversions, fmt.Sprintf("%s: weak %d >= strong %d", q, weak, strong))
		}
	}
	return r
}

// spearman is Pearson's correlation of the ranks, with tied values sharing
// their average rank (labels have only three values, so ties are the norm).
func spearman(x, y []float64) float64 {
	return pearson(ranks(x), ranks(y))
}

func ranks(v []float64) []float64 {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return v[idx[a]] < v[idx[b]] })
	r := make([]float64, len(v))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && v[idx[j+1]] == v[idx[i]] {
			j++
		}
		avg := float64(i+j)/2 + 1
		for k := i; k <= j; k++ {
			r[idx[k]] = avg
		}
		i = j + 1
	}
	return r
}

func pearson(x, y []float64) float64 {
	n := float64(len(x))
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx /= n
	my /= n
	var sxy, sxx, syy float64
	for i := range x {
		sxy += (x[i] - mx) * (y[i] - my)
		sxx += (x[i] - mx) * (x[i] - mx)
		syy += (y[i] - my) * (y[i] - my)
	}
	if sxx == 0 || syy == 0 {
		return 0
	}
	return sxy / math.Sqrt(sxx*syy)
}

// disagreement is how far a score falls outside its label's band.
func disagreement(s scored) int {
	b := labelBand[s.label]
	switch {
	case s.fb.OverallScore < b[0]:
		return b[0] - s.fb.OverallScore
	case s.fb.OverallScore > b[1]:
		return s.fb.OverallScore - b[1]
	}
	return 0
}
