package auth

import (
	"context"
	"errors"

	"github.com/whitecoat/whitecoat/internal/apperr"
	wmail "github.com/whitecoat/whitecoat/internal/mail"
	"github.com/whitecoat/whitecoat/internal/store"
)

// MsgWrongPassword answers a deletion whose password is not the account's.
const MsgWrongPassword = "That password is not right."

// ConfirmPassword checks that password is u's, before an action that
// cannot be undone; the attempts count against the login limit of the
// account, so it cannot be used to guess the password faster.
func (s *Service) ConfirmPassword(ctx context.Context, u User, password string) error {
	if err := s.limit(ctx, map[string]int{"login:account:" + u.Email: s.cfg.PerAccount}); err != nil {
		return err
	}
	current, err := userByID(ctx, s.db.SQL, u.ID)
	if err != nil {
		return err
	}
	ok, _, err := s.verify(ctx, password, current.passwordHash)
	if err != nil {
		return err
	}
	if !ok {
		return apperr.Invalid("password", MsgWrongPassword)
	}
	return nil
}

// DeleteUser removes the account and every row auth keeps about it —
// sign-ins, emailed tokens, trusted devices, the second factor and its
// recovery codes, and the rate-limit counters of its address, id and
// device cookies — inside the caller's transaction, which has already
// removed what other domains keep. Every sign-in ends with it. What stays
// is the spent trial under a salted hash of the address (see trial.go),
// with the sessionsUsed free sessions practice counted for the account.
//
// The counters of the client addresses the account used are not erased
// early: erasing them would let anyone reset the per-address limits on
// login and sign-up by making and deleting an account. They are pruned
// when their window ends (RATE_LIMIT_WINDOW).
func (s *Service) DeleteUser(ctx context.Context, q store.Queryer, u User, sessionsUsed int) error {
	current, err := userByID(ctx, q, u.ID)
	if errors.Is(err, errNotFound) {
		return apperr.NotFound("No account has the id " + u.ID + ".")
	}
	if err != nil {
		return err
	}
	if err := s.recordSpentTrial(ctx, q, current, sessionsUsed); err != nil {
		return err
	}
	devices, err := trustedDeviceHashes(ctx, q, current.ID)
	if err != nil {
		return err
	}
	if err := s.limiter.Forget(ctx, q, append([]string{current.Email, current.ID}, devices...)...); err != nil {
		return err
	}
	return deleteUser(ctx, q, current.ID)
}

// SendAccountDeleted confirms a deletion to the address the account had,
// in the background; kept names the records that stay.
func (s *Service) SendAccountDeleted(u User, kept string) {
	s.inBackground("account deleted email", func(ctx context.Context) error {
		msg, err := wmail.AccountDeleted(u.Email, u.Name, kept)
		if err != nil {
			return err
		}
		return s.mailer.Send(ctx, msg)
	})
}
