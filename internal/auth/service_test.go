package auth

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/whitecoat/whitecoat/internal/mail"
	"github.com/whitecoat/whitecoat/internal/ratelimit"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

func newTestService(db *store.DB, params Argon2Params) *Service {
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	return NewService(db, &mail.LogMailer{Logger: logger}, ratelimit.New(db, time.Now), logger, time.Now, Config{
		BaseURL: &url.URL{Scheme: "http", Host: "localhost"}, IdleTimeout: time.Hour, AbsoluteTimeout: 24 * time.Hour,
		Argon2: params, RateWindow: time.Minute, PerAccount: 5, PerIP: 50,
	})
}

func TestLoginUpgradesWeakHashes(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		old := newTestService(db, Argon2Params{MemoryKiB: 8192, Iterations: 1, Parallelism: 1})
		u, err := old.CreateUser(ctx, "Ana", "ana@example.com", "s3cret-passphrase", RoleUser)
		if err != nil {
			t.Fatal(err)
		}
		before, _ := userByID(ctx, db.SQL, u.ID)
		if !strings.Contains(before.passwordHash, "m=8192,t=1") {
			t.Fatalf("setup: stored hash %s", before.passwordHash)
		}

		current := newTestService(db, DefaultArgon2)
		if _, err := current.Login(ctx, "ana@example.com", "s3cret-passphrase", Client{IP: "10.0.0.1"}, ""); err != nil {
			t.Fatal(err)
		}
		after, _ := userByID(ctx, db.SQL, u.ID)
		if !strings.Contains(after.passwordHash, "m=19456,t=2,p=1") {
			t.Fatalf("hash not upgraded at login: %s", after.passwordHash)
		}
		if ok, rehash, _ := VerifyPassword("s3cret-passphrase", after.passwordHash, DefaultArgon2); !ok || rehash {
			t.Fatalf("upgraded hash: ok=%v rehash=%v", ok, rehash)
		}
		// A failed login must not touch the hash.
		_, _ = current.Login(ctx, "ana@example.com", "wrong", Client{IP: "10.0.0.1"}, "")
		again, _ := userByID(ctx, db.SQL, u.ID)
		if again.passwordHash != after.passwordHash {
			t.Fatal("a failed login changed the stored hash")
		}
	})
}

// A sign-in that cannot be checked (the database is down) was treated as
// no sign-in: the API told the student to log in. It is the server's
// fault, so the API answers 503; pages still load.
func TestAnUncheckableSignInIsTheServersFault(t *testing.T) {
	t.Parallel()
	db := storetest.SQLite(t)
	svc := newTestService(db, Argon2Params{MemoryKiB: 8192, Iterations: 1, Parallelism: 1})
	h := NewHandler(svc, false, Across{})
	reached := false
	mw := h.Middleware(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { reached = true }))
	db.SQL.Close()
	for _, tc := range []struct {
		path    string
		status  int
		reaches bool
	}{
		{"/api/dashboard", http.StatusServiceUnavailable, false},
		{"/dental/dashboard", http.StatusOK, true},
	} {
		reached = false
		req := httptest.NewRequest(http.MethodGet, tc.path, nil)
		req.AddCookie(&http.Cookie{Name: h.CookieName(), Value: "some-session-token"})
		rec := httptest.NewRecorder()
		mw.ServeHTTP(rec, req)
		if rec.Code != tc.status || reached != tc.reaches {
			t.Errorf("%s: %d (handler reached %v), want %d (%v)", tc.path, rec.Code, reached, tc.status, tc.reaches)
		}
		if tc.status == http.StatusServiceUnavailable && !strings.Contains(rec.Body.String(), MsgSignInUnchecked) {
			t.Errorf("%s: body %s", tc.path, rec.Body)
		}
	}
}
