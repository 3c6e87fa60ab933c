package practice

import (
	"context"
	"database/sql"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/whitecoat/whitecoat/internal/answer"
	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/transcribe"
)

// Texts of a typed answer.
const (
	MsgTypedEmpty   = "Type an answer before you submit it, or skip the question."
	MsgNotTyped     = "This question is answered by recording, not by typing."
	MsgNotSpoken    = "This question is answered by typing, not by recording."
	MsgTypedTooLong = "A typed answer must be at most %d characters."
)

// AnswerInWriting records a typed answer (a Casper-style typed part): it
// becomes the item's transcript as written and is scored by the same
// feedback engine, with no speech figures. It counts as an answer for the
// free sessions and the usage guard, like a recording.
func (s *Service) AnswerInWriting(ctx context.Context, u auth.User, sessionID, itemID, text string) (Item, error) {
	text = strings.TrimSpace(text)
	switch {
	case text == "":
		return Item{}, apperr.Invalid("text", MsgTypedEmpty)
	case utf8.RuneCountInString(text) > MaxTranscriptLen:
		return Item{}, apperr.Invalid("text", MsgTypedTooLong, MaxTranscriptLen)
	}
	meaningful := transcribe.Meaningful(text)
	m := move{itemID: itemID, sessionID: sessionID, event: answer.EventWrittenEmpty,
		update: func(tx *sql.Tx, now time.Time) error {
			if err := saveTypedAnswer(ctx, tx, itemID, text, meaningful, now); err != nil {
				return err
			}
			return s.users.CountAnswer(ctx, tx, u.ID)
		}}
	if meaningful {
		m.event = answer.EventWritten
	}
	var (
		it    Item
		moved bool
	)
	err := s.withUserTx(ctx, u.ID, func(tx *sql.Tx) error {
		var err error
		if it, err = s.admit(ctx, tx, u, sessionID, itemID); err != nil {
			return err
		}
		if it.Kind != KindTyped {
			return apperr.Conflict(MsgNotTyped)
		}
		// admit read tx, so spec §4 was decided under the user's lock, on
		// the account as it stands, as an upload's is.
		if err := s.checkUsage(ctx, tx, u.ID); err != nil {
			return err
		}
		moved, err = s.moveItemTx(ctx, tx, m)
		return err
	})
	if err != nil {
		return Item{}, err
	}
	if !moved {
		return Item{}, apperr.Conflict(msgAlreadyAnswered)
	}
	t, _ := answer.TransitionOf(m.event)
	it.Status, it.Transcript, it.Meaningful = t.To, &text, &meaningful
	return it, nil
}
