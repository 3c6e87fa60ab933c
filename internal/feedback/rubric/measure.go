package rubric

import (
	"math"
	"sort"
	"strings"

	"github.com/whitecoat/whitecoat/internal/feedback"
)

// orderScore is the share of consecutive found parts that appear in the
// order the structure lists them (situation before action before result).
func (a *Assessment) orderScore(ordered bool) float64 {
	if !ordered {
		return 1
	}
	var firsts []int
	for _, p := range a.parts {
		if len(p.hits) > 0 {
			firsts = append(firsts, p.hits[0].at)
		}
	}
	if len(firsts) < 2 {
		return 0
	}
	inOrder := 0
	for i := 1; i < len(firsts); i++ {
		if firsts[i] >= firsts[i-1] {
			inOrder++
		}
	}
	return float64(inOrder) / float64(len(firsts)-1)
}

func (a *Assessment) measureSpecificity() specificity {
	var s specificity
	for _, fam := range specificityCues {
		hits := a.t.find(fam.re, false)
		if len(hits) == 0 {
			continue
		}
		s.families = append(s.families, fam.name)
		s.hits = append(s.hits, hits...)
	}
	sort.SliceStable(s.hits, func(i, j int) bool { return s.hits[i].at < s.hits[j].at })
	breadth := math.Min(float64(len(s.families)), 4) / 4
	depth := math.Min(float64(len(s.hits)), 8) / 8
	s.score = 0.6*breadth + 0.4*depth
	return s
}

// questionStopwords are words of a question that say nothing about its topic.
var questionStopwords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the and or but if of to in on at for with about from by as is are was were be been being do does did
		you your yours yourself me my i we our us they them their he she his her it its this that these those what which who whom whose when where why how
		would could should will can may might must have has had tell describe time give example talk explain want think situation handle deal dealt one
		some any there here not no so than then too very just also more most into over after before during while become like please walk through something
		someone thing things way made make let know get got you'd you're what's don't i'm i'd question answer`) {
		questionStopwords[w] = true
	}
}

// stem is deliberately crude: without a plural or verb ending, the first
// seven letters join "dentist", "dentistry" and "dentists", or "pregnant"
// and "pregnancy", while "patient" and "patience" stay apart.
func stem(w string) string {
	for _, suffix := range []string{"ing", "ed", "es", "s"} {
		if len(w) > len(suffix)+4 && strings.HasSuffix(w, suffix) {
			w = strings.TrimSuffix(w, suffix)
			break
		}
	}
	if len(w) > 7 {
		return w[:7]
	}
	return w
}

// questionOverlap is the share of the question's topic words the answer
// uses, and how many topic words the question has.
func questionOverlap(question string, t *text) (float64, int) {
	answer := make(map[string]bool, len(t.words))
	for _, w := range t.words {
		answer[stem(w)] = true
	}
	var total, found int
	seen := map[string]bool{}
	for _, w := range newText(question).words {
		if len(w) < 5 || questionStopwords[w] || seen[stem(w)] {
			continue
		}
		seen[stem(w)] = true
		total++
		if answer[stem(w)] {
			found++
		}
	}
	if total == 0 {
		return 0, 0
	}
	return float64(found) / float64(total), total
}

// echoAllowed is how much of an answer may repeat the question's phrases:
// restating it once to frame the answer is good practice.
const echoAllowed = 0.15

// questionEcho is the share of the answer's three-word phrases that are
// the question's.
func questionEcho(question string, t *text) float64 {
	q := newText(question).words
	if len(q) < 3 || len(t.words) < 3 {
		return 0
	}
	trigrams := map[string]bool{}
	for i := 0; i+3 <= len(q); i++ {
		trigrams[strings.Join(q[i:i+3], " ")] = true
	}
	n := 0
	for i := 0; i+3 <= len(t.words); i++ {
		if trigrams[strings.Join(t.words[i:i+3], " ")] {
			n++
		}
	}
	return float64(n) / float64(len(t.words)-2)
}

// runOn is true when a punctuated transcript strings everything into a few
// very long sentences.
func (a *Assessment) runOn() bool {
	return a.t.punctuated && len(a.t.sentences) > 0 && a.words/len(a.t.sentences) > 40
}

// keywordStuffed: terms of art strung together — six or more, at least
// one in every seventeen words — with hardly a concrete step between them.
func (a *Assessment) keywordStuffed() bool {
	steps := distinct(a.t.inFirstPerson(a.t.find(actionCues, false)))
	n := distinct(a.jargon)
	return n >= 6 && 100*n >= 6*a.words && steps < 4
}

// offTopic: the answer is about something else. A thin answer on the
// right topic is not off topic — it shares the question's words or its
// profession's, or follows some of the structure; an answer about hobbies
// to an ethics question does none of these.
func (a *Assessment) offTopic() bool {
	if a.echo > 2*echoAllowed+0.2 {
		return true
	}
	if a.keywords >= 2 {
		return a.overlap < 0.1 && a.coverage < 0.3 && distinct(a.prof) < 2
	}
	return a.coverage < 0.2 && distinct(a.prof) < 2
}

// failureQuestion asks about something that went wrong; failureCues are
// how an answer tells one.
var (
	failureQuestion = phrases(`mistakes?`, `fail\w*`, `weakness\w*`, `wrong`, `regret\w*`, `critici[sz]\w*`, `setbacks?`, `(did not|didn't) go`, `struggl\w*`, `fell short`, `negative feedback`)
	failureCues     = phrases(`mistakes?`, `errors?`, `wrong`, `fail\w*`, `(didn't|did not|couldn't|could not|wasn't|was not|hadn't|had not|forgot|missed|lost)`, `struggl\w*`,
		`weakness\w*`, `regret\w*`, `should have`, `fell short`, `critici[sz]\w*`, `feedback`, `poor(ly)?`, `bad`, `worst`, `overwhelm\w*`, `behind`, `late`, `embarrass\w*`,
		`ashamed`, `not (good|enough)`, `(too|so) (quiet|shy|slow|impatient|blunt|nervous|anxious)`, `difficult`, `hard time`, `setback`, `procrastinat\w*`)
)

// answersAnotherQuestion: an answer about something else altogether, a
// success story for a question about a failure, or why the profession for
// why this school.
func (a *Assessment) answersAnotherQuestion() bool {
	if a.words < feedback.OneLinerWords {
		return false
	}
	if a.offTopic() {
		return true
	}
	switch a.qt {
	case feedback.TypeBehavioral, feedback.TypeGeneral:
		q := newText(a.in.Question)
		return len(q.find(failureQuestion, false)) > 0 && len(a.t.find(failureCues, false)) == 0
	case feedback.TypeWhySchool:
		return a.part("specific") == 0 && a.coverageAs(feedback.TypeWhyProfession) >= 0.5
	case feedback.TypeWhyProfession:
		return a.skipsTheComparison()
	}
	return false
}

// careers are the professions and the careers applicants compare them
// with: the words that name them, and their abbreviations, which only
// count in capitals unless the transcript has no capitals at all (speech
// engines without punctuation write "pt" and "ot").
var careers = []struct{ words, abbreviations *cues }{
	{phrases(`dentist\w*`, `dental`), nil},
	{phrases(`medicine`, `physicians?`, `doctors?`, `medical school`), phrases(`(?-i:MDs?)`)},
	{phrases(`physician assistants?`), phrases(`(?-i:PAs?)`)},
	{phrases(`pharmac\w*`), nil},
	{phrases(`physical therap\w*`, `physiotherap\w*`), phrases(`(?-i:PTs?)`)},
	{phrases(`occupational therap\w*`), phrases(`(?-i:OTs?)`)},
	{phrases(`veterinar\w*`, `vets?`), nil},
	{phrases(`nurs(e|es|ing)`, `nurse practitioners?`), phrases(`(?-i:NPs?)`)},
}

// names reports whether t names career i.
func names(t *text, i int) bool {
	c := careers[i]
	if len(t.find(c.words, false)) > 0 {
		return true
	}
	if c.abbreviations == nil {
		return false
	}
	if len(t.find(c.abbreviations, false)) > 0 {
		return true
	}
	return t.caseless() && len(t.find(lowerAbbreviations[i], false)) > 0
}

// lowerAbbreviations are careers' abbreviations matched in any case.
var lowerAbbreviations = func() []*cues {
	out := make([]*cues, len(careers))
	for i, c := range careers {
		if c.abbreviations != nil {
			out[i] = pattern(`(?i)` + strings.ReplaceAll(c.abbreviations.groups[0].re.String(), "(?-i:", "(?:"))
		}
	}
	return out
}()

// skipsTheComparison: the question compares two careers ("Why OT rather
// than PT?") and the answer never mentions one of them.
func (a *Assessment) skipsTheComparison() bool {
	q := newText(a.in.Question)
	var compared []int
	for i := range careers {
		if names(q, i) {
			compared = append(compared, i)
		}
	}
	if len(compared) < 2 {
		return false
	}
	for _, i := range compared {
		if !names(a.t, i) {
			return true
		}
	}
	return false
}

// coverageAs is how well the answer follows another type's structure.
func (a *Assessment) coverageAs(qt feedback.QuestionType) float64 {
	var weightSum, earned float64
	for _, c := range structures[qt].components {
		hits := a.t.find(c.re, false)
		weightSum += c.weight
		earned += c.weight * math.Min(1, float64(distinct(hits))/float64(c.need))
	}
	return earned / weightSum
}

// firstSentence is the opening of the answer, quoted when the answer as a
// whole is the problem.
func (a *Assessment) firstSentence() match {
	if len(a.t.sentences) == 0 {
		return match{}
	}
	s := a.t.sentences[0]
	return match{at: s[0], end: s[1]}
}

// complete reports whether the answer covers what its question needs, so
// that a concise answer is not told to say more.
func (a *Assessment) complete() bool { return a.coverage >= 0.8 }
