package app

import (
	"net/http"
	"strconv"
	"sync"
	"testing"

	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

// The login limit was checked before the hash and recorded after it: of
// 100 parallel guesses for one account, 62 were checked against a limit of
// 10. Every attempt is now recorded before its hash runs.
//
// The guesses within the limit wait for the password hasher, which a
// loaded machine may not free in time: such a guess is answered "busy"
// (503) instead of being checked, and still counts against the limit.
func TestParallelLoginGuessesStopAtTheLimit(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, map[string]string{"RATE_LIMIT_PER_ACCOUNT": "5", "RATE_LIMIT_PER_IP": "1000"})
		app.browser(t, "10.0.0.1").signupAndLogin("Ana", "ana@example.com", pw)

		const guesses = 60
		answers := make([]response, guesses)
		var wg sync.WaitGroup
		for i := range guesses {
			wg.Go(func() {
				answers[i] = app.browser(t, "203.0.113.9").login("ana@example.com", "wrong guess "+strconv.Itoa(i))
			})
		}
		wg.Wait()
		count := map[int]int{}
		for _, r := range answers {
			count[r.Status]++
			if r.Status == http.StatusServiceUnavailable && r.Detail(t) != auth.MsgBusy {
				t.Errorf("503 %q: only a busy hasher may refuse a guess that way", r.Detail(t))
			}
		}
		if count[http.StatusUnauthorized]+count[http.StatusServiceUnavailable] != 5 || count[http.StatusTooManyRequests] != guesses-5 {
			t.Fatalf("outcomes %v: want exactly 5 guesses let through to the hasher and %d refused", count, guesses-5)
		}
		if count[http.StatusUnauthorized] == 0 {
			t.Fatalf("outcomes %v: not one guess was checked", count)
		}
	})
}

// A password reset hashed the new password before looking at the token and
// had no limit: 50 connections of made-up tokens ran 974 argon2 hashes in
// 20 s. The token is now checked first, and attempts count per address.
func TestResetWithMadeUpTokensIsCheapAndLimited(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, map[string]string{"RATE_LIMIT_PER_IP": "4"})
		b := app.browser(t, "10.7.7.7")
		for i := range 4 {
			r := b.post("/api/auth/password/reset", map[string]string{"token": "made-up-" + strconv.Itoa(i), "password": "a brand new passphrase"})
			wantStatus(t, r, http.StatusBadRequest)
			if r.Detail(t) != auth.MsgBadLink {
				t.Fatalf("detail %q", r.Detail(t))
			}
		}
		r := b.post("/api/auth/password/reset", map[string]string{"token": "made-up-5", "password": "a brand new passphrase"})
		wantStatus(t, r, http.StatusTooManyRequests)
		if r.Header.Get("Retry-After") == "" {
			t.Fatal("429 without Retry-After")
		}
		// Another address is not affected.
		r = app.browser(t, "10.7.7.8").post("/api/auth/password/reset", map[string]string{"token": "made-up", "password": "a brand new passphrase"})
		wantStatus(t, r, http.StatusBadRequest)
	})
}
