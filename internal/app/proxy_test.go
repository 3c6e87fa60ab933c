package app

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/http"
	"strconv"
	"testing"

	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

// With TRUSTED_PROXY_HEADER=X-Forwarded-For the server believed the
// left-most entry, which the client writes: a new made-up address on each
// login guess escaped the per-IP limit. The proxies' own entries, on the
// right, now decide.
func TestForgedForwardedForDoesNotEscapeTheLoginLimit(t *testing.T) {
	t.Parallel()
	limits := map[string]string{"RATE_LIMIT_PER_IP": "3", "RATE_LIMIT_PER_ACCOUNT": "100"}
	for _, tc := range []struct {
		name string
		env  map[string]string
		// proxies is what the proxies behind the first append after the
		// address the first one saw; the test's own connection comes from
		// 127.0.0.1, the last proxy.
		proxies string
	}{
		{"one proxy", map[string]string{"TRUSTED_PROXY_HEADER": "X-Forwarded-For"}, ""},
		{"listed proxies", map[string]string{"TRUSTED_PROXY_HEADER": "X-Forwarded-For", "TRUSTED_PROXIES": "127.0.0.1, 10.0.0.0/8"}, ", 10.1.2.3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := maps.Clone(tc.env)
			maps.Copy(env, limits)
			storetest.Each(t, func(t *testing.T, db *store.DB) {
				app := newTestApp(t, db, env)
				guess := func(b *browser, email, forwarded string) int {
					body, _ := json.Marshal(map[string]string{"email": email, "password": "a guess at it"})
					return b.do(http.MethodPost, "/api/auth/login", bytes.NewReader(body),
						map[string]string{"Content-Type": "application/json", "X-Forwarded-For": forwarded + tc.proxies}).Status
				}
				attacker := app.browser(t, "")
				for i := range 3 {
					forged := "203.0.113." + strconv.Itoa(i+1) + ", 198.51.100.7"
					if got := guess(attacker, "user"+strconv.Itoa(i)+"@example.com", forged); got != http.StatusUnauthorized {
						t.Fatalf("guess %d: status %d, want 401", i+1, got)
					}
				}
				if got := guess(attacker, "user9@example.com", "127.0.0.1, 198.51.100.7"); got != http.StatusTooManyRequests {
					t.Fatalf("a fourth guess behind a forged address: status %d, want 429", got)
				}
				// Someone else behind the same proxies keeps their own limit.
				if got := guess(app.browser(t, ""), "someone@example.com", "198.51.100.8"); got != http.StatusUnauthorized {
					t.Fatalf("another client: status %d, want 401", got)
				}
			})
		})
	}
}

// One home or phone is given a whole IPv6 /64: guesses from its other
// addresses counted as new clients, so an attacker escaped the per-IP
// limit by moving to the next address of their own block. The block now
// counts as one client; the next block keeps its own limit.
func TestLoginGuessesFromOneIPv6BlockShareTheLimit(t *testing.T) {
	t.Parallel()
	env := map[string]string{"RATE_LIMIT_PER_IP": "3", "RATE_LIMIT_PER_ACCOUNT": "100", "TRUSTED_PROXY_HEADER": "X-Forwarded-For"}
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, env)
		guess := func(n int, from string) int {
			body, _ := json.Marshal(map[string]string{"email": "user" + strconv.Itoa(n) + "@example.com", "password": "a guess at it"})
			return app.browser(t, "").do(http.MethodPost, "/api/auth/login", bytes.NewReader(body),
				map[string]string{"Content-Type": "application/json", "X-Forwarded-For": from}).Status
		}
		for i := range 3 {
			if got := guess(i, "2001:db8:5:6::"+strconv.Itoa(i+1)); got != http.StatusUnauthorized {
				t.Fatalf("guess %d: status %d, want 401", i+1, got)
			}
		}
		if got := guess(3, "2001:db8:5:6:abcd::9"); got != http.StatusTooManyRequests {
			t.Fatalf("a fourth guess from another address of the same /64: status %d, want 429", got)
		}
		if got := guess(4, "2001:db8:5:7::1"); got != http.StatusUnauthorized {
			t.Fatalf("a guess from the next /64: status %d, want 401", got)
		}
	})
}
