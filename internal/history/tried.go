package history

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"math"
	"time"

	"github.com/whitecoat/whitecoat/internal/answer"
	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/store"
)

// TitleTried is what a kept try is called in the history.
const TitleTried = "Tried before signing up"

// TriedAnswer is an answer given without an account (a try on a landing
// page, internal/tryout), as it is kept in the account made after it.
type TriedAnswer struct {
	// TryID names the try (its id where it was made): the saved session's
	// id is derived from it, so that one try is saved once however often
	// it is kept.
	TryID      string
	Profession string
	answer.Answer
	AnsweredAt time.Time
}

// KeepTried saves a, answered before u had an account, in u's history.
// It becomes a saved session of its own and never a practice session: a
// free session is one of the student's practice sessions that had an
// answer scored (practice counts them), so a kept try uses none, and it takes no
// part in the averages and the sessions counted, which come from practice
// sessions too.
//
// A student whose history is locked (the one entitlement, see
// checkOpen) is refused before anything is written (the saved
// session would be one they cannot see), and keeping
// the same try again (a keep whose try could not be forgotten afterwards,
// or two at once) finds the saved session the first one made.
func (s *Service) KeepTried(ctx context.Context, u auth.User, a TriedAnswer) (Saved, error) {
	if err := s.checkOpen(ctx, u); err != nil {
		return Saved{}, err
	}
	si := storedItemOf(a.Answer)
	var overall float64
	if a.Feedback != nil {
		if o, ok := a.Feedback.Overall(); ok {
			overall = math.Round(float64(o)*10) / 10
		}
	}
	var seconds int
	if a.Metrics != nil {
		seconds = int(math.Round(a.Metrics.DurationSeconds))
	}
	saved := Saved{TotalSessionTime: seconds, ID: triedSavedID(a.TryID), Title: TitleTried, Profession: a.Profession, Format: practice.FormatTraditional, CreatedAt: store.Truncate(a.AnsweredAt),
		Counts: Counts{TotalQuestions: 1, Answered: 1}, OverallAvg: overall}
	if err := insertSaved(ctx, s.db.SQL, u.ID, saved, []storedItem{si}); err != nil {
		return Saved{}, err
	}
	return s.SavedOf(ctx, u.ID, saved.ID)
}

// triedSavedID is the id of the saved session a try becomes: a saved
// session's id (store.NewID's 32 hex digits) drawn from the try's, which
// is itself a hash.
func triedSavedID(tryID string) string {
	sum := sha256.Sum256([]byte("tried:" + tryID))
	return hex.EncodeToString(sum[:16])
}
