package auth

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/mail"
	"net/url"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/whitecoat/whitecoat/internal/apperr"
	wmail "github.com/whitecoat/whitecoat/internal/mail"
	"github.com/whitecoat/whitecoat/internal/ratelimit"
	"github.com/whitecoat/whitecoat/internal/store"
)

// Messages the API answers with; the reset and resend ones are identical
// whether or not the email belongs to an account.
const (
	MsgInvalidLogin   = "Invalid email or password."
	MsgResendSent     = "If that email belongs to an account that still needs verifying, a new verification link is on its way."
	MsgResetSent      = "If that email belongs to an account, a password reset link is on its way. It works for one hour."
	MsgBadLink        = "This link is invalid, has expired or was already used. Request a new one."
	MsgEmailConfirmed = "Your email is confirmed."
	MsgPasswordReset  = "Your password has been changed. Log in with your new password."
	MsgSignInRequired = "Please log in to continue."
	MsgAdminsOnly     = "Only admins can do this."
	MsgVerifyFirst    = "Verify your email to unlock the app."
	MsgEmailTaken     = "An account with this email already exists. Log in instead, or reset your password."
)

const (
	purposeVerify = "verify_email"
	purposeReset  = "reset_password"
	// touchEvery limits last-seen writes to one a minute per session.
	touchEvery = time.Minute
	maxNameLen = 100
)

// Config holds the settings the service needs from the app's config.
type Config struct {
	BaseURL         *url.URL
	IdleTimeout     time.Duration
	AbsoluteTimeout time.Duration
	Argon2          Argon2Params
	RateWindow      time.Duration
	PerAccount      int
	PerIP           int
	// HashSlots is how many password hashes the process computes at once
	// (0: half the cores; see hashing.go).
	HashSlots int
}

// Client identifies where a request came from, for rate limits and the
// sessions list.
type Client struct {
	IP        string
	UserAgent string
}

// Service implements accounts on top of the store.
type Service struct {
	db      *store.DB
	mailer  wmail.Mailer
	limiter *ratelimit.Limiter
	logger  *slog.Logger
	now     func() time.Time
	cfg     Config
	hashes  *hashGate

	// background carries work a response must not wait for (sending mail,
	// work whose duration would reveal whether an account exists).
	background   sync.WaitGroup
	bgCtx        context.Context
	stopBg       context.CancelFunc
	dummyPHCOnce sync.Once
	dummyPHC     string
}

// NewService wires the account service. now is the clock (time.Now in
// production, a controllable one in tests).
func NewService(db *store.DB, mailer wmail.Mailer, limiter *ratelimit.Limiter, logger *slog.Logger, now func() time.Time, cfg Config) *Service {
	ctx, cancel := context.WithCancel(context.Background())
	slots := cfg.HashSlots
	if slots <= 0 {
		slots = defaultHashSlots()
	}
	return &Service{db: db, mailer: mailer, limiter: limiter, logger: logger, now: now, cfg: cfg, bgCtx: ctx, stopBg: cancel,
		hashes: newHashGate(slots, hashWait)}
}

// Shutdown waits for background work (mail being sent) until ctx ends,
// then cancels what is left.
func (s *Service) Shutdown(ctx context.Context) {
	done := make(chan struct{})
	go func() { s.background.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		s.stopBg()
		<-done
	}
}

func (s *Service) clock() time.Time { return store.Truncate(s.now()) }

func (s *Service) inBackground(name string, fn func(ctx context.Context) error) {
	s.background.Add(1)
	go func() {
		defer s.background.Done()
		ctx, cancel := context.WithTimeout(s.bgCtx, 30*time.Second)
		defer cancel()
		if err := fn(ctx); err != nil {
			s.logger.Error("background task failed", "task", name, "err", err)
		}
	}()
}

// NormalizeEmail trims and lower-cases an address and checks its shape.
func NormalizeEmail(raw string) (string, error) {
	email := strings.ToLower(strings.TrimSpace(raw))
	if email == "" {
		return "", apperr.Invalid("email", "Email is required.")
	}
	a, err := mail.ParseAddress(email)
	if err != nil || a.Address != email || !strings.Contains(email[strings.LastIndexByte(email, '@')+1:], ".") || len(email) > 254 {
		return "", apperr.Invalid("email", "Enter a valid email address, like name@example.com.")
	}
	return email, nil
}

func normalizeName(raw string) (string, error) {
	name := strings.Join(strings.Fields(raw), " ")
	switch {
	case name == "":
		return "", apperr.Invalid("name", "Name is required.")
	case utf8.RuneCountInString(name) > maxNameLen:
		return "", apperr.Invalid("name", "Name must be at most %d characters.", maxNameLen)
	}
	return name, nil
}

func (s *Service) rule(limit int) ratelimit.Rule {
	return ratelimit.Rule{Limit: limit, Window: s.cfg.RateWindow}
}

// limit counts one attempt against each key and fails when any is over.
func (s *Service) limit(ctx context.Context, keys map[string]int) error {
	for key, limit := range keys {
		ok, retry, err := s.limiter.Hit(ctx, key, s.rule(limit))
		if err != nil {
			return err
		}
		if !ok {
			return apperr.RateLimited(retry)
		}
	}
	return nil
}

// Signup creates an account with a 7-day trial, signs it in and sends the
// verification email. It returns the session token for the cookie.
func (s *Service) Signup(ctx context.Context, name, email, password string, c Client) (User, string, error) {
	name, err := normalizeName(name)
	if err != nil {
		return User{}, "", err
	}
	if email, err = NormalizeEmail(email); err != nil {
		return User{}, "", err
	}
	if err := s.limit(ctx, map[string]int{"signup:ip:" + c.IP: s.cfg.PerIP, "signup:email:" + email: s.cfg.PerAccount}); err != nil {
		return User{}, "", err
	}
	if err := CheckPassword(password); err != nil {
		return User{}, "", err
	}
	u, err := s.newUser(ctx, name, email, password, RoleUser, false)
	if err != nil {
		return User{}, "", err
	}
	var token string
	err = s.db.WithTx(ctx, func(tx *sql.Tx) error {
		if err := insertUser(ctx, tx, u); err != nil {
			return err
		}
		token, err = s.startSession(ctx, tx, u.ID, c)
		return err
	})
	if store.IsUniqueViolation(err) {
		return User{}, "", apperr.Conflict(MsgEmailTaken)
	}
	if err != nil {
		return User{}, "", fmt.Errorf("auth: signup: %w", err)
	}
	s.inBackground("send verification email", func(ctx context.Context) error { return s.sendVerification(ctx, u) })
	return u, token, nil
}

func (s *Service) newUser(ctx context.Context, name, email, password string, role Role, verified bool) (User, error) {
	hash, err := s.hash(ctx, password)
	if err != nil {
		return User{}, err
	}
	now := s.clock()
	return User{
		ID: store.NewID(), Name: name, Email: email, CreatedAt: now, TrialExpiresAt: now.Add(TrialLength),
		EmailVerified: verified, Role: role, passwordHash: hash,
	}, nil
}

func (s *Service) startSession(ctx context.Context, q store.Queryer, userID string, c Client) (string, error) {
	token, hash := newToken()
	now := s.clock()
	sess := Session{TokenHash: hash, UserID: userID, CreatedAt: now, LastSeenAt: now, ExpiresAt: now.Add(s.cfg.AbsoluteTimeout)}
	return token, insertSession(ctx, q, sess, truncate(c.UserAgent, 300), c.IP)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

// Login checks the password and starts a new session, ending the one the
// browser had (session rotation). Every attempt counts per client IP and
// per account-and-IP pair before its password is hashed, so parallel
// guesses cannot slip past the limit while earlier ones are still being
// checked; a successful one is then forgiven. Someone guessing from
// elsewhere cannot lock the owner out of a correct login.
func (s *Service) Login(ctx context.Context, email, password string, c Client, previousTokenHash string) (User, string, error) {
	email = strings.ToLower(strings.TrimSpace(email))
	if email == "" || password == "" {
		return User{}, "", apperr.Invalid("", "Email and password are required.")
	}
	ipKey, pairKey := "login:ip:"+c.IP, "login:pair:"+email+"|"+c.IP
	if err := s.limit(ctx, map[string]int{ipKey: s.cfg.PerIP, pairKey: s.cfg.PerAccount}); err != nil {
		return User{}, "", err
	}
	u, err := userByEmail(ctx, s.db.SQL, email)
	if err != nil && !errors.Is(err, errNotFound) {
		return User{}, "", err
	}
	ok, rehash := false, false
	if err == nil {
		ok, rehash, err = s.verify(ctx, password, u.passwordHash)
		if err != nil {
			return User{}, "", fmt.Errorf("auth: login %s: %w", u.ID, err)
		}
	} else {
		// Spend the same time as a real check so response times do not
		// reveal which emails have accounts.
		if _, _, err := s.verify(ctx, password, s.dummyHash()); err != nil {
			return User{}, "", err
		}
	}
	if !ok {
		return User{}, "", apperr.Unauthenticated(MsgInvalidLogin)
	}
	if err := s.limiter.Forgive(ctx, ipKey); err != nil {
		return User{}, "", err
	}
	if err := s.limiter.Reset(ctx, pairKey); err != nil {
		return User{}, "", err
	}
	var token string
	err = s.db.WithTx(ctx, func(tx *sql.Tx) error {
		if rehash {
			hash, err := s.hash(ctx, password)
			if err != nil {
				return err
			}
			if err := setPasswordHash(ctx, tx, u.ID, hash); err != nil {
				return err
			}
		}
		if previousTokenHash != "" {
			if err := deleteSession(ctx, tx, previousTokenHash); err != nil {
				return err
			}
		}
		token, err = s.startSession(ctx, tx, u.ID, c)
		return err
	})
	if err != nil {
		return User{}, "", fmt.Errorf("auth: login: %w", err)
	}
	return u, token, nil
}

func (s *Service) dummyHash() string {
	s.dummyPHCOnce.Do(func() {
		h, err := HashPassword("whitecoat-timing-equaliser", s.cfg.Argon2)
		if err != nil {
			panic(err)
		}
		s.dummyPHC = h
	})
	return s.dummyPHC
}

// Logout ends a session.
func (s *Service) Logout(ctx context.Context, sess Session) error {
	return deleteSession(ctx, s.db.SQL, sess.TokenHash)
}

// Authenticate resolves a session token to its user, enforcing the idle
// and absolute timeouts. It returns apperr Unauthenticated for any token
// that is unknown or expired.
func (s *Service) Authenticate(ctx context.Context, token string) (User, Session, error) {
	hash := hashToken(token)
	sess, u, err := sessionWithUser(ctx, s.db.SQL, hash)
	if errors.Is(err, errNotFound) {
		return User{}, Session{}, apperr.Unauthenticated(MsgSignInRequired)
	}
	if err != nil {
		return User{}, Session{}, err
	}
	now := s.clock()
	if !now.Before(sess.ExpiresAt) || !now.Before(sess.LastSeenAt.Add(s.cfg.IdleTimeout)) {
		if err := deleteSession(ctx, s.db.SQL, hash); err != nil {
			s.logger.Warn("could not delete expired session", "err", err)
		}
		return User{}, Session{}, apperr.Unauthenticated("Your session has expired. Please log in again.")
	}
	if now.Sub(sess.LastSeenAt) >= touchEvery {
		if err := touchSession(ctx, s.db.SQL, hash, now); err != nil {
			return User{}, Session{}, err
		}
		sess.LastSeenAt = now
	}
	return u, sess, nil
}

// ResendVerification sends a fresh verification link when email belongs to
// an unverified account. The answer and its timing are the same either way.
func (s *Service) ResendVerification(ctx context.Context, email string, c Client) error {
	email, err := NormalizeEmail(email)
	if err != nil {
		return err
	}
	if err := s.limit(ctx, map[string]int{"resend:ip:" + c.IP: s.cfg.PerIP, "resend:email:" + email: s.cfg.PerAccount}); err != nil {
		return err
	}
	s.inBackground("resend verification", func(ctx context.Context) error {
		u, err := userByEmail(ctx, s.db.SQL, email)
		if errors.Is(err, errNotFound) || (err == nil && u.EmailVerified) {
			return nil
		}
		if err != nil {
			return err
		}
		return s.sendVerification(ctx, u)
	})
	return nil
}

func (s *Service) sendVerification(ctx context.Context, u User) error {
	link, err := s.issueToken(ctx, u.ID, purposeVerify, VerifyTokenTTL, "verify-email")
	if err != nil {
		return err
	}
	msg, err := wmail.VerifyEmail(u.Email, u.Name, link, "3 days")
	if err != nil {
		return err
	}
	return s.mailer.Send(ctx, msg)
}

// issueToken revokes the user's older tokens of this purpose and returns a
// link carrying a new one.
func (s *Service) issueToken(ctx context.Context, userID, purpose string, ttl time.Duration, page string) (string, error) {
	token, hash := newToken()
	now := s.clock()
	err := s.db.WithTx(ctx, func(tx *sql.Tx) error {
		if err := revokeTokens(ctx, tx, userID, purpose, now); err != nil {
			return err
		}
		return insertToken(ctx, tx, hash, userID, purpose, now, now.Add(ttl))
	})
	if err != nil {
		return "", err
	}
	link := s.cfg.BaseURL.JoinPath(page)
	link.RawQuery = url.Values{"token": {token}}.Encode()
	return link.String(), nil
}

// ConfirmEmail uses a verification token and marks the account verified.
func (s *Service) ConfirmEmail(ctx context.Context, token string) (User, error) {
	var u User
	err := s.db.WithTx(ctx, func(tx *sql.Tx) error {
		userID, err := consumeToken(ctx, tx, hashToken(token), purposeVerify, s.clock())
		if err != nil {
			return err
		}
		if err := markEmailVerified(ctx, tx, userID); err != nil {
			return err
		}
		u, err = userByID(ctx, tx, userID)
		return err
	})
	if errors.Is(err, errNotFound) {
		return User{}, apperr.Invalid("token", MsgBadLink)
	}
	return u, err
}

// ForgotPassword emails a reset link when email belongs to an account. The
// answer and its timing are the same either way.
func (s *Service) ForgotPassword(ctx context.Context, email string, c Client) error {
	email, err := NormalizeEmail(email)
	if err != nil {
		return err
	}
	if err := s.limit(ctx, map[string]int{"reset:ip:" + c.IP: s.cfg.PerIP, "reset:email:" + email: s.cfg.PerAccount}); err != nil {
		return err
	}
	s.inBackground("send password reset", func(ctx context.Context) error {
		u, err := userByEmail(ctx, s.db.SQL, email)
		if errors.Is(err, errNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		link, err := s.issueToken(ctx, u.ID, purposeReset, ResetTokenTTL, "reset-password")
		if err != nil {
			return err
		}
		msg, err := wmail.ResetPassword(u.Email, u.Name, link, "one hour")
		if err != nil {
			return err
		}
		return s.mailer.Send(ctx, msg)
	})
	return nil
}

// ResetPassword uses a reset token to set a new password and signs every
// browser out. Following the emailed link also proves the address, so the
// account counts as verified. Attempts count per client IP like logins,
// and the token is checked before the new password is hashed: a stream of
// made-up tokens costs the server one query each, never a hash.
func (s *Service) ResetPassword(ctx context.Context, token, password string, c Client) error {
	ipKey := "reset-password:ip:" + c.IP
	if err := s.limit(ctx, map[string]int{ipKey: s.cfg.PerIP}); err != nil {
		return err
	}
	// Check the password first so a weak choice does not burn the link.
	if err := CheckPassword(password); err != nil {
		return err
	}
	tokenHash := hashToken(token)
	usable, err := tokenUsable(ctx, s.db.SQL, tokenHash, purposeReset, s.clock())
	if err != nil {
		return err
	}
	if !usable {
		return apperr.Invalid("token", MsgBadLink)
	}
	hash, err := s.hash(ctx, password)
	if err != nil {
		return err
	}
	err = s.db.WithTx(ctx, func(tx *sql.Tx) error {
		// Used up by a concurrent reset since the check above: only one wins.
		userID, err := consumeToken(ctx, tx, tokenHash, purposeReset, s.clock())
		if err != nil {
			return err
		}
		if err := setPasswordHash(ctx, tx, userID, hash); err != nil {
			return err
		}
		if err := markEmailVerified(ctx, tx, userID); err != nil {
			return err
		}
		return deleteUserSessions(ctx, tx, userID)
	})
	if errors.Is(err, errNotFound) {
		return apperr.Invalid("token", MsgBadLink)
	}
	if err != nil {
		return err
	}
	return s.limiter.Forgive(ctx, ipKey)
}

// CreateUser makes a verified account for operators (the CLI); the email
// is taken as proven because an operator typed it.
func (s *Service) CreateUser(ctx context.Context, name, email, password string, role Role) (User, error) {
	name, err := normalizeName(name)
	if err != nil {
		return User{}, err
	}
	if email, err = NormalizeEmail(email); err != nil {
		return User{}, err
	}
	if err := CheckPassword(password); err != nil {
		return User{}, err
	}
	u, err := s.newUser(ctx, name, email, password, role, true)
	if err != nil {
		return User{}, err
	}
	err = insertUser(ctx, s.db.SQL, u)
	if store.IsUniqueViolation(err) {
		return User{}, apperr.Conflict(MsgEmailTaken)
	}
	return u, err
}

// Promote gives the account with email the admin role.
func (s *Service) Promote(ctx context.Context, email string) error {
	email, err := NormalizeEmail(email)
	if err != nil {
		return err
	}
	ok, err := setRole(ctx, s.db.SQL, email, RoleAdmin)
	if err != nil {
		return err
	}
	if !ok {
		return apperr.NotFound("No account has the email " + email + ".")
	}
	return nil
}

// PruneExpired deletes sessions and tokens that can no longer be used.
func (s *Service) PruneExpired(ctx context.Context) (int64, error) {
	now := s.clock()
	n, err := pruneExpired(ctx, s.db.SQL, now, now.Add(-s.cfg.IdleTimeout))
	if err != nil {
		return n, err
	}
	m, err := s.limiter.Prune(ctx, now.Add(-s.cfg.RateWindow))
	return n + m, err
}

// RequireUser returns the signed-in user or an Unauthenticated error.
func RequireUser(ctx context.Context) (User, error) {
	u, ok := UserFrom(ctx)
	if !ok {
		return User{}, apperr.Unauthenticated(MsgSignInRequired)
	}
	return u, nil
}

// RequireVerified returns the signed-in user if their email is confirmed,
// or the error that fits.
func RequireVerified(ctx context.Context) (User, error) {
	u, err := RequireUser(ctx)
	if err != nil {
		return User{}, err
	}
	if !u.EmailVerified {
		return User{}, apperr.Forbidden(MsgVerifyFirst)
	}
	return u, nil
}

// RequireAdmin returns the signed-in admin, or the error that fits.
func RequireAdmin(ctx context.Context) (User, error) {
	u, err := RequireUser(ctx)
	if err != nil {
		return User{}, err
	}
	if !u.IsAdmin() {
		return User{}, apperr.Forbidden(MsgAdminsOnly)
	}
	return u, nil
}
