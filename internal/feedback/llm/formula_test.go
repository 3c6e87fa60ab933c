package llm

import (
	"testing"

	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/feedback/feedbacktest"
	"github.com/whitecoat/whitecoat/internal/feedback/rubric"
)

// The same criterion levels give the same scores whichever engine judged
// them: the rubric's levels, read back by the LLM engine as if the model
// had given them, score as the rubric scores them — for a full answer, a
// one-liner under the length cap and an answer under the red-flag cap.
func TestBothEnginesScoreTheSameLevelsAlike(t *testing.T) {
	flagged := feedback.Input{Profession: "medical", Subtag: "Ethical", Transcript: feedbacktest.OverrideAndHide, Delivery: &feedback.Delivery{DurationSeconds: 80},
		Question: "A patient refuses a blood transfusion for religious reasons. What would you do?"}
	for name, in := range map[string]feedback.Input{
		"full answer": feedbacktest.StarInput(feedbacktest.StarAnswer),
		"one-liner":   feedbacktest.StarInput("I helped a scared boy get through his filling by letting him hold the suction."),
		"red flag":    flagged,
	} {
		t.Run(name, func(t *testing.T) {
			a := rubric.Assess(in)
			// Levels are whole numbers; the rubric's fractions are not.
			// Round them to the level each shows as, then score them by
			// both paths.
			mj := modelJudgement{levels: map[feedback.CriterionKey]int{}}
			var judged []feedback.Judged
			for _, j := range a.Judge() {
				if j.Criterion.Key != feedback.CriterionDelivery {
					l := feedback.Level(j.Fraction)
					mj.levels[j.Criterion.Key] = l
					j.Fraction = feedback.LevelFraction(l)
				}
				judged = append(judged, j)
			}
			overall, sections := a.Scores(judged)
			fb := (&Engine{}).finish(mj, a)
			if fb.OverallScore != overall || fb.SectionScores != sections {
				t.Errorf("LLM engine: overall %d %+v; rubric: overall %d %+v", fb.OverallScore, fb.SectionScores, overall, sections)
			}
			if name != "full answer" && overall >= 50 {
				t.Errorf("overall %d, want it held under its cap", overall)
			}
		})
	}
}
