package app

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"testing"

	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

// With TRUSTED_PROXY_HEADER=X-Forwarded-For the server believed the
// left-most entry, which the client writes: a new made-up address on each
// login guess escaped the per-IP limit. The proxy's own entry, on the
// right, now decides.
func TestForgedForwardedForDoesNotEscapeTheLoginLimit(t *testing.T) {
	for name, env := range map[string]map[string]string{
		// The test's connection comes from 127.0.0.1: one proxy, the peer.
		"one proxy":            {"TRUSTED_PROXY_HEADER": "X-Forwarded-For"},
		"listed proxies chain": {"TRUSTED_PROXY_HEADER": "X-Forwarded-For", "TRUSTED_PROXIES": "127.0.0.1, 10.0.0.0/8"},
	} {
		t.Run(name, func(t *testing.T) {
			storetest.Each(t, func(t *testing.T, db *store.DB) {
				env["RATE_LIMIT_PER_IP"] = "3"
				env["RATE_LIMIT_PER_ACCOUNT"] = "100"
				app := newTestApp(t, db, env)
				attacker := app.browser(t, "")
				guess := func(i int, forwarded string) int {
					body, _ := json.Marshal(map[string]string{"email": "user" + strconv.Itoa(i) + "@example.com", "password": "a guess at it"})
					return attacker.do(http.MethodPost, "/api/auth/login", bytes.NewReader(body),
						map[string]string{"Content-Type": "application/json", "X-Forwarded-For": forwarded}).Status
				}
				// What each proxy appends: the address it saw the request come from.
				appended := "198.51.100.7"
				if env["TRUSTED_PROXIES"] != "" {
					appended += ", 10.1.2.3"
				}
				for i := range 3 {
					forged := "203.0.113." + strconv.Itoa(i+1)
					if got := guess(i, forged+", "+appended); got != http.StatusUnauthorized {
						t.Fatalf("guess %d: status %d, want 401", i+1, got)
					}
				}
				if got := guess(3, "127.0.0.1, "+appended); got != http.StatusTooManyRequests {
					t.Fatalf("a fourth guess behind a forged address: status %d, want 429", got)
				}
				// Someone else behind the same proxies is not affected.
				other := app.browser(t, "")
				body, _ := json.Marshal(map[string]string{"email": "someone@example.com", "password": "a guess at it"})
				forwarded := "198.51.100.8"
				if env["TRUSTED_PROXIES"] != "" {
					forwarded += ", 10.1.2.3"
				}
				r := other.do(http.MethodPost, "/api/auth/login", bytes.NewReader(body), map[string]string{"Content-Type": "application/json", "X-Forwarded-For": forwarded})
				wantStatus(t, r, http.StatusUnauthorized)
			})
		})
	}
}
