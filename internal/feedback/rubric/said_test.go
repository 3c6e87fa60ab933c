package rubric

import (
	"slices"
	"strings"
	"testing"

	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/feedback/feedbacktest"
)

// Issue 29: credit for what an answer does, red flags only for what the
// speaker said of themselves, and texts that agree with their own checks.

const whyDentist = "Why do you want to become a dentist?"

// The list of fragments, and the same list without its opening
// sentence: both a weak answer, whatever sentence opens them.
const (
	signpostList = "I want to become a dentist for three reasons. First, shadowing. Second, a community clinic with patients and fear and cost. " +
		"Third, prevention and education. That showed me trust and communication. As a result, empathy. In the future, underserved communities."
	signpostFragments = "First, shadowing. Second, a community clinic with patients and fear and cost. Third, prevention and education. " +
		"That showed me trust and communication. As a result, empathy. In the future, underserved communities."
	// A real, specific answer of about the same length.
	doneWhyDentistry = "I shadowed a general dentist at a community clinic for 200 hours. One afternoon a teenager who had hidden a broken front tooth for a year " +
		"came in, and after the bonding he smiled at himself in the mirror; his mother cried. I learned that a small repair can give someone back their confidence. " +
		"I also saw patients miss visits because of cost and work, and I chose dentistry over medicine because I want to fix a problem with my hands in one visit " +
		"and then care for the same families for years, in a clinic like that one."
	// The vague answer, as the local engine heard its "Um".
	vagueWhyDentistry = "Am I don't know? I guess I kind of like science and stuff and working with my hands. Dentists help people and I think that's " +
		"really important. My dentist growing up was always nice to me and I kind of want to be like that. So I think dentistry would be a good career for me."
)

func whyDentistry(transcript string) feedback.Input {
	return feedback.Input{Profession: "dental", Question: whyDentist, Big3: feedback.Big3WhyProfession, Transcript: transcript,
		Delivery: &feedback.Delivery{DurationSeconds: 62, WordsPerMinute: 150}}
}

func TestAListOfFragmentsScoresLikeTheWeakAnswerItIs(t *testing.T) {
	for name, transcript := range map[string]string{"with its opening sentence": signpostList, "without it": signpostFragments} {
		for _, text := range []string{transcript, asTranscribed(transcript)} {
			if fb := score(t, whyDentistry(text)); fb.OverallScore >= 60 {
				t.Errorf("%s: %q scored %d, want a weak answer's (below 60): %s", name, text, fb.OverallScore, fb.Summary)
			}
		}
	}
	if fb := score(t, whyDentistry(doneWhyDentistry)); fb.OverallScore < 85 {
		t.Errorf("a real, specific answer scored %d, want 85 or more: %s", fb.OverallScore, fb.Summary)
	}
}

// Every answer, however good, is told the one change that would lift it
// most.
func TestEveryAnswerGetsASuggestion(t *testing.T) {
	for _, in := range []feedback.Input{whyDentistry(doneWhyDentistry), feedbacktest.StarInput(feedbacktest.StarAnswer),
		{Profession: "dental", Question: whyDentist, Big3: feedback.Big3WhyProfession, Transcript: conciseWhyDentistry}} {
		fb := score(t, in)
		if len(fb.Suggestions) == 0 || strings.TrimSpace(fb.Suggestions[0]) == "" {
			t.Errorf("an answer scoring %d has no suggestion", fb.OverallScore)
		}
	}
}

const (
	errorQuestion = "During your rotation, a resident gives a patient the wrong dose of a medication. The patient is fine. What would you do?"
	stanceOpening = "This is about honesty with the patient and with the team, and about the patient's safety. "
	stanceClosing = " I would check on the patient, tell the attending what happened that day, and make sure the error was reported so it does not happen again, " +
		"because patients need to trust that we tell them the truth."
)

func flagKeys(fb feedback.Feedback) []feedback.FlagKey {
	var keys []feedback.FlagKey
	for _, f := range fb.RedFlags {
		keys = append(keys, f.Key)
	}
	return keys
}

func ethical(question, transcript string) feedback.Input {
	return feedback.Input{Profession: "medical", Subtag: "Ethical", Question: question, Transcript: transcript,
		Delivery: &feedback.Delivery{DurationSeconds: 60, WordsPerMinute: 150}}
}

// A red-flag phrase flags the speaker only when it is their own proposal:
// not when they reject it, nor when they report it of someone else.
func TestRedFlagsFollowTheSpeakersStance(t *testing.T) {
	for _, tt := range []struct {
		said string
		flag bool
	}{
		{"Honestly, I would keep it quiet.", true},
		{"I would never keep it quiet.", false},
		{"The resident wanted to keep it quiet.", false},
	} {
		for _, text := range []string{stanceOpening + tt.said + stanceClosing, asTranscribed(stanceOpening + tt.said + stanceClosing)} {
			fb := score(t, ethical(errorQuestion, text))
			if got := slices.Contains(flagKeys(fb), feedback.FlagDeception); got != tt.flag {
				t.Errorf("%q: deception raised %v, want %v (flags %v)", tt.said, got, tt.flag, flagKeys(fb))
			}
		}
	}
}

// Falsifying, back-dating or miscoding a record is a red flag of its own,
// and only when the speaker proposes it.
func TestFalsifiedRecordsAreAFlagOfTheirOwn(t *testing.T) {
	const chartQuestion = "You assist a dentist who nicks the next tooth while preparing a filling. She asks you to chart the procedure as if nothing happened. What do you do?"
	for _, tt := range []struct {
		question, said string
		flag           bool
	}{
		{chartQuestion, "I would chart it as if everything went exactly as planned, since the dentist asked.", true},
		{chartQuestion, "I would backdate the note to yesterday so the chart is complete.", true},
		{chartQuestion, "I'd code her cleaning as periodontal scaling so that insurance pays for it.", true},
		{chartQuestion, "I'd bill four units even though we only did two.", true},
		{chartQuestion, "I would not chart it as if everything went as planned; the chart has to say what happened.", false},
		{chartQuestion, "The dentist wanted me to backdate the note, and I told her I could not.", false},
	} {
		fb := score(t, feedback.Input{Profession: "dental", Subtag: "Ethical", Question: tt.question, Transcript: stanceOpening + tt.said + stanceClosing,
			Delivery: &feedback.Delivery{DurationSeconds: 60, WordsPerMinute: 150}})
		if got := slices.Contains(flagKeys(fb), feedback.FlagFalsifiedRecords); got != tt.flag {
			t.Errorf("%q: falsified records raised %v, want %v (flags %v)", tt.said, got, tt.flag, flagKeys(fb))
		}
		if tt.flag && fb.OverallScore >= 60 {
			t.Errorf("%q: scored %d with a falsified record", tt.said, fb.OverallScore)
		}
	}
}

// A vague answer to the question asked is weak, not disqualifying.
func TestAVagueAnswerOnTopicIsWeakNotDisqualifying(t *testing.T) {
	for _, text := range []string{vagueWhyDentistry, asTranscribed(vagueWhyDentistry)} {
		fb := score(t, whyDentistry(text))
		if len(fb.RedFlags) > 0 {
			t.Errorf("a vague answer on topic raised %v", flagKeys(fb))
		}
		if j := evidenceNamed(fb, "Judgment"); j.Level <= 2 {
			t.Errorf("a vague answer on topic has judgement %d/7 (%q)", j.Level, j.Anchor)
		}
		if fb.OverallScore >= 60 {
			t.Errorf("a vague answer scored %d", fb.OverallScore)
		}
	}
}

// A cover-up is a cover-up: it is not contempt unless contempt is said.
func TestACoverUpIsNotContempt(t *testing.T) {
	const coverUp = "It was a small error and the patient was fine, so I would keep it between us and leave it out of the note. Telling the patient " +
		"would only worry him and could get the resident in trouble, and we have to protect the practice. I would just make sure we double-check doses next time."
	fb := score(t, ethical(errorQuestion, coverUp))
	keys := flagKeys(fb)
	if !slices.Contains(keys, feedback.FlagDeception) || slices.Contains(keys, feedback.FlagContempt) {
		t.Errorf("a cover-up raised %v, want deception and not contempt", keys)
	}
	// However the question was chosen, with its subtag or without it.
	bare := ethical(errorQuestion, coverUp)
	bare.Subtag = ""
	if got := flagKeys(score(t, bare)); !slices.Equal(got, keys) {
		t.Errorf("the same words raised %v without the question's subtag and %v with it", got, keys)
	}
}
