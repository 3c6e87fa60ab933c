package auth

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/store"
)

// Other domains change what the users table records about an account —
// usage, practice stats, the Premium pass — only through these methods,
// so auth alone writes the table. The practice ones take the caller's
// transaction: the account changes exactly when the caller's rows do.

// CountAnswer adds one uploaded answer to the user's usage count.
func (s *Service) CountAnswer(ctx context.Context, q store.Queryer, userID string) error {
	return countAnswer(ctx, q, userID)
}

// RecordSession adds a completed session to the user's stats: answered
// answers practised and, when average is not nil (some answer was scored),
// the session's average score in the rolling and last averages. It returns
// the last average before this session, nil when there was none to compare
// with.
func (s *Service) RecordSession(ctx context.Context, q store.Queryer, userID string, answered int, average *float64) (*float64, error) {
	st, err := userSessionStats(ctx, q, userID)
	if err != nil {
		return nil, err
	}
	var previous *float64
	if average != nil {
		if st.completed > 0 {
			last := st.last
			previous = &last
		}
		st.rolling = (st.rolling*float64(st.completed) + *average) / float64(st.completed+1)
		st.last = *average
	}
	return previous, addSession(ctx, q, userID, answered, st.rolling, st.last)
}

// SetPass gives the account with email a Premium pass. dates computes the
// pass from the account as it stands, inside the same transaction, so two
// grants at once cannot both start from the same end.
func (s *Service) SetPass(ctx context.Context, email string, dates func(User) (paidAt, endsAt time.Time)) error {
	return s.db.WithTx(ctx, func(tx *sql.Tx) error {
		u, err := userByEmail(ctx, tx, email)
		if errors.Is(err, errNotFound) {
			return apperr.NotFound("No account has the email " + email + ".")
		}
		if err != nil {
			return err
		}
		paidAt, endsAt := dates(u)
		return setPass(ctx, tx, u.ID, paidAt, endsAt)
	})
}
