package auth

import (
	"context"
	"errors"
	"time"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/store"
)

// Other domains change what the users table records about an account —
// its usage — only through these methods, so auth alone writes the
// table. They take the caller's transaction: the account changes exactly
// when the caller's rows do.

// CountAnswer adds one uploaded answer to the user's usage count.
func (s *Service) CountAnswer(ctx context.Context, q store.Queryer, userID string) error {
	return countAnswer(ctx, q, userID)
}

// TrialEnd is when userID's free trial ends, as q sees it: billing reads
// it to answer what the student may do (billing.Trials).
func (s *Service) TrialEnd(ctx context.Context, q store.Queryer, userID string) (time.Time, error) {
	end, err := trialEndOf(ctx, q, userID)
	if errors.Is(err, errNotFound) {
		return time.Time{}, apperr.NotFound("No account has the id " + userID + ".")
	}
	return end, err
}

// UserByID returns the account with id, for the emails other domains send.
func (s *Service) UserByID(ctx context.Context, id string) (User, error) {
	u, err := userByID(ctx, s.db.SQL, id)
	if errors.Is(err, errNotFound) {
		return User{}, apperr.NotFound("No account has the id " + id + ".")
	}
	return u, err
}

// UserByEmail returns the account with email; support grants passes by
// email.
func (s *Service) UserByEmail(ctx context.Context, email string) (User, error) {
	u, err := userByEmail(ctx, s.db.SQL, email)
	if errors.Is(err, errNotFound) {
		return User{}, apperr.NotFound("No account has the email " + email + ".")
	}
	return u, err
}
