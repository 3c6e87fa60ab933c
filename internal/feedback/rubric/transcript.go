package rubric

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"
)

// text is a transcript prepared once for all the rubric's checks.
type text struct {
	raw   string
	lower string
	// words are lower-cased tokens without punctuation.
	words []string
	// sentences are byte ranges of raw; a transcript without punctuation
	// (some speech engines give none) is one sentence.
	sentences  [][2]int
	punctuated bool
	// candidates are the words where each prefiltered cue group may match.
	candidates  map[*cues][]candidate
	wordOffsets []int    // byte offset in raw of each word, for quoting
	stems       []string // the words' Porter2 stems, made on first use (wordStems)
	segments    []segment
}

func newText(s string) *text {
	t := &text{raw: s, lower: strings.ToLower(s)}
	start := -1
	for i, r := range s {
		isWord := unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '’'
		switch {
		case isWord && start < 0:
			start = i
		case !isWord && start >= 0:
			t.addWord(start, i)
			start = -1
		}
	}
	if start >= 0 {
		t.addWord(start, len(s))
	}
	t.splitSentences()
	if !t.punctuated {
		t.splitClauses()
	}
	return t
}

func (t *text) addWord(from, to int) {
	w := strings.Trim(strings.ToLower(t.raw[from:to]), "'’")
	if w == "" {
		return
	}
	t.words = append(t.words, w)
	t.wordOffsets = append(t.wordOffsets, from)
}

func (t *text) splitSentences() {
	start := 0
	for i := 0; i < len(t.raw); i++ {
		c := t.raw[i]
		if c != '.' && c != '!' && c != '?' && c != '\n' {
			continue
		}
		// "Dr. Patel" and "3.5" are not sentence ends.
		if c == '.' && (i+1 < len(t.raw) && t.raw[i+1] != ' ' && t.raw[i+1] != '\n' || endsWithTitle(t.raw[start:i])) {
			continue
		}
		if c != '\n' {
			t.punctuated = true
		}
		t.addSentence(start, i+1)
		start = i + 1
	}
	t.addSentence(start, len(t.raw))
}

func (t *text) addSentence(from, to int) {
	for from < to && unicode.IsSpace(rune(t.raw[from])) {
		from++
	}
	for to > from && unicode.IsSpace(rune(t.raw[to-1])) {
		to--
	}
	if to > from {
		t.sentences = append(t.sentences, [2]int{from, to})
	}
}

// A transcript from a speech engine that writes no punctuation is one long
// run of words. It is cut into clauses where spoken English usually starts
// one, so that cues, quotes and the first-person check work within a
// clause as they do within a written sentence.
const (
	minClauseWords = 6
	maxClauseWords = 28
)

var (
	clauseStarts = wordSet("so", "but", "because", "then", "when", "after", "afterwards", "if", "first", "finally", "ultimately",
		"however", "honestly", "overall", "also", "since", "although", "though", "while", "once", "until", "instead", "otherwise", "next", "now")
	subjects = wordSet("i", "i'd", "i'll", "i'm", "i've", "we", "we'd", "we'll", "we're", "he", "she", "they", "he'd", "she'd", "they'd", "it", "that", "this", "my", "our")
)

func (t *text) splitClauses() {
	if len(t.words) <= maxClauseWords {
		return
	}
	t.sentences = t.sentences[:0]
	from := 0
	for i := 1; i < len(t.words); i++ {
		n := i - from
		starts := clauseStarts[t.words[i]] || t.words[i] == "and" && i+1 < len(t.words) && subjects[t.words[i+1]]
		if n >= maxClauseWords || n >= minClauseWords && starts && !cannotEnd[t.words[i-1]] && len(t.words)-i >= minClauseWords {
			t.addSentence(t.wordOffsets[from], t.wordOffsets[i])
			from = i
		}
	}
	t.addSentence(t.wordOffsets[from], len(t.raw))
}

// cannotEnd are words a clause does not end on ("…on rotation i | also
// might be wrong").
var cannotEnd = wordSet("i", "we", "you", "he", "she", "they", "it", "the", "a", "an", "to", "of", "and", "or", "my", "our", "your", "his", "her", "their",
	"i'd", "i'll", "i'm", "i've", "we'd", "would", "will", "can", "could", "should", "is", "was", "are", "were", "be", "in", "on", "at", "for", "with", "not", "that", "this")

func wordSet(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

var titles = []string{"dr", "mr", "mrs", "ms", "st", "prof"}

func endsWithTitle(s string) bool {
	s = strings.ToLower(s)
	for _, title := range titles {
		if strings.HasSuffix(s, " "+title) || s == title {
			return true
		}
	}
	return false
}

// maxQuoteWords keeps evidence short enough to show beside a score.
const maxQuoteWords = 22

// quote returns the words of the transcript around byte offset at: the whole
// sentence when it is short, otherwise a window of words around at inside
// that sentence. The result is always a verbatim substring of the
// transcript so the UI can highlight it.
func (t *text) quote(at int) string {
	lo, hi := 0, len(t.raw)
	for _, s := range t.sentences {
		if at >= s[0] && at < s[1] {
			lo, hi = s[0], s[1]
			break
		}
	}
	var inSentence []int // word offsets within [lo, hi)
	hit := 0
	for _, off := range t.wordOffsets {
		if off < lo || off >= hi {
			continue
		}
		if off <= at {
			hit = len(inSentence)
		}
		inSentence = append(inSentence, off)
	}
	if len(inSentence) <= maxQuoteWords {
		return strings.TrimSpace(t.raw[lo:hi])
	}
	from := max(0, min(hit-8, len(inSentence)-maxQuoteWords))
	to := from + maxQuoteWords
	end := hi
	if to < len(inSentence) {
		end = inSentence[to]
	}
	return strings.TrimRightFunc(strings.TrimRight(strings.TrimSpace(t.raw[inSentence[from]:end]), " ,;:—-"), unicode.IsSpace)
}

// tail returns the last few words of a quote, enough to point at a place in
// the answer ("after “…spoke to the patient”").
func tail(q string, n int) string {
	f := strings.Fields(q)
	if len(f) > n {
		f = f[len(f)-n:]
	}
	return strings.TrimRight(strings.Join(f, " "), ".,;:!?")
}

// match is one cue found in the transcript; text is lower-cased, for
// comparing.
type match struct {
	at, end int
	text    string
}

// said is the words of m as the speaker said them, capitals and all, for
// quoting.
func (t *text) said(m match) string { return t.raw[m.at:m.end] }

// Who does what a red-flag phrase says: the applicant ("I would give it
// anyway"), or someone they report on ("the resident wanted to hide it").
// The nearest subject before the phrase in its clause decides.
var (
	applicantSubjects = wordSet("i", "i'd", "i'll", "i'm", "i've", "we", "we'd", "we'll", "we're", "let's", "myself")
	otherSubjects     = wordSet("he", "she", "they", "he'd", "she'd", "they'd", "he's", "she's", "they're", "he'll", "she'll", "they'll",
		"someone", "somebody", "others", "people", "resident", "attending", "classmate", "classmates", "colleague", "colleagues", "coworker", "coworkers",
		"co-worker", "friend", "friends", "partner", "teammate", "teammates", "manager", "supervisor", "boss", "dentist", "doctor", "physician",
		"pharmacist", "nurse", "technician", "tech", "student", "students", "staff", "owner", "preceptor", "instructor", "professor", "therapist",
		"assistant", "hygienist", "vet", "veterinarian", "clinic", "hospital", "practice", "policy", "some", "many", "everyone")
	// optionMarkers before a phrase present it as a course considered;
	// rejections after it say it was turned down.
	optionMarkers = phrases(`options?`, `alternatives?`, `tempting`, `tempted`, `(I|we|you|one|someone|they) (could|might)`, `some (people|would|might|may|clinicians|students)`, `someone`, `whether`,
		`if (I|we|you)`, `consider(ed|ing)?`, `(one|another|an|the) (approach|choice|path|route|way)`, `the (easy|easiest|wrong|quick|lazy) (thing|option|choice|way|route)`, `wrong to`, `unethical to`,
		`rather than`, `instead of`, `(can|could) be (seen|read)`, `(want|wanted|asked|told|suggested|pressured|urged|begged|encouraged|expected) (me|us) to`, `easier to`)
	rejectionMarkers = phrases(`but`, `however`, `(that|which|this|it) (would|will|could) (be|violate|undermine|break|betray|ignore|erode|damage|destroy|cost|hurt|harm|mean)`, `wrong`,
		`not (ok|okay|acceptable|right|ethical|appropriate|an option|fair|honest)`, `unethical`, `unacceptable`, `violat\w*`, `undermin\w*`, `(I|we) (wouldn't|would not|won't|will not|didn't|did not|refused|said no|declined)`,
		`instead`, `never`, `(I|we) (told|reported|went to|spoke to|talked to)`, `(wouldn't|would not|isn't|is not|won't|will not) be (fair|right|okay|ok|acceptable|honest|ethical|safe)`)
)

// caseless reports whether the transcript has no capital letters at all,
// as speech engines without punctuation write it.
func (t *text) caseless() bool {
	return t.raw == t.lower
}

// refusals are the applicant turning a course down in so many words.
var refusals = phrases(`(I|we) (wouldn't|would not|won't|will not|never|don't|do not|refuse to) (do|consider|go|choose|take)( either| that| this| it| any| down)?`, `neither`,
	`(that's|that is|that would be|which is|which would be) (not|wrong|unethical|unacceptable|coercion|battery|dishonest)`,
	// A reason for the course dismissed: "the finger feeling fine tells me
	// nothing about transmission".
	`(tells|told) (me|us) nothing`, `means nothing`, `(is|was) no (reason|excuse)`, `(isn't|is not|wasn't|was not) (a reason|an excuse)`)

// refusalWords is how soon after a phrase a refusal must come.
const refusalWords = 12

// temptations after a phrase present it as the course that tempts, not the
// one taken: "she's already numb, which makes it tempting to keep going".
var temptations = phrases(`tempt\w*`, `easier`, `easy`, `convenient`, `shortcut`)

// wordAt is the index of the word starting at or after byte offset at.
func (t *text) wordAt(at int) int {
	return sort.SearchInts(t.wordOffsets, at)
}

// sentenceStart is the byte offset where the sentence holding at starts.
func (t *text) sentenceStart(at int) int {
	for _, s := range t.sentences {
		if at >= s[0] && at < s[1] {
			return s[0]
		}
	}
	return 0
}

// lookBackWords bounds how far back in its clause a phrase's actor and an
// option marker are looked for; lookAheadWords how far ahead a rejection.
const (
	lookBackWords  = 12
	lookAheadWords = 20
)

// denied reports whether a red-flag phrase is not the applicant's own
// conduct or view: negated, said of someone else (or, for an opinion,
// quoted from someone else), or raised as an option the answer turns down.
func (t *text) denied(m match, opinion bool) bool {
	if t.negatedClose(m.at) || t.rejected(m) {
		return true
	}
	if opinion {
		return t.quotedFromOthers(m)
	}
	// A phrase that names its own subject or condition ("if she skipped
	// it…", "while he was sedated") is the applicant's account whoever the
	// nearest subject before it is.
	if i := t.wordAt(m.at); i < len(t.words) && (otherSubjects[t.words[i]] || conditions[t.words[i]]) {
		return false
	}
	return t.reported(m)
}

var conditions = wordSet("if", "while", "when", "once", "until", "unless", "without")

// negationScope is how many words before a phrase a negation still
// governs it ("I would never, under any circumstances, pressure her"),
// unless a new clause starts between them.
const negationScope = 8

var (
	negations      = wordSet("not", "never", "no", "without", "isn't", "wasn't", "aren't", "weren't", "don't", "didn't", "won't", "wouldn't", "shouldn't", "can't", "cannot", "couldn't", "nor", "avoid", "avoided", "refuse", "refused", "rather", "instead", "neither", "hardly")
	clauseBreaks   = wordSet("and", "but", "because", "so", "who", "which", "that", "when", "if", "since", "then", "while", "although", "though")
	reportingVerbs = wordSet("said", "says", "say", "called", "calls", "joked", "complained", "thought", "thinks", "told", "tells", "argued", "claimed", "insisted", "suggested", "wanted", "kept", "muttered", "believed", "felt", "feels", "heard")
)

// negatedClose reports whether a negation governs the phrase at byte at.
// A comma before a new subject ends the negation's reach: in "if people
// can't afford care, they shouldn't own a dog" the "can't" is the
// condition's.
func (t *text) negatedClose(at int) bool {
	return t.markedInClause(at, negationScope, negations, func(j int) bool { return subjectPronouns[t.words[j]] && t.punctuatedBefore(j) })
}

// markedInClause reports whether one of markers comes before the word at
// byte at, no more than scope words back in its sentence: looking back,
// a clause break, or a word ends (a new clause starting there), ends the
// search.
func (t *text) markedInClause(at, scope int, markers map[string]bool, ends func(j int) bool) bool {
	i, from := t.wordAt(at), t.wordAt(t.sentenceStart(at))
	for j := i - 1; j >= max(from, i-scope); j-- {
		switch w := t.words[j]; {
		case markers[w]:
			return true
		case clauseBreaks[w], ends(j):
			return false
		}
	}
	return false
}

// punctuatedBefore reports whether a comma, semicolon or colon comes
// right before word j.
func (t *text) punctuatedBefore(j int) bool {
	return j > 0 && strings.ContainsAny(t.raw[t.wordOffsets[j-1]:t.wordOffsets[j]], ",;:")
}

// subjectPronouns start a clause of their own after a comma.
var subjectPronouns = wordSet("i", "we", "he", "she", "they", "i'd", "we'd", "he'd", "she'd", "they'd", "i'll", "we'll", "he'll", "she'll", "they'll")

// quotedFromOthers reports whether someone else is said to have said or
// thought the phrase ("my coworker called them frequent flyers").
func (t *text) quotedFromOthers(m match) bool {
	i, from := t.wordAt(m.at), t.wordAt(t.sentenceStart(m.at))
	for j := i - 1; j >= max(from+1, i-lookBackWords); j-- {
		if !reportingVerbs[t.words[j]] {
			continue
		}
		for k := j - 1; k >= max(from, j-3); k-- {
			if applicantSubjects[t.words[k]] {
				return false
			}
			if otherSubjects[t.words[k]] {
				return true
			}
		}
	}
	return false
}

// predicateStarts are words that, soon after a gerund phrase, show it to
// be the subject of its sentence: "letting it slide might feel kind".
var predicateStarts = wordSet("might", "would", "could", "may", "is", "was", "seems", "seemed", "feels", "felt", "sounds", "looks", "isn't", "wasn't", "can",
	"wouldn't", "won't", "can't", "couldn't", "shouldn't", "will")

// gerundSubject reports whether the phrase starts with a gerund and is
// followed closely by its predicate, which a transcript without
// punctuation shows where a written one would show a sentence start.
func (t *text) gerundSubject(m match) bool {
	i := t.wordAt(m.at)
	if i >= len(t.words) || !strings.HasSuffix(t.words[i], "ing") {
		return false
	}
	end := t.wordAt(m.end)
	for j := end; j < min(len(t.words), end+3); j++ {
		if predicateStarts[t.words[j]] {
			return true
		}
	}
	return false
}

// reported reports whether the nearest subject before the phrase, in its
// clause, is someone other than the applicant.
func (t *text) reported(m match) bool {
	i, from := t.wordAt(m.at), t.wordAt(t.sentenceStart(m.at))
	for j := i - 1; j >= max(from, i-lookBackWords); j-- {
		switch w := t.words[j]; {
		case applicantSubjects[w]:
			return false
		case otherSubjects[w]:
			return true
		case clauseBreaks[w] && w != "and":
			// "…examine every patient themselves, so nobody is harmed":
			// the subject before "so" is another clause's.
			return false
		}
	}
	return false
}

// rejected reports whether the phrase is a course the answer considers
// and turns down: introduced as an option ("one option is to…", "I
// could…"), or standing as the subject of its sentence ("Letting it slide
// might feel kind"), and followed by a rejection ("but that would…").
func (t *text) rejected(m match) bool {
	i := t.wordAt(m.at)
	sentence := t.wordAt(t.sentenceStart(m.at))
	from := max(sentence, i-lookBackWords)
	considered := i == sentence || t.gerundSubject(m) || from < i && t.anyCue(optionMarkers, t.wordOffsets[from], m.at) ||
		t.anyCue(temptations, m.end, t.sentenceEnd(m.at))
	if !considered {
		// An outright refusal right after needs no introduction: "…or to
		// lean on her family until she gives in, and I wouldn't do either".
		return t.anyCue(refusals, m.end, t.wordOffsets[min(len(t.wordOffsets)-1, t.wordAt(m.end)+refusalWords)])
	}
	end := len(t.raw)
	if j := t.wordAt(m.end) + lookAheadWords; j < len(t.wordOffsets) {
		end = t.wordOffsets[j]
	}
	return t.anyCue(rejectionMarkers, m.end, end)
}

// setAside reports whether the phrase stands in a clause the answer sets
// aside rather than proposes: a concession it overrides ("I'd take that
// comment seriously, even though she laughed it off"), the lesser side
// of a comparison ("appropriate care matters more than hitting twenty
// consultations"), or a pressure it acknowledges ("I know the surgeon
// writes my evaluation"). The clause ends at a comma or a clause break:
// in "even though it is against policy, I'd give it to her" the course
// given is the main clause's, and in "I know my evaluation depends on it
// so I'd do the exam" the exam is done.
func (t *text) setAside(m match) bool {
	return t.markedInClause(m.at, lookBackWords, setAsideMarkers, t.punctuatedBefore)
}

var setAsideMarkers = wordSet("though", "although", "despite", "regardless", "than",
	"know", "understand", "realize", "realise", "recognize", "recognise", "appreciate", "acknowledge")

// anyCue reports whether a cue of c lies within bytes [from, to).
func (t *text) anyCue(c *cues, from, to int) bool {
	for _, h := range t.find(c, false) {
		if h.at >= from && h.at < to {
			return true
		}
	}
	return false
}

// voided reports whether the word right after m is one that makes the
// phrase innocent.
func (t *text) voided(m match, after map[string]bool) bool {
	i := t.wordAt(m.end)
	return i < len(t.words) && after[t.words[i]]
}

// sameClause reports whether two matches share a sentence (a clause, in
// an unpunctuated transcript).
func (t *text) sameClause(a, b match) bool {
	return t.sentenceStart(a.at) == t.sentenceStart(b.at)
}

// candidate is a word where a prefiltered group may match.
type candidate struct {
	g    int
	word int
}

// indexCandidates finds, once per transcript, which word could start a match
// of which cue group.
func (t *text) indexCandidates() {
	buildIndexOne.Do(buildPrefixIndex)
	t.candidates = map[*cues][]candidate{}
	for i, w := range t.words {
		for l := 1; l <= min(len(w), maxPrefixLen); l++ {
			for _, ref := range prefixIndex[w[:l]] {
				t.candidates[ref.c] = append(t.candidates[ref.c], candidate{g: ref.g, word: i})
			}
		}
	}
}

// matchWindowWords bounds how far past its first word a cue can reach.
const matchWindowWords = 16

// find returns every match of c in reading order, overlapping matches
// merged, skipping negated ones when skipNegated is set.
func (t *text) find(c *cues, skipNegated bool) []match {
	if t.candidates == nil {
		t.indexCandidates()
	}
	var out []match
	add := func(from, to int) {
		if skipNegated && t.negatedClose(from) {
			return
		}
		out = append(out, match{at: from, end: to, text: strings.ToLower(t.raw[from:to])})
	}
	for _, g := range c.groups {
		if g.starts != nil {
			continue
		}
		for _, sen := range t.sentences {
			for _, loc := range g.re.FindAllStringIndex(t.raw[sen[0]:sen[1]], -1) {
				add(sen[0]+loc[0], sen[0]+loc[1])
			}
		}
	}
	for _, cand := range t.candidates[c] {
		from := t.wordOffsets[cand.word]
		to := t.sentenceEnd(from)
		if w := cand.word + matchWindowWords; w < len(t.wordOffsets) {
			to = min(to, t.wordOffsets[w])
		}
		if loc := c.groups[cand.g].anchored.FindStringIndex(t.raw[from:to]); loc != nil {
			add(from, from+loc[1])
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].at < out[j].at })
	merged := out[:0]
	for _, m := range out {
		if len(merged) > 0 && m.at < merged[len(merged)-1].end {
			continue
		}
		merged = append(merged, m)
	}
	return merged
}

// sentenceEnd is the end of the sentence holding byte offset at.
func (t *text) sentenceEnd(at int) int {
	i := sort.Search(len(t.sentences), func(i int) bool { return t.sentences[i][1] > at })
	if i == len(t.sentences) {
		return len(t.raw)
	}
	return t.sentences[i][1]
}

var firstPerson = regexp.MustCompile(`(?i)\bI\b`)

// inFirstPerson keeps the matches whose sentence has "I" in it.
func (t *text) inFirstPerson(ms []match) []match {
	var out []match
	for _, m := range ms {
		for _, s := range t.sentences {
			if m.at >= s[0] && m.at < s[1] {
				if firstPerson.MatchString(t.raw[s[0]:s[1]]) {
					out = append(out, m)
				}
				break
			}
		}
	}
	return out
}

// distinct counts different matched phrases, so that repeating one cue does
// not count as covering a criterion several times.
func distinct(ms []match) int {
	seen := make(map[string]bool, len(ms))
	for _, m := range ms {
		seen[m.text] = true
	}
	return len(seen)
}

// repetition is the share of word 4-grams that occur more than once: the
// signature of an answer that circles back on itself.
func (t *text) repetition() float64 {
	const n = 4
	if len(t.words) < 20 {
		return 0
	}
	counts := make(map[string]int, len(t.words))
	for i := 0; i+n <= len(t.words); i++ {
		counts[strings.Join(t.words[i:i+n], " ")]++
	}
	repeated := 0
	for _, c := range counts {
		if c > 1 {
			repeated += c
		}
	}
	return float64(repeated) / float64(len(t.words)-n+1)
}

// cues is a family of phrases to look for, held as small regular
// expressions each with the word prefixes its matches can start with. Go's
// regexp has no literal prefilter for alternations, so without one every
// expression would run over every sentence; with it, an expression runs only
// on sentences containing one of its first words, which keeps the rubric far
// under its 5 ms budget per answer.
type cues struct {
	groups []cueGroup
}

type cueGroup struct {
	re *regexp.Regexp
	// anchored matches only at the start of its input; it is tried at the
	// words that begin with one of starts.
	anchored *regexp.Regexp
	// starts are lower-case prefixes of the word a match begins with; nil
	// means the group cannot be prefiltered and runs over every sentence.
	starts []string
}

// cueRef names one prefiltered group of one cue family.
type cueRef struct {
	c *cues
	g int
}

var (
	// allCues is every family built by phrases, indexed by word prefix the
	// first time a transcript is read.
	allCues       []*cues
	prefixIndex   map[string][]cueRef
	maxPrefixLen  int
	buildIndexOne sync.Once
)

func buildPrefixIndex() {
	prefixIndex = map[string][]cueRef{}
	for _, c := range allCues {
		for gi, g := range c.groups {
			seen := map[string]bool{}
			for _, p := range g.starts {
				if seen[p] {
					continue
				}
				seen[p] = true
				prefixIndex[p] = append(prefixIndex[p], cueRef{c, gi})
				maxPrefixLen = max(maxPrefixLen, len(p))
			}
		}
	}
}

// maxProgInsts keeps each expression small enough for the backtracking
// matcher, which is fast on sentence-length inputs.
const maxProgInsts = 300

// phrases compiles cue fragments into case-insensitive, word-bounded
// expressions. Fragments may use regexp syntax. A fragment ending in
// punctuation ("30%", "like,") gets no closing word boundary, which would
// otherwise demand a letter right after it.
func phrases(fragments ...string) *cues {
	c := &cues{}
	var filtered, always struct {
		frags  []string
		starts []string
	}
	flush := func(g *struct {
		frags  []string
		starts []string
	}, prefiltered bool) {
		if len(g.frags) == 0 {
			return
		}
		alt := strings.Join(g.frags, "|")
		cg := cueGroup{re: regexp.MustCompile(`(?i)\b(?:` + alt + `)`)}
		if prefiltered {
			cg.starts = g.starts
			cg.anchored = regexp.MustCompile(`(?i)^(?:` + alt + `)`)
		}
		c.groups = append(c.groups, cg)
		g.frags, g.starts = nil, nil
	}
	for _, f := range fragments {
		bounded := `(?:` + f + `)`
		if !strings.HasSuffix(f, "%") && !strings.HasSuffix(f, ",") {
			bounded += `\b`
		}
		starts, ok := firstWordPrefixes(f)
		g := &always
		if ok {
			g = &filtered
		}
		if len(g.frags) > 0 && progSize(`(?i)\b(?:`+strings.Join(append(g.frags, bounded), "|")+`)`) > maxProgInsts {
			flush(g, ok)
		}
		g.frags = append(g.frags, bounded)
		g.starts = append(g.starts, starts...)
	}
	flush(&filtered, true)
	flush(&always, false)
	allCues = append(allCues, c)
	return c
}

// pattern is a single hand-written expression used as a cue family.
func pattern(expr string) *cues {
	return &cues{groups: []cueGroup{{re: regexp.MustCompile(expr)}}}
}

func parseCue(expr string) *syntax.Regexp {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		panic(fmt.Sprintf("feedback: cue %q: %v", expr, err))
	}
	return re.Simplify()
}

func progSize(expr string) int {
	prog, err := syntax.Compile(parseCue(expr))
	if err != nil {
		panic(fmt.Sprintf("feedback: cue %q: %v", expr, err))
	}
	return len(prog.Inst)
}

// firstWordPrefixes lists the lower-case letters every match of a fragment
// starts with, up to the first non-letter, or reports that it cannot tell
// (the fragment starts with a class, a repetition or an optional part).
func firstWordPrefixes(fragment string) ([]string, bool) {
	var walk func(re *syntax.Regexp) ([]string, bool)
	walk = func(re *syntax.Regexp) ([]string, bool) {
		switch re.Op {
		case syntax.OpLiteral:
			var b strings.Builder
			for _, r := range re.Rune {
				if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' {
					break
				}
				b.WriteRune(unicode.ToLower(r))
			}
			if b.Len() == 0 {
				return nil, false
			}
			return []string{b.String()}, true
		case syntax.OpCapture:
			return walk(re.Sub[0])
		case syntax.OpConcat:
			for i, sub := range re.Sub {
				if sub.Op == syntax.OpWordBoundary || sub.Op == syntax.OpBeginText || sub.Op == syntax.OpBeginLine {
					continue
				}
				if sub.Op == syntax.OpCharClass && i+1 < len(re.Sub) {
					// (?i) folds a leading letter into a class like [Ii]: a
					// one-letter prefix is still a prefix.
					if p, ok := foldedLetter(sub); ok {
						return []string{p}, true
					}
				}
				return walk(sub)
			}
			return nil, false
		case syntax.OpAlternate:
			var all []string
			for _, sub := range re.Sub {
				ps, ok := walk(sub)
				if !ok {
					return nil, false
				}
				all = append(all, ps...)
			}
			return all, true
		case syntax.OpCharClass:
			if p, ok := foldedLetter(re); ok {
				return []string{p}, true
			}
		}
		return nil, false
	}
	return walk(parseCue(fragment))
}

// foldedLetter recognises a class that is one letter in both cases.
func foldedLetter(re *syntax.Regexp) (string, bool) {
	r := re.Rune
	if len(r) == 4 && r[0] == r[1] && r[2] == r[3] && unicode.ToLower(r[0]) == unicode.ToLower(r[2]) && unicode.IsLetter(r[0]) {
		return string(unicode.ToLower(r[0])), true
	}
	return "", false
}

// A clause does something: someone did, does or would do something. An
// answer gets credit for what its clauses do, not for words standing on
// their own after signposts ("First, shadowing. Second, a community
// clinic with patients."), nor for anything in an answer made of such
// fragments.
//
// segment is a run of words between sentence ends and signposts, whether
// it holds a clause, and whether a signpost introduces it.
type segment struct {
	from, to   int // word indices
	clause     bool
	signposted bool
}

var (
	// enumerators are the signposts that head an item of a list.
	enumerators = wordSet("first", "firstly", "second", "secondly", "third", "thirdly", "fourth", "fifth", "finally", "lastly",
		"additionally", "furthermore", "moreover")
	// enumeratorPhrases are signposts of more than one word.
	enumeratorPhrases = [][]string{{"as", "a", "result"}, {"in", "the", "future"}, {"in", "conclusion"}, {"in", "summary"}, {"to", "begin", "with"},
		{"on", "top", "of", "that"}, {"in", "the", "end"}, {"most", "importantly"}}
	// finiteVerbs are the words that make a clause of the words around
	// them whatever else they say: subjects, auxiliaries and the common
	// irregular pasts.
	finiteVerbs = wordSet("i", "we", "he", "she", "they", "you", "i'm", "i've", "i'd", "i'll", "we're", "we've", "we'd", "he's", "she's", "they're",
		"they've", "it's", "that's", "there's", "am", "is", "are", "was", "were", "has", "have", "had", "do", "does", "did", "will", "would", "can",
		"could", "should", "may", "might", "must", "don't", "didn't", "doesn't", "wasn't", "weren't", "isn't", "aren't", "won't", "wouldn't", "can't",
		"couldn't", "came", "went", "saw", "told", "said", "took", "gave", "made", "felt", "knew", "got", "found", "thought", "began", "became",
		"brought", "kept", "left", "met", "ran", "sat", "spoke", "stood", "taught", "wrote", "held", "led", "lost", "heard", "understood", "chose",
		"grew", "paid", "sent", "spent", "built", "fell", "won", "broke", "let", "put", "set", "cut", "hurt", "read")
	determiners = wordSet("the", "a", "an", "my", "our", "their", "his", "her", "its", "this", "that", "these", "those", "your")
	// notVerbPrecedents are words after which an "-ed" word describes a
	// noun rather than says what someone did ("the underserved", "a
	// trained assistant").
	notVerbPrecedents = wordSet("the", "a", "an", "my", "our", "their", "his", "her", "its", "this", "that", "these", "those", "of", "in", "for",
		"with", "and", "or", "to", "as", "very", "more", "most", "well", "well-", "some", "many")
)

// enumeratorAt is how many words of a signpost start at word i (0: none).
// In a punctuated transcript a signpost opens a sentence or follows a
// comma; "the first time" is not one anywhere.
func (t *text) enumeratorAt(i int) int {
	if i > 0 && (determiners[t.words[i-1]] || t.punctuated && !strings.ContainsAny(t.raw[t.wordOffsets[i-1]:t.wordOffsets[i]], ",;:.!?\n")) {
		return 0
	}
	if enumerators[t.words[i]] {
		return 1
	}
	for _, p := range enumeratorPhrases {
		if i+len(p) <= len(t.words) && slices.Equal(t.words[i:i+len(p)], p) {
			return len(p)
		}
	}
	return 0
}

// segmentsOf cuts the transcript at sentence ends and signposts.
func (t *text) segmentsOf() []segment {
	if t.segments != nil {
		return t.segments
	}
	var out []segment
	for _, s := range t.sentences {
		from, to := t.wordAt(s[0]), t.wordAt(s[1])
		start, signposted := from, false
		for i := from; i < to; {
			if n := t.enumeratorAt(i); n > 0 {
				if i > start {
					out = append(out, t.segment(start, i, signposted))
				}
				i += n
				start, signposted = i, true
				continue
			}
			i++
		}
		if to > start {
			out = append(out, t.segment(start, to, signposted))
		}
	}
	t.segments = out
	return out
}

func (t *text) segment(from, to int, signposted bool) segment {
	s := segment{from: from, to: to, signposted: signposted}
	for i := from; i < to && !s.clause; i++ {
		w := t.words[i]
		s.clause = finiteVerbs[w] || strings.HasSuffix(w, "ed") && len(w) > 4 && i > from && !notVerbPrecedents[t.words[i-1]]
	}
	return s
}

// fragments counts the segments that say something without a clause,
// and all segments that say something.
func (t *text) fragments() (fragments, segments int) {
	for _, s := range t.segmentsOf() {
		if !slices.ContainsFunc(t.words[s.from:s.to], func(w string) bool { return !questionStopwords[w] }) {
			continue // "and so on": nothing said, nothing missing
		}
		segments++
		if !s.clause {
			fragments++
		}
	}
	return fragments, segments
}

// fragmentary: the answer is a list of fragments — three or more, and at
// least two in five of what it says — rather than of clauses.
func (t *text) fragmentary() bool {
	fragments, segments := t.fragments()
	return fragments >= 3 && 5*fragments >= 2*segments
}

// inClauses drops the matches that lie in a fragment after a signpost,
// or in any fragment of a fragmentary answer; a signpost belongs to the
// segment it introduces ("As a result, he sat through the whole filling").
func (t *text) inClauses(ms []match) []match {
	listed := t.fragmentary()
	var out []match
	for _, m := range ms {
		i := t.wordAt(m.at)
		for _, s := range t.segmentsOf() {
			if i < s.to {
				if s.clause || !s.signposted && !listed {
					out = append(out, m)
				}
				break
			}
		}
	}
	return out
}
