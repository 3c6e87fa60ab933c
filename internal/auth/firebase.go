package auth

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwk"
	"github.com/lestrrat-go/jwx/v3/jwt"

	"github.com/whitecoat/whitecoat/internal/apperr"
)

// GoogleJWKSURL is where Google publishes the keys that sign Firebase ID
// tokens.
const GoogleJWKSURL = "https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com"

// Texts of a Firebase sign-in.
const (
	MsgFirebaseOff        = "Sign-in through Firebase is not set up on this server."
	MsgFirebaseInvalid    = "That Firebase sign-in could not be verified. Sign in again."
	MsgFirebaseUnverified = "Verify your email address with Firebase first, then sign in again."
)

// FirebaseConfig turns on sign-in with an existing Firebase project's
// accounts. The zero value leaves it off.
type FirebaseConfig struct {
	ProjectID string
	// APIKey and AuthDomain are the web SDK's settings, public by design.
	APIKey     string
	AuthDomain string
	// JWKSURL is where the token signing keys are (GoogleJWKSURL by default).
	JWKSURL string
	// HTTP fetches the keys; nil means a client with a 10 s timeout.
	HTTP *http.Client
}

// Enabled reports whether a project is configured.
func (c FirebaseConfig) Enabled() bool { return c.ProjectID != "" }

// firebaseClaims are what a verified ID token says about its user. Other
// claims, custom ones such as `admin` included, grant nothing here: roles
// are ours (Service.Promote).
type firebaseClaims struct {
	Subject       string
	Email         string
	EmailVerified bool
	Name          string
	// AuthTime is when the user last signed in to Firebase (the token may
	// have been refreshed since); zero when the token does not say.
	AuthTime time.Time
}

// firebaseVerifier checks Firebase ID tokens: an RS256 signature by one of
// the project's published keys, the project's issuer and audience, an
// expiry (required) and an issue time (required) that are not past or in
// the future, and a subject.
type firebaseVerifier struct {
	cfg  FirebaseConfig
	now  func() time.Time
	mu   sync.Mutex
	keys jwk.Set
	// fetched is when keys were read; they are read again after keyTTL,
	// or sooner for a token signed by a key not in them (Google rotates
	// keys), at most once per refetchGap.
	fetched time.Time
}

const (
	keyTTL     = time.Hour
	refetchGap = time.Minute
	tokenSkew  = 30 * time.Second
)

func newFirebaseVerifier(cfg FirebaseConfig, now func() time.Time) *firebaseVerifier {
	if cfg.JWKSURL == "" {
		cfg.JWKSURL = GoogleJWKSURL
	}
	if cfg.HTTP == nil {
		cfg.HTTP = &http.Client{Timeout: 10 * time.Second}
	}
	return &firebaseVerifier{cfg: cfg, now: now}
}

func (v *firebaseVerifier) verify(ctx context.Context, token string) (firebaseClaims, error) {
	keys, err := v.keySet(ctx, false)
	if err != nil {
		return firebaseClaims{}, err
	}
	parsed, err := v.parse(token, keys)
	if err != nil && v.mayRefetch() {
		// Perhaps signed by a key published since we last looked.
		if keys, ferr := v.keySet(ctx, true); ferr == nil {
			parsed, err = v.parse(token, keys)
		}
	}
	if err != nil {
		return firebaseClaims{}, apperr.Unauthenticated(MsgFirebaseInvalid)
	}
	var c firebaseClaims
	c.Subject, _ = parsed.Subject()
	_ = parsed.Get("email", &c.Email)
	_ = parsed.Get("email_verified", &c.EmailVerified)
	_ = parsed.Get("name", &c.Name)
	var authTime float64
	if parsed.Get("auth_time", &authTime) == nil && authTime > 0 {
		c.AuthTime = time.Unix(int64(authTime), 0)
	}
	if c.Subject == "" || c.Email == "" {
		return firebaseClaims{}, apperr.Unauthenticated(MsgFirebaseInvalid)
	}
	if !c.EmailVerified {
		return firebaseClaims{}, apperr.Forbidden(MsgFirebaseUnverified)
	}
	return c, nil
}

func (v *firebaseVerifier) parse(token string, keys jwk.Set) (jwt.Token, error) {
	return jwt.Parse([]byte(token), jwt.WithKeySet(keys), jwt.WithValidate(true),
		jwt.WithIssuer("https://securetoken.google.com/"+v.cfg.ProjectID), jwt.WithAudience(v.cfg.ProjectID),
		jwt.WithClock(jwt.ClockFunc(v.now)), jwt.WithAcceptableSkew(tokenSkew),
		jwt.WithRequiredClaim("iat"), jwt.WithRequiredClaim("exp"))
}

func (v *firebaseVerifier) mayRefetch() bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.now().Sub(v.fetched) >= refetchGap
}

func (v *firebaseVerifier) keySet(ctx context.Context, refresh bool) (jwk.Set, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.keys != nil && !refresh && v.now().Sub(v.fetched) < keyTTL {
		return v.keys, nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, v.cfg.JWKSURL, nil)
	if err != nil {
		return nil, fmt.Errorf("auth: firebase keys: %w", err)
	}
	res, err := v.cfg.HTTP.Do(req)
	if err == nil && res.StatusCode != http.StatusOK {
		res.Body.Close()
		err = fmt.Errorf("status %s", res.Status)
	}
	if err != nil {
		if v.keys != nil {
			return v.keys, nil // the keys we have still sign most tokens
		}
		return nil, apperr.Unavailable("Firebase sign-in keys cannot be fetched right now. Try again in a moment.", 30*time.Second, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return nil, fmt.Errorf("auth: firebase keys: %w", err)
	}
	keys, err := jwk.Parse(body)
	if err != nil {
		return nil, fmt.Errorf("auth: firebase keys from %s: %w", v.cfg.JWKSURL, err)
	}
	v.keys, v.fetched = keys, v.now()
	return keys, nil
}

// AccountEraser deletes an account and everything every domain keeps
// about it. Auth cannot do that alone (other domains own rows about the
// account), so app provides it (Across).
type AccountEraser func(ctx context.Context, u User) error

// FirebaseSignIn turns a Firebase ID token into a Whitecoat session. The
// account is the one with the token's verified email, made on first
// sign-in (verified, with a random password the student may replace
// through "Forgot password"). The token grants no role: an admin is one
// an operator promoted, and owes the second factor like any other.
//
// An existing account is adopted only when its owner verified the address.
// Anyone can sign up with someone else's address and their own password
// and log in unverified; such an account is replaced, not adopted: it is
// deleted with everything in it (its password, sign-ins, trusted devices
// and any practice data go with it) and the Firebase identity gets a new
// account. Resetting the squatter's password and keeping the account
// instead would hand the address's owner whatever the squatter left in it
// (payments, sessions), and would need every domain to find and remove the
// squatter's traces anyway; deletion already does exactly that.
//
// erase removes the unverified account.
func (s *Service) FirebaseSignIn(ctx context.Context, idToken string, c Client, previousTokenHash string, erase AccountEraser) (SignIn, error) {
	if s.firebase == nil {
		return SignIn{}, apperr.NotFound(MsgFirebaseOff)
	}
	if err := s.limit(ctx, map[string]int{c.ipKey("firebase"): s.cfg.PerIP}); err != nil {
		return SignIn{}, err
	}
	claims, err := s.firebase.verify(ctx, strings.TrimSpace(idToken))
	if err != nil {
		return SignIn{}, err
	}
	email := strings.ToLower(strings.TrimSpace(claims.Email))
	u, err := s.firebaseAccount(ctx, email, claims.Name, erase)
	if err != nil {
		return SignIn{}, err
	}
	// Asked before the transaction: SQLite's one connection is the
	// transaction's until it ends.
	step, err := s.secondFactorStep(ctx, u)
	if err != nil {
		return SignIn{}, err
	}
	in := SignIn{User: u, SecondFactor: step}
	err = s.db.WithTx(ctx, func(tx *sql.Tx) error {
		in.SessionToken, err = s.replaceSession(ctx, tx, u, c, previousTokenHash)
		return err
	})
	if err != nil {
		return SignIn{}, fmt.Errorf("auth: firebase sign-in: %w", err)
	}
	return in, nil
}

// firebaseAccount returns the verified account with email, replacing an
// unverified one or making one when there is none (see FirebaseSignIn).
func (s *Service) firebaseAccount(ctx context.Context, email, name string, erase AccountEraser) (User, error) {
	u, err := userByEmail(ctx, s.db.SQL, email)
	switch {
	case err == nil && u.EmailVerified:
		return u, nil
	case err == nil:
		if erase == nil {
			return User{}, errors.New("auth: firebase sign-in: no account eraser")
		}
		if err := erase(ctx, u); err != nil {
			return User{}, err
		}
		s.logger.Info("an unverified account holding a Firebase sign-in's address was replaced", "user", u.ID)
	case !errors.Is(err, errNotFound):
		return User{}, err
	}
	name = strings.TrimSpace(name)
	if name == "" {
		name, _, _ = strings.Cut(email, "@")
	}
	fresh, err := s.newUser(ctx, truncate(name, maxNameLen), email, randomPassword(), RoleUser, true)
	if err != nil {
		return User{}, err
	}
	if _, err := s.insertNewUser(ctx, fresh); err != nil {
		return User{}, err
	}
	// A sign-in at the same moment may have made it first.
	if u, err = userByEmail(ctx, s.db.SQL, email); err != nil {
		return User{}, err
	}
	if !u.EmailVerified {
		// A sign-up took the address between the deletion and the insert.
		return User{}, apperr.Unavailable("That sign-in collided with another. Sign in again.", time.Second, nil)
	}
	return u, nil
}

// FreshSignInAge is how recent a Firebase sign-in must be to stand in for
// the password before an action that cannot be undone.
const FreshSignInAge = 5 * time.Minute

// MsgFreshSignInNeeded refuses a Firebase token that does not confirm a
// deletion.
const MsgFreshSignInNeeded = "Sign in with Google again (with this account's address) to confirm, then try again within 5 minutes."

// ConfirmFreshSignIn checks, instead of a password, that idToken is a
// Firebase sign-in to u's address made within FreshSignInAge, verified as
// at sign-in; an account made by Firebase has no password its owner knows.
// Attempts count against the account's login limit, like ConfirmPassword.
func (s *Service) ConfirmFreshSignIn(ctx context.Context, u User, idToken string) error {
	if s.firebase == nil {
		return apperr.Invalid("idToken", MsgFirebaseOff)
	}
	if err := s.limit(ctx, map[string]int{"login:account:" + u.Email: s.cfg.PerAccount}); err != nil {
		return err
	}
	claims, err := s.firebase.verify(ctx, strings.TrimSpace(idToken))
	if k := apperr.KindOf(err); err != nil && k != apperr.KindUnauthenticated && k != apperr.KindForbidden {
		return err
	}
	now := s.now()
	if err != nil || strings.ToLower(strings.TrimSpace(claims.Email)) != u.Email || claims.AuthTime.IsZero() ||
		now.Sub(claims.AuthTime) > FreshSignInAge || claims.AuthTime.Sub(now) > tokenSkew {
		return apperr.Invalid("idToken", MsgFreshSignInNeeded)
	}
	return nil
}

// randomPassword is the password of an account made by a Firebase
// sign-in: nobody knows it until the student sets their own.
func randomPassword() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return base64.RawURLEncoding.EncodeToString(b)
}
