package auth

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/whitecoat/whitecoat/internal/apperr"
)

// SecondFactorStep is what a browser that gave the right password must
// still do before its session counts as signed in.
type SecondFactorStep string

const (
	// SecondFactorEnrol: an admin without a second factor sets one up.
	SecondFactorEnrol SecondFactorStep = "enrol"
	// SecondFactorCode: an enrolled admin gives a code or a recovery code.
	SecondFactorCode SecondFactorStep = "code"
)

// Messages of the second-factor step.
const (
	MsgSecondFactorWrong    = "That code is not right. Enter the 6-digit code your authenticator app shows now, or one of your recovery codes."
	MsgSecondFactorEnrolled = "A second factor is already set up for this account. Enter a code from your authenticator app."
	MsgSecondFactorMissing  = "Set up a second factor first."
)

// Recovery codes stand in for the authenticator app when it is lost. Each
// is 120 random bits (24 base32 characters, typed in groups of four): with
// at least 112 bits a fast hash may store them (OWASP ASVS 5.0 6.5.2), so
// checking one costs a query, not a password hash.
const (
	RecoveryCodeCount  = 10
	recoveryCodeBytes  = 15
	recoveryCodeGroups = 4
)

func (s *Service) secondFactorStep(ctx context.Context, u User) (SecondFactorStep, error) {
	if !u.IsAdmin() {
		return "", nil
	}
	f, err := secondFactorOf(ctx, s.db.SQL, u.ID)
	switch {
	case errors.Is(err, errNotFound), err == nil && !f.confirmed:
		return SecondFactorEnrol, nil
	case err != nil:
		return "", err
	}
	return SecondFactorCode, nil
}

// Enrolment is a new TOTP secret for the admin's authenticator app.
type Enrolment struct {
	Secret string
	URI    string
}

// StartEnrolment gives a half-signed-in admin without a second factor a
// new secret; it takes effect once ConfirmEnrolment sees a code from it.
func (s *Service) StartEnrolment(ctx context.Context, u User) (Enrolment, error) {
	secret := newTOTPSecret()
	started, err := startSecondFactor(ctx, s.db.SQL, u.ID, secret, s.clock())
	if err != nil {
		return Enrolment{}, err
	}
	if !started {
		return Enrolment{}, apperr.Conflict(MsgSecondFactorEnrolled)
	}
	return Enrolment{Secret: secret, URI: totpURI(secret, u.Email)}, nil
}

// ConfirmEnrolment turns the admin's new secret on once code shows their
// app holds it, and completes the sign-in. It returns the recovery codes,
// the only time they exist outside their hashes.
func (s *Service) ConfirmEnrolment(ctx context.Context, u User, sess Session, code string, c Client) (SignIn, []string, error) {
	key, err := s.countCodeAttempt(ctx, u, c)
	if err != nil {
		return SignIn{}, nil, err
	}
	f, err := secondFactorOf(ctx, s.db.SQL, u.ID)
	if errors.Is(err, errNotFound) {
		return SignIn{}, nil, apperr.Conflict(MsgSecondFactorMissing)
	}
	if err != nil {
		return SignIn{}, nil, err
	}
	if f.confirmed {
		return SignIn{}, nil, apperr.Conflict(MsgSecondFactorEnrolled)
	}
	step, err := matchTOTP(f.secret, normalizeCode(code), s.now())
	if err != nil {
		return SignIn{}, nil, err
	}
	if step == 0 {
		return SignIn{}, nil, apperr.Invalid("code", MsgSecondFactorWrong)
	}
	codes, hashes := newRecoveryCodes()
	in, err := s.passSecondFactor(ctx, u, sess, c, func(tx *sql.Tx) (bool, error) {
		confirmed, err := confirmSecondFactor(ctx, tx, u.ID, step, s.clock())
		if err != nil || !confirmed {
			return confirmed, err
		}
		return true, replaceRecoveryCodes(ctx, tx, u.ID, hashes)
	})
	if err != nil {
		return SignIn{}, nil, err
	}
	return in, codes, s.limiter.Reset(ctx, key)
}

// PassSecondFactor completes a half-finished admin sign-in with a code from
// the authenticator app (each usable once) or a recovery code (each usable
// once). Attempts are limited like passwords (see countCodeAttempt).
func (s *Service) PassSecondFactor(ctx context.Context, u User, sess Session, code string, c Client) (SignIn, error) {
	key, err := s.countCodeAttempt(ctx, u, c)
	if err != nil {
		return SignIn{}, err
	}
	f, err := secondFactorOf(ctx, s.db.SQL, u.ID)
	if errors.Is(err, errNotFound) || (err == nil && !f.confirmed) {
		return SignIn{}, apperr.Conflict(MsgSecondFactorMissing)
	}
	if err != nil {
		return SignIn{}, err
	}
	code = normalizeCode(code)
	step, err := matchTOTP(f.secret, code, s.now())
	if err != nil {
		return SignIn{}, err
	}
	in, err := s.passSecondFactor(ctx, u, sess, c, func(tx *sql.Tx) (bool, error) {
		if step != 0 {
			return useTOTPStep(ctx, tx, u.ID, step)
		}
		return useRecoveryCode(ctx, tx, u.ID, HashToken(code), s.clock())
	})
	if err != nil {
		return SignIn{}, err
	}
	return in, s.limiter.Reset(ctx, key)
}

// countCodeAttempt counts one second-factor code attempt and returns the
// key it counted against, or the refusal once that key's allowance
// (RATE_LIMIT_PER_ACCOUNT per RATE_LIMIT_WINDOW) is spent.
//
// Whoever has an admin's password can reach this step, and a shared
// allowance would let them lock the admin out for the whole window. As
// login does with device cookies (see Login), a browser holding a device
// cookie of this admin that has passed their second factor before has an
// allowance of its own; every other attempt counts against the account.
// The password alone cannot get such a cookie: Login issues new device
// cookies to any browser with the right password, but only passing the
// second factor (passSecondFactor) marks one. So a guesser spends only the
// account's allowance, and the admin's own enrolled browser still signs in
// with the right code at once.
func (s *Service) countCodeAttempt(ctx context.Context, u User, c Client) (string, error) {
	key := "second-factor:user:" + u.ID
	if c.DeviceToken != "" {
		device := HashToken(c.DeviceToken)
		passed, err := devicePassedSecondFactor(ctx, s.db.SQL, device, u.ID, s.clock())
		if err != nil {
			return "", err
		}
		if passed {
			key = "second-factor:device:" + device
		}
	}
	return key, s.limit(ctx, map[string]int{key: s.cfg.PerAccount})
}

// passSecondFactor runs use, which reports whether the code given is
// accepted (and uses it up), and if so replaces the browser's half-signed-in
// session with a full one in the same transaction.
func (s *Service) passSecondFactor(ctx context.Context, u User, sess Session, c Client, use func(*sql.Tx) (bool, error)) (SignIn, error) {
	in := SignIn{User: u}
	err := s.db.WithTx(ctx, func(tx *sql.Tx) error {
		accepted, err := use(tx)
		if err != nil {
			return err
		}
		if !accepted {
			return apperr.Invalid("code", MsgSecondFactorWrong)
		}
		if err := deleteSession(ctx, tx, sess.TokenHash); err != nil {
			return err
		}
		now := s.clock()
		if c.DeviceToken != "" {
			if err := markDeviceSecondFactor(ctx, tx, HashToken(c.DeviceToken), u.ID, now); err != nil {
				return err
			}
		}
		in.SessionToken, err = s.startSession(ctx, tx, u, &now, c)
		return err
	})
	if _, ours := apperr.As(err); err != nil && !ours {
		return SignIn{}, fmt.Errorf("auth: second factor: %w", err)
	}
	return in, err
}

// normalizeCode accepts codes typed with spaces or hyphens and in any case.
func normalizeCode(code string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' {
			return -1
		}
		return r
	}, strings.ToLower(strings.TrimSpace(code)))
}

// newRecoveryCodes returns RecoveryCodeCount codes to show once, and the
// hashes to store.
func newRecoveryCodes() (codes, hashes []string) {
	for range RecoveryCodeCount {
		b := make([]byte, recoveryCodeBytes)
		_, _ = rand.Read(b) // crypto/rand.Read never fails
		plain := strings.ToLower(totpEncoding.EncodeToString(b))
		var groups []string
		for i := 0; i < len(plain); i += recoveryCodeGroups {
			groups = append(groups, plain[i:i+recoveryCodeGroups])
		}
		codes = append(codes, strings.Join(groups, "-"))
		hashes = append(hashes, HashToken(plain))
	}
	return codes, hashes
}
