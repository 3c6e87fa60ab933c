package practice

import (
	"github.com/whitecoat/whitecoat/internal/feedback"
)

// What the feedback engine is given to judge an answer by, built in one
// place for the pipeline's score step and for a transcript correction.

// answerSession is what scoring an answer needs of its session.
type answerSession struct {
	profession    string
	format        Format
	answerSeconds int // the format's answer time, before any extra time
}

// scoringInput is what the feedback engine judges transcript by: the
// question as the student met it (with a station's scenario), the
// delivery figures of a spoken answer, and the time the format gives an
// answer (the traditional format's is the spec's, whatever tests set; an
// extension is an accommodation, not a call for longer answers).
func scoringInput(as answerSession, it Item, transcript string) feedback.Input {
	in := it.Judged(feedback.Input{Profession: as.profession, Question: scoredQuestion(it), Subtag: it.Subtag, Big3: big3Name(it.Big3Order)}, transcript)
	if as.format != FormatTraditional {
		in.LimitSeconds = float64(as.answerSeconds)
	}
	return in
}

// big3Name is the Big 3 question a Big 3 order stands for ("" for none).
func big3Name(order int) string {
	switch order {
	case 1:
		return feedback.Big3TellMeAboutYourself
	case 2:
		return feedback.Big3WhyProfession
	case 3:
		return feedback.Big3WhySchool
	}
	return ""
}
