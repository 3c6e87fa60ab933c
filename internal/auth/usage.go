package auth

import (
	"context"
	"errors"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/store"
)

// Other domains change what the users table records about an account —
// usage and practice stats — only through these methods, so auth alone
// writes the table. They take the caller's transaction: the account
// changes exactly when the caller's rows do.

// CountAnswer adds one uploaded answer to the user's usage count.
func (s *Service) CountAnswer(ctx context.Context, q store.Queryer, userID string) error {
	return countAnswer(ctx, q, userID)
}

// RecordSession adds a completed session to the user's stats: answered
// answers practised and, when average is not nil (some answer was scored),
// the session's average score in the rolling and last averages.
func (s *Service) RecordSession(ctx context.Context, q store.Queryer, userID string, answered int, average *float64) error {
	st, err := userSessionStats(ctx, q, userID)
	if err != nil {
		return err
	}
	if average != nil {
		st.rolling = (st.rolling*float64(st.completed) + *average) / float64(st.completed+1)
		st.last = *average
	}
	return addSession(ctx, q, userID, answered, st.rolling, st.last)
}

// ReviseSessionAverage replaces a counted session's average in the
// account's averages after the student corrected a transcript in it: the
// session is not counted again and no answer is added. The rolling average
// is a running mean (RecordSession), so the session's part in it moves
// from old to updated; a session that had no average took no part, and
// enters at the current mean's weight. latest says whether the account's
// last average came from this session.
func (s *Service) ReviseSessionAverage(ctx context.Context, q store.Queryer, userID string, old *float64, updated float64, latest bool) error {
	st, err := userSessionStats(ctx, q, userID)
	if err != nil {
		return err
	}
	if st.completed == 0 {
		return nil
	}
	part := st.rolling
	if old != nil {
		part = *old
	}
	st.rolling += (updated - part) / float64(st.completed)
	if latest {
		st.last = updated
	}
	return setAverages(ctx, q, userID, st.rolling, st.last)
}

// UserByID returns the account with id, for the emails other domains send.
func (s *Service) UserByID(ctx context.Context, id string) (User, error) {
	return s.UserIn(ctx, s.db.SQL, id)
}

// UserIn returns the account with id as q sees it: inside the caller's
// transaction, for a check that must decide on the account as it stands
// then, not as the request found it when it began.
func (s *Service) UserIn(ctx context.Context, q store.Queryer, id string) (User, error) {
	u, err := userByID(ctx, q, id)
	if errors.Is(err, errNotFound) {
		return User{}, apperr.NotFound("No account has the id " + id + ".")
	}
	if err != nil {
		return User{}, err
	}
	return s.withPass(ctx, q, u)
}

// UserByEmail returns the account with email; support grants passes by
// email.
func (s *Service) UserByEmail(ctx context.Context, email string) (User, error) {
	u, err := userByEmail(ctx, s.db.SQL, email)
	if errors.Is(err, errNotFound) {
		return User{}, apperr.NotFound("No account has the email " + email + ".")
	}
	if err != nil {
		return User{}, err
	}
	return s.withPass(ctx, s.db.SQL, u)
}
