package rubric

// How the rubric judges each criterion of the scoring sheet
// (feedback.Criteria) from what it measured of the answer: the fraction
// (0-1) of each, and the words it rests on.

import (
	"fmt"
	"math"

	"github.com/whitecoat/whitecoat/internal/feedback"
)

// insight is reflection with the stock lessons discounted.
func (a *Assessment) insight() float64 {
	return a.reflectionCredit() * (1 - 0.4*math.Min(1, float64(distinct(a.t.find(stockLessons, false)))))
}

func (a *Assessment) reflectionCredit() float64 {
	hits := a.reflect
	switch a.qt {
	case feedback.TypeEthical:
		// In a scenario the interviewer listens for reasoning, not hindsight.
		hits = a.reasons
	case feedback.TypeCommunication:
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

func (a *Assessment) professionCredit() float64 {
	return math.Min(1, (float64(distinct(a.prof))+0.5*float64(distinct(a.health)))/4)
}

// part is the credit of the structure's component key (0 when the type
// has no such component).
func (a *Assessment) part(key string) float64 {
	for _, p := range a.parts {
		if p.c.key == key {
			return p.credit
		}
	}
	return 0
}

func (a *Assessment) reasonCredit() float64 {
	return math.Min(1, float64(distinct(a.reasons))/2)
}

// judgement is what the answer decides or does, and why: for each type the
// parts of its structure that carry the applicant's judgement. A red flag
// is a failure of judgement whatever else the answer does.
func (a *Assessment) judgement() float64 {
	if len(a.flags) > 0 {
		return 0
	}
	if a.keywordStuffed() {
		return 0.15
	}
	// Levels 1-2 are conduct an interviewer would disqualify; an answer
	// without a red flag that shows little judgement is thin (3), not that.
	return max(feedback.LevelFraction(3), a.judgementShown())
}

// judgementShown is the judgement the parts of the answer show.
func (a *Assessment) judgementShown() float64 {
	switch a.qt {
	case feedback.TypeEthical:
		return 0.25*a.part("principles") + 0.2*a.part("options") + 0.3*a.part("decision") + 0.25*a.reasonCredit()
	case feedback.TypeCommunication:
		return 0.3*a.part("listening") + 0.25*a.part("empathy") + 0.2*a.part("clarity") + 0.25*a.part("plan")
	case feedback.TypeBehavioral:
		return 0.5*a.part("action") + 0.25*a.reasonCredit() + 0.25*a.part("result")
	case feedback.TypeTeamwork:
		return 0.4*a.part("action") + 0.2*a.reasonCredit() + 0.2*a.part("result") + 0.2*a.part("team")
	case feedback.TypeLeadership:
		return 0.4*a.part("action") + 0.2*a.reasonCredit() + 0.2*a.part("result") + 0.2*a.part("leading")
	case feedback.TypeWhyProfession:
		return 0.4*a.part("motivation") + 0.3*a.part("fit") + 0.3*a.part("reflection")
	case feedback.TypeTellMe:
		return 0.35*a.part("defining") + 0.35*a.part("forward") + 0.3*a.reflectionCredit()
	case feedback.TypeWhySchool:
		return 0.5*a.part("link") + 0.5*a.part("contribution")
	}
	return 0.5*a.part("answer") + 0.5*a.part("reasoning")
}

// economy is 1 for an answer whose every sentence adds something, less for
// stock phrases (forgiven in part when real detail surrounds them),
// repetition, run-on sentences and the question read back.
func (a *Assessment) economy() float64 {
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
	return math.Max(0, f) * math.Min(1, float64(a.words)/feedback.OneLinerWords)
}

func (a *Assessment) flow() float64 {
	signposts := math.Min(float64(distinct(a.signposts)), 2) / 2
	f := 0.5 + 0.5*signposts
	if structures[a.qt].ordered {
		f = 0.7*a.order + 0.3*signposts
	}
	return f * math.Min(1, float64(a.words)/feedback.OneLinerWords)
}

// presence is how the words come across: the quality of what was said,
// less hedging; a red flag is a concern about professionalism.
func (a *Assessment) presence(content, structure float64) float64 {
	f := (content + structure) / 200
	if n := distinct(a.hedges); n > 2 {
		f -= math.Min(0.45, 0.15*float64(n-2))
	}
	if len(a.flags) > 0 {
		f = math.Min(f, 0.2)
	}
	return math.Max(0, f)
}

// uncomfortableDelivery is the most delivery with an unmet check can be:
// level 4 (Level rounds 6 × 0.58 = 3.48 down).
const uncomfortableDelivery = 0.58

// Judge rates every criterion.
func (a *Assessment) Judge() []feedback.Judged {
	quote := func(hits []match) string {
		if len(hits) == 0 {
			return ""
		}
		return a.t.quote(hits[0].at)
	}
	js := make([]feedback.Judged, 0, len(feedback.Criteria))
	var content, structure float64
	for _, c := range feedback.Criteria {
		j := feedback.Judged{Criterion: c}
		switch c.Key {
		case feedback.CriterionRelevance:
			j.Fraction = math.Min(1, a.relevance/0.8)
			j.Note = fmt.Sprintf("%.0f%% relevant by the question's words and the expected structure", 100*a.relevance)
			if a.echo > echoAllowed {
				j.Note += fmt.Sprintf("; %.0f%% of the answer repeats the question", 100*a.echo)
			}
		case feedback.CriterionJudgement:
			j.Fraction = a.judgement()
			if len(a.flags) > 0 {
				j.Quote, j.Note = a.t.quote(a.flags[0].m.at), "red flag: "+flagTexts[a.flags[0].key].name
			} else if hits := a.judgementHits(); len(hits) > 0 {
				j.Quote = quote(hits)
			}
		case feedback.CriterionEvidence:
			// Detail counts in full where it is told as something someone
			// did; named on its own it is half the evidence.
			told := math.Min(1, float64(a.t.episodes(a.specific.hits))/2)
			j.Fraction = math.Min(1, a.specific.score/0.75) * (0.7 + 0.3*told)
			j.Quote, j.Note = quote(a.specific.hits), "concrete detail: "+orNone(a.specific.families)
			if a.qt == feedback.TypeEthical || a.qt == feedback.TypeCommunication {
				// A scenario has no past to be specific about: concrete
				// steps — what the applicant would ask, say and do — are its
				// evidence.
				steps := a.t.inFirstPerson(a.t.find(actionCues, false))
				if f := math.Min(1, float64(distinct(steps))/4); f > j.Fraction {
					j.Fraction, j.Quote, j.Note = f, quote(steps), fmt.Sprintf("%d concrete steps", distinct(steps))
				}
			}
		case feedback.CriterionInsight:
			j.Fraction = a.insight()
			if a.qt == feedback.TypeEthical {
				j.Quote = quote(a.reasons)
			} else {
				j.Quote = quote(a.reflect)
			}
		case feedback.CriterionFit:
			j.Fraction = a.professionCredit()
			j.Quote, j.Note = quote(a.prof), fmt.Sprintf("%d %s terms", distinct(a.prof), a.who)
		case feedback.CriterionStructure:
			j.Fraction = a.coverage
			j.Note = "judged as " + a.qt.Label()
		case feedback.CriterionFlow:
			j.Fraction = a.flow()
			j.Quote = quote(a.signposts)
		case feedback.CriterionEconomy:
			j.Fraction = a.economy()
			j.Quote = quote(a.generic)
			if a.keywordStuffed() {
				j.Quote, j.Note = quote(a.jargon), fmt.Sprintf("%d terms of art with no concrete step or detail", distinct(a.jargon))
			}
		case feedback.CriterionDelivery:
			j.Fraction = a.delivery.score / 100
			if !a.delivery.checksMet() {
				// Levels 5-7 say the length and pace are comfortable: an
				// unmet check keeps the criterion within levels 1-4,
				// answers keeping their order.
				j.Fraction = min(j.Fraction, uncomfortableDelivery-0.13*(1-j.Fraction))
			}
			j.Quote = a.delivery.fillerQuote
			if a.in.Written {
				j.Criterion = writtenLength(j.Criterion)
			}
		case feedback.CriterionPresence:
			j.Fraction = a.presence(content, structure)
			if len(a.flags) > 0 {
				j.Quote = a.t.quote(a.flags[0].m.at)
			} else if len(a.hedges) > 2 {
				j.Quote, j.Note = quote(a.hedges), fmt.Sprintf("%d hedging phrases", len(a.hedges))
			}
		}
		js = append(js, j)
		// Presence reads the two sections before it.
		content, structure = feedback.SectionScore(js, feedback.SectionContent), feedback.SectionScore(js, feedback.SectionClarityStructure)
	}
	return js
}

// judgementHits are the words the judgement criterion rests on.
func (a *Assessment) judgementHits() []match {
	for _, key := range []string{"decision", "action", "listening", "motivation", "defining", "link", "answer"} {
		for _, p := range a.parts {
			if p.c.key == key && len(p.hits) > 0 {
				return p.hits
			}
		}
	}
	return a.reasons
}

// writtenLength stands in for delivery in a typed answer, which is read,
// not heard: its weight is delivery's, its levels are about length alone.
func writtenLength(delivery feedback.Criterion) feedback.Criterion {
	delivery.Name = "Length"
	delivery.Anchors = [4]string{
		"Far too short (or long) to answer what was asked.",
		"Short of what the questions need, or longer than the time allows.",
		"A full answer to each question.",
		"Complete and concise: each question answered in full.",
	}
	return delivery
}
