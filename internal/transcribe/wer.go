package transcribe

import "slices"

// WordErrors is the word-level edit distance between a reference and a
// hypothesis (substitutions, insertions and deletions): the numerator of
// the word error rate. Callers tokenise both sides the same way first.
func WordErrors(ref, hyp []string) int {
	errors, _ := align(ref, hyp)
	return errors
}

// align finds an alignment of hyp to ref with the fewest word errors and,
// of those, the most words matched, and returns the number of errors and,
// for each word of hyp, whether it was heard right: aligned to the same
// word of ref. A wrong word (a substitution or an insertion) is a
// misheard one.
func align(ref, hyp []string) (errors int, right []bool) {
	// cost[i][j] ranks alignments of ref[:i] to hyp[:j]: by errors, then
	// by fewer matches, in one number (a match is worth less than an
	// error, as there are at most len(hyp) of them).
	unit := len(hyp) + 1
	cost := make([][]int, len(ref)+1)
	for i := range cost {
		cost[i] = make([]int, len(hyp)+1)
		cost[i][0] = i * unit
	}
	for j := range cost[0] {
		cost[0][j] = j * unit
	}
	step := func(i, j int) int { // the cost of aligning ref[i-1] with hyp[j-1]
		if ref[i-1] == hyp[j-1] {
			return -1
		}
		return unit
	}
	for i := 1; i <= len(ref); i++ {
		for j := 1; j <= len(hyp); j++ {
			cost[i][j] = min(cost[i-1][j]+unit, cost[i][j-1]+unit, cost[i-1][j-1]+step(i, j))
		}
	}
	right = make([]bool, len(hyp))
	for i, j := len(ref), len(hyp); i > 0 || j > 0; {
		switch {
		case i > 0 && j > 0 && cost[i][j] == cost[i-1][j-1]+step(i, j):
			right[j-1] = step(i, j) < 0
			i, j = i-1, j-1
		case j > 0 && cost[i][j] == cost[i][j-1]+unit:
			j--
		default:
			i--
		}
	}
	matches := 0
	for _, r := range right {
		if r {
			matches++
		}
	}
	return (cost[len(ref)][len(hyp)] + matches) / unit, right
}

// CountWordErrors returns the word errors of the transcript hyp against the
// text ref, both lower-cased and split into words the same way, and the
// number of words in ref: the word error rate is their ratio.
func CountWordErrors(ref, hyp string) (errors, words int) {
	r := normalizeWords(ref)
	return WordErrors(r, normalizeWords(hyp)), len(r)
}

// HeardWord is a recognised word judged against what was said.
type HeardWord struct {
	Word       string
	Confidence *float64
	// Misheard: the word is not what was said there (a substitution or
	// an insertion in the alignment that counts the word errors).
	Misheard bool
}

// JudgeWords aligns the recognised words to the text ref, both lower-cased
// and split into words the way CountWordErrors splits them (a recognised
// "people." is "people"; each part of a word keeps its confidence), and
// says of each whether it was misheard.
func JudgeWords(ref string, words []Word) []HeardWord {
	var heard []HeardWord
	var hyp []string
	for _, w := range words {
		for _, part := range normalizeWords(w.Word) {
			heard = append(heard, HeardWord{Word: part, Confidence: w.Confidence})
			hyp = append(hyp, part)
		}
	}
	_, right := align(normalizeWords(ref), hyp)
	for i := range heard {
		heard[i].Misheard = !right[i]
	}
	return heard
}

// ConfidenceAUROC is the area under the ROC curve of confidence as a test
// for misheard words: the probability that a misheard word, drawn at
// random, has a lower confidence than a word heard right (ties count
// half). 0.5 is chance, 1 a perfect ranking. Words without a confidence
// are left out; ok is false without a word of each kind.
func ConfidenceAUROC(words []HeardWord) (auroc float64, ok bool) {
	var misheard, right []float64
	for _, w := range words {
		switch {
		case w.Confidence == nil:
		case w.Misheard:
			misheard = append(misheard, *w.Confidence)
		default:
			right = append(right, *w.Confidence)
		}
	}
	if len(misheard) == 0 || len(right) == 0 {
		return 0, false
	}
	slices.Sort(right)
	var below float64
	for _, c := range misheard {
		// Right words above c count 1, equal ones a half.
		lo, _ := slices.BinarySearch(right, c)
		hi := lo
		for hi < len(right) && right[hi] == c {
			hi++
		}
		below += float64(len(right)-hi) + float64(hi-lo)/2
	}
	return below / float64(len(misheard)*len(right)), true
}
