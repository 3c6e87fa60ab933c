package auth

import (
	"context"
	"io"
	"log/slog"
	"net/url"
	"testing"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwt"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/auth/firebasetest"
	"github.com/whitecoat/whitecoat/internal/mail"
	"github.com/whitecoat/whitecoat/internal/ratelimit"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

const testProject = "whitecoat-test"

func newFirebaseService(db *store.DB, jwksURL string) *Service {
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	return NewService(db, &mail.LogMailer{Logger: logger}, ratelimit.New(db, time.Now), logger, time.Now, Config{
		BaseURL: &url.URL{Scheme: "http", Host: "localhost"}, IdleTimeout: time.Hour, AbsoluteTimeout: 24 * time.Hour,
		Argon2: Argon2Params{MemoryKiB: 8192, Iterations: 1, Parallelism: 1}, RateWindow: time.Minute, PerAccount: 5, PerIP: 50,
		Firebase: FirebaseConfig{ProjectID: testProject, JWKSURL: jwksURL},
	})
}

// Only a token Firebase signed for this project, current, about a
// verified email, signs in; each other kind is refused with a 4xx.
func TestFirebaseTokensAreCheckedBeforeAnyoneSignsIn(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		keys := firebasetest.Start(t, testProject, "key-1")
		stranger := firebasetest.Start(t, testProject, "key-1") // same kid, another key
		s := newFirebaseService(db, keys.URL)
		ctx := context.Background()
		for _, c := range []struct {
			name  string
			token string
			kind  apperr.Kind
		}{
			{"no expiry", keys.TokenWithout(t, time.Now(), "exp"), apperr.KindUnauthenticated},
			{"expired", keys.Token(t, time.Now(), func(b *jwt.Builder) { b.Expiration(time.Now().Add(-time.Hour)) }), apperr.KindUnauthenticated},
			{"issued in the future", keys.Token(t, time.Now(), func(b *jwt.Builder) { b.IssuedAt(time.Now().Add(time.Hour)) }), apperr.KindUnauthenticated},
			{"wrong audience", keys.Token(t, time.Now(), func(b *jwt.Builder) { b.Audience([]string{"another-project"}) }), apperr.KindUnauthenticated},
			{"wrong issuer", keys.Token(t, time.Now(), func(b *jwt.Builder) { b.Issuer("https://securetoken.google.com/another-project") }), apperr.KindUnauthenticated},
			{"bad signature", stranger.Token(t, time.Now(), nil), apperr.KindUnauthenticated},
			{"no subject", keys.Token(t, time.Now(), func(b *jwt.Builder) { b.Subject("") }), apperr.KindUnauthenticated},
			{"unverified email", keys.Token(t, time.Now(), func(b *jwt.Builder) { b.Claim("email_verified", false) }), apperr.KindForbidden},
			{"not a token", "not.a.token", apperr.KindUnauthenticated},
		} {
			_, err := s.FirebaseSignIn(ctx, c.token, Client{IP: "10.0.0.1"}, "", nil)
			if e, ok := apperr.As(err); !ok || e.Kind != c.kind {
				t.Errorf("%s: %v, want kind %d", c.name, err, c.kind)
			}
		}
		if _, err := userByEmail(ctx, db.SQL, "fran@example.com"); err == nil {
			t.Fatal("a refused token made an account")
		}

		in, err := s.FirebaseSignIn(ctx, keys.Token(t, time.Now(), nil), Client{IP: "10.0.0.1"}, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		if in.SessionToken == "" || in.User.Email != "fran@example.com" || !in.User.EmailVerified || in.User.Name != "Fran Firebase" || in.User.IsAdmin() || in.SecondFactor != "" {
			t.Fatalf("sign-in %+v", in)
		}
		again, err := s.FirebaseSignIn(ctx, keys.Token(t, time.Now(), nil), Client{IP: "10.0.0.1"}, "", nil)
		if err != nil || again.User.ID != in.User.ID {
			t.Fatalf("a second sign-in made another account: %+v, %v", again.User, err)
		}
		if _, err := s.Login(ctx, "fran@example.com", "a guess", Client{IP: "10.0.0.2"}, ""); err == nil {
			t.Fatal("the account made by Firebase has a guessable password")
		}
	})
}

// An existing, verified account is linked by its email. A Firebase
// `admin` claim grants nothing: the admin role is ours (Promote), and an
// admin who signs in through Firebase still owes the second factor.
func TestFirebaseLinksVerifiedAccountsAndClaimsGrantNoRole(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		keys := firebasetest.Start(t, testProject, "key-1")
		s := newFirebaseService(db, keys.URL)
		ctx := context.Background()
		existing, err := s.CreateUser(ctx, "Fran", "fran@example.com", "s3cret-passphrase", RoleUser)
		if err != nil {
			t.Fatal(err)
		}
		claimed := keys.Token(t, time.Now(), func(b *jwt.Builder) { b.Claim("admin", true) })
		in, err := s.FirebaseSignIn(ctx, claimed, Client{IP: "10.0.0.1"}, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		if in.User.ID != existing.ID || in.User.IsAdmin() || in.SecondFactor != "" {
			t.Fatalf("linked sign-in %+v; want the existing account, a student", in)
		}
		if u, _ := userByID(ctx, db.SQL, existing.ID); u.IsAdmin() || u.Name != "Fran" {
			t.Fatalf("the linked account: %+v", u)
		}
		if err := s.Promote(ctx, "fran@example.com"); err != nil {
			t.Fatal(err)
		}
		in, err = s.FirebaseSignIn(ctx, keys.Token(t, time.Now(), nil), Client{IP: "10.0.0.1"}, "", nil)
		if err != nil || !in.User.IsAdmin() || in.SecondFactor != SecondFactorEnrol {
			t.Fatalf("a promoted account's sign-in %+v, %v; want an admin who must enrol a second factor", in, err)
		}
	})
}

func TestFirebaseSignInIsOffWithoutAProject(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newTestService(db, Argon2Params{MemoryKiB: 8192, Iterations: 1, Parallelism: 1})
		_, err := s.FirebaseSignIn(context.Background(), "anything", Client{IP: "10.0.0.1"}, "", nil)
		if e, ok := apperr.As(err); !ok || e.Kind != apperr.KindNotFound {
			t.Fatalf("%v, want not found", err)
		}
	})
}
