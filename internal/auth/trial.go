package auth

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"time"

	"github.com/whitecoat/whitecoat/internal/store"
)

// Deleting an account and signing up again with its address must not
// start a new free trial. Deletion keeps, under a salted hash of the
// address (never the address), when the trial ended and how many free
// sessions the account had used; an account made later with the address
// continues that trial: it ends when the old one did, or at once if the
// old account had used a free session, since the new account's used
// sessions are counted from its own practice sessions, which start at
// none and cannot carry the old ones. Sign-up answers the same either way (Signup applies it in the
// background).

// spentTrialSalt names the installation's salt in auth_secrets: made on
// first use, kept for good, so that the hash of an address is the same
// for every copy of the server and a leaked table cannot be matched
// against a precomputed list of addresses.
const spentTrialSalt = "spent_trial_salt"

// spentTrial is the trial a deleted account had used.
type spentTrial struct {
	trialExpiresAt time.Time
	sessionsUsed   int
	deletedAt      time.Time
}

// trialEnd is when an account made with the address afterwards ends its
// trial, at most its own fresh trial's end.
func (t spentTrial) trialEnd(fresh time.Time) time.Time {
	end := t.trialExpiresAt
	if t.sessionsUsed > 0 && t.deletedAt.Before(end) {
		end = t.deletedAt
	}
	if fresh.Before(end) {
		return fresh
	}
	return end
}

// emailHash is the key spent_trials keeps an address under: an HMAC with
// the installation's salt. It reads the salt through q each time, rather
// than caching it, so that a salt made inside a transaction that rolls
// back is never used afterwards.
func emailHash(ctx context.Context, q store.Queryer, email string) (string, error) {
	salt, err := installationSecret(ctx, q, spentTrialSalt, func() string {
		_, hash := NewToken()
		return hash
	})
	if err != nil {
		return "", err
	}
	mac := hmac.New(sha256.New, []byte(salt))
	mac.Write([]byte(email))
	return hex.EncodeToString(mac.Sum(nil)), nil
}

// recordSpentTrial keeps the trial of u, an account being deleted inside
// q that had used sessionsUsed free sessions. Only an account whose owner verified the address is kept: an
// unverified account could not practise, and a squatter's account replaced
// by the owner's Firebase sign-in must not spend the owner's trial.
func (s *Service) recordSpentTrial(ctx context.Context, q store.Queryer, u User, sessionsUsed int) error {
	if !u.EmailVerified {
		return nil
	}
	hash, err := emailHash(ctx, q, u.Email)
	if err != nil {
		return err
	}
	return upsertSpentTrial(ctx, q, hash, spentTrial{trialExpiresAt: u.TrialExpiresAt, sessionsUsed: sessionsUsed, deletedAt: s.clock()})
}

// insertNewUser adds u unless its email is taken, and reports whether it
// did; an address whose earlier account was deleted continues that
// account's trial.
func (s *Service) insertNewUser(ctx context.Context, u User) (bool, error) {
	hash, err := emailHash(ctx, s.db.SQL, u.Email)
	if err != nil {
		return false, err
	}
	spent, err := spentTrialOf(ctx, s.db.SQL, hash)
	switch {
	case err == nil:
		u.TrialExpiresAt = spent.trialEnd(u.TrialExpiresAt)
	case !errors.Is(err, errNotFound):
		return false, err
	}
	return insertUserIfNew(ctx, s.db.SQL, u)
}
