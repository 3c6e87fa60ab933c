package practice

import (
	"context"
	"database/sql"
	"io"

	"github.com/whitecoat/whitecoat/internal/answer"
	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/feedback"
)

// Upload admits an answer and stores its recording, as a PUT does: the
// tests send an answer in one call.
func (s *Service) Upload(ctx context.Context, u auth.User, sessionID, itemID, mimeType string, body io.Reader) (Item, error) {
	it, err := s.AdmitAnswer(ctx, u, sessionID, itemID)
	if err != nil {
		return Item{}, err
	}
	return s.UploadAdmitted(ctx, u, it, mimeType, body)
}

// AppendAudio admits an answer and stores a piece of its recording, as a
// PATCH does.
func (s *Service) AppendAudio(ctx context.Context, u auth.User, sessionID, itemID string, offset int64, mimeType string, piece []byte) (int64, error) {
	return s.AppendAudioHeard(ctx, u, sessionID, itemID, offset, mimeType, piece, "")
}

// AppendAudioHeard is AppendAudio with what the student's browser heard so far.
func (s *Service) AppendAudioHeard(ctx context.Context, u auth.User, sessionID, itemID string, offset int64, mimeType string, piece []byte, heardSoFar string) (int64, error) {
	it, err := s.AdmitAnswer(ctx, u, sessionID, itemID)
	if err != nil {
		return 0, err
	}
	return s.AppendAdmitted(ctx, u, it, offset, mimeType, piece, heardSoFar)
}

// Transition is one row of the item state machine's table (status.go).
type Transition struct {
	Event string
	From  []ItemStatus
	To    ItemStatus
	// Next is the kind of the job queued with the change ("" for none).
	Next string
}

// ItemStatuses are every status an answer can have.
var ItemStatuses = answer.Statuses

// Transitions is the table, in the order of its events' names.
func (s *Service) Transitions() []Transition {
	var out []Transition
	for _, event := range answer.Events() {
		t, _ := answer.TransitionOf(event)
		tr := Transition{Event: string(event), From: t.From, To: t.To}
		if args, _ := s.jobOf(t.Next, move{}); args != nil {
			tr.Next = args.Kind()
		}
		out = append(out, tr)
	}
	return out
}

// ApplyEvent makes event happen to it, as the step it names does, with
// nothing written but the change of status and the job that follows.
func (s *Service) ApplyEvent(ctx context.Context, it Item, event string) error {
	if answer.Event(event) == answer.EventSessionEnded {
		return s.db.WithTx(ctx, func(tx *sql.Tx) error { return endUnanswered(ctx, tx, it.sessionID, s.clock()) })
	}
	_, err := s.moveItem(ctx, move{itemID: it.ID, sessionID: it.sessionID, event: answer.Event(event)})
	return err
}

// SettleAnswer ends the answer itemID as the pipeline would: scored
// score, or, when score is nil, failed without a score.
func (s *Service) SettleAnswer(ctx context.Context, itemID string, score *int) error {
	return s.db.WithTx(ctx, func(tx *sql.Tx) error {
		status := StatusFailed
		if score != nil {
			status = StatusDone
			if err := saveFeedback(ctx, tx, itemID, feedback.Feedback{OverallScore: *score}); err != nil {
				return err
			}
		} else if err := recordFailure(ctx, tx, itemID, MsgFeedbackError, ""); err != nil {
			return err
		}
		_, err := setItemStatus(ctx, tx, itemID, status, s.clock(), answer.Statuses)
		return err
	})
}
