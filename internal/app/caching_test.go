package app

import (
	"testing"

	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

// A signed-in user's data must not stay in a shared computer's browser
// cache or a proxy's: every API response says no-store.
func TestAPIResponsesAreNotStored(t *testing.T) {
	t.Parallel()
	app := newTestApp(t, storetest.SQLite(t), nil)
	b := app.browser(t, "10.0.0.1")
	b.signupAndLogin("Ana Lee", "ana@example.com", pw)
	for _, path := range []string{"/api/auth/me", "/api/dashboard", "/api/professions", "/api/no-such-endpoint"} {
		if got := b.get(path).Header.Get("Cache-Control"); got != "no-store" {
			t.Errorf("GET %s: Cache-Control %q, want no-store", path, got)
		}
	}
	if got := b.get("/dental/dashboard").Header.Get("Cache-Control"); got != "no-cache" {
		t.Errorf("the app's page: Cache-Control %q, want no-cache (revalidated, not no-store)", got)
	}
}
