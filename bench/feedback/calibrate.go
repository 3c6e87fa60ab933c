package main

import (
	"bufio"
	"context"
	"embed"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"unicode"

	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/question"
)

// answerFiles holds one file per question: a header, then one section per
// labelled answer ("=== strong"), each with its own header, "---" and text.
// answers/ is the first calibration set; calibration-v2/ the second, written
// for issue #13 with adversarial answers, each with a category (and, for
// red flags, the flag an interviewer would raise).
//
//go:embed answers/*.txt calibration-v2/*.txt bank-v3/*.txt bank-v4/*.txt bank-v5/*.txt
var answerFiles embed.FS

// The sets, by directory: v1, v2 (issue 13 and 29), and answers to the
// bank's own questions, v3 to v5 (issue 40).
var answerSets = []struct{ name, dir string }{{"v1", "answers"}, {"v2", "calibration-v2"}, {"v3", "bank-v3"}, {"v4", "bank-v4"}, {"v5", "bank-v5"}}

// Labels in rank order; the number is the label's rank for Spearman.
var labelRank = map[string]float64{"weak": 0, "adequate": 1, "strong": 2}

// Bands the targets ask for: strong answers at 80 or above, weak below 60.
var labelBand = map[string][2]int{"weak": {0, 59}, "adequate": {55, 84}, "strong": {80, 100}}

// Categories of answers in the second set. The adversarial ones are what
// a keyword rubric gets wrong: fluent answers with a red flag, concise
// strong ones, answers to another question, strings of the right terms,
// and red flags mentioned only to be rejected or reported of someone else;
// and, from issue 29, signposts framing fragments where the substance
// should be, vague answers to the question asked (weak, not disqualifying),
// and records falsified, back-dated or miscoded.
const (
	catStandard     = "standard"
	catRedFlag      = "red-flag"
	catConcise      = "concise-strong"
	catOffQuestion  = "off-question"
	catKeywordStuff = "keyword-stuffed"
	catNegatedFlag  = "negated-red-flag"
	catSignpostList = "signpost-list"
	catVague        = "vague-on-topic"
	catFalsified    = "falsified-record"
	// catTrap (issue 40): a polished answer to a bank question that takes
	// the course the question is there to test (overriding a refusal,
	// covering up, blaming the teammate), in its writer's words (trap:).
	catTrap          = "question-trap"
	conciseStrongMin = 75
	redFlagMax       = 59
)

var categories = []string{catStandard, catRedFlag, catConcise, catOffQuestion, catKeywordStuff, catNegatedFlag, catSignpostList, catVague, catFalsified, catTrap}

// flagsItsLabel reports whether answers of the category raise their labelled flag.
func flagsItsLabel(category string) bool { return category == catRedFlag || category == catFalsified }

type answer struct {
	id       string // set, file name without extension, and label
	set      string
	question string
	split    string
	label    string
	category string
	flag     feedback.FlagKey // the red flag a red-flag answer raises, or a negated one mentions
	note     string
	input    feedback.Input
}

type scored struct {
	answer
	fb feedback.Feedback
}

func loadAnswers() ([]answer, error) {
	var out []answer
	for _, set := range answerSets {
		paths, err := fs.Glob(answerFiles, set.dir+"/*.txt")
		if err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
		sort.Strings(paths)
		for _, p := range paths {
			raw, err := answerFiles.ReadFile(p)
			if err != nil {
				return nil, fmt.Errorf("bench: %w", err)
			}
			as, err := parseQuestionFile(set.name+"/"+strings.TrimSuffix(path.Base(p), ".txt"), string(raw))
			if err != nil {
				return nil, fmt.Errorf("bench: %s: %w", p, err)
			}
			for i := range as {
				as[i].set = set.name
			}
			out = append(out, as...)
		}
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
	if key := head["bank"]; key != "" {
		// An answer to a question of the bank is judged as the product
		// judges it: the question as the student saw it, with its points
		// and traps.
		q, err := bankQuestion(key)
		if err != nil {
			return nil, err
		}
		base = feedback.Input{
			Profession: q.MainTags[0],
			Question:   strings.TrimSpace(q.Scenario + " " + q.Text),
			Subtag:     string(q.Subtag),
			Big3:       feedback.Big3ByOrder(q.Big3Order),
			Points:     q.Points,
			Traps:      q.Traps,
		}
	}
	switch head["split"] {
	case "dev", "holdout", "fresh":
	default:
		return nil, fmt.Errorf("split must be dev, holdout or fresh, got %q", head["split"])
	}
	var out []answer
	seen := map[string]int{}
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
			if secs > 0 {
				in.Delivery = &feedback.Delivery{DurationSeconds: secs}
			}
		}
		if h["note"] == "" {
			return nil, fmt.Errorf("%s: every answer needs a note saying why it has its label", label)
		}
		a := answer{question: name, split: head["split"], label: label, category: catStandard, note: h["note"], input: in}
		if c := h["category"]; c != "" {
			a.category = c
		}
		if !slices.Contains(categories, a.category) {
			return nil, fmt.Errorf("%s: unknown category %q", label, a.category)
		}
		if (a.category == catTrap) != (h["trap"] != "") || a.category == catTrap && label != "weak" {
			return nil, fmt.Errorf("%s: a question-trap answer, and only one, names its trap (trap:), and is weak", label)
		}
		a.flag = feedback.FlagKey(h["flag"])
		if (flagsItsLabel(a.category) || a.category == catNegatedFlag) != (a.flag != "") || a.flag != "" && !slices.Contains(feedback.FlagKeys, a.flag) {
			return nil, fmt.Errorf("%s: category %s with flag %q: red-flag and negated-red-flag answers name one known flag, others none", label, a.category, a.flag)
		}
		seen[label]++
		a.id = name + "/" + label
		if seen[label] > 1 {
			a.id = fmt.Sprintf("%s/%s-%d", name, label, seen[label])
		}
		out = append(out, a)
	}
	return out, nil
}

// bankBySeedKey is the built-in bank by seed key, decoded once for every
// answer file that names one of its questions.
var bankBySeedKey = sync.OnceValues(func() (map[string]question.Question, error) {
	bank, err := question.Bank()
	if err != nil {
		return nil, err
	}
	byKey := make(map[string]question.Question, len(bank))
	for _, q := range bank {
		byKey[q.SeedKey] = q
	}
	return byKey, nil
})

// bankQuestion is the built-in bank's question with seed key key.
func bankQuestion(key string) (question.Question, error) {
	bank, err := bankBySeedKey()
	if err != nil {
		return question.Question{}, err
	}
	q, ok := bank[key]
	if !ok {
		return question.Question{}, fmt.Errorf("no bank question %q", key)
	}
	return q, nil
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

// transcribed is the answers as a speech engine without punctuation
// writes them: lower case, no punctuation but apostrophes.
func transcribed(as []answer) []answer {
	out := slices.Clone(as)
	for i := range out {
		out[i].input.Transcript = asTranscribed(out[i].input.Transcript)
	}
	return out
}

func asTranscribed(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '’' {
			b.WriteRune(r)
		} else {
			b.WriteRune(' ')
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// group is a set and one of its splits ("all" for every split).
type group struct{ set, split string }

func (g group) pick(ss []scored) []scored {
	var out []scored
	for _, s := range ss {
		if (g.set == "all" || s.set == g.set) && (g.split == "all" || s.split == g.split) {
			out = append(out, s)
		}
	}
	return out
}

// groups are every set with its splits, in a stable order, then both sets.
func groups(ss []scored) []group {
	var out []group
	for _, set := range answerSets {
		out = append(out, group{set.name, "all"})
		for _, split := range []string{"dev", "holdout", "fresh"} {
			if len((group{set.name, split}).pick(ss)) > 0 {
				out = append(out, group{set.name, split})
			}
		}
	}
	return append(out, group{"all", "all"})
}

// categoryReport is how one category of answers fared against its target.
type categoryReport struct {
	n, min, max, onTarget int
	mean                  float64
	flagged               string // "3/4": the labelled flag raised (red flags) or not raised (negated ones)
}

func byCategory(ss []scored, set, cat string) categoryReport {
	r := categoryReport{min: 101, max: -1}
	flagged, withFlag := 0, 0
	for _, s := range ss {
		if s.set != set || s.category != cat {
			continue
		}
		score := s.fb.OverallScore
		r.n++
		r.mean += float64(score)
		r.min, r.max = min(r.min, score), max(r.max, score)
		if onTarget(s) {
			r.onTarget++
		}
		if s.flag != "" {
			withFlag++
			if raised(s) == flagsItsLabel(cat) {
				flagged++
			}
		}
	}
	if r.n > 0 {
		r.mean /= float64(r.n)
	}
	r.flagged = "—"
	if withFlag > 0 {
		r.flagged = fmt.Sprintf("%d/%d", flagged, withFlag)
	}
	return r
}

// raised reports whether the answer's labelled flag was raised.
func raised(s scored) bool {
	for _, f := range s.fb.RedFlags {
		if f.Key == s.flag {
			return true
		}
	}
	return false
}

// onTarget applies the category's target.
func onTarget(s scored) bool {
	score := s.fb.OverallScore
	switch s.category {
	case catRedFlag, catFalsified:
		return score <= redFlagMax && len(s.fb.RedFlags) > 0
	case catConcise:
		return score >= conciseStrongMin
	case catOffQuestion, catKeywordStuff, catSignpostList, catTrap:
		return score <= redFlagMax
	case catVague:
		return len(s.fb.RedFlags) == 0 && disagreement(s) == 0
	case catNegatedFlag:
		return !raised(s) && disagreement(s) == 0
	}
	return disagreement(s) == 0
}

// Issue 40's protocol for the answers to the bank's own questions (v3):
// agreement measured in folds that split the answers by question, so that
// a fold's figure is that of questions whose answers the other folds'
// tuning never saw, and an interval from resampling whole questions.
const (
	questionFolds    = 4
	bootstrapSamples = 2000
	// The targets issue 40 sets (a trap answer's is redFlagMax's, and
	// its concise strong answers' floor is lower than issue 13's).
	foldSpearmanMin  = 0.80
	conciseScoreMin  = 70
	neverTunedMinRho = 0.60
)

// questionsOf groups ss by question, the questions in name order.
func questionsOf(ss []scored) (names []string, byQuestion map[string][]scored) {
	byQuestion = map[string][]scored{}
	for _, s := range ss {
		if byQuestion[s.question] == nil {
			names = append(names, s.question)
		}
		byQuestion[s.question] = append(byQuestion[s.question], s)
	}
	sort.Strings(names)
	return names, byQuestion
}

// foldsByQuestion deals the questions of ss, in name order, into k folds.
func foldsByQuestion(ss []scored, k int) [][]scored {
	names, byQuestion := questionsOf(ss)
	folds := make([][]scored, k)
	for i, name := range names {
		folds[i%k] = append(folds[i%k], byQuestion[name]...)
	}
	return folds
}

// spearmanInterval is the 2.5th and 97.5th percentiles of Spearman over
// samples of ss's questions drawn with replacement (a fixed seed: the
// same answers give the same interval).
func spearmanInterval(ss []scored) (lo, hi float64) {
	names, byQuestion := questionsOf(ss)
	rng := rand.New(rand.NewPCG(40, 40))
	rhos := make([]float64, 0, bootstrapSamples)
	for range bootstrapSamples {
		var sample []scored
		for range names {
			sample = append(sample, byQuestion[names[rng.IntN(len(names))]]...)
		}
		rhos = append(rhos, summarize(sample).spearman)
	}
	slices.Sort(rhos)
	return rhos[bootstrapSamples*25/1000], rhos[bootstrapSamples*975/1000-1]
}

// printBankAnswers reports issue 40's figures for ss, answers to the
// bank's questions: per fold when the rubric may be tuned on them (v3: on
// three folds, judged on the fourth), overall with its interval, and the
// traps and concise strong answers against their targets.
func printBankAnswers(out io.Writer, title string, ss []scored, folds bool) error {
	if len(ss) == 0 {
		return nil
	}
	fmt.Fprintf(out, "\n%s, judged with each question's points and traps\n", title)
	tw := tabwriter.NewWriter(out, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "measure\tfigure\ttarget\tmet")
	if folds {
		var sum float64
		for i, f := range foldsByQuestion(ss, questionFolds) {
			r := summarize(f)
			sum += r.spearman
			fmt.Fprintf(tw, "Spearman, fold %d (%d answers)\t%.3f\t\t\n", i+1, r.n, r.spearman)
		}
		mean := sum / questionFolds
		fmt.Fprintf(tw, "Spearman, mean of the folds\t%.3f\t>= %.2f\t%v\n", mean, foldSpearmanMin, mean >= foldSpearmanMin)
	}
	lo, hi := spearmanInterval(ss)
	all := summarize(ss)
	target, met := "", ""
	if !folds {
		target, met = fmt.Sprintf(">= %.2f never tuned", neverTunedMinRho), fmt.Sprint(all.spearman >= neverTunedMinRho)
	}
	fmt.Fprintf(tw, "Spearman, all (95%% interval over questions)\t%.3f (%.3f to %.3f)\t%s\t%s\n", all.spearman, lo, hi, target, met)
	// What the points alone rank: the share of its question's points an
	// answer makes, against the labels.
	made, labels := make([]float64, len(ss)), make([]float64, len(ss))
	for i, s := range ss {
		var points, madeHere float64
		for _, e := range s.fb.Evidence {
			if e.Point {
				points++
				if e.Met {
					madeHere++
				}
			}
		}
		if points > 0 {
			made[i] = madeHere / points
		}
		labels[i] = labelRank[s.label]
	}
	fmt.Fprintf(tw, "Spearman of the share of the question's points made, alone\t%.3f\t\t\n", spearman(made, labels))
	traps, trapsHigh, concise, conciseLow := 0, []string{}, 0, []string{}
	for _, s := range ss {
		switch s.category {
		case catTrap:
			traps++
			if s.fb.OverallScore > redFlagMax {
				trapsHigh = append(trapsHigh, strconv.Itoa(s.fb.OverallScore))
			}
		case catConcise:
			concise++
			if s.fb.OverallScore < conciseScoreMin {
				conciseLow = append(conciseLow, strconv.Itoa(s.fb.OverallScore))
			}
		}
	}
	fmt.Fprintf(tw, "answers walking into their question's trap at %d or more\t%d of %d %v\t0\t%v\n", redFlagMax+1, len(trapsHigh), traps, trapsHigh, len(trapsHigh) == 0)
	fmt.Fprintf(tw, "concise strong answers below %d\t%d of %d %v\t0\t%v\n", conciseScoreMin, len(conciseLow), concise, conciseLow, len(conciseLow) == 0)
	fmt.Fprintf(tw, "mean strong / adequate / weak\t%.1f / %.1f / %.1f\t\t\n", all.meanByLbl["strong"], all.meanByLbl["adequate"], all.meanByLbl["weak"])
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	return nil
}
