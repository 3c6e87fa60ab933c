package transcribe

import (
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// punctuate writes timed words as readable text: sentences that start with
// a capital and end with a full stop (a question mark when they plainly ask
// one), commas at the speaker's shorter pauses, and "I" in capitals. The
// words themselves are never changed: lower-cased and stripped of the
// punctuation it adds, the text is words joined by spaces.
//
// The local engine's recogniser gives words and pauses but no punctuation.
// Where a sentence ends is guessed from three things (see boundaryScore):
// how long the pause after a word is, measured against this speaker's own
// pauses (fast speakers pause less); whether that word can end a sentence
// ("the", "to", "my" cannot); and whether the next words open one ("so",
// "I think", "after that"). A dynamic programme then picks the best set of
// boundaries under two rules: sentences of fewer than minSentence words are
// penalised, and none runs past maxSentence words.
//
// Punctuation next to "like", "basically" and after "you know" is never
// added: the filler count reads a comma there as a sign of a filler (see
// findFillers), so only the speaker's words may decide it.
func punctuate(words []Word) string {
	n := len(words)
	if n == 0 {
		return ""
	}
	lw := make([]string, n)
	for i, w := range words {
		lw[i] = strings.ToLower(w.Word)
	}
	ref := pauseScale(words)
	score := make([]float64, n) // score[i]: a sentence ends after word i
	for i := 0; i+1 < n; i++ {
		// A long pause is one for anybody, however long this speaker's
		// usual pauses are (one who pauses only at sentence ends has those
		// as the usual ones).
		g := gapAfter(words, i)
		score[i] = boundaryScore(lw, i, max(g/ref, g/longPause))
		if noPunctuationAfter(lw, i) {
			score[i] = math.Inf(-1)
		}
	}
	ends := sentenceEnds(score)

	var b strings.Builder
	start := 0
	for k, end := range ends {
		question := isQuestion(lw[start : end+1])
		for i := start; i <= end; i++ {
			if i > 0 {
				b.WriteByte(' ')
			}
			w := words[i].Word
			switch {
			case i == start || lw[i] == "i" || strings.HasPrefix(lw[i], "i'") || properNouns[lw[i]]:
				w = capitalise(w)
			}
			b.WriteString(w)
			switch {
			case noPunctuationAfter(lw, i): // even at the end of the answer
			case i == end && question:
				b.WriteByte('?')
			case i == end:
				b.WriteByte('.')
			case comma(lw, words, i, ref, end):
				b.WriteByte(',')
			}
		}
		start = ends[k] + 1
	}
	return b.String()
}

// Sentence length rules, in words.
const (
	minSentence = 4
	maxSentence = 35
)

// gapAfter is the silence between word i and the next, in seconds.
func gapAfter(words []Word, i int) float64 {
	if i+1 >= len(words) {
		return 0
	}
	return max(0, words[i+1].Start-words[i].End)
}

// pauseScale is this speaker's typical pause: the median of the silences
// between words of at least pauseFloor (shorter ones are the recogniser's
// word edges, not pauses), bounded so that a speaker who hardly pauses does
// not turn every breath into a full stop, and one who pauses at length
// everywhere still gets sentences. A sentence end is a pause longer than
// the speaker's usual one, a comma one about as long.
func pauseScale(words []Word) float64 {
	var gaps []float64
	for i := 0; i+1 < len(words); i++ {
		if g := gapAfter(words, i); g >= pauseFloor {
			gaps = append(gaps, g)
		}
	}
	if len(gaps) == 0 {
		return minPauseScale
	}
	slices.Sort(gaps)
	return min(max(gaps[len(gaps)/2], minPauseScale), maxPauseScale)
}

const (
	longPause     = 0.5
	pauseFloor    = 0.1
	minPauseScale = 0.2
	maxPauseScale = 0.8
)

// boundaryScore is the evidence that a sentence ends after word i, in
// rough log-odds: positive for likely, negative for unlikely. rel is the
// pause after word i relative to the speaker's scale.
func boundaryScore(lw []string, i int, rel float64) float64 {
	s := pauseWeight*min(rel, 3) - threshold
	s += endCue[lw[i]]
	next, next2 := lw[i+1], ""
	if i+2 < len(lw) {
		next2 = lw[i+2]
	}
	if v, ok := startCue2[next+" "+next2]; ok {
		s += v
	} else {
		s += startCue[next]
	}
	return s
}

// Weights of boundaryScore, chosen on the development clips
// (bench/transcribe/dev), never on the benchmark's corpus.
const (
	pauseWeight  = 3.0
	threshold    = 4.0
	shortPenalty = 1.5 // per word a sentence falls short of minSentence
)

// cannotEnd is the end cue of words no sentence ends with.
const cannotEnd = -20

// endCue scores word w as the last of a sentence: determiners,
// prepositions, conjunctions, subjects and auxiliaries leave it unfinished.
var endCue = weights(map[float64][]string{
	cannotEnd: {"the", "a", "an", "my", "your", "our", "their", "its", "to", "of", "and", "or", "but", "because",
		"i", "i'm", "i'd", "i've", "i'll", "we", "they", "he", "she", "we're", "they're", "it's", "that's",
		"there's", "if", "than", "very", "when", "while", "whether", "every", "each"},
	-4: {"would", "could", "should", "will", "can", "must", "might", "am", "is", "are", "was", "were", "be",
		"been", "being", "where", "some", "any", "no", "not", "don't", "didn't", "doesn't", "won't", "can't",
		"couldn't", "wouldn't", "shouldn't", "isn't", "wasn't", "aren't", "weren't", "so", "as", "really", "also"},
	-2: {"with", "for", "in", "on", "at", "by", "from", "into", "about", "that", "this", "these", "those",
		"have", "has", "had", "do", "does", "did", "get", "got", "more", "most", "um", "uh", "er", "ah",
		"like", "just", "how", "what", "who", "which", "then", "after", "before", "during", "through",
		"many", "much", "how", "other", "another", "such", "both", "feel", "make", "take", "help"},
})

// startCue scores word w as the first of a sentence: discourse markers,
// subjects and adverbials that open spoken sentences score high; words that
// continue a phrase ("to", "of", a verb's auxiliary) low.
var startCue = weights(map[float64][]string{
	2: {"so", "then", "i", "i'm", "i've", "i'd", "i'll", "first", "firstly", "second", "secondly", "third",
		"finally", "after", "afterwards", "however", "also", "overall", "ultimately", "honestly", "now",
		"my", "we", "we're", "it's", "that's", "there", "these", "this", "today", "later", "eventually",
		"yes", "no", "okay", "well", "instead", "sometimes", "looking", "since", "once"},
	1: {"but", "when", "if", "because", "the", "it", "she", "he", "they", "that", "in", "during", "as",
		"one", "what", "how", "why", "at", "for", "while", "although", "though", "um", "uh", "our",
		"before", "each", "every", "working", "being", "having"},
	-2: {"to", "of", "than", "is", "was", "are", "were", "am", "be", "been", "has", "have", "had",
		"would", "could", "should", "will", "can", "with", "from", "by", "into", "out", "up", "and", "or",
		"like", "not", "n't", "a", "an", "who", "which", "about", "more", "better", "too", "me", "him",
		"them", "us", "her"},
})

// startCue2 scores two-word sentence openings, which say more than one word.
var startCue2 = weights(map[float64][]string{
	2.5: {"i think", "i believe", "i would", "i want", "i learned", "i realized", "i was", "i am", "i have",
		"i also", "and then", "after that", "for example", "for instance", "in the", "in my", "at the", "at that",
		"so i", "so we", "but i", "then i", "then we", "what i", "one day", "one time", "that is", "that was",
		"this is", "this was", "it was", "it is", "when i", "when we", "when she", "when he", "if i", "if we",
		"as a", "because i", "because of", "in college", "in high", "at first", "and so", "looking back"},
	1: {"and i", "and we", "and that", "and it", "and my", "the most", "the first", "the next", "the biggest"},
})

// weights maps each word to its group's weight; a word listed in two
// groups takes the higher, whatever order the map is read in.
func weights(groups map[float64][]string) map[string]float64 {
	m := map[string]float64{}
	for w, words := range groups {
		for _, word := range words {
			if old, ok := m[word]; !ok || w > old {
				m[word] = w
			}
		}
	}
	return m
}

// sentenceEnds chooses the words that end sentences, the last word always
// among them, maximising the boundaries' summed score (boundaries with
// negative scores cost) with shortPenalty per word below minSentence and
// a prohibitive cost per word beyond maxSentence, which only a stretch with
// nowhere to put a full stop (score -Inf) pays.
func sentenceEnds(score []float64) []int {
	n := len(score)
	best := make([]float64, n+1) // best[j]: words [0, j) split into sentences
	from := make([]int, n+1)
	for j := 1; j <= n; j++ {
		best[j] = math.Inf(-1)
		for k := 0; k < j; k++ { // the last sentence is words [k, j)
			l := j - k
			v := best[k] - shortPenalty*float64(max(0, minSentence-l)) - overLongPenalty*float64(max(0, l-maxSentence))
			if j < n {
				v += score[j-1]
			}
			if k == 0 || v > best[j] {
				best[j], from[j] = v, k
			}
		}
	}
	var ends []int
	for j := n; j > 0; j = from[j] {
		ends = append(ends, j-1)
	}
	slices.Reverse(ends)
	return ends
}

const overLongPenalty = 1000

// noPunctuationAfter says word i must not be followed by punctuation: the
// filler count would read a comma before or after "like" or "basically",
// or after "you know", as the mark of a filler.
func noPunctuationAfter(lw []string, i int) bool {
	guarded := func(w string) bool { return w == "like" || w == "basically" }
	return guarded(lw[i]) || i+1 < len(lw) && guarded(lw[i+1]) || lw[i] == "know" && i > 0 && lw[i-1] == "you"
}

// comma says whether a comma follows word i of a sentence ending at end:
// after a pause about half a sentence end's, at a word that can end a
// clause; and around hesitations ("So, um, I think").
func comma(lw []string, words []Word, i int, ref float64, end int) bool {
	if i >= end || noPunctuationAfter(lw, i) {
		return false
	}
	if hesitations[lw[i+1]] || hesitations[lw[i]] {
		return true
	}
	gap := gapAfter(words, i)
	return gap >= minCommaGap && gap/ref >= commaRel && endCue[lw[i]] > cannotEnd && (startCue[lw[i+1]] > -2 || lw[i+1] == "and" || lw[i+1] == "or")
}

const (
	minCommaGap = 0.12
	commaRel    = 0.5
)

// isQuestion is true for a sentence that plainly asks: it opens with a
// question word and an auxiliary ("what would you do", "how can I") or an
// auxiliary and a pronoun ("would you", "do I"), and is short. Anything
// less clear ("what I learned was") gets a full stop.
func isQuestion(s []string) bool {
	if len(s) < 3 || len(s) > 15 {
		return false
	}
	return whWords[s[0]] && auxiliaries[s[1]] && pronouns[s[2]] || auxiliaries[s[0]] && pronouns[s[1]]
}

var (
	whWords     = set("what", "why", "how", "where", "who", "which", "when")
	auxiliaries = set("do", "does", "did", "would", "could", "should", "can", "will", "is", "are", "was",
		"were", "have", "has", "am", "shall", "might", "may")
	pronouns = set("i", "you", "we", "they", "he", "she", "it", "that", "this", "there")
)

// properNouns are words always written with a capital that need no
// dictionary to recognise: days, unambiguous months, languages and
// nationalities, and a few institutions. Names are left alone.
var properNouns = set("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
	"january", "february", "april", "june", "july", "september", "october", "november", "december",
	"english", "spanish", "french", "german", "chinese", "japanese", "korean", "vietnamese", "arabic",
	"hindi", "american", "canadian", "mexican", "african", "asian", "european", "hispanic",
	"america", "canada", "mexico", "africa", "asia", "europe", "christmas", "thanksgiving",
	"medicare", "medicaid", "covid")

// capitalise upper-cases the first letter of w when that leaves the word
// the same once lower-cased again.
func capitalise(w string) string {
	r, size := utf8.DecodeRuneInString(w)
	up := unicode.ToUpper(r)
	if !unicode.IsLetter(r) || up == r || unicode.ToLower(up) != r {
		return w
	}
	return string(up) + w[size:]
}

// CountSentenceBoundaries compares the sentence ends of the transcript hyp
// with those of the text ref, after aligning their words as the word error
// rate does: matched is how many of hyp's ends fall where ref has one, and
// inHyp and inRef how many each has. The end of the text is not counted.
// matched/inHyp is the precision of the punctuation, matched/inRef its
// recall.
func CountSentenceBoundaries(ref, hyp string) (matched, inHyp, inRef int) {
	rw, rEnds := sentenceWords(ref)
	hw, hEnds := sentenceWords(hyp)
	// lo[i], hi[i]: the hyp words the alignment has used up just after ref
	// word i and just before ref word i+1; a hyp end after as many words
	// as anything in between is where ref's end after word i is.
	lo, hi := alignGaps(rw, hw)
	hypEnd := map[int]bool{}
	for j, end := range hEnds {
		if end && j+1 < len(hw) {
			hypEnd[j+1] = true
			inHyp++
		}
	}
	for i, end := range rEnds {
		if !end || i+1 >= len(rw) {
			continue
		}
		inRef++
		for c := lo[i]; c <= hi[i]; c++ {
			if hypEnd[c] {
				matched++
				delete(hypEnd, c)
				break
			}
		}
	}
	return matched, inHyp, inRef
}

// sentenceWords splits text into words as normalizeWords does and marks
// the words a full stop, question or exclamation mark follows.
func sentenceWords(text string) ([]string, []bool) {
	var words []string
	var ends []bool
	for _, s := range strings.FieldsFunc(text, func(r rune) bool { return r == '.' || r == '?' || r == '!' }) {
		w := normalizeWords(s)
		if len(w) == 0 {
			continue
		}
		words = append(words, w...)
		ends = append(ends, make([]bool, len(w))...)
		ends[len(ends)-1] = true
	}
	return words, ends
}

// alignGaps aligns hyp to ref with the fewest edits and returns, for each
// ref word i, how many hyp words come before the end of word i (lo) and
// before the start of word i+1 (hi).
func alignGaps(ref, hyp []string) (lo, hi []int) {
	n, m := len(ref), len(hyp)
	d := make([][]int, n+1)
	for i := range d {
		d[i] = make([]int, m+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= n; i++ {
		for j := 1; j <= m; j++ {
			cost := 1
			if ref[i-1] == hyp[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
		}
	}
	lo, hi = make([]int, n), make([]int, n)
	for i := range hi {
		hi[i] = m
	}
	// Walk back from the end: at (i, j), ref word i-1 ends with j hyp words used.
	i, j := n, m
	for i > 0 {
		cost := 1
		if j > 0 && ref[i-1] == hyp[j-1] {
			cost = 0
		}
		switch {
		case j > 0 && d[i][j] == d[i-1][j-1]+cost:
			lo[i-1] = j
			if i-2 >= 0 {
				hi[i-2] = j - 1
			}
			i, j = i-1, j-1
		case d[i][j] == d[i-1][j]+1:
			lo[i-1] = j
			if i-2 >= 0 {
				hi[i-2] = j
			}
			i--
		default:
			j--
		}
	}
	return lo, hi
}
