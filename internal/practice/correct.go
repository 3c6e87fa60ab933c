package practice

import (
	"context"
	"database/sql"
	"strings"
	"unicode/utf8"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/transcribe"
)

// Texts of a transcript correction.
const (
	MsgCorrectionNotScored = "Only an answer that was transcribed and scored can be corrected."
	MsgCorrectionEmpty     = "The corrected transcript has no answer in it to score. Write what you said."
	MsgCorrectionFailed    = "Feedback could not be generated for the corrected transcript. Try again in a moment."
	MsgTypedAnswerFinal    = "A typed answer is final: it is scored as you submitted it within its time. Only the transcript of a recorded answer can be corrected."
)

// CorrectTranscript replaces what the speech engine heard in one of the
// student's recorded answers with what they say they said, and scores the answer
// again on it. What the engine heard is kept and the answer is marked as
// corrected. The session's average and its saved copy are rewritten; the
// student's averages and the next session's comparison are computed from
// the session's average when read, so they follow. The session and its
// answers are not counted again — unless this is the session's first
// scored answer (the engine heard nothing meaningful in any of them): the
// session is practice from now on, so it counts and uses a free session,
// and is refused when none is left (checkFirstScore). Delivery figures
// (pace, fillers, pauses) come from the recording and stay as they were.
func (s *Service) CorrectTranscript(ctx context.Context, u auth.User, sessionID, itemID, text string) (Session, error) {
	text = strings.TrimSpace(text)
	if utf8.RuneCountInString(text) > MaxTranscriptLen {
		return Session{}, apperr.Invalid("transcript", "The transcript must be at most %d characters.", MaxTranscriptLen)
	}
	if !transcribe.Meaningful(text) {
		return Session{}, apperr.Invalid("transcript", MsgCorrectionEmpty)
	}
	it, err := s.ownItem(ctx, s.db.SQL, u, sessionID, itemID)
	if err != nil {
		return Session{}, err
	}
	// Correction mends what the recogniser misheard. A typed answer was
	// written by the student, against its clock: rewriting it after the
	// session would be a second, untimed attempt scored as the first.
	if it.Kind == KindTyped {
		return Session{}, apperr.Conflict(MsgTypedAnswerFinal)
	}
	if it.Status != StatusDone || it.Transcript == nil || !it.statsApplied {
		return Session{}, apperr.Conflict(MsgCorrectionNotScored)
	}
	// The same text is nothing to correct, unless it had words the engine
	// may have misheard: then the student has checked them, and the
	// answer is scored again with every word certain.
	if *it.Transcript == text && it.UncertainWords == 0 {
		return s.Get(ctx, u, sessionID)
	}
	in, err := s.scoringInput(ctx, it.answerSession, it.Item, text)
	if err != nil {
		return Session{}, err
	}
	in.Uncertain = nil // the student's words
	fb, err := s.scorer.Score(ctx, in)
	if err != nil {
		s.logger.Error("scoring a corrected transcript failed", "item", itemID, "err", err)
		return Session{}, apperr.Unavailable(MsgCorrectionFailed, 0, err)
	}
	// Scored outside the transaction, which holds the student's lock: the
	// session is read again, as theirs, in the transaction that writes.
	err = s.withUserTx(ctx, u.ID, func(tx *sql.Tx) error {
		sess, err := s.ownSessionWithItems(ctx, tx, u, sessionID)
		if err != nil {
			return err
		}
		if err := s.checkFirstScore(ctx, tx, u, sess); err != nil {
			return err
		}
		now := s.clock()
		if err := saveCorrection(ctx, tx, itemID, text, &fb, now); err != nil {
			return err
		}
		updated, err := withItems(ctx, tx, sess)
		if err != nil {
			return err
		}
		avg, _ := AverageScore(updated.Items) // this answer is scored now
		if err := setSessionAverage(ctx, tx, sessionID, avg); err != nil {
			return err
		}
		return s.copies.Rewrite(ctx, tx, u.ID, updated)
	})
	if err != nil {
		return Session{}, err
	}
	return s.Get(ctx, u, sessionID)
}

// checkFirstScore refuses the correction of u's session sess, as read in
// the correction's transaction before its answer is corrected, when it
// would be the session's first scored answer — it would then use a free
// session (see countUsedSessions) — and u may not practise. A session
// already scored is left as it is. It runs under the user's lock.
func (s *Service) checkFirstScore(ctx context.Context, tx *sql.Tx, u auth.User, sess Session) error {
	if _, scored := AverageScore(sess.Items); scored {
		return nil
	}
	return s.checkAnswerAllowed(ctx, tx, u, sess.ID)
}
