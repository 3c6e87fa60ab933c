package auth

import (
	"context"
	"errors"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/store"
)

// Other domains change what the users table records about an account —
// usage and the practice counters — only through these methods, so auth
// alone writes the table. They take the caller's transaction: the account
// changes exactly when the caller's rows do.

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
