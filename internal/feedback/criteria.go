package feedback

import "math"

// Every section score is built from named criteria, each judged on a 1-7
// scale with behavioural anchors, the way multiple-mini-interview scoring
// sheets are: 1-2 unsatisfactory, 3-4 below what programs expect, 5-6 what
// they expect, 7 outstanding. A section's score is the weighted mean of its
// criteria on 0-100; the overall is the weighted mean of the sections.
const maxLevel = 7

// criterionKey names a criterion.
type criterionKey string

const (
	critRelevance criterionKey = "relevance"
	critJudgement criterionKey = "judgement"
	critEvidence  criterionKey = "evidence"
	critInsight   criterionKey = "insight"
	critFit       criterionKey = "fit"
	critStructure criterionKey = "structure"
	critFlow      criterionKey = "flow"
	critEconomy   criterionKey = "economy"
	critDelivery  criterionKey = "delivery"
	critPresence  criterionKey = "presence"
)

type criterion struct {
	key     criterionKey
	section string
	name    string
	weight  float64
	// anchors describe levels 1-2, 3-4, 5-6 and 7.
	anchors [4]string
}

// criteria in the order they are shown, section by section.
var criteria = []criterion{
	{key: critRelevance, section: SectionContent, name: "Answers the question", weight: 1.0, anchors: [4]string{
		"Answers a different question, or repeats the question without answering it.",
		"Touches the question but drifts; the interviewer has to work out the answer.",
		"Answers the question asked, with most of what it calls for.",
		"Answers exactly the question asked; everything in it serves that answer.",
	}},
	{key: critJudgement, section: SectionContent, name: "Judgment", weight: 1.2, anchors: [4]string{
		"Shows conduct an interviewer would treat as disqualifying, or no judgment at all.",
		"Reasonable instincts, but the reasoning is thin, one-sided or only asserted.",
		"Sound, patient-centered judgment, with the reasons behind it.",
		"Weighs what is in tension and reaches a well-reasoned decision that puts the patient first.",
	}},
	{key: critEvidence, section: SectionContent, name: "Specific evidence", weight: 1.5, anchors: [4]string{
		"Generalities only: nothing the interviewer could picture.",
		"A situation is named, but with few concrete details.",
		"A concrete example with people, places, numbers or words said.",
		"A vivid, specific example: who, where, what was said and what changed.",
	}},
	{key: critInsight, section: SectionContent, name: "Insight", weight: 1.2, anchors: [4]string{
		"No reflection or reasoning: what happened, not what it meant.",
		"A stock lesson or a single reason, not tied to the experience.",
		"Reflects on what the experience taught, or explains the reasoning.",
		"Shows how the experience changed what the applicant does now.",
	}},
	{key: critFit, section: SectionContent, name: "Understanding of the profession", weight: 0.6, anchors: [4]string{
		"Could be said about any job.",
		"Health care in general, little about this profession's work.",
		"Grounded in what this profession does for its patients.",
		"Shows a realistic, specific grasp of this profession's daily work.",
	}},
	{key: critStructure, section: SectionClarityStructure, name: "Structure for the question", weight: 1.5, anchors: [4]string{
		"No recognizable structure: the parts the question needs are missing.",
		"Some of the parts this question needs; key ones are missing.",
		"Most of the parts this question needs, in a form that is easy to follow.",
		"Every part this question needs, complete and in a natural order.",
	}},
	{key: critFlow, section: SectionClarityStructure, name: "Order and signposting", weight: 0.5, anchors: [4]string{
		"Jumps around; the listener cannot tell where the answer is going.",
		"Mostly in order, with few signposts.",
		"Told in a sensible order, with signposts where they help.",
		"A clear path from start to finish that the listener never loses.",
	}},
	{key: critEconomy, section: SectionClarityStructure, name: "Economy", weight: 0.8, anchors: [4]string{
		"Padded: stock phrases, repetition or the question read back stand in for substance.",
		"Some padding or repetition dilutes the answer.",
		"Little padding; most sentences add something.",
		"Every sentence earns its place.",
	}},
	{key: critDelivery, section: SectionOverallImpression, name: "Delivery", weight: 1.1, anchors: [4]string{
		"Hard to follow: far too short or long, rushed, halting or full of fillers.",
		"Understandable, but length, pace, fillers or pauses get in the way.",
		"Clear delivery at a comfortable length and pace, with few fillers.",
		"Fluent, well paced and well timed.",
	}},
	{key: critPresence, section: SectionOverallImpression, name: "Professional presence", weight: 1.0, anchors: [4]string{
		"Raises a concern about professionalism.",
		"Hesitant or unconvincing; hedges more than it commits.",
		"Comes across as sincere, confident and professional.",
		"Composed and convincing: an interviewer would remember this applicant.",
	}},
}

// level turns a criterion's fraction (0-1) into its 1-7 level.
func level(f float64) int {
	if math.IsNaN(f) {
		return 1
	}
	return 1 + int(math.Round(6*math.Max(0, math.Min(1, f))))
}

// anchor is the description of a level.
// writtenLength stands in for delivery in a typed answer, which is read,
// not heard: its weight is delivery's, its levels are about length alone.
func writtenLength(delivery criterion) criterion {
	delivery.name = "Length"
	delivery.anchors = [4]string{
		"Far too short (or long) to answer what was asked.",
		"Short of what the questions need, or longer than the time allows.",
		"A full answer to each question.",
		"Complete and concise: each question answered in full.",
	}
	return delivery
}

func (c criterion) anchor(l int) string {
	switch {
	case l <= 2:
		return c.anchors[0]
	case l <= 4:
		return c.anchors[1]
	case l <= 6:
		return c.anchors[2]
	}
	return c.anchors[3]
}

// judged is one criterion's fraction and the words it rests on.
type judged struct {
	c     criterion
	f     float64
	quote string
	note  string
}

// sectionScore is the weighted mean of a section's criteria, 0-100.
func sectionScore(js []judged, section string) float64 {
	var sum, weights float64
	for _, j := range js {
		if j.c.section == section {
			sum += j.c.weight * j.f
			weights += j.c.weight
		}
	}
	if weights == 0 {
		return 0
	}
	return 100 * sum / weights
}

// impressionOf is the overall impression section from a delivery score and
// a score for how the words came across, both 0-100, weighted as the
// section's two criteria are.
func impressionOf(delivery, presence float64) float64 {
	var dw, pw float64
	for _, c := range criteria {
		switch c.key {
		case critDelivery:
			dw = c.weight
		case critPresence:
			pw = c.weight
		}
	}
	return (dw*delivery + pw*presence) / (dw + pw)
}
