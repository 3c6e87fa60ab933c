package feedback

import (
	"context"
	"fmt"
	"math"
	"slices"
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
	weightContent    = 0.40
	weightStructure  = 0.35
	weightImpression = 0.25
)

// Answers shorter than this cannot show enough for an interviewer to judge
// (about 15-20 seconds of speech), however polished.
const (
	oneLinerWords = 40
	oneLinerCap   = 35
	offTopicCap   = 40
	redFlagCap    = 55
	// fullLengthWords is where length stops limiting what the structure and
	// content can earn: roughly 45 seconds of speech.
	fullLengthWords = 110
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
	f redFlag
	m match
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
		overlap, keywords := questionOverlap(in.Question, a.t)
		if keywords > 0 {
			w := math.Min(0.5, 0.1*float64(keywords))
			a.relevance = w*math.Min(1, overlap/0.4) + (1-w)*a.coverage
		}
	}

	a.specific = a.measureSpecificity()
	a.reflect = a.t.find(reflectionCues, false)
	a.reasons = a.t.find(reasonCues, false)
	a.prof = a.t.find(professionCues[in.Profession], false)
	a.health = a.t.find(healthCues, false)
	a.generic = a.t.find(generalityCues, false)
	for _, f := range redFlags {
		if len(f.types) > 0 && !slices.Contains(f.types, a.qt) {
			continue
		}
		if hits := a.t.find(f.re, true); len(hits) > 0 {
			a.flags = append(a.flags, flagHit{f: f, m: hits[0]})
		}
	}
	a.hedges = a.t.find(hedgeCues, false)
	a.repeat = a.t.repetition()
	a.delivery = measureDelivery(in.Delivery, a.t)
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
	depth := math.Min(float64(len(s.hits)), 10) / 10
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

// stem is deliberately crude: a five-letter prefix joins "dentist",
// "dentistry" and "dentists" without a dictionary.
func stem(w string) string {
	if len(w) > 5 {
		return w[:5]
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
		if len(w) < 4 || questionStopwords[w] || seen[stem(w)] {
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

// lengthFactor limits what structure and content can earn in a short answer:
// a one-line answer cannot show STAR however well chosen its words.
func (a *assessment) lengthFactor() float64 {
	return math.Sqrt(math.Min(1, float64(a.words)/fullLengthWords))
}

func (a *assessment) structureScore() float64 {
	s := 15 + 75*a.coverage
	if structures[a.qt].ordered {
		s += 6 * a.order
	}
	s += 2 * math.Min(float64(distinct(a.signposts)), 3)
	if a.runOn() {
		s -= 8
	}
	if a.repeat > 0.15 {
		s -= 10
	}
	return s * a.lengthFactor()
}

// runOn is true when a punctuated transcript strings everything into a few
// very long sentences.
func (a *assessment) runOn() bool {
	return a.t.punctuated && len(a.t.sentences) > 0 && a.words/len(a.t.sentences) > 40
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
		return 0.7
	case n == 2:
		return 0.9
	}
	return 1
}

func (a *assessment) professionCredit() float64 {
	return math.Min(1, (float64(distinct(a.prof))+0.5*float64(distinct(a.health)))/4)
}

func (a *assessment) genericPenalty() float64 {
	return math.Min(16, 4*float64(distinct(a.generic))) * (1 - 0.5*a.specific.score)
}

func (a *assessment) contentScore() float64 {
	w := structures[a.qt].weights
	s := 100 * (w[0]*a.relevance + w[1]*a.specific.score + w[2]*a.reflectionCredit() + w[3]*a.professionCredit())
	s -= a.genericPenalty()
	s -= 25 * float64(len(a.flags))
	s *= a.lengthFactor()
	if a.offTopic() {
		s = math.Min(s, offTopicCap)
	}
	return s
}

func (a *assessment) offTopic() bool { return a.relevance < 0.3 }

// The overall impression blends how the answer was delivered with how its
// words came across; both engines weigh them the same way.
const (
	impressionDeliveryShare = 0.55
	impressionWordsShare    = 0.45
)

func blendImpression(delivery, words float64) float64 {
	return impressionDeliveryShare*delivery + impressionWordsShare*words
}

func (a *assessment) impressionScore(content, structure float64) float64 {
	s := blendImpression(a.delivery.score, (content+structure)/2)
	if n := distinct(a.hedges); n > 2 {
		s -= math.Min(15, 5*float64(n-2))
	}
	if len(a.flags) > 0 {
		s -= 10
	}
	return s
}

func (a *assessment) scores() (overall int, sections SectionScores) {
	content := a.contentScore()
	structure := a.structureScore()
	impression := a.impressionScore(content, structure)
	o := weightContent*content + weightStructure*structure + weightImpression*impression
	if a.words < oneLinerWords {
		o = math.Min(o, oneLinerCap)
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
	overall, sections := a.scores()
	sugs := a.suggestions()
	out := Feedback{
		OverallScore:  overall,
		SectionScores: sections,
		Summary:       a.summary(overall, sugs),
		Suggestions:   make([]string, 0, len(sugs)),
		RubricVersion: RubricVersion,
		Engine:        EngineRubric,
		Evidence:      a.evidence(),
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
	fill := func(tmpl string, after, quote string) string {
		return strings.NewReplacer("{after}", after, "{who}", a.who, "{quote}", quote).Replace(tmpl)
	}
	for _, f := range a.flags {
		out = append(out, suggestion{100, "a red flag — " + f.f.name, fill(f.f.suggest, "", a.t.quote(f.m.at))})
	}
	if a.offTopic() {
		out = append(out, suggestion{95, "relevance to the question", fmt.Sprintf(
			"Answer the question you were asked — “%s” — this answer does not address it. Treat it as %s and build the answer around that.",
			strings.TrimSpace(a.in.Question), a.qt.label())})
	}
	if a.words < oneLinerWords*2 {
		out = append(out, suggestion{90, "enough substance", fmt.Sprintf(
			"Say more: %d words is too short for an interviewer to judge. Aim for 60-120 seconds (about 150-300 words) built on the structure below.", a.words)})
	}
	for i, p := range a.parts {
		if p.credit >= 1 {
			continue
		}
		out = append(out, suggestion{50 + 10*p.c.weight*(1-p.credit), p.c.name, fill(p.c.suggest, a.pointer(i), "")})
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

func (a *assessment) summary(overall int, sugs []suggestion) string {
	var band string
	switch {
	case overall >= 85:
		band = "A strong answer"
	case overall >= 70:
		band = "A good answer"
	case overall >= 55:
		band = "A partial answer"
	default:
		band = "This answer needs work"
	}
	var covered []string
	for _, p := range a.parts {
		if p.credit >= 1 {
			covered = append(covered, p.c.name)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s to %s.", band, a.qt.label())
	switch {
	case len(covered) > 0:
		fmt.Fprintf(&b, " It covers %s.", joinList(covered))
	default:
		b.WriteString(" It does not yet follow the structure this question needs.")
	}
	if len(sugs) > 0 {
		fmt.Fprintf(&b, " Biggest gap: %s.", sugs[0].gap)
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

func (a *assessment) evidence() []Evidence {
	ev := make([]Evidence, 0, 24)
	// One verbatim quote per criterion, so the UI can highlight it in the
	// transcript; the note says how much more there was.
	quoteHits := func(hits []match) string {
		if len(hits) == 0 {
			return ""
		}
		return a.t.quote(hits[0].at)
	}
	ev = append(ev, Evidence{Section: SectionClarityStructure, Criterion: "question type", Met: true,
		Note: fmt.Sprintf("judged as %s", a.qt.label())})
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
	ev = append(ev,
		Evidence{Section: SectionContent, Criterion: "relevance to the question", Met: !a.offTopic(),
			Note: fmt.Sprintf("%.0f%% relevant by question words and expected structure", 100*a.relevance)},
		Evidence{Section: SectionContent, Criterion: "specific examples", Met: a.specific.score >= 0.5, Quote: quoteHits(a.specific.hits),
			Note: fmt.Sprintf("concrete detail: %s", orNone(a.specific.families))},
	)
	if a.qt == typeEthical {
		ev = append(ev, Evidence{Section: SectionContent, Criterion: "reasoning", Met: len(a.reasons) > 0, Quote: quoteHits(a.reasons)})
	} else {
		ev = append(ev, Evidence{Section: SectionContent, Criterion: "reflection", Met: len(a.reflect) > 0, Quote: quoteHits(a.reflect)})
	}
	ev = append(ev, Evidence{Section: SectionContent, Criterion: "profession-specific substance", Met: a.professionCredit() >= 0.5,
		Quote: quoteHits(a.prof), Note: fmt.Sprintf("%d %s terms", distinct(a.prof), a.who)})
	if len(a.generic) > 0 {
		ev = append(ev, Evidence{Section: SectionContent, Criterion: "generalities", Met: false, Quote: quoteHits(a.generic)})
	}
	for _, f := range a.flags {
		ev = append(ev, Evidence{Section: SectionContent, Criterion: "red flag: " + f.f.key, Met: false, Quote: a.t.quote(f.m.at)})
	}
	ev = append(ev, a.delivery.evidence()...)
	if len(a.hedges) > 2 {
		ev = append(ev, Evidence{Section: SectionOverallImpression, Criterion: "confidence", Met: false, Quote: quoteHits(a.hedges),
			Note: fmt.Sprintf("%d hedging phrases", len(a.hedges))})
	}
	if a.repeat > 0.15 {
		ev = append(ev, Evidence{Section: SectionOverallImpression, Criterion: "repetition", Met: false,
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

// wordsPerMinuteAssumed converts a word count to a duration when no timing
// was measured: a comfortable interview pace.
const wordsPerMinuteAssumed = 150

type deliveryResult struct {
	seconds       float64
	estimated     bool // seconds came from the word count
	wpm           float64
	fillers       int
	fillersPer100 float64
	longestPause  float64
	pausesOver2s  int
	fillerQuote   string
	score         float64
}

func measureDelivery(d *Delivery, t *text) deliveryResult {
	r := deliveryResult{}
	words := len(t.words)
	textFillers := t.find(fillerCues, false)
	r.fillers = len(textFillers)
	if len(textFillers) > 0 {
		r.fillerQuote = t.quote(textFillers[0].at)
	}
	if d != nil && d.DurationSeconds > 0 {
		r.seconds = d.DurationSeconds
		r.wpm = d.WordsPerMinute
		if r.wpm <= 0 {
			r.wpm = float64(words) / (d.DurationSeconds / 60)
		}
		// Speech engines drop fillers unevenly; the larger of the measured
		// and the transcribed count is the closer to what was said.
		r.fillers = max(r.fillers, d.FillerCount)
		r.longestPause = d.LongestPauseSeconds
		r.pausesOver2s = d.PausesOver2s
	} else {
		r.seconds = float64(words) / wordsPerMinuteAssumed * 60
		r.estimated = true
	}
	if words > 0 {
		r.fillersPer100 = 100 * float64(r.fillers) / float64(words)
	}
	r.score = r.compute()
	return r
}

// piecewise interpolates y over x breakpoints, flat beyond the ends.
func piecewise(x float64, xs, ys []float64) float64 {
	if x <= xs[0] {
		return ys[0]
	}
	for i := 1; i < len(xs); i++ {
		if x <= xs[i] {
			f := (x - xs[i-1]) / (xs[i] - xs[i-1])
			return ys[i-1] + f*(ys[i]-ys[i-1])
		}
	}
	return ys[len(ys)-1]
}

func (r deliveryResult) lengthScore() float64 {
	return piecewise(r.seconds, []float64{15, 45, 60, 120, 150, 180, 240}, []float64{10, 60, 100, 100, 85, 70, 55})
}

func (r deliveryResult) paceScore() float64 {
	return piecewise(r.wpm, []float64{80, 110, 130, 170, 190, 220}, []float64{40, 80, 100, 100, 80, 40})
}

func (r deliveryResult) fillerScore() float64 {
	return piecewise(r.fillersPer100, []float64{2, 4, 14}, []float64{100, 85, 20})
}

func (r deliveryResult) pauseScore() float64 {
	s := 100.0
	switch {
	case r.longestPause > 8:
		s -= 25
	case r.longestPause > 4:
		s -= 10
	}
	if r.seconds > 0 && float64(r.pausesOver2s)/(r.seconds/60) > 3 {
		s -= 15
	}
	return s
}

func (r deliveryResult) compute() float64 {
	if r.estimated {
		// Without timing only length (from words) and fillers can be judged.
		return 0.55*r.lengthScore() + 0.45*r.fillerScore()
	}
	return 0.35*r.lengthScore() + 0.2*r.paceScore() + 0.3*r.fillerScore() + 0.15*r.pauseScore()
}

func (r deliveryResult) evidence() []Evidence {
	lengthNote := fmt.Sprintf("%.0f s (target 60-120 s)", r.seconds)
	if r.estimated {
		lengthNote = fmt.Sprintf("about %.0f s estimated from the word count (target 60-120 s); no timing measured", r.seconds)
	}
	ev := []Evidence{
		{Section: SectionOverallImpression, Criterion: "length", Met: r.seconds >= 60 && r.seconds <= 120, Note: lengthNote},
		{Section: SectionOverallImpression, Criterion: "fillers", Met: r.fillersPer100 <= 4, Quote: r.fillerQuote,
			Note: fmt.Sprintf("%d fillers, %.1f per 100 words (aim for 4 or fewer)", r.fillers, r.fillersPer100)},
	}
	if !r.estimated {
		ev = append(ev,
			Evidence{Section: SectionOverallImpression, Criterion: "pace", Met: r.wpm >= 130 && r.wpm <= 170,
				Note: fmt.Sprintf("%.0f words per minute (target 130-170)", r.wpm)},
			Evidence{Section: SectionOverallImpression, Criterion: "pauses", Met: r.pauseScore() == 100,
				Note: fmt.Sprintf("longest pause %.1f s, %d pauses over 2 s", r.longestPause, r.pausesOver2s)},
		)
	}
	return ev
}

func (r deliveryResult) suggestions() []suggestion {
	var out []suggestion
	if r.fillersPer100 > 4 {
		at := ""
		if r.fillerQuote != "" {
			at = fmt.Sprintf(" (as in “%s”)", r.fillerQuote)
		}
		out = append(out, suggestion{58, "fewer fillers", fmt.Sprintf(
			"Cut the fillers: about %.0f per 100 words%s. Pause silently instead — it sounds more confident.", r.fillersPer100, at)})
	}
	switch {
	case r.seconds > 150:
		out = append(out, suggestion{54, "a tighter answer", fmt.Sprintf(
			"Tighten to under two minutes (this ran about %.0f s): keep the example and the result, cut background.", r.seconds)})
	case r.seconds < 45 && r.seconds >= 20:
		out = append(out, suggestion{54, "a fuller answer", fmt.Sprintf(
			"Use more of your time (this ran about %.0f s): 60-120 s lets you give the example and what it taught you.", r.seconds)})
	}
	if !r.estimated && (r.wpm > 190 || (r.wpm > 0 && r.wpm < 110)) {
		out = append(out, suggestion{48, "a steadier pace", fmt.Sprintf(
			"Adjust your pace: %.0f words per minute; 130-170 is easy to follow.", r.wpm)})
	}
	if !r.estimated && r.longestPause > 4 {
		out = append(out, suggestion{46, "fewer long pauses", fmt.Sprintf(
			"A %.0f-second pause breaks the thread; note your structure (situation, action, result) before you start so you know what comes next.", r.longestPause)})
	}
	return out
}
