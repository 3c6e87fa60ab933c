package llm

import "github.com/whitecoat/whitecoat/internal/feedback"

// exemplar is a short, invented piece of an answer with the level a
// criterion gives it and why: the few-shot examples the LLM engine's system
// prompt carries, one low and one high per criterion (judgement and
// presence also show the red-flag floor). They were written for the prompt
// and are deliberately not taken from the calibration benchmark
// (bench/feedback), so that the benchmark keeps measuring answers the model
// has not been shown.
type exemplar struct {
	level   int
	snippet string
	why     string
}

// exemplars are given for every criterion the model judges; delivery is
// measured from the recording and has none.
var exemplars = map[feedback.CriterionKey][]exemplar{
	feedback.CriterionRelevance: {
		{2, `Q: "Tell me about a time you disagreed with a supervisor." A: "Communication is the most important skill in health care, and I have always worked hard to communicate well with everyone on my teams."`,
			"talks about communication in general and never describes a disagreement"},
		{7, `Q: "What would you do if a classmate came to clinic smelling of alcohol?" A: "I would act before the first patient: take him aside, tell him what I noticed, and make sure he does not see patients today."`,
			"the first sentence answers exactly what was asked, and the rest builds on it"},
	},
	feedback.CriterionJudgement: {
		{1, `"The owner said no to the X-rays, but the dog clearly needed them, so I would take them in the back anyway."`,
			"overrides the client's refusal: conduct an interviewer treats as disqualifying"},
		{3, `"I would tell my supervisor, because rules are rules."`,
			"a reasonable instinct, but the reasoning is only asserted and no one else's interests are weighed"},
		{7, `"Her refusal worries me, but she is an adult with capacity. I'd ask what frightens her, explain the risk of waiting in plain words, offer a smaller first step, and if she still declines, respect it, document it and call her next week."`,
			"weighs autonomy against harm and decides with reasons, keeping the patient at the center"},
	},
	feedback.CriterionEvidence: {
		{2, `"I have volunteered in many places and helped a lot of people, which taught me a great deal about caring for others."`,
			"generalities only: nothing the interviewer could picture"},
		{7, `"At the Tuesday free clinic in Flint, a seventy-year-old man showed me four pill bottles he could not tell apart; we made a chart with pictures, and two weeks later his sugar log was back under 180."`,
			"who, where, what was done and a number that shows what changed"},
	},
	feedback.CriterionInsight: {
		{2, `"After that the patient went home and I went back to filing charts."`,
			"says what happened, not what it meant"},
		{7, `"I used to fill silences with reassurance; since that visit I ask 'what worries you most?' first, and patients tell me far more."`,
			"names how the experience changed what the applicant does now"},
	},
	feedback.CriterionFit: {
		{2, `"I want a career where I can help people and where every day is different."`,
			"could be said about any job"},
		{7, `"Shadowing on the rehab unit, I saw the therapist set Mr. Hale's goal as buttoning his own shirt for his granddaughter's wedding, not as a range-of-motion number."`,
			"a realistic, specific grasp of what the profession does for its patients day to day"},
	},
	feedback.CriterionStructure: {
		{2, `(a past-experience question) "I'm a hard worker and I handle stress well. My last job was very stressful and I handled it."`,
			"no situation, no actions of the applicant's own, no result: the parts the question needs are missing"},
		{7, `(a past-experience question) one sentence of situation, the applicant's task, three things they did in the first person, what changed as a result, and what they do differently since`,
			"every part the question needs, complete and in a natural order"},
	},
	feedback.CriterionFlow: {
		{2, `"So the result was good, but going back, I was working at — actually before that, in high school, I…"`,
			"jumps back and forth; the listener cannot tell where the answer is going"},
		{6, `"First, the situation… What I did was… As a result… Looking back…"`,
			"a sensible order with signposts where they help"},
	},
	feedback.CriterionEconomy: {
		{2, `"Dentistry is truly my passion because I am passionate about helping people, and helping people through dentistry is what I am passionate about."`,
			"padding and repetition stand in for substance"},
		{7, `"Two things drew me to pharmacy: the counseling I saw at the anticoagulation clinic, and the math of getting a child's dose exactly right."`,
			"every sentence adds something new"},
	},
	feedback.CriterionPresence: {
		{1, `"Honestly, patients like that are a waste of my time."`,
			"raises a concern about professionalism"},
		{3, `"I guess I kind of want to do it, I'm not really sure, it just seems sort of okay, I suppose."`,
			"hedges more than it commits"},
		{7, `"I may not have every answer on the first day, but I know what I would do first, and I would own whatever came next."`,
			"composed and honest, and commits"},
	},
}
