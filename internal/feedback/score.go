package feedback

import "math"

// The score formula both engines share: each engine judges the criteria
// (the rubric from the words of the answer, the LLM engine by asking a
// model for levels) and this file turns those judgements into the section
// scores, the overall score and its caps, so that a level means the same
// score whichever engine gave it.

// Every section score is built from named criteria, each judged on a 1-7
// scale with behavioural anchors, the way multiple-mini-interview scoring
// sheets are: 1-2 unsatisfactory, 3-4 below what programs expect, 5-6 what
// they expect, 7 outstanding. A section's score is the weighted mean of its
// criteria on 0-100; the overall is the weighted mean of the sections.
const MaxLevel = 7

// CriterionKey names a criterion.
type CriterionKey string

const (
	CriterionRelevance CriterionKey = "relevance"
	CriterionJudgement CriterionKey = "judgement"
	CriterionEvidence  CriterionKey = "evidence"
	CriterionInsight   CriterionKey = "insight"
	CriterionFit       CriterionKey = "fit"
	CriterionStructure CriterionKey = "structure"
	CriterionFlow      CriterionKey = "flow"
	CriterionEconomy   CriterionKey = "economy"
	CriterionDelivery  CriterionKey = "delivery"
	CriterionPresence  CriterionKey = "presence"
)

// Criterion is one line of the scoring sheet.
type Criterion struct {
	Key     CriterionKey
	Section string
	Name    string
	Weight  float64
	// Anchors describe levels 1-2, 3-4, 5-6 and 7.
	Anchors [4]string
}

// Criteria in the order they are shown, section by section.
var Criteria = []Criterion{
	{Key: CriterionRelevance, Section: SectionContent, Name: "Answers the question", Weight: 1.0, Anchors: [4]string{
		"Answers a different question, or repeats the question without answering it.",
		"Touches the question but drifts; the interviewer has to work out the answer.",
		"Answers the question asked, with most of what it calls for.",
		"Answers exactly the question asked; everything in it serves that answer.",
	}},
	{Key: CriterionJudgement, Section: SectionContent, Name: "Judgment", Weight: 1.2, Anchors: [4]string{
		"Shows conduct an interviewer would treat as disqualifying, or no judgment at all.",
		"Reasonable instincts, but the reasoning is thin, one-sided or only asserted.",
		"Sound, patient-centered judgment, with the reasons behind it.",
		"Weighs what is in tension and reaches a well-reasoned decision that puts the patient first.",
	}},
	{Key: CriterionEvidence, Section: SectionContent, Name: "Specific evidence", Weight: 1.5, Anchors: [4]string{
		"Generalities only: nothing the interviewer could picture.",
		"A situation is named, but with few concrete details.",
		"A concrete example with people, places, numbers or words said.",
		"A vivid, specific example: who, where, what was said and what changed.",
	}},
	{Key: CriterionInsight, Section: SectionContent, Name: "Insight", Weight: 1.2, Anchors: [4]string{
		"No reflection or reasoning: what happened, not what it meant.",
		"A stock lesson or a single reason, not tied to the experience.",
		"Reflects on what the experience taught, or explains the reasoning.",
		"Shows how the experience changed what the applicant does now.",
	}},
	{Key: CriterionFit, Section: SectionContent, Name: "Understanding of the profession", Weight: 0.6, Anchors: [4]string{
		"Could be said about any job.",
		"Health care in general, little about this profession's work.",
		"Grounded in what this profession does for its patients.",
		"Shows a realistic, specific grasp of this profession's daily work.",
	}},
	{Key: CriterionStructure, Section: SectionClarityStructure, Name: "Structure for the question", Weight: 1.5, Anchors: [4]string{
		"No recognizable structure: the parts the question needs are missing.",
		"Some of the parts this question needs; key ones are missing.",
		"Most of the parts this question needs, in a form that is easy to follow.",
		"Every part this question needs, complete and in a natural order.",
	}},
	{Key: CriterionFlow, Section: SectionClarityStructure, Name: "Order and signposting", Weight: 0.5, Anchors: [4]string{
		"Jumps around; the listener cannot tell where the answer is going.",
		"Mostly in order, with few signposts.",
		"Told in a sensible order, with signposts where they help.",
		"A clear path from start to finish that the listener never loses.",
	}},
	{Key: CriterionEconomy, Section: SectionClarityStructure, Name: "Economy", Weight: 0.8, Anchors: [4]string{
		"Padded: stock phrases, repetition or the question read back stand in for substance.",
		"Some padding or repetition dilutes the answer.",
		"Little padding; most sentences add something.",
		"Every sentence earns its place.",
	}},
	{Key: CriterionDelivery, Section: SectionOverallImpression, Name: "Delivery", Weight: 1.1, Anchors: [4]string{
		"Hard to follow: far too short or long, rushed, halting or full of fillers.",
		"Understandable, but length, pace, fillers or pauses get in the way.",
		"Clear delivery at a comfortable length and pace, with few fillers.",
		"Fluent, well paced and well timed.",
	}},
	{Key: CriterionPresence, Section: SectionOverallImpression, Name: "Professional presence", Weight: 1.0, Anchors: [4]string{
		"Raises a concern about professionalism.",
		"Hesitant or unconvincing; hedges more than it commits.",
		"Comes across as sincere, confident and professional.",
		"Composed and convincing: an interviewer would remember this applicant.",
	}},
}

// Level turns a criterion's fraction (0-1) into its 1-7 level.
func Level(f float64) int {
	if math.IsNaN(f) {
		return 1
	}
	return 1 + int(math.Round(6*math.Max(0, math.Min(1, f))))
}

// LevelFraction is the fraction (0-1) a level stands for: Level's inverse.
func LevelFraction(l int) float64 {
	return float64(l-1) / (MaxLevel - 1)
}

// Anchor is the description of a level.
func (c Criterion) Anchor(l int) string {
	switch {
	case l <= 2:
		return c.Anchors[0]
	case l <= 4:
		return c.Anchors[1]
	case l <= 6:
		return c.Anchors[2]
	}
	return c.Anchors[3]
}

// Judged is one criterion's fraction (0-1) and the words it rests on.
type Judged struct {
	Criterion Criterion
	Fraction  float64
	Quote     string
	Note      string
}

// Evidence is the judged criterion as the student sees it: its level, the
// anchor that describes it, and the quote.
func (j Judged) Evidence() Evidence {
	l := Level(j.Fraction)
	c := j.Criterion
	return Evidence{Section: c.Section, Criterion: c.Name, Met: l >= 5, Quote: j.Quote, Note: j.Note, Level: l, Anchor: c.Anchor(l)}
}

// SectionScore is the weighted mean of a section's criteria, 0-100.
func SectionScore(js []Judged, section string) float64 {
	var sum, weights float64
	for _, j := range js {
		if j.Criterion.Section == section {
			sum += j.Criterion.Weight * j.Fraction
			weights += j.Criterion.Weight
		}
	}
	if weights == 0 {
		return 0
	}
	return 100 * sum / weights
}

// Section weights in the overall score. Content and structure are what an
// interviewer remembers; delivery colours the impression.
const (
	WeightContent    = 0.45
	WeightStructure  = 0.40
	WeightImpression = 0.15
)

// Answers shorter than OneLinerWords cannot show enough for an interviewer
// to judge (about 15-20 seconds of speech), however polished; an answer to
// another question is capped low, but above a red flag. Otherwise length earns
// nothing by itself: an answer that covers what its question needs is
// strong however briefly it does so.
const (
	OneLinerWords = 40
	oneLinerCap   = 35
	briefWords    = 25
	OffTopicCap   = 40
)

// RedFlagCap is the highest overall score an answer with a red flag can
// get: no more than a one-liner's, so that a fluent answer with a red flag
// ranks below a thin but sound one and below an answer to another
// question, as it would in an interviewer's notes — conduct they would
// disqualify is worse than saying too little. (At 45 a thin, sound answer
// of 35 words, which scores in the low 40s, ranked below a polished one
// that decided to look the other way.)
const RedFlagCap = oneLinerCap

// FragmentsCap is the most an answer made of a list of fragments can
// score ("First, shadowing. Second, a community clinic."): signposts with
// the substance left out are a weak answer however they are opened.
const FragmentsCap = 45

// BrevityCap is the most an answer under OneLinerWords can score: a
// one-liner oneLinerCap, rising to a partial answer's 50 at 40 words.
func BrevityCap(words int) float64 {
	return oneLinerCap + 15*math.Max(0, float64(words-briefWords))/float64(OneLinerWords-briefWords)
}

// Caps are what the answer's words decide of its overall score whatever
// its criteria say: the caps that hold it down, and the share of its
// question's points it makes, which sets most of it.
type Caps struct {
	// Words is the answer's length; under OneLinerWords it caps the score.
	Words int
	// OffTopic: the answer is to another question.
	OffTopic bool
	// RedFlagged: the answer raises a red flag.
	RedFlagged bool
	// Fragmentary: the answer is a list of fragments, not of clauses.
	Fragmentary bool
	// ContentUnjudged: too much of the answer may have been misheard to
	// judge its content; the overall is formed without it.
	ContentUnjudged bool
	// Points is the share of its question's own points the answer makes,
	// the most valuable weighing most (issue 40); nil for a question
	// without them. It sets most of the overall score: what a strong
	// answer to this question says, said briefly, is a strong answer.
	Points *float64
}

// PointsShare is how much of the overall score the question's points set
// where it has them; the rest is the sections' weighted mean (structure,
// delivery and the generic measures of content). Chosen on the bank
// answers' folds (bench/feedback, README): 0.7 and 0.85 rank them within
// 0.01 of each other, 0.5 and below worse; 0.7 leaves structure and
// delivery a share a student can feel.
const PointsShare = 0.7

// Score is the formula: each section the weighted mean of its criteria,
// the overall the weighted mean of the sections (mostly the question's
// points instead, where it has them), held under its caps.
func Score(js []Judged, caps Caps) (overall int, sections SectionScores) {
	content := SectionScore(js, SectionContent)
	structure := SectionScore(js, SectionClarityStructure)
	impression := SectionScore(js, SectionOverallImpression)
	o := WeightContent*content + WeightStructure*structure + WeightImpression*impression
	if caps.ContentUnjudged {
		// What could be judged, in the same proportion to each other.
		content = 0
		o = (WeightStructure*structure + WeightImpression*impression) / (WeightStructure + WeightImpression)
	} else if caps.Points != nil {
		o = (1-PointsShare)*o + PointsShare*100**caps.Points
	}
	if caps.Words < OneLinerWords {
		o = math.Min(o, BrevityCap(caps.Words))
	}
	if caps.OffTopic {
		o = math.Min(o, OffTopicCap)
	}
	if caps.RedFlagged {
		o = math.Min(o, RedFlagCap)
	}
	if caps.Fragmentary {
		o = math.Min(o, FragmentsCap)
	}
	return clampScore(o), SectionScores{
		OverallImpression: clampScore(impression),
		ClarityStructure:  clampScore(structure),
		Content:           clampScore(content),
	}
}

// clampScore turns any float into a spec score: 0-100, NaN and infinities 0.
func clampScore(v float64) int {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return int(math.Round(math.Max(0, math.Min(100, v))))
}
