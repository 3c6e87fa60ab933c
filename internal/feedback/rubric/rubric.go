// Package rubric is the embedded feedback engine: it measures an answer
// (measure.go, delivery.go, cues.go), judges the criteria of the scoring
// sheet from those measures (criteria.go), raises red flags (redflags.go)
// and writes what the student reads (texts.go); feedback.Score turns the
// judged criteria into scores.
package rubric

import (
	"context"
	"fmt"
	"math"

	"github.com/whitecoat/whitecoat/internal/feedback"
)

// Engine is the embedded engine: deterministic, explainable, no network.
type Engine struct{}

// New returns the rubric engine. It holds no state; the cue tables are
// compiled once at package initialisation.
func New() *Engine { return &Engine{} }

// Score implements feedback.Engine.
func (*Engine) Score(ctx context.Context, in feedback.Input) (feedback.Feedback, error) {
	if err := in.Validate(); err != nil {
		return feedback.Feedback{}, err
	}
	if err := ctx.Err(); err != nil {
		return feedback.Feedback{}, fmt.Errorf("feedback: %w", err)
	}
	return Assess(in).Feedback(), nil
}

// Assessment is everything the rubric measured about one answer; the scores,
// evidence, suggestions and summary are all read off it.
type Assessment struct {
	in        feedback.Input
	t         *text
	qt        feedback.QuestionType
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
	points    []pointResult // the question's own points (points.go)
	traps     []flagHit     // the question's own traps the answer walks into
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
	key feedback.FlagKey
	m   match
	// trap is the question's own trap walked into, for FlagQuestionTrap.
	trap string
}

func Assess(in feedback.Input) *Assessment {
	a := &Assessment{in: in, t: newText(in.Transcript), qt: feedback.Classify(in), who: in.Practitioner()}
	a.words = len(a.t.words)
	st := structures[a.qt]

	var weightSum, earned float64
	for _, c := range st.components {
		hits := a.t.inClauses(a.t.find(c.re, false))
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
	if a.qt != feedback.TypeTellMe && a.qt != feedback.TypeWhyProfession && a.qt != feedback.TypeWhySchool {
		a.overlap, a.keywords = questionOverlap(in.Question, a.t)
		if a.keywords > 0 {
			w := math.Min(0.4, 0.1*float64(a.keywords))
			a.relevance = w*math.Min(1, a.overlap/0.5) + (1-w)*a.coverage
		}
	}
	// The question read back is not an answer to it.
	a.echo = questionEcho(in.Question, a.t)
	a.relevance *= 1 - math.Min(1, 2*math.Max(0, a.echo-echoAllowed))
	// Where the question has its own points, they say best whether it was
	// answered: an answer that makes them briefly answers it.
	a.measurePoints()
	if len(a.points) > 0 {
		a.relevance = (1-pointsWeight)*a.relevance + pointsWeight*a.pointsCovered()
	}

	a.specific = a.measureSpecificity()
	a.reflect = a.t.inClauses(a.t.find(reflectionCues, false))
	a.reasons = a.t.inClauses(a.t.find(reasonCues, false))
	a.prof = a.t.find(professionCues[in.Profession], false)
	a.health = a.t.find(healthCues, false)
	a.generic = a.t.find(generalityCues, false)
	a.hedges = a.t.find(hedgeCues, false)
	a.repeat = a.t.repetition()
	a.jargon = a.t.find(jargonCues, false)
	a.delivery = measureDelivery(in.Delivery, in.Video, a.t, in.Written, in.LimitSeconds, a.certainOnly)
	a.flags = append(a.findFlags(), a.traps...)
	if a.answersAnotherQuestion() {
		a.flags = append(a.flags, flagHit{key: feedback.FlagDifferentQuestion, m: a.firstSentence()})
	}
	return a
}

// Scores are the shared formula's scores of the judged criteria, under
// the caps this answer earns.
func (a *Assessment) Scores(js []feedback.Judged) (int, feedback.SectionScores) {
	return feedback.Score(js, a.Caps())
}

// Caps are the caps the answer's words earn, whichever engine judges it:
// its length, the rubric's red flags, a list of fragments, an answer
// about something else, and one too uncertain to judge its content; and
// the share of its question's points it makes.
func (a *Assessment) Caps() feedback.Caps {
	caps := feedback.Caps{Words: a.words, OffTopic: a.offTopic(), RedFlagged: len(a.flags) > 0, Fragmentary: a.t.fragmentary(),
		ContentUnjudged: a.contentUnjudged()}
	if len(a.points) > 0 {
		covered := a.pointsCovered()
		caps.Points = &covered
	}
	return caps
}

// Finish applies to any engine's feedback the checks that do not depend
// on who judged the answer, last, so that both engines obey them: the
// question's own points are reported as found in its words, every answer
// is told the change that would lift it most, and nothing quotes a word
// the speech engine may have misheard (uncertain.go).
func (a *Assessment) Finish(fb *feedback.Feedback, js []feedback.Judged) {
	fb.Evidence = append(fb.Evidence, a.pointsEvidence()...)
	if len(fb.Suggestions) == 0 {
		fb.Suggestions = append(fb.Suggestions, a.lift(js).text)
	}
	a.heedUncertainty(fb)
}

// Feedback is the rubric's feedback on the answer.
func (a *Assessment) Feedback() feedback.Feedback {
	js := a.Judge()
	overall, sections := a.Scores(js)
	sugs := a.suggestions()
	out := feedback.Feedback{
		OverallScore:  overall,
		SectionScores: sections,
		Summary:       a.summary(overall, sugs),
		Suggestions:   make([]string, 0, len(sugs)),
		RubricVersion: feedback.RubricVersion,
		Engine:        feedback.EngineRubric,
		Evidence:      a.evidence(js),
		RedFlags:      a.RedFlags(),
		Competencies:  a.competencies(js),
	}
	for _, s := range sugs {
		out.Suggestions = append(out.Suggestions, s.text)
	}
	a.Finish(&out, js)
	return out
}

// QuestionType is the type the answer was judged as.
func (a *Assessment) QuestionType() feedback.QuestionType { return a.qt }

// Words is how many words the answer has.
func (a *Assessment) Words() int { return a.words }

// DeliveryEvidence is what the delivery measures showed: length, fillers,
// and pace and pauses when timing is known.
func (a *Assessment) DeliveryEvidence() []feedback.Evidence { return a.delivery.evidence() }

// DeliverySuggestions are the delivery measures' suggestions, most
// important first.
func (a *Assessment) DeliverySuggestions() []string {
	var out []string
	for _, s := range a.delivery.suggestions() {
		out = append(out, s.text)
	}
	return out
}
