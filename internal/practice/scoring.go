package practice

import (
	"context"

	"github.com/whitecoat/whitecoat/internal/feedback"
)

// What the feedback engine is given to judge an answer by, built in one
// place for the pipeline's score step and for a transcript correction.

// answerSession is what scoring an answer needs of its session.
type answerSession struct {
	profession    string
	format        Format
	answerSeconds int // the format's answer time, before any extra time
	mode          string
}

// scoringInput is what the feedback engine judges transcript by: the
// question as the student met it (with a station's scenario), the
// delivery figures of a spoken answer, and the time the format gives an
// answer (the traditional format's is the spec's, whatever tests set; an
// extension is an accommodation, not a call for longer answers).
//
// A bank question brings its own points and traps, as the bank holds them
// now (an admin's edit counts from the next answer scored); a question
// since deleted, or the student's own, has none.
func (s *Service) scoringInput(ctx context.Context, as answerSession, it Item, transcript string) (feedback.Input, error) {
	in := it.Judged(feedback.Input{Profession: as.profession, Question: scoredQuestion(it), Subtag: it.Subtag, Big3: feedback.Big3ByOrder(it.Big3Order)}, transcript)
	if as.format != FormatTraditional {
		in.LimitSeconds = float64(as.answerSeconds)
	}
	if it.questionID == nil {
		return in, nil
	}
	bank, err := s.questions.Questions(ctx, as.profession)
	if err != nil {
		return feedback.Input{}, err
	}
	for _, q := range bank {
		if q.ID == *it.questionID {
			in.Points, in.Traps = q.Points, q.Traps
		}
	}
	return in, nil
}
