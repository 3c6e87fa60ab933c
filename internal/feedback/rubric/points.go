package rubric

import (
	"strings"
	"unicode"

	"github.com/kljensen/snowball/english"

	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/question"
)

// A question's own points and traps (issue 40): what a strong answer to
// this question makes, most valuable first, and the wrong moves it must
// avoid, each with the short phrases a student making it would say. A
// cue is found by meaning as far as word forms go: its words, stemmed
// (Porter2), in order within one sentence, a few other words allowed
// between them ("ask her why" in "ask her gently why"), so "refused" finds
// "refuses" and "explaining" finds "explain".

// cueGapWords is how many other words may stand between two words of a cue.
const cueGapWords = 2

// pointsWeight is the share of an answer's relevance its question's points
// decide when the question has them; the rest is the generic measure (the
// structure its type asks for, the question's words), which still tells a
// told answer from a list of the points' words.
const pointsWeight = 0.6

// pointResult is one of the question's points and where the answer made it.
type pointResult struct {
	point question.Point
	hit   match
	made  bool
}

// measurePoints finds which of its question's points the answer makes and
// which traps it walks into. A point counts unless negated ("I would not
// ask her why"); a trap counts as a red flag only when it is the
// applicant's own course, as the other red flags do: not negated, turned
// down or reported of someone else. Neither counts on words the speech
// engine may have misheard.
func (a *Assessment) measurePoints() {
	senses := pointSenses(a.in.Question, a.in.Points)
	for i, p := range a.in.Points {
		m, ok := a.findPoint(p, func(m match) bool { return !a.t.negatedClose(m.at) })
		if !ok {
			m, ok = a.saysSense(senses[i])
		}
		a.points = append(a.points, pointResult{point: p, hit: m, made: ok})
	}
	for _, p := range a.in.Traps {
		if m, ok := a.findPoint(p, func(m match) bool { return !a.t.denied(m, false) && !a.t.setAside(m) }); ok {
			a.traps = append(a.traps, flagHit{key: feedback.FlagQuestionTrap, m: m, trap: p.Text})
		}
	}
}

// findPoint is the first place the answer says one of p's cues, as keep
// allows.
func (a *Assessment) findPoint(p question.Point, keep func(match) bool) (match, bool) {
	for _, cue := range p.Cues {
		for _, m := range a.certainOnly(a.t.findStems(cue)) {
			if keep(m) {
				return m, true
			}
		}
	}
	return match{}, false
}

// pointsCovered is how much of its question's points the answer makes,
// each weighted by its rank (the first, most valuable, counts most).
func (a *Assessment) pointsCovered() float64 {
	var earned, total float64
	for i, p := range a.points {
		w := float64(len(a.points) - i)
		total += w
		if p.made {
			earned += w
		}
	}
	if total == 0 {
		return 0
	}
	return earned / total
}

// missedPoint is the most valuable point the answer does not make.
func (a *Assessment) missedPoint() (question.Point, bool) {
	for _, p := range a.points {
		if !p.made {
			return p.point, true
		}
	}
	return question.Point{}, false
}

// pointsEvidence says, point by point, which the answer made (with its
// words) and which it did not.
func (a *Assessment) pointsEvidence() []feedback.Evidence {
	out := make([]feedback.Evidence, 0, len(a.points))
	for _, p := range a.points {
		e := feedback.Evidence{Section: feedback.SectionContent, Criterion: strings.TrimRight(p.point.Text, "."), Met: p.made, Point: true}
		if p.made {
			e.Quote = a.t.quote(p.hit.at)
		} else {
			e.Note = "not in this answer"
		}
		out = append(out, e)
	}
	return out
}

// pronounClass joins the pronouns a cue and an answer may use for the
// same person: a cue says "respect their wishes", a student "respect her
// wishes".
var pronounClass = map[string]string{}

func init() {
	for class, words := range map[string]string{
		"~they": "he she they",
		"~them": "him her them his hers their theirs",
	} {
		for _, w := range strings.Fields(words) {
			pronounClass[w] = class
		}
	}
}

// cueStem is a word as cues are matched: its pronoun class, or its stem.
func cueStem(w string) string {
	if c, ok := pronounClass[w]; ok {
		return c
	}
	return english.Stem(w, true)
}

// wordStems are the transcript's words as cues are matched, made on first use.
func (t *text) wordStems() []string {
	if t.stems == nil {
		t.stems = make([]string, len(t.words))
		for i, w := range t.words {
			t.stems[i] = cueStem(w)
		}
	}
	return t.stems
}

// findStems returns where the transcript says cue: its words' stems in
// order within one sentence, at most cueGapWords other words between two
// of them, in reading order.
func (t *text) findStems(cue string) []match {
	var want []string
	for _, w := range strings.FieldsFunc(strings.ToLower(cue), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' }) {
		want = append(want, cueStem(w))
	}
	if len(want) == 0 {
		return nil
	}
	stems := t.wordStems()
	var out []match
	for i := 0; i < len(stems); i++ {
		if stems[i] != want[0] {
			continue
		}
		last, ok := i, true
		for _, w := range want[1:] {
			next := -1
			for j := last + 1; j <= min(last+1+cueGapWords, len(stems)-1); j++ {
				if stems[j] == w {
					next = j
					break
				}
			}
			if next < 0 || t.sentenceStart(t.wordOffsets[next]) != t.sentenceStart(t.wordOffsets[i]) {
				ok = false
				break
			}
			last = next
		}
		if ok {
			out = append(out, match{at: t.wordOffsets[i], end: t.wordEnd(last), text: strings.ToLower(t.raw[t.wordOffsets[i]:t.wordEnd(last)])})
			i = last
		}
	}
	return out
}

// wordEnd is the byte offset just past word i in the transcript.
func (t *text) wordEnd(i int) int {
	end := t.wordOffsets[i]
	for _, r := range t.raw[end:] {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '’' {
			break
		}
		end += len(string(r))
	}
	return end
}

// A student rarely says a cue as it is written: "ask if we can talk
// somewhere quieter" makes the point "invite her to a private room" with
// none of its cues. So a point is also made by one sentence that says
// enough of what this point, and not the question's others, is about:
// the stems of its text and cues, each weighing 1 over how many of the
// question's points hold it, half that where the question itself says it
// (an answer repeats the scenario's names whatever it makes of them).
const (
	// senseNeed is the weight one sentence must say.
	senseNeed = 1.5
	// senseMinStems: and in at least this many of the point's stems, so
	// that no one word makes a point.
	senseMinStems = 2
)

// pointSense is a point's stems and their weights.
type pointSense map[string]float64

// pointSenses are the senses of the question's points, in order.
func pointSenses(question string, points []question.Point) []pointSense {
	asked := map[string]bool{}
	for _, w := range senseWords(question) {
		asked[w] = true
	}
	sets := make([]map[string]bool, len(points))
	held := map[string]int{}
	for i, p := range points {
		sets[i] = map[string]bool{}
		for _, text := range append([]string{p.Text}, p.Cues...) {
			for _, w := range senseWords(text) {
				if !sets[i][w] {
					sets[i][w] = true
					held[w]++
				}
			}
		}
	}
	out := make([]pointSense, len(points))
	for i, set := range sets {
		out[i] = pointSense{}
		for w := range set {
			weight := 1 / float64(held[w])
			if asked[w] {
				weight /= 2
			}
			out[i][w] = weight
		}
	}
	return out
}

// senseWords are the stems of s's words that say what it is about.
func senseWords(s string) []string {
	var out []string
	for _, w := range newText(s).words {
		if len(w) < 3 || questionStopwords[w] || senseStopwords[w] || pronounClass[w] != "" {
			continue
		}
		out = append(out, cueStem(w))
	}
	return out
}

// senseStopwords are words any answer says, whatever its point: they
// weigh nothing in a sense ("it still matters that…").
var senseStopwords = wordSet("matter", "matters", "mattered", "still", "really", "important", "sure", "need", "needs", "feel", "feels",
	"keep", "good", "well", "first", "finally", "even", "always", "every", "much", "lot", "able", "going", "try", "trying", "thing")

// saysSense is where the first sentence saying enough of ps is: from its
// first word of ps to its last. A word negated there ("I would not ask
// why") or one the speech engine may have misheard says nothing.
func (a *Assessment) saysSense(ps pointSense) (match, bool) {
	stems := a.t.wordStems()
	i := 0
	for _, sent := range a.t.sentences {
		for i < len(stems) && a.t.wordOffsets[i] < sent[0] {
			i++
		}
		said := map[string]bool{}
		var weight float64
		first, last := -1, -1
		for ; i < len(stems) && a.t.wordOffsets[i] < sent[1]; i++ {
			w, ok := ps[stems[i]]
			if !ok || said[stems[i]] || a.t.negatedClose(a.t.wordOffsets[i]) || a.uncertainIn(a.t.wordOffsets[i], a.t.wordEnd(i)) {
				continue
			}
			said[stems[i]] = true
			weight += w
			if first < 0 {
				first = i
			}
			last = i
		}
		if weight >= senseNeed && len(said) >= senseMinStems {
			at, end := a.t.wordOffsets[first], a.t.wordEnd(last)
			return match{at: at, end: end, text: strings.ToLower(a.t.raw[at:end])}, true
		}
	}
	return match{}, false
}
