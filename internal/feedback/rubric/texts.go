package rubric

// What the student reads: the suggestions, the summary and the evidence
// list, written from the assessment.

import (
	"fmt"
	"sort"
	"strings"

	"github.com/whitecoat/whitecoat/internal/feedback"
)

// pointer names a place in the answer: just after the last words of the
// nearest earlier part that was found, so a suggestion says where the
// missing piece belongs.
func (a *Assessment) pointer(partIndex int) string {
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

func (a *Assessment) suggestions() []suggestion {
	var out []suggestion
	fill := func(tmpl string, after string) string {
		return strings.ReplaceAll(a.namingWho(tmpl), "{after}", after)
	}
	for _, f := range a.RedFlags() {
		text := FlagSuggestion(f)
		if f.Key == feedback.FlagDifferentQuestion {
			text = fmt.Sprintf("Answer the question you were asked — “%s” — and treat it as %s: %s",
				strings.TrimSpace(a.in.Question), a.qt.Label(), lowerFirst(f.Instead))
		}
		out = append(out, suggestion{100, "a red flag — " + f.Name, text})
	}
	// The most valuable of its question's points the answer leaves out:
	// what an interviewer listening for this question would miss most.
	if p, ok := a.missedPoint(); ok {
		out = append(out, suggestion{95, "this question's point: " + lowerFirst(strings.TrimRight(p.Text, ".")), p.Text})
	}
	if a.words < feedback.OneLinerWords*2 && !a.complete() && a.delivery.roomForLength() {
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
			text = fmt.Sprintf("Replace “%s” with one specific example: who, where, when, and a detail only you could know.", a.t.said(a.generic[0]))
		}
		out = append(out, suggestion{62, "specific examples", text})
	} else if len(a.generic) > 0 {
		out = append(out, suggestion{40, "fewer stock phrases", fmt.Sprintf(
			"Cut stock phrases like “%s”; your specific details already make the point better.", a.t.said(a.generic[0]))})
	}
	if a.keywordStuffed() {
		out = append(out, suggestion{92, "substance instead of terms", fmt.Sprintf(
			"Replace terms like “%s” with what you would actually do and say: one concrete step at a time, and why.", a.t.said(a.jargon[0]))})
	}
	if a.echo > echoAllowed {
		out = append(out, suggestion{70, "your own words", "Do not read the question back: answer it in your own words from the first sentence."})
	}
	if a.professionCredit() < 0.5 {
		out = append(out, suggestion{56, "profession-specific substance", fmt.Sprintf(
			"Tie the answer to the work of %s: what in this situation would matter to %s and their patients?", feedback.WithArticle(a.who), feedback.WithArticle(a.who))})
	}
	out = append(out, a.delivery.suggestions()...)
	if a.repeat > 0.15 {
		out = append(out, suggestion{52, "tighter wording", "Several phrases come back again and again; say each point once and move on."})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].priority > out[j].priority })
	return out[:min(len(out), maxSuggestions)]
}

// lifts are, by criterion, the one change that would lift an answer that
// already does what its question needs.
var lifts = map[feedback.CriterionKey]suggestion{
	feedback.CriterionRelevance: {gap: "a sharper answer", text: "Open with one sentence that answers the question itself, and make everything after it serve that answer."},
	feedback.CriterionJudgement: {gap: "the reasoning", text: "Say what is in tension, which way you decide, and the reason that puts the patient first."},
	feedback.CriterionEvidence:  {gap: "a telling detail", text: "Add one detail only you could know — a number, a name or what someone said — to your example."},
	feedback.CriterionInsight:   {gap: "what changed", text: "End on what the experience changed in what you do now, not only on what it taught you."},
	feedback.CriterionFit:       {gap: "the profession's work", text: "Tie one point to the daily work of a {who}: something you have seen a {who} do that you want to do."},
	feedback.CriterionStructure: {gap: "the structure", text: "Give each part this question needs its own sentence, in a natural order."},
	feedback.CriterionFlow:      {gap: "the thread", text: "Mark the turn from what happened to what it taught you with a short signpost, so the listener never loses the thread."},
	feedback.CriterionEconomy:   {gap: "a tighter answer", text: "Cut the sentence that adds least; a tighter answer lands harder."},
	feedback.CriterionDelivery:  {gap: "delivery", text: "Rehearse it aloud once more at an even pace, with a silent pause where a filler would go."},
	feedback.CriterionPresence:  {gap: "conviction", text: "Say your conclusions without hedges: “I would”, not “I think I might”."},
}

// lift is the change that would lift the score most: the criterion
// furthest below the top, by its weight.
func (a *Assessment) lift(js []feedback.Judged) suggestion {
	best, gap := feedback.CriterionEvidence, -1.0
	for _, j := range js {
		if g := j.Criterion.Weight * (1 - j.Fraction); g > gap {
			best, gap = j.Criterion.Key, g
		}
	}
	s := lifts[best]
	s.text = a.namingWho(s.text)
	return s
}

// FlagSuggestion is what a red flag tells the student to do: rethink the
// words that raised it, when there are any.
func FlagSuggestion(f feedback.RedFlag) string {
	if f.Quote == "" {
		return f.Instead
	}
	return fmt.Sprintf("Rethink “%s”: %s", f.Quote, lowerFirst(f.Instead))
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

func (a *Assessment) summary(overall int, sugs []suggestion) string {
	label := a.qt.Label()
	var b strings.Builder
	switch {
	case len(a.flags) > 0:
		var names []string
		for _, f := range a.RedFlags() {
			names = append(names, f.Name)
		}
		fmt.Fprintf(&b, "This answer to %s raises a red flag: %s.", label, JoinList(names))
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
		fmt.Fprintf(&b, " It covers %s.", JoinList(covered))
	default:
		b.WriteString(" It does not yet follow the structure this question needs.")
	}
	if len(a.points) > 0 {
		made := 0
		for _, p := range a.points {
			if p.made {
				made++
			}
		}
		fmt.Fprintf(&b, " It makes %d of the %d points a strong answer to this question makes.", made, len(a.points))
	}
	if len(sugs) > 0 && len(a.flags) == 0 {
		fmt.Fprintf(&b, " The biggest gap is %s.", sugs[0].gap)
	}
	return b.String()
}

// JoinList joins items as a sentence lists them: "a, b and c".
func JoinList(items []string) string {
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
func (a *Assessment) evidence(js []feedback.Judged) []feedback.Evidence {
	ev := make([]feedback.Evidence, 0, len(js)+len(a.parts)+8)
	for _, j := range js {
		ev = append(ev, j.Evidence())
	}
	for _, p := range a.parts {
		e := feedback.Evidence{Section: feedback.SectionClarityStructure, Criterion: p.c.name, Met: p.credit >= 1}
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
	ev = append(ev, feedback.Evidence{Section: feedback.SectionContent, Criterion: "specific examples", Met: a.specific.score >= 0.5,
		Note: "concrete detail: " + orNone(a.specific.families)})
	if len(a.generic) > 0 {
		ev = append(ev, feedback.Evidence{Section: feedback.SectionClarityStructure, Criterion: "generalities", Met: false, Quote: a.t.quote(a.generic[0].at)})
	}
	ev = append(ev, a.delivery.evidence()...)
	if a.repeat > 0.15 {
		ev = append(ev, feedback.Evidence{Section: feedback.SectionClarityStructure, Criterion: "repetition", Met: false,
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

// namingWho puts the practitioner into a text for {who}, after the article
// it takes where the text says "a {who}".
func (a *Assessment) namingWho(text string) string {
	return strings.NewReplacer("a {who}", feedback.WithArticle(a.who), "{who}", a.who).Replace(text)
}
