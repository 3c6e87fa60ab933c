package answer

import (
	"time"

	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/transcribe"
)

// What turns a recording or a text into an answer's transcript, figures
// and feedback, the same for a practice answer and a visitor's try: each
// runs the speech engine its own way (a practice answer continues what
// was recognised while it arrived, at the student's voice), then both take
// what was heard with Heard and judge it with Judged.

// Hearing is what recognition gives an answer.
type Hearing struct {
	Transcript string
	Metrics    transcribe.Metrics
	// Meaningful is false when nothing in the transcript is an answer:
	// such an answer is done without feedback.
	Meaningful bool
}

// Heard is what res, a recording of an answer limited to limit, says.
func Heard(res transcribe.Result, limit time.Duration) Hearing {
	return Hearing{Transcript: res.Text, Metrics: transcribe.ComputeMetrics(res, limit), Meaningful: transcribe.Meaningful(res.Text)}
}

// Judged completes in, the question as the student met it, with what the
// feedback engine judges transcript (a's, or the student's correction of
// it) by: the delivery figures of a spoken answer and, for a video
// answer, its presence on camera; whether it was written; and the words
// the engine may have misheard, which the feedback never quotes, counts or
// scores.
func (a Answer) Judged(in feedback.Input, transcript string) feedback.Input {
	in.Transcript, in.Delivery, in.Written, in.Uncertain = transcript, a.Metrics.FeedbackDelivery(), a.Kind == KindTyped, a.UncertainRanges(transcript)
	in.Video = a.VideoDelivery
	return in
}
