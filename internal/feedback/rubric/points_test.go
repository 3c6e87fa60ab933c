package rubric

import (
	"strings"
	"testing"

	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/question"
)

// bankQuestion is the bank's question seeded as key, with its points and traps.
func bankQuestion(t *testing.T, key string) question.Question {
	t.Helper()
	bank, err := question.Bank()
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range bank {
		if q.SeedKey == key {
			return q
		}
	}
	t.Fatalf("no bank question %q", key)
	return question.Question{}
}

func transfusionInput(t *testing.T, answer string) feedback.Input {
	q := bankQuestion(t, "medical-refuses-transfusion")
	return feedback.Input{Profession: "medical", Question: q.Text, Subtag: string(q.Subtag), Transcript: answer, Points: q.Points, Traps: q.Traps}
}

// pointEvidence is the evidence about the question's points, by point.
func pointEvidence(fb feedback.Feedback, points []question.Point) map[string]feedback.Evidence {
	out := map[string]feedback.Evidence{}
	for _, e := range fb.Evidence {
		for _, p := range points {
			if e.Criterion == strings.TrimRight(p.Text, ".") {
				out[p.Text] = e
			}
		}
	}
	return out
}

// Issue 40: an answer is judged by its own question's points, found by
// meaning as far as word forms go ("assessing her capacity" makes the
// point whose cue is "assess capacity"), each point made quoted and the
// most valuable one missed the change that would lift the score most.
func TestAnswerIsJudgedByItsQuestionsPoints(t *testing.T) {
	answer := "First I would sit down with her and start by assessing her capacity, making sure she understands that refusing could mean she dies. " +
		"I would speak with her privately, without her family present, so I know the decision is her own. " +
		"Then I would look at what she would accept, like cell salvage or iron, and if she still refuses I would respect her wishes and keep caring for her."
	in := transfusionInput(t, answer)
	fb := score(t, in)
	ev := pointEvidence(fb, in.Points)
	if len(ev) != len(in.Points) {
		t.Fatalf("evidence on %d of the question's %d points: %+v", len(ev), len(in.Points), fb.Evidence)
	}
	for i, p := range in.Points {
		e := ev[p.Text]
		made := i < 4
		if e.Met != made {
			t.Errorf("point %d %q: met %v, want %v (%+v)", i+1, p.Text, e.Met, made, e)
		}
		if made && (e.Quote == "" || !strings.Contains(answer, strings.TrimSuffix(strings.TrimPrefix(e.Quote, "…"), "…"))) {
			t.Errorf("point %d made without its words quoted: %+v", i+1, e)
		}
	}
	if !strings.Contains(fb.Summary, "It makes 4 of the 6 points a strong answer to this question makes.") {
		t.Errorf("summary %q does not say how many of the question's points the answer makes", fb.Summary)
	}
	if len(fb.Suggestions) == 0 || fb.Suggestions[0] != in.Points[4].Text {
		t.Errorf("first suggestion %q, want the most valuable point missed: %q", fb.Suggestions, in.Points[4].Text)
	}
	in.Points, in.Traps = nil, nil
	if generic := score(t, in); fb.OverallScore < generic.OverallScore {
		t.Errorf("an answer making four of the six points scored %d with them, %d without", fb.OverallScore, generic.OverallScore)
	}

	// A fluent answer about ethics in general, making none of this
	// question's points, scores lower judged by them than without them.
	vague := "This is a difficult situation that many physicians face, and I think it is important to balance the principles of ethics. " +
		"I would consider beneficence and non-maleficence, think carefully about what the right thing to do is, and make sure I act professionally " +
		"and with integrity, because trust between doctors and patients matters so much in medicine."
	in = transfusionInput(t, vague)
	judged := score(t, in)
	in.Points, in.Traps = nil, nil
	if generic := score(t, in); judged.OverallScore >= generic.OverallScore {
		t.Errorf("an answer making none of the question's points scored %d by them, %d without", judged.OverallScore, generic.OverallScore)
	}
}

// A polished answer that walks into the question's trap is named for it
// and cannot score well; the same trap named and turned down is no flag,
// nor is a point said in the negative made.
func TestQuestionTrapCapsTheScore(t *testing.T) {
	trapped := "I would first check her capacity and make sure she understands the risks, and speak with her privately about her beliefs. " +
		"I would respect her wishes while she is awake, but once she is unconscious I would give the blood anyway, because saving her life comes first, " +
		"and I would explain afterwards that it was an emergency."
	in := transfusionInput(t, trapped)
	fb := score(t, in)
	var named bool
	for _, f := range fb.RedFlags {
		if f.Key == feedback.FlagQuestionTrap && strings.Contains(f.Name, "overriding a capable patient's refusal") && f.Quote != "" {
			named = true
		}
	}
	if !named {
		t.Errorf("the trap is not named among the red flags: %+v", fb.RedFlags)
	}
	if fb.OverallScore >= 60 {
		t.Errorf("an answer in the question's trap scored %d", fb.OverallScore)
	}

	rejected := "I would check her capacity and make sure she understands the risks, and speak with her privately. " +
		"Some people would give the blood anyway once she is unconscious, but that would betray her trust and ignore her right to refuse, so I would not. " +
		"I would respect her wishes and keep caring for her."
	for _, f := range score(t, transfusionInput(t, rejected)).RedFlags {
		if f.Key == feedback.FlagQuestionTrap {
			t.Errorf("a trap turned down was flagged: %+v", f)
		}
	}

	negated := "I would not assess her capacity; I would just tell the team she refused."
	in = transfusionInput(t, negated)
	if e := pointEvidence(score(t, in), in.Points)[in.Points[0].Text]; e.Met {
		t.Errorf("a point said in the negative counted as made: %+v", e)
	}
}

func TestFindStemsMatchesWordFormsInOneSentence(t *testing.T) {
	tx := newText("She keeps refusing. I asked her gently why she refused the blood. Ask. Her.")
	got := tx.findStems("ask her why")
	if len(got) != 1 || tx.said(got[0]) != "asked her gently why" {
		t.Errorf("ask her why: %+v", got)
	}
	if got := tx.findStems("refuse"); len(got) != 2 {
		t.Errorf("refuse: %+v, want refusing and refused", got)
	}
	// Not across sentences, not with too many words between.
	if got := tx.findStems("ask her"); len(got) != 1 {
		t.Errorf("ask her: %+v, want only the one in a sentence", got)
	}
	if got := tx.findStems("asked why blood"); len(got) != 0 {
		t.Errorf("asked … blood with four words between: %+v", got)
	}
}

// Issue 40: a point said in the student's own words, with none of its
// cues, is made: one sentence holding enough of what only this point is
// about. Negated, it is not; nor is it made by one of its words alone.
func TestPointMadeInTheStudentsOwnWords(t *testing.T) {
	q := bankQuestion(t, "medical-refuses-transfusion")
	documented := q.Points[4]
	for _, tc := range []struct {
		said string
		made bool
	}{
		{"Afterward I'd write a careful note of what we discussed and ask whether she carries a card or has a directive about blood.", true},
		{"I would not write a note of what we discussed, and I would not look for a directive.", false},
		{"Her sister carries the family's cards.", false},
	} {
		answer := "I would sit with her and listen to what she believes. " + tc.said
		in := transfusionInput(t, answer)
		for _, c := range documented.Cues {
			if len(newText(answer).findStems(c)) > 0 {
				t.Fatalf("%q says the cue %q: the test is about words other than the cues", tc.said, c)
			}
		}
		e := pointEvidence(score(t, in), in.Points)[documented.Text]
		if e.Met != tc.made {
			t.Errorf("%q: point %q met %v, want %v (%+v)", tc.said, documented.Text, e.Met, tc.made, e)
		}
		if tc.made && !strings.Contains(tc.said, strings.Trim(e.Quote, "…")) {
			t.Errorf("%q: quoted %q", tc.said, e.Quote)
		}
	}
}

// Issue 40: the question's points set most of the score, so an answer
// that makes them briefly scores as the strong answer it is, and one that
// makes none cannot score well however it is built.
func TestPointsMadeBrieflyScoreAsAStrongAnswer(t *testing.T) {
	brief := "I would first assess her capacity and make sure she understands the risks. I'd speak privately with her, without family present, " +
		"so the decision is her own. Then I'd explore alternatives like cell salvage or iron infusions. If she still refuses, I respect her wishes " +
		"and continue to care for her. I'd document the conversation, check for an advance directive, and ask for an ethics consult."
	fb := score(t, transfusionInput(t, brief))
	if fb.OverallScore < 85 {
		t.Errorf("a brief answer making all six points scored %d, want 85 or more: %s", fb.OverallScore, fb.Summary)
	}
	builtWell := "I think this situation is about balancing many important values in healthcare. First, I would reflect on my own feelings and stay calm. " +
		"Second, I would remember that every situation is unique and communication matters. Finally, I learned from my volunteering at a clinic " +
		"that teamwork and professionalism are essential, and I would carry those lessons into every interaction as a future physician."
	none := score(t, transfusionInput(t, builtWell))
	if none.OverallScore >= 40 {
		t.Errorf("a structured answer making none of the question's points scored %d, want under 40", none.OverallScore)
	}
}

// Issue 40: a question's trap is the course the answer proposes, not a
// word of it in a clause the answer sets aside. Strong and adequate
// answers to the bank's questions were capped at 35 for conceding a
// pressure ("even though she laughed it off"), for ranking the trap below
// care ("matters more than hitting twenty consultations"), for naming the
// pressure they resist ("I know the surgeon writes my evaluation") and
// for dismissing the trap's excuse ("tells me nothing"). Walking into it
// past such a clause is still the trap.
func TestTrapWordsTheAnswerSetsAsideAreNotTheTrap(t *testing.T) {
	for _, c := range []struct {
		trap, cue, answer string
		walkedIn          bool
	}{
		{"Ignoring the comment because she laughed it off.", "laughed it off",
			"I'd take that comment seriously, even though she laughed it off, and ask her privately how she is doing.", false},
		{"Chasing the consultation target.", "twenty consultations",
			"I'd tell my manager that appropriate care matters more than hitting twenty consultations a week.", false},
		{"Doing the exam because the surgeon writes your evaluation.", "writes my evaluation",
			"I know the surgeon writes my evaluation, and I would still tell him I can't do the exam without her consent.", false},
		{"Not reporting it because the finger feels fine.", "finger feels fine",
			"The finger feeling fine tells me nothing about transmission, so I'd report it to my supervisor at once.", false},
		{"Ignoring the comment because she laughed it off.", "leave it",
			"Even though she seemed upset, I'd leave it and get on with the clinic.", true},
		{"Doing the exam because the surgeon writes your evaluation.", "do the exam",
			"I know my evaluation depends on it so I'd do the exam while she is asleep.", true},
	} {
		in := feedback.Input{Profession: "veterinary", Question: "What would you do?", Subtag: "Ethical", Transcript: c.answer,
			Traps: []question.Point{{Text: c.trap, Cues: []string{c.cue}}}}
		var flagged bool
		for _, f := range score(t, in).RedFlags {
			flagged = flagged || f.Key == feedback.FlagQuestionTrap
		}
		if flagged != c.walkedIn {
			t.Errorf("%q: trap flagged %v, want %v", c.answer, flagged, c.walkedIn)
		}
	}
}

// "Cover it" is a dressing on a needlestick; covering it up hides it.
func TestCoveringAWoundIsNotHidingTheTruth(t *testing.T) {
	for answer, hides := range map[string]bool{
		"I'd wash the puncture under running water. Then I'd cover it and put on a clean glove, and report it to my supervisor.": false,
		"I'd wash the puncture, cover it up and carry on without telling anyone, because the clinic is busy.":                    true,
	} {
		in := feedback.Input{Profession: "dental", Question: "You stick yourself with a used needle. What do you do?", Subtag: "Ethical", Transcript: answer}
		var flagged bool
		for _, f := range score(t, in).RedFlags {
			flagged = flagged || f.Key == feedback.FlagDeception
		}
		if flagged != hides {
			t.Errorf("%q: hiding the truth flagged %v, want %v", answer, flagged, hides)
		}
	}
}
