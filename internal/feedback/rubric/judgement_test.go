package rubric

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/feedback/feedbacktest"
)

// The answers below were written for these tests, after issue #13's
// findings, and are not part of the calibration benchmark: fluent answers an
// interviewer would mark down hard, concise answers that are strong, and
// answers that only mention a red flag to reject it.

const judgesClientWhoCannotPay = `This is a difficult situation that a lot of clinics face. The owner told us she couldn't afford the surgery for her dog's fractured leg. Honestly, if people can't afford basic veterinary care, they shouldn't really own a dog in the first place. I would explain the options clearly and with empathy, but I'd recommend euthanasia, because the clinic can't keep absorbing the cost of clients who won't pay and we have to protect the practice. I'd make sure she understood that it was the most responsible choice, document the conversation, and follow up with a sympathy card. Ultimately the welfare of the animal and the sustainability of the clinic both matter.`

const achievementList = `I graduated summa cum laude from the University of Michigan with a 3.95 GPA in biochemistry. I scored in the 98th percentile on the PCAT. I was president of the pre-pharmacy club for two years, captain of the varsity swim team, and I was on the dean's list every semester. I received the Presidential Scholarship and the Outstanding Senior award. I have published two papers on drug metabolism, and I presented at a national conference. I also worked as a certified pharmacy technician for 1,200 hours, and I'm certified in CPR and immunizations. I was also elected to Phi Beta Kappa and Rho Chi.`

const conciseWhyDentistry = `I want to be a dentist because I like careful work with my hands and long relationships with patients. Shadowing Dr. Okafor for 150 hours at a community clinic, I watched her spend ten minutes calming a teenager who had avoided care for years, then fix two cavities. He came back six months later smiling. That showed me dentistry is trust as much as technique, and that prevention changes lives. I want to be that dentist for anxious patients in my hometown.`

const conciseMistake = `As a pharmacy technician last spring, I typed 50 mg instead of 5 mg for a child's prednisolone label. The pharmacist caught it at verification. I told her right away it was my error, fixed the label, and called the parent to explain the corrected dose. Then I proposed a second read-back for pediatric doses, which our team adopted. I learned that owning a mistake fast is what keeps patients safe, and I now read every pediatric dose aloud before I print it.`

const negatedPressure = `The issue is a capable adult refusing an extraction that I believe she needs, so her autonomy and her health are in tension. First I'd find out why she is refusing: fear, cost, or a bad experience. I would never pressure her or use her family to change her mind; that would break her trust. I'd explain plainly what could happen if the infection spreads, offer options like antibiotics and a referral for sedation, and respect her decision if she still says no. I'd document the conversation and call her in a week.`

const reportedCoverUp = `During my third year as a medical scribe in an emergency department, a resident gave a patient a double dose of heparin. The resident wanted to hide it and asked me to leave it out of the note, so I told the attending what happened that same hour. The attending checked the patient's labs, disclosed the error to the patient, and filed an incident report. I felt awful going over the resident's head, but I learned that honesty with patients is not optional, and I now speak up immediately when something goes wrong.`

// Issue #13: fluent answers an interviewer would mark down hard scored 71-85.
func TestRedFlagAnswersScoreBelowSixty(t *testing.T) {
	tests := []struct {
		name string
		in   feedback.Input
		flag feedback.FlagKey
	}{
		{"an ethics answer that overrides a capable patient's refusal", feedback.Input{Profession: "medical", Subtag: "Ethical",
			Question: "A Jehovah's Witness patient refuses a blood transfusion that may save his life. What would you do?", Transcript: feedbacktest.OverrideAndHide,
			Delivery: &feedback.Delivery{DurationSeconds: 62}}, feedback.FlagOverride},
		{"the same answer hides what was done", feedback.Input{Profession: "medical", Subtag: "Ethical",
			Question: "A Jehovah's Witness patient refuses a blood transfusion that may save his life. What would you do?", Transcript: feedbacktest.OverrideAndHide,
			Delivery: &feedback.Delivery{DurationSeconds: 62}}, feedback.FlagDeception},
		{"an answer that judges a client who cannot pay", feedback.Input{Profession: "veterinary", Subtag: "Ethical",
			Question: "An owner cannot afford surgery for her dog's broken leg. What would you do?", Transcript: judgesClientWhoCannotPay,
			Delivery: &feedback.Delivery{DurationSeconds: 52}}, feedback.FlagContempt},
		{"tell me about yourself as a list of awards", feedback.Input{Profession: "pharmacy", Big3: feedback.Big3TellMeAboutYourself,
			Question: "Tell me about yourself.", Transcript: achievementList, Delivery: &feedback.Delivery{DurationSeconds: 45}}, feedback.FlagAchievementList},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fb := score(t, tt.in)
			if fb.OverallScore >= 60 {
				t.Errorf("overall %d, want below 60 (%s)", fb.OverallScore, fb.Summary)
			}
			var flag *feedback.RedFlag
			for i := range fb.RedFlags {
				if fb.RedFlags[i].Key == tt.flag {
					flag = &fb.RedFlags[i]
				}
			}
			if flag == nil {
				t.Fatalf("no %q flag; flags %v", tt.flag, feedbacktest.FlagKeys(fb))
			}
			if flag.Quote == "" || !strings.Contains(tt.in.Transcript, flag.Quote) {
				t.Errorf("flag quote %q is not the answer's words", flag.Quote)
			}
			if flag.Why == "" || flag.Instead == "" || flag.Name == "" {
				t.Errorf("flag %+v does not say what it is, why it matters and what to do instead", flag)
			}
		})
	}
}

// Issue #13: complete, specific answers of 80-100 words scored 51-54.
func TestConciseStrongAnswersScoreAsStrong(t *testing.T) {
	tests := []struct {
		name string
		in   feedback.Input
	}{
		{"why dentistry", feedback.Input{Profession: "dental", Big3: feedback.Big3WhyProfession, Question: "Why do you want to become a dentist?",
			Transcript: conciseWhyDentistry, Delivery: &feedback.Delivery{DurationSeconds: 36}}},
		{"a confidentiality scenario", feedback.Input{Profession: "medical", Subtag: "Ethical",
			Question: "A 16-year-old patient asks you not to tell her parents that she is pregnant. What would you do?", Transcript: feedbacktest.ConciseConfidentiality,
			Delivery: &feedback.Delivery{DurationSeconds: 38}}},
		{"a mistake", feedback.Input{Profession: "pharmacy", Subtag: "Behavioral", Question: "Tell me about a mistake you made.",
			Transcript: conciseMistake, Delivery: &feedback.Delivery{DurationSeconds: 37}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if n := len(strings.Fields(tt.in.Transcript)); n < 75 || n > 105 {
				t.Fatalf("test answer has %d words, want a concise 75-105", n)
			}
			fb := score(t, tt.in)
			if fb.OverallScore < 75 {
				t.Errorf("overall %d, want at least 75 (%s)", fb.OverallScore, fb.Summary)
			}
			if len(fb.RedFlags) > 0 {
				t.Errorf("flags %v on a strong answer", feedbacktest.FlagKeys(fb))
			}
		})
	}
}

// Negation and reported speech do not raise flags.
func TestNegatedAndReportedRedFlagsAreNotFlags(t *testing.T) {
	tests := []struct {
		name string
		in   feedback.Input
	}{
		{"I would never pressure her", feedback.Input{Profession: "dental", Subtag: "Ethical",
			Question: "A patient refuses an extraction you believe she needs. What would you do?", Transcript: negatedPressure}},
		{"the resident wanted to hide it, so I told the attending", feedback.Input{Profession: "medical", Subtag: "Behavioral",
			Question: "Tell me about a time you witnessed a mistake.", Transcript: reportedCoverUp}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fb := score(t, tt.in)
			if len(fb.RedFlags) > 0 {
				t.Errorf("flags %v, want none: %+v", feedbacktest.FlagKeys(fb), fb.RedFlags)
			}
			if fb.OverallScore < 70 {
				t.Errorf("overall %d for a good answer (%s)", fb.OverallScore, fb.Summary)
			}
		})
	}
}

// asTranscribed is what the local speech engine gives: lower case, no
// punctuation but apostrophes.
func asTranscribed(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '’':
			b.WriteRune(r)
		default:
			b.WriteRune(' ')
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// The same answers as the speech engine writes them judge the same way.
func TestTranscribedAnswersJudgeLikeCleanText(t *testing.T) {
	tests := []struct {
		name   string
		in     feedback.Input
		strong bool
	}{
		{"override and hide", feedback.Input{Profession: "medical", Subtag: "Ethical",
			Question: "A Jehovah's Witness patient refuses a blood transfusion that may save his life. What would you do?", Transcript: feedbacktest.OverrideAndHide}, false},
		{"concise why dentistry", feedback.Input{Profession: "dental", Big3: feedback.Big3WhyProfession, Question: "Why do you want to become a dentist?",
			Transcript: conciseWhyDentistry}, true},
		{"concise mistake", feedback.Input{Profession: "pharmacy", Subtag: "Behavioral", Question: "Tell me about a mistake you made.",
			Transcript: conciseMistake}, true},
		{"reported cover-up", feedback.Input{Profession: "medical", Subtag: "Behavioral",
			Question: "Tell me about a time you witnessed a mistake.", Transcript: reportedCoverUp}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clean := score(t, tt.in)
			in := tt.in
			in.Transcript = asTranscribed(tt.in.Transcript)
			heard := score(t, in)
			if d := heard.OverallScore - clean.OverallScore; d < -8 || d > 8 {
				t.Errorf("as transcribed %d, clean %d: want within 8", heard.OverallScore, clean.OverallScore)
			}
			if tt.strong && heard.OverallScore < 70 {
				t.Errorf("as transcribed a strong answer scored %d (%s)", heard.OverallScore, heard.Summary)
			}
			if !tt.strong && heard.OverallScore >= 60 {
				t.Errorf("as transcribed a red-flag answer scored %d", heard.OverallScore)
			}
			for _, f := range heard.RedFlags {
				if !strings.Contains(in.Transcript, f.Quote) {
					t.Errorf("quote %q not verbatim in the transcribed text", f.Quote)
				}
			}
		})
	}
}

// Each score is built from named criteria with anchored levels, and the
// overall is the weighted mean of the sections (before a red-flag cap).
func TestScoresAreBuiltFromAnchoredCriteria(t *testing.T) {
	fb := score(t, feedbacktest.StarInput(feedbacktest.StarAnswer))
	sections := map[string]int{}
	for _, e := range fb.Evidence {
		if e.Level == 0 {
			continue
		}
		sections[e.Section]++
		if e.Level < 1 || e.Level > 7 || e.Anchor == "" {
			t.Errorf("criterion %q: level %d anchor %q", e.Criterion, e.Level, e.Anchor)
		}
	}
	for _, s := range []string{feedback.SectionOverallImpression, feedback.SectionClarityStructure, feedback.SectionContent} {
		if sections[s] < 2 {
			t.Errorf("section %s rests on %d criteria, want at least 2", s, sections[s])
		}
	}
	sc := fb.SectionScores
	mean := feedback.WeightContent*float64(sc.Content) + feedback.WeightStructure*float64(sc.ClarityStructure) + feedback.WeightImpression*float64(sc.OverallImpression)
	if d := float64(fb.OverallScore) - mean; d < -1 || d > 1 {
		t.Errorf("overall %d is not the weighted mean %.1f of its sections", fb.OverallScore, mean)
	}
	if len(fb.Competencies) == 0 {
		t.Error("a strong STAR answer about calming a frightened child shows no competency")
	}
	for _, c := range fb.Competencies {
		if c != feedback.CompetencyEmpathy && c != feedback.CompetencyCommunication && c != feedback.CompetencyCriticalThinking && c != feedback.CompetencyResilience && c != feedback.CompetencyService && c != feedback.CompetencyReliability {
			continue
		}
		return
	}
	t.Errorf("competencies %v miss empathy and communication", fb.Competencies)
}

var grammaticalSummary = regexp.MustCompile(`^[A-Z][^.]*(\.|\?)( [A-Z][^.]*\.)*$`)

// Summaries read as sentences for every question type and every band.
func TestSummariesAreGrammaticalForEveryQuestionType(t *testing.T) {
	questions := map[feedback.QuestionType]feedback.Input{
		feedback.TypeBehavioral:    {Subtag: "Behavioral", Question: "Tell me about a mistake you made."},
		feedback.TypeTeamwork:      {Subtag: "Teamwork", Question: "Tell me about a time you worked on a team."},
		feedback.TypeLeadership:    {Subtag: "Leadership", Question: "Tell me about a time you led others."},
		feedback.TypeEthical:       {Subtag: "Ethical", Question: "A patient refuses treatment. What would you do?"},
		feedback.TypeCommunication: {Subtag: "Communication", Question: "How would you calm an angry patient?"},
		feedback.TypeTellMe:        {Big3: feedback.Big3TellMeAboutYourself, Question: "Tell me about yourself."},
		feedback.TypeWhyProfession: {Big3: feedback.Big3WhyProfession, Question: "Why do you want to become a dentist?"},
		feedback.TypeWhySchool:     {Big3: feedback.Big3WhySchool, Question: "Why our school?"},
		feedback.TypeGeneral:       {Question: "What is your favourite book?"},
	}
	answers := []string{feedbacktest.StarAnswer, conciseMistake, feedbacktest.OverrideAndHide, achievementList, "I am not sure.", ""}
	for qt, in := range questions {
		for _, a := range answers {
			in := in
			in.Profession = "dental"
			in.Transcript = a
			if feedback.Classify(in) != qt {
				t.Fatalf("%q classified as %s, want %s", in.Question, feedback.Classify(in), qt)
			}
			s := score(t, in).Summary
			if !grammaticalSummary.MatchString(s) || strings.Contains(s, "needs work to") || strings.Contains(s, "  ") {
				t.Errorf("%s: summary %q does not read as sentences", qt, s)
			}
		}
	}
}

// A fluent answer that decides to look the other way is worse than a
// thin but sound one: a red flag ranks it below an answer that says too
// little.
func TestARedFlagRanksBelowAThinButSoundAnswer(t *testing.T) {
	const q = "You see a classmate cheating on an exam. What would you do?"
	answer := func(transcript string) feedback.Feedback {
		return score(t, feedback.Input{Profession: "pa", Question: q, Subtag: "Ethical", Transcript: transcript,
			Delivery: &feedback.Delivery{DurationSeconds: 0.42 * float64(len(strings.Fields(transcript))), WordsPerMinute: 143}})
	}
	thin := answer("I would talk to my classmate after the exam and tell him what I saw, because cheating is unfair to everyone else in the class. " +
		"If it kept happening I would go to the instructor.")
	fluent := answer("The ethical issue here is a conflict between loyalty to a classmate and fairness to the rest of the class. The people affected " +
		"are my classmate, the other students and, one day, his patients. I could report him to the instructor, or I could talk to him first. " +
		"I weighed both options, and ultimately I would mind my own business, because it is not my exam and reporting him could end his career " +
		"over one bad day. I would make sure to support him afterwards, and I would check in with him about the stress he is under, since his wellbeing matters.")
	if !slices.Contains(flagKeys(fluent), feedback.FlagToleratingDishonesty) {
		t.Fatalf("flags %v, want %s", flagKeys(fluent), feedback.FlagToleratingDishonesty)
	}
	if fluent.OverallScore >= thin.OverallScore {
		t.Errorf("red-flagged answer %d, thin but sound one %d: want the red flag below", fluent.OverallScore, thin.OverallScore)
	}
}
