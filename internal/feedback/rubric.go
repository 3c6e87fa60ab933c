package feedback

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
)

// Rubric is the embedded engine: deterministic, explainable, no network.
type Rubric struct{}

// NewRubric returns the rubric engine. It holds no state; the cue tables are
// compiled once at package initialisation.
func NewRubric() *Rubric { return &Rubric{} }

// Section weights in the overall score. Content and structure are what an
// interviewer remembers; delivery colours the impression.
const (
	weightContent    = 0.45
	weightStructure  = 0.40
	weightImpression = 0.15
)

// Answers shorter than oneLinerWords cannot show enough for an interviewer
// to judge (about 15-20 seconds of speech), however polished; an answer to
// another question is capped lower than a red flag. Otherwise length earns
// nothing by itself: an answer that covers what its question needs is
// strong however briefly it does so.
const (
	oneLinerWords = 40
	oneLinerCap   = 35
	briefWords    = 25
	offTopicCap   = 40
)

// Score implements Engine.
func (r *Rubric) Score(ctx context.Context, in Input) (Feedback, error) {
	if err := in.validate(); err != nil {
		return Feedback{}, err
	}
	if err := ctx.Err(); err != nil {
		return Feedback{}, fmt.Errorf("feedback: %w", err)
	}
	return assess(in).feedback(), nil
}

// assessment is everything the rubric measured about one answer; the scores,
// evidence, suggestions and summary are all read off it.
type assessment struct {
	in        Input
	t         *text
	qt        questionType
	who       string
	words     int
	parts     []partResult
	coverage  float64
	order     float64 // share of found parts told in their natural order
	signposts []match
	relevance float64
	overlap   float64 // share of the question's topic words the answer uses
	keywords  int     // how many topic words the question has
	echo      float64 // share of the answer's phrases taken from the question
	specific  specificity
	reflect   []match
	reasons   []match
	prof      []match
	health    []match
	generic   []match
	flags     []flagHit
	delivery  deliveryResult
	hedges    []match
	repeat    float64
	jargon    []match
}

type partResult struct {
	c      component
	hits   []match
	credit float64
}

type specificity struct {
	families []string
	hits     []match
	score    float64
}

type flagHit struct {
	key FlagKey
	m   match
}

func assess(in Input) *assessment {
	a := &assessment{in: in, t: newText(in.Transcript), qt: classify(in), who: Professions[in.Profession]}
	a.words = len(a.t.words)
	st := structures[a.qt]

	var weightSum, earned float64
	for _, c := range st.components {
		hits := a.t.find(c.re, false)
		if c.firstPerson {
			hits = a.t.inFirstPerson(hits)
		}
		credit := math.Min(1, float64(distinct(hits))/float64(c.need))
		a.parts = append(a.parts, partResult{c: c, hits: hits, credit: credit})
		weightSum += c.weight
		earned += c.weight * credit
	}
	a.coverage = earned / weightSum
	a.order = a.orderScore(st.ordered)
	a.signposts = a.t.find(signpostCues, false)

	a.relevance = a.coverage
	// A Big 3 question is a formula ("Why do you want to attend our DPT
	// program?"): its words say nothing about what a good answer contains, so
	// only the expected structure shows relevance. Elsewhere the question's
	// topic words count, more so the more of them the question has — a
	// one-keyword question ("led a group") is answered just as well about "a team".
	if a.qt != typeTellMe && a.qt != typeWhyProfession && a.qt != typeWhySchool {
		a.overlap, a.keywords = questionOverlap(in.Question, a.t)
		if a.keywords > 0 {
			w := math.Min(0.4, 0.1*float64(a.keywords))
			a.relevance = w*math.Min(1, a.overlap/0.5) + (1-w)*a.coverage
		}
	}
	// The question read back is not an answer to it.
	a.echo = questionEcho(in.Question, a.t)
	a.relevance *= 1 - math.Min(1, 2*math.Max(0, a.echo-echoAllowed))

	a.specific = a.measureSpecificity()
	a.reflect = a.t.find(reflectionCues, false)
	a.reasons = a.t.find(reasonCues, false)
	a.prof = a.t.find(professionCues[in.Profession], false)
	a.health = a.t.find(healthCues, false)
	a.generic = a.t.find(generalityCues, false)
	a.hedges = a.t.find(hedgeCues, false)
	a.repeat = a.t.repetition()
	a.jargon = a.t.find(jargonCues, false)
	a.delivery = measureDelivery(in.Delivery, a.t, in.Written, in.LimitSeconds)
	a.flags = a.findFlags()
	if a.answersAnotherQuestion() {
		a.flags = append(a.flags, flagHit{key: FlagDifferentQuestion, m: a.firstSentence()})
	}
	return a
}

// orderScore is the share of consecutive found parts that appear in the
// order the structure lists them (situation before action before result).
func (a *assessment) orderScore(ordered bool) float64 {
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

func (a *assessment) measureSpecificity() specificity {
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
func (a *assessment) runOn() bool {
	return a.t.punctuated && len(a.t.sentences) > 0 && a.words/len(a.t.sentences) > 40
}

// insight is reflection with the stock lessons discounted.
func (a *assessment) insight() float64 {
	return a.reflectionCredit() * (1 - 0.4*math.Min(1, float64(distinct(a.t.find(stockLessons, false)))))
}

func (a *assessment) reflectionCredit() float64 {
	hits := a.reflect
	switch a.qt {
	case typeEthical:
		// In a scenario the interviewer listens for reasoning, not hindsight.
		hits = a.reasons
	case typeCommunication:
		// Communication questions come as scenarios or as past examples.
		hits = append(append([]match(nil), a.reflect...), a.reasons...)
	}
	switch n := distinct(hits); {
	case n == 0:
		return 0
	case n == 1:
		return 0.6
	case n == 2:
		return 0.85
	}
	return 1
}

func (a *assessment) professionCredit() float64 {
	return math.Min(1, (float64(distinct(a.prof))+0.5*float64(distinct(a.health)))/4)
}

// part is the credit of the structure's component key (0 when the type
// has no such component).
func (a *assessment) part(key string) float64 {
	for _, p := range a.parts {
		if p.c.key == key {
			return p.credit
		}
	}
	return 0
}

func (a *assessment) reasonCredit() float64 {
	return math.Min(1, float64(distinct(a.reasons))/2)
}

// judgement is what the answer decides or does, and why: for each type the
// parts of its structure that carry the applicant's judgement. A red flag
// is a failure of judgement whatever else the answer does.
func (a *assessment) judgement() float64 {
	if len(a.flags) > 0 {
		return 0
	}
	if a.keywordStuffed() {
		return 0.15
	}
	switch a.qt {
	case typeEthical:
		return 0.25*a.part("principles") + 0.2*a.part("options") + 0.3*a.part("decision") + 0.25*a.reasonCredit()
	case typeCommunication:
		return 0.3*a.part("listening") + 0.25*a.part("empathy") + 0.2*a.part("clarity") + 0.25*a.part("plan")
	case typeBehavioral:
		return 0.5*a.part("action") + 0.25*a.reasonCredit() + 0.25*a.part("result")
	case typeTeamwork:
		return 0.4*a.part("action") + 0.2*a.reasonCredit() + 0.2*a.part("result") + 0.2*a.part("team")
	case typeLeadership:
		return 0.4*a.part("action") + 0.2*a.reasonCredit() + 0.2*a.part("result") + 0.2*a.part("leading")
	case typeWhyProfession:
		return 0.4*a.part("motivation") + 0.3*a.part("fit") + 0.3*a.part("reflection")
	case typeTellMe:
		return 0.35*a.part("defining") + 0.35*a.part("forward") + 0.3*a.reflectionCredit()
	case typeWhySchool:
		return 0.5*a.part("link") + 0.5*a.part("contribution")
	}
	return 0.5*a.part("answer") + 0.5*a.part("reasoning")
}

// economy is 1 for an answer whose every sentence adds something, less for
// stock phrases (forgiven in part when real detail surrounds them),
// repetition, run-on sentences and the question read back.
func (a *assessment) economy() float64 {
	if a.keywordStuffed() {
		return 0
	}
	f := 1 - math.Min(0.6, 0.15*float64(distinct(a.generic)))*(1-0.5*a.specific.score)
	if a.repeat > 0.15 {
		f -= 0.3
	}
	if a.runOn() {
		f -= 0.15
	}
	f -= math.Min(0.6, 2*math.Max(0, a.echo-echoAllowed))
	// Too little said to be padded is too little to be economical either.
	return math.Max(0, f) * math.Min(1, float64(a.words)/oneLinerWords)
}

func (a *assessment) flow() float64 {
	signposts := math.Min(float64(distinct(a.signposts)), 2) / 2
	f := 0.5 + 0.5*signposts
	if structures[a.qt].ordered {
		f = 0.7*a.order + 0.3*signposts
	}
	return f * math.Min(1, float64(a.words)/oneLinerWords)
}

// presence is how the words come across: the quality of what was said,
// less hedging; a red flag is a concern about professionalism.
func (a *assessment) presence(content, structure float64) float64 {
	f := (content + structure) / 200
	if n := distinct(a.hedges); n > 2 {
		f -= math.Min(0.45, 0.15*float64(n-2))
	}
	if len(a.flags) > 0 {
		f = math.Min(f, 0.2)
	}
	return math.Max(0, f)
}

// brevityCap is the most an answer under oneLinerWords can score: a
// one-liner oneLinerCap, rising to a partial answer's 50 at 40 words.
func (a *assessment) brevityCap() float64 {
	return oneLinerCap + 15*math.Max(0, float64(a.words-briefWords))/float64(oneLinerWords-briefWords)
}

// keywordStuffed: terms of art strung together — six or more, at least
// one in every seventeen words — with hardly a concrete step between them.
func (a *assessment) keywordStuffed() bool {
	steps := distinct(a.t.inFirstPerson(a.t.find(actionCues, false)))
	n := distinct(a.jargon)
	return n >= 6 && 100*n >= 6*a.words && steps < 4
}

// offTopic: the answer is about something else. A thin answer on the
// right topic is not off topic — it shares the question's words or its
// profession's, or follows some of the structure; an answer about hobbies
// to an ethics question does none of these.
func (a *assessment) offTopic() bool {
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
func (a *assessment) answersAnotherQuestion() bool {
	if a.words < oneLinerWords {
		return false
	}
	if a.offTopic() {
		return true
	}
	switch a.qt {
	case typeBehavioral, typeGeneral:
		q := newText(a.in.Question)
		return len(q.find(failureQuestion, false)) > 0 && len(a.t.find(failureCues, false)) == 0
	case typeWhySchool:
		return a.part("specific") == 0 && a.coverageAs(typeWhyProfession) >= 0.5
	case typeWhyProfession:
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
func (a *assessment) skipsTheComparison() bool {
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
func (a *assessment) coverageAs(qt questionType) float64 {
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
func (a *assessment) firstSentence() match {
	if len(a.t.sentences) == 0 {
		return match{}
	}
	s := a.t.sentences[0]
	return match{at: s[0], end: s[1]}
}

// judge rates every criterion.
func (a *assessment) judge() []judged {
	quote := func(hits []match) string {
		if len(hits) == 0 {
			return ""
		}
		return a.t.quote(hits[0].at)
	}
	js := make([]judged, 0, len(criteria))
	var content, structure float64
	for _, c := range criteria {
		j := judged{c: c}
		switch c.key {
		case critRelevance:
			j.f = math.Min(1, a.relevance/0.8)
			j.note = fmt.Sprintf("%.0f%% relevant by the question's words and the expected structure", 100*a.relevance)
			if a.echo > echoAllowed {
				j.note += fmt.Sprintf("; %.0f%% of the answer repeats the question", 100*a.echo)
			}
		case critJudgement:
			j.f = a.judgement()
			if len(a.flags) > 0 {
				j.quote, j.note = a.t.quote(a.flags[0].m.at), "red flag: "+flagTexts[a.flags[0].key].name
			} else if hits := a.judgementHits(); len(hits) > 0 {
				j.quote = quote(hits)
			}
		case critEvidence:
			j.f = math.Min(1, a.specific.score/0.75)
			j.quote, j.note = quote(a.specific.hits), "concrete detail: "+orNone(a.specific.families)
			if a.qt == typeEthical || a.qt == typeCommunication {
				// A scenario has no past to be specific about: concrete
				// steps — what the applicant would ask, say and do — are its
				// evidence.
				steps := a.t.inFirstPerson(a.t.find(actionCues, false))
				if f := math.Min(1, float64(distinct(steps))/4); f > j.f {
					j.f, j.quote, j.note = f, quote(steps), fmt.Sprintf("%d concrete steps", distinct(steps))
				}
			}
		case critInsight:
			j.f = a.insight()
			if a.qt == typeEthical {
				j.quote = quote(a.reasons)
			} else {
				j.quote = quote(a.reflect)
			}
		case critFit:
			j.f = a.professionCredit()
			j.quote, j.note = quote(a.prof), fmt.Sprintf("%d %s terms", distinct(a.prof), a.who)
		case critStructure:
			j.f = a.coverage
			j.note = "judged as " + a.qt.label()
		case critFlow:
			j.f = a.flow()
			j.quote = quote(a.signposts)
		case critEconomy:
			j.f = a.economy()
			j.quote = quote(a.generic)
			if a.keywordStuffed() {
				j.quote, j.note = quote(a.jargon), fmt.Sprintf("%d terms of art with no concrete step or detail", distinct(a.jargon))
			}
		case critDelivery:
			j.f = a.delivery.score / 100
			j.quote = a.delivery.fillerQuote
			if a.in.Written {
				j.c = writtenLength(j.c)
			}
		case critPresence:
			j.f = a.presence(content, structure)
			if len(a.flags) > 0 {
				j.quote = a.t.quote(a.flags[0].m.at)
			} else if len(a.hedges) > 2 {
				j.quote, j.note = quote(a.hedges), fmt.Sprintf("%d hedging phrases", len(a.hedges))
			}
		}
		js = append(js, j)
		// Presence reads the two sections before it.
		content, structure = sectionScore(js, SectionContent), sectionScore(js, SectionClarityStructure)
	}
	return js
}

// judgementHits are the words the judgement criterion rests on.
func (a *assessment) judgementHits() []match {
	for _, key := range []string{"decision", "action", "listening", "motivation", "defining", "link", "answer"} {
		for _, p := range a.parts {
			if p.c.key == key && len(p.hits) > 0 {
				return p.hits
			}
		}
	}
	return a.reasons
}

func (a *assessment) scores(js []judged) (overall int, sections SectionScores) {
	content := sectionScore(js, SectionContent)
	structure := sectionScore(js, SectionClarityStructure)
	impression := sectionScore(js, SectionOverallImpression)
	o := weightContent*content + weightStructure*structure + weightImpression*impression
	if a.words < oneLinerWords {
		o = math.Min(o, a.brevityCap())
	}
	if a.offTopic() {
		o = math.Min(o, offTopicCap)
	}
	if len(a.flags) > 0 {
		o = math.Min(o, redFlagCap)
	}
	return clampScore(o), SectionScores{
		OverallImpression: clampScore(impression),
		ClarityStructure:  clampScore(structure),
		Content:           clampScore(content),
	}
}

func (a *assessment) feedback() Feedback {
	js := a.judge()
	overall, sections := a.scores(js)
	sugs := a.suggestions()
	out := Feedback{
		OverallScore:  overall,
		SectionScores: sections,
		Summary:       a.summary(overall, sugs),
		Suggestions:   make([]string, 0, len(sugs)),
		RubricVersion: RubricVersion,
		Engine:        EngineRubric,
		Evidence:      a.evidence(js),
		RedFlags:      a.redFlags(),
		Competencies:  a.competencies(js),
	}
	for _, s := range sugs {
		out.Suggestions = append(out.Suggestions, s.text)
	}
	return out
}

// pointer names a place in the answer: just after the last words of the
// nearest earlier part that was found, so a suggestion says where the
// missing piece belongs.
func (a *assessment) pointer(partIndex int) string {
	for i := partIndex - 1; i >= 0; i-- {
		if hits := a.parts[i].hits; len(hits) > 0 {
			return "after “…" + tail(a.t.quote(hits[len(hits)-1].at), 8) + "”"
		}
	}
	if partIndex > 0 && len(a.t.sentences) > 0 {
		s := a.t.sentences[len(a.t.sentences)-1]
		return "after “…" + tail(a.t.raw[s[0]:s[1]], 8) + "”"
	}
	return "at the start"
}

type suggestion struct {
	priority float64
	gap      string // short name of what is missing, for the summary
	text     string
}

// Suggestions shown at most; more is a list nobody acts on.
const maxSuggestions = 4

func (a *assessment) suggestions() []suggestion {
	var out []suggestion
	fill := func(tmpl string, after string) string {
		return strings.NewReplacer("{after}", after, "{who}", a.who).Replace(tmpl)
	}
	for _, f := range a.flags {
		r := flagTexts[f.key]
		text := r.instead
		if f.key == FlagDifferentQuestion {
			text = fmt.Sprintf("Answer the question you were asked — “%s” — and treat it as %s: %s",
				strings.TrimSpace(a.in.Question), a.qt.label(), lowerFirst(r.instead))
		} else if f.m.end > f.m.at {
			text = fmt.Sprintf("Rethink “%s”: %s", a.t.quote(f.m.at), lowerFirst(r.instead))
		}
		out = append(out, suggestion{100, "a red flag — " + r.name, text})
	}
	if a.words < oneLinerWords*2 && !a.complete() {
		more, aim := "Say more", fmt.Sprintf("Aim for %s built on the structure below.", a.delivery.targetText())
		if a.in.Written {
			more, aim = "Write more", fmt.Sprintf("Aim for %d-%d words per question, built on the structure below.", writtenWordsMin, writtenWordsMax)
		}
		out = append(out, suggestion{90, "enough substance", fmt.Sprintf(
			"%s: %d words cannot show what this question needs. %s", more, a.words, aim)})
	}
	for i, p := range a.parts {
		if p.credit >= 1 {
			continue
		}
		out = append(out, suggestion{50 + 10*p.c.weight*(1-p.credit), p.c.name, fill(p.c.suggest, a.pointer(i))})
	}
	if a.specific.score < 0.5 {
		text := "Replace generalities with one specific example: who, where, when, what happened, and a detail (a number, a name, what someone said)."
		if len(a.generic) > 0 {
			text = fmt.Sprintf("Replace “%s” with one specific example: who, where, when, and a detail only you could know.", a.generic[0].text)
		}
		out = append(out, suggestion{62, "specific examples", text})
	} else if len(a.generic) > 0 {
		out = append(out, suggestion{40, "fewer stock phrases", fmt.Sprintf(
			"Cut stock phrases like “%s”; your specific details already make the point better.", a.generic[0].text)})
	}
	if a.keywordStuffed() {
		out = append(out, suggestion{92, "substance instead of terms", fmt.Sprintf(
			"Replace terms like “%s” with what you would actually do and say: one concrete step at a time, and why.", a.jargon[0].text)})
	}
	if a.echo > echoAllowed {
		out = append(out, suggestion{70, "your own words", "Do not read the question back: answer it in your own words from the first sentence."})
	}
	if a.professionCredit() < 0.5 {
		out = append(out, suggestion{56, "profession-specific substance", fmt.Sprintf(
			"Tie the answer to the work of a %s: what in this situation would matter to a %s and their patients?", a.who, a.who)})
	}
	out = append(out, a.delivery.suggestions()...)
	if a.repeat > 0.15 {
		out = append(out, suggestion{52, "tighter wording", "Several phrases come back again and again; say each point once and move on."})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].priority > out[j].priority })
	return out[:min(len(out), maxSuggestions)]
}

// complete reports whether the answer covers what its question needs, so
// that a concise answer is not told to say more.
func (a *assessment) complete() bool { return a.coverage >= 0.8 }

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

func (a *assessment) summary(overall int, sugs []suggestion) string {
	label := a.qt.label()
	var b strings.Builder
	switch {
	case len(a.flags) > 0:
		var names []string
		for _, f := range a.flags {
			names = append(names, flagTexts[f.key].name)
		}
		fmt.Fprintf(&b, "This answer to %s raises a red flag: %s.", label, joinList(names))
	case overall >= 85:
		fmt.Fprintf(&b, "A strong answer to %s.", label)
	case overall >= 70:
		fmt.Fprintf(&b, "A good answer to %s.", label)
	case overall >= 55:
		fmt.Fprintf(&b, "A partial answer to %s.", label)
	default:
		fmt.Fprintf(&b, "This answer to %s needs work.", label)
	}
	var covered []string
	for _, p := range a.parts {
		if p.credit >= 1 {
			covered = append(covered, p.c.name)
		}
	}
	switch {
	case len(covered) > 0:
		fmt.Fprintf(&b, " It covers %s.", joinList(covered))
	default:
		b.WriteString(" It does not yet follow the structure this question needs.")
	}
	if len(sugs) > 0 && len(a.flags) == 0 {
		fmt.Fprintf(&b, " The biggest gap is %s.", sugs[0].gap)
	}
	return b.String()
}

func joinList(items []string) string {
	switch len(items) {
	case 1:
		return items[0]
	case 2:
		return items[0] + " and " + items[1]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// evidence lists the scored criteria first, each with its level, anchor and
// quote, then the observations behind them.
func (a *assessment) evidence(js []judged) []Evidence {
	ev := make([]Evidence, 0, len(js)+len(a.parts)+8)
	for _, j := range js {
		l := level(j.f)
		ev = append(ev, Evidence{Section: j.c.section, Criterion: j.c.name, Met: l >= 5, Quote: j.quote, Note: j.note, Level: l, Anchor: j.c.anchor(l)})
	}
	for _, p := range a.parts {
		e := Evidence{Section: SectionClarityStructure, Criterion: p.c.name, Met: p.credit >= 1}
		if len(p.hits) > 0 {
			e.Quote = a.t.quote(p.hits[0].at)
		}
		if p.credit > 0 && p.credit < 1 {
			e.Note = "partly covered"
		}
		if p.credit == 0 {
			e.Note = "not found"
		}
		ev = append(ev, e)
	}
	ev = append(ev, Evidence{Section: SectionContent, Criterion: "specific examples", Met: a.specific.score >= 0.5,
		Note: "concrete detail: " + orNone(a.specific.families)})
	if len(a.generic) > 0 {
		ev = append(ev, Evidence{Section: SectionClarityStructure, Criterion: "generalities", Met: false, Quote: a.t.quote(a.generic[0].at)})
	}
	ev = append(ev, a.delivery.evidence()...)
	if a.repeat > 0.15 {
		ev = append(ev, Evidence{Section: SectionClarityStructure, Criterion: "repetition", Met: false,
			Note: fmt.Sprintf("%.0f%% of four-word phrases repeat", 100*a.repeat)})
	}
	return ev
}

func orNone(items []string) string {
	if len(items) == 0 {
		return "none found"
	}
	return strings.Join(items, ", ")
}
