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
	// MsgEmailConfirmedLogIn answers a confirmation that signed nobody in.
	MsgEmailConfirmedLogIn = "Your email is confirmed. Log in to continue."
	MsgPasswordReset       = "Your password has been changed. Log in with your new password."
	MsgSignInRequired      = "Please log in to continue."
	MsgAdminsOnly          = "Only admins can do this."
	MsgVerifyFirst         = "Verify your email to unlock the app."
	// MsgSignInUnchecked answers when the stored sign-ins cannot be read.
	MsgSignInUnchecked = "We could not check your sign-in right now. Please try again in a moment."
	MsgSignedInAlready = "This browser is already signed in."
	MsgEmailTaken      = "An account with this email already exists. Log in instead, or reset your password."
	// MsgSignupStarted answers every sign-up, new address or not.
	MsgSignupStarted = "To finish creating your account, open the link in the email we just sent. If nothing arrives within a few minutes, look in your spam folder or send it again."
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
	// Firebase turns on sign-in with a Firebase project's accounts.
	Firebase FirebaseConfig
}

// Client identifies where a request came from, for rate limits and the
// sessions list.
type Client struct {
	IP        string
	UserAgent string
	// DeviceToken is the browser's device cookie, if any (see Login).
	DeviceToken string
}

// ipKey is the rate-limit key of action for the client's network: its IPv4
// address, or its IPv6 /64 (see ratelimit.Network).
func (c Client) ipKey(action string) string {
	return action + ":ip:" + ratelimit.Network(c.IP)
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
	// firebase checks Firebase ID tokens; nil when that sign-in is off.
	firebase *firebaseVerifier

	// background carries work a response must not wait for (sending mail,
	// work whose duration would reveal whether an account exists).
	background   sync.WaitGroup
	bgCtx        context.Context
	stopBg       context.CancelFunc
	dummyPHCOnce sync.Once
	dummyPHC     string
}

// NewService wires the account service; now is the clock (time.Now in production, a
// controllable one in tests).
func NewService(db *store.DB, mailer wmail.Mailer, limiter *ratelimit.Limiter, logger *slog.Logger, now func() time.Time, cfg Config) *Service {
	ctx, cancel := context.WithCancel(context.Background())
	slots := cfg.HashSlots
	if slots <= 0 {
		slots = defaultHashSlots()
	}
	s := &Service{db: db, mailer: mailer, limiter: limiter, logger: logger, now: now, cfg: cfg, bgCtx: ctx, stopBg: cancel,
		hashes: newHashGate(slots, hashWait)}
	if cfg.Firebase.Enabled() {
		s.firebase = newFirebaseVerifier(cfg.Firebase, now)
	}
	return s
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

// Signup starts an account for email, and answers the same whether or not
// the address is already registered, so that sign-up cannot be used to
// learn who has an account: no session, the same message, and the same
// work before the answer (validation, the rate limits and one password
// hash). Afterwards, in the background, a new address gets its account (on
// a 7-day trial, unverified) and the verification email; a registered one
// gets an email telling its owner that someone tried to sign up with it.
func (s *Service) Signup(ctx context.Context, name, email, password string, c Client) error {
	name, err := normalizeName(name)
	if err != nil {
		return err
	}
	if email, err = NormalizeEmail(email); err != nil {
		return err
	}
	if err := s.limit(ctx, map[string]int{c.ipKey("signup"): s.cfg.PerIP, "signup:email:" + email: s.cfg.PerAccount}); err != nil {
		return err
	}
	if err := CheckPassword(password); err != nil {
		return err
	}
	u, err := s.newUser(ctx, name, email, password, RoleUser, false)
	if err != nil {
		return err
	}
	s.inBackground("finish signup", func(ctx context.Context) error {
		created, err := s.insertNewUser(ctx, u)
		if err != nil {
			return err
		}
		if created {
			return s.sendVerification(ctx, u)
		}
		owner, err := userByEmail(ctx, s.db.SQL, email)
		if err != nil {
			return err
		}
		msg, err := wmail.SignupAttempt(owner.Email, owner.Name, s.cfg.BaseURL.JoinPath("login").String(), s.cfg.BaseURL.JoinPath("forgot-password").String())
		if err != nil {
			return err
		}
		return s.mailer.Send(ctx, msg)
	})
	return nil
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

// startSession signs a browser in. A session that still owes a second
// factor lasts only PendingSignInTTL; one that has passed it records when.
func (s *Service) startSession(ctx context.Context, q store.Queryer, u User, secondFactorAt *time.Time, c Client) (string, error) {
	token, hash := NewToken()
	now := s.clock()
	sess := Session{TokenHash: hash, UserID: u.ID, CreatedAt: now, LastSeenAt: now, ExpiresAt: now.Add(s.cfg.AbsoluteTimeout),
		SecondFactorAt: secondFactorAt}
	if secondFactorOwed(u, sess) {
		sess.ExpiresAt = now.Add(PendingSignInTTL)
	}
	return token, insertSession(ctx, q, sess, truncate(c.UserAgent, 300), c.IP)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

// SignIn is the outcome of a correct password (or second factor).
type SignIn struct {
	User User
	// SessionToken is the browser's new session cookie.
	SessionToken string
	// SecondFactor is what the browser must still do before the session
	// counts as signed in; empty when nothing.
	SecondFactor SecondFactorStep
	// DeviceToken, when set, is a new device cookie for the browser.
	DeviceToken string
}

// Login checks the password and starts a new session, ending the one the
// browser had (session rotation).
//
// Guessing is limited without letting a guesser lock the owner out
// (OWASP's device cookies): a browser that has signed in to the account
// before presents a device cookie and its attempts count only against that
// device; every other attempt counts against the client IP and against the
// account across all addresses, and once the account's allowance is spent
// only such untrusted clients are refused. Attempts are counted before the
// password is hashed, so parallel guesses cannot slip past a limit while
// earlier ones are still being checked; a successful one is then forgiven.
func (s *Service) Login(ctx context.Context, email, password string, c Client, previousTokenHash string) (SignIn, error) {
	email = strings.ToLower(strings.TrimSpace(email))
	if email == "" || password == "" {
		return SignIn{}, apperr.Invalid("", "Email and password are required.")
	}
	trusted, err := s.trustedDevice(ctx, c.DeviceToken, email)
	if err != nil {
		return SignIn{}, err
	}
	keys := map[string]int{c.ipKey("login"): s.cfg.PerIP, "login:account:" + email: s.cfg.PerAccount}
	if trusted {
		keys = map[string]int{"login:device:" + HashToken(c.DeviceToken): s.cfg.PerAccount}
	}
	if err := s.limit(ctx, keys); err != nil {
		return SignIn{}, err
	}
	u, err := userByEmail(ctx, s.db.SQL, email)
	if err != nil && !errors.Is(err, errNotFound) {
		return SignIn{}, err
	}
	ok, rehash := false, false
	if err == nil {
		ok, rehash, err = s.verify(ctx, password, u.passwordHash)
		if err != nil {
			return SignIn{}, fmt.Errorf("auth: login %s: %w", u.ID, err)
		}
	} else {
		// Spend the same time as a real check so response times do not
		// reveal which emails have accounts.
		if _, _, err := s.verify(ctx, password, s.dummyHash()); err != nil {
			return SignIn{}, err
		}
	}
	if !ok {
		return SignIn{}, apperr.Unauthenticated(MsgInvalidLogin)
	}
	for key := range keys {
		if err := s.limiter.Forgive(ctx, key); err != nil {
			return SignIn{}, err
		}
	}
	step, err := s.secondFactorStep(ctx, u)
	if err != nil {
		return SignIn{}, err
	}
	in := SignIn{User: u, SecondFactor: step}
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
		if !trusted {
			if in.DeviceToken, err = s.trustDevice(ctx, tx, u.ID); err != nil {
				return err
			}
		}
		in.SessionToken, err = s.replaceSession(ctx, tx, u, c, previousTokenHash)
		return err
	})
	if err != nil {
		return SignIn{}, fmt.Errorf("auth: login: %w", err)
	}
	return in, nil
}

// replaceSession ends the browser's previous sign-in, if any, and starts
// u's first-factor session in its place, returning its token.
func (s *Service) replaceSession(ctx context.Context, tx *sql.Tx, u User, c Client, previousTokenHash string) (string, error) {
	if previousTokenHash != "" {
		if err := deleteSession(ctx, tx, previousTokenHash); err != nil {
			return "", err
		}
	}
	return s.startSession(ctx, tx, u, nil, c)
}

// trustedDevice reports whether deviceToken is a device cookie this
// service issued to the account with email.
func (s *Service) trustedDevice(ctx context.Context, deviceToken, email string) (bool, error) {
	if deviceToken == "" {
		return false, nil
	}
	owner, err := trustedDeviceEmail(ctx, s.db.SQL, HashToken(deviceToken), s.clock())
	if errors.Is(err, errNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return owner == email, nil
}

// trustDevice issues a device cookie for userID: the browser has proven it
// belongs to the account's owner (a correct password, or a reset link from
// their inbox).
func (s *Service) trustDevice(ctx context.Context, q store.Queryer, userID string) (string, error) {
	token, hash := NewToken()
	now := s.clock()
	return token, insertTrustedDevice(ctx, q, hash, userID, now, now.Add(DeviceTTL))
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
	hash := HashToken(token)
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
	if err := s.limit(ctx, map[string]int{c.ipKey("resend"): s.cfg.PerIP, "resend:email:" + email: s.cfg.PerAccount}); err != nil {
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
	token, hash := NewToken()
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
// The link came from the owner's inbox, so it also signs the browser that
// confirms it in, in place of its previous sign-in (as Login does), when
// the account was still unverified: a link, single-use and expiring,
// signs in at most once, and never after the address was proven some
// other way (a password reset) or for an admin, whose sign-in takes the
// password and a second factor. The returned SignIn has no SessionToken
// when it signed nobody in.
func (s *Service) ConfirmEmail(ctx context.Context, token string, c Client, previousTokenHash string) (SignIn, error) {
	var in SignIn
	err := s.db.WithTx(ctx, func(tx *sql.Tx) error {
		userID, err := consumeToken(ctx, tx, HashToken(token), purposeVerify, s.clock())
		if err != nil {
			return err
		}
		u, err := userByID(ctx, tx, userID)
		if err != nil {
			return err
		}
		wasVerified := u.EmailVerified
		if err := markEmailVerified(ctx, tx, userID); err != nil {
			return err
		}
		u.EmailVerified = true
		in.User = u
		if wasVerified || u.IsAdmin() {
			return nil
		}
		in.SessionToken, err = s.replaceSession(ctx, tx, u, c, previousTokenHash)
		return err
	})
	if errors.Is(err, errNotFound) {
		return SignIn{}, apperr.Invalid("token", MsgBadLink)
	}
	if err != nil {
		return SignIn{}, fmt.Errorf("auth: confirm email: %w", err)
	}
	return in, nil
}

// ForgotPassword emails a reset link when email belongs to an account. The
// answer and its timing are the same either way.
func (s *Service) ForgotPassword(ctx context.Context, email string, c Client) error {
	email, err := NormalizeEmail(email)
	if err != nil {
		return err
	}
	if err := s.limit(ctx, map[string]int{c.ipKey("reset"): s.cfg.PerIP, "reset:email:" + email: s.cfg.PerAccount}); err != nil {
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
//
// The link came from the owner's inbox, so the browser that follows it is
// trusted from then on: it gets a device cookie (returned), with which it
// can log in even while guessers elsewhere have used up the account's
// allowance (see Login). It does not pass an admin's second factor.
func (s *Service) ResetPassword(ctx context.Context, token, password string, c Client) (string, error) {
	ipKey := c.ipKey("reset-password")
	if err := s.limit(ctx, map[string]int{ipKey: s.cfg.PerIP}); err != nil {
		return "", err
	}
	// Check the password first so a weak choice does not burn the link.
	if err := CheckPassword(password); err != nil {
		return "", err
	}
	tokenHash := HashToken(token)
	usable, err := tokenUsable(ctx, s.db.SQL, tokenHash, purposeReset, s.clock())
	if err != nil {
		return "", err
	}
	if !usable {
		return "", apperr.Invalid("token", MsgBadLink)
	}
	hash, err := s.hash(ctx, password)
	if err != nil {
		return "", err
	}
	var device string
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
		if err := deleteUserSessions(ctx, tx, userID); err != nil {
			return err
		}
		device, err = s.trustDevice(ctx, tx, userID)
		return err
	})
	if errors.Is(err, errNotFound) {
		return "", apperr.Invalid("token", MsgBadLink)
	}
	if err != nil {
		return "", err
	}
	return device, s.limiter.Forgive(ctx, ipKey)
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
	created, err := s.insertNewUser(ctx, u)
	if err != nil {
		return User{}, err
	}
	if !created {
		return User{}, apperr.Conflict(MsgEmailTaken)
	}
	return userByEmail(ctx, s.db.SQL, u.Email)
}

// Promote gives the account with email the admin role. Its sessions stop
// counting as signed in until they pass a second factor, which the admin
// sets up at their next login.
func (s *Service) Promote(ctx context.Context, email string) error {
	return s.setRole(ctx, email, RoleAdmin)
}

// Demote takes the admin role from the account with email: its sessions
// count as a student's from their next request, and every later sign-in
// is a student's. Its second factor stays, for a later promotion.
func (s *Service) Demote(ctx context.Context, email string) error {
	return s.setRole(ctx, email, RoleUser)
}

// setRole gives the account with email role; roles are set only here,
// by an operator, never by a sign-in's claims.
func (s *Service) setRole(ctx context.Context, email string, role Role) error {
	email, err := NormalizeEmail(email)
	if err != nil {
		return err
	}
	ok, err := setRole(ctx, s.db.SQL, email, role)
	if err != nil {
		return err
	}
	if !ok {
		return apperr.NotFound("No account has the email " + email + ".")
	}
	return nil
}

// ResetSecondFactor removes the second factor of the account with email
// and signs it out everywhere. It is for an operator helping an admin who
// lost both their authenticator and their recovery codes, once the operator
// has made sure who is asking; the admin sets up a new one at next login.
func (s *Service) ResetSecondFactor(ctx context.Context, email string) error {
	email, err := NormalizeEmail(email)
	if err != nil {
		return err
	}
	u, err := userByEmail(ctx, s.db.SQL, email)
	if errors.Is(err, errNotFound) {
		return apperr.NotFound("No account has the email " + email + ".")
	}
	if err != nil {
		return err
	}
	return s.db.WithTx(ctx, func(tx *sql.Tx) error {
		if err := deleteSecondFactor(ctx, tx, u.ID); err != nil {
			return err
		}
		return deleteUserSessions(ctx, tx, u.ID)
	})
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
