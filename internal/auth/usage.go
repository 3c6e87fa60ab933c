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
// usage, the practice counters, the Premium pass — only through these methods,
// so auth alone writes the table. The practice ones take the caller's
// transaction: the account changes exactly when the caller's rows do.

// CountAnswer adds one uploaded answer to the user's usage count.
func (s *Service) CountAnswer(ctx context.Context, q store.Queryer, userID string) error {
	return countAnswer(ctx, q, userID)
}

// CountSession counts a completed session with answered answers in the
// account's counters. The averages are not the account's: practice
// computes them from its sessions when they are read.
func (s *Service) CountSession(ctx context.Context, q store.Queryer, userID string, answered int) error {
	return countSession(ctx, q, userID, answered)
}

// SetPass gives the account with email a Premium pass, as ExtendPass does;
// support grants passes by email.
func (s *Service) SetPass(ctx context.Context, email string, dates func(User) (paidAt, endsAt time.Time)) error {
	return s.db.WithTx(ctx, func(tx *sql.Tx) error {
		u, err := userByEmail(ctx, tx, email)
		if errors.Is(err, errNotFound) {
			return apperr.NotFound("No account has the email " + email + ".")
		}
		if err != nil {
			return err
		}
		_, err = s.ExtendPass(ctx, tx, u.ID, dates)
		return err
	})
}

// ExtendPass gives the account userID a Premium pass inside the caller's
// transaction, so the pass changes exactly when the caller's payment row is
// written. dates computes the pass from the account as it stands: the row
// is locked first, so two grants at once cannot both start from the same
// end. It returns the account as it was before.
func (s *Service) ExtendPass(ctx context.Context, q store.Queryer, userID string, dates func(User) (paidAt, endsAt time.Time)) (User, error) {
	u, err := lockedUser(ctx, q, userID)
	if err != nil {
		return User{}, err
	}
	paidAt, endsAt := dates(u)
	return u, setPass(ctx, q, u.ID, paidAt, endsAt)
}

// AdjustPass moves the end of the account's Premium pass and puts it on
// hold or takes it off, inside the caller's transaction (a refund, a
// dispute, its outcome); adjust computes both from the account as it
// stands, its row locked as in ExtendPass.
func (s *Service) AdjustPass(ctx context.Context, q store.Queryer, userID string, adjust func(User) (endsAt time.Time, onHold bool)) error {
	u, err := lockedUser(ctx, q, userID)
	if err != nil {
		return err
	}
	endsAt, onHold := adjust(u)
	return adjustPass(ctx, q, u.ID, endsAt, onHold)
}

func lockedUser(ctx context.Context, q store.Queryer, userID string) (User, error) {
	if err := lockUser(ctx, q, userID); err != nil {
		return User{}, err
	}
	u, err := userByID(ctx, q, userID)
	if errors.Is(err, errNotFound) {
		return User{}, apperr.NotFound("No account has the id " + userID + ".")
	}
	return u, err
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
	return u, err
}
