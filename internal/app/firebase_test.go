package app

import (
	"net/http"
	"testing"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwt"

	"github.com/whitecoat/whitecoat/internal/auth/firebasetest"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

// Without FIREBASE_PROJECT_ID the web app is told not to offer Firebase
// sign-in and the exchange endpoint refuses every token.
func TestFirebaseSignInIsOffByDefault(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		b := newTestApp(t, db, nil).browser(t, "10.0.0.1")
		r := b.get("/api/auth/firebase/config")
		wantStatus(t, r, http.StatusOK)
		if got := r.JSON(t); got["enabled"] != false || got["projectId"] != "" || got["apiKey"] != "" {
			t.Fatalf("config with Firebase off: %v", got)
		}
		wantStatus(t, b.post("/api/auth/firebase", map[string]string{"idToken": "a.b.c"}), http.StatusNotFound)
	})
}

// With a project configured, the web app gets the SDK's public settings
// and a token signed by the project's keys becomes our session cookie.
func TestFirebaseTokenBecomesOurSessionCookie(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		keys := firebasetest.Start(t, "whitecoat-firebase", "key-1")
		app := newTestApp(t, db, map[string]string{
			"FIREBASE_PROJECT_ID": keys.Project, "FIREBASE_API_KEY": "AIza-public-web-key", "FIREBASE_JWKS_URL": keys.URL,
		})
		b := app.browser(t, "10.0.0.1")
		r := b.get("/api/auth/firebase/config")
		wantStatus(t, r, http.StatusOK)
		got := r.JSON(t)
		if got["enabled"] != true || got["projectId"] != keys.Project || got["apiKey"] != "AIza-public-web-key" || got["authDomain"] != keys.Project+".firebaseapp.com" {
			t.Fatalf("config: %v", got)
		}

		expired := keys.Token(t, app.Clock.Now().Add(-2*time.Hour), nil)
		wantStatus(t, b.post("/api/auth/firebase", map[string]string{"idToken": expired}), http.StatusUnauthorized)
		if b.sessionCookie() != "" {
			t.Fatal("an expired token signed the browser in")
		}

		r = b.post("/api/auth/firebase", map[string]string{"idToken": keys.Token(t, app.Clock.Now(), func(b *jwt.Builder) { b.Claim("admin", true) })})
		wantStatus(t, r, http.StatusOK)
		if r.JSON(t)["secondFactor"] != "enrol" || b.sessionCookie() == "" {
			t.Fatalf("an admin's Firebase sign-in: %s", r.Body)
		}
		// Half signed in, as after a password: nothing opens until the
		// admin has set up the second factor.
		wantStatus(t, b.get("/api/admin/users"), http.StatusUnauthorized)
		wantStatus(t, b.post("/api/auth/second-factor/enrolment", map[string]string{}), http.StatusOK)

		student := app.browser(t, "10.0.0.2")
		token := keys.Token(t, app.Clock.Now(), func(b *jwt.Builder) { b.Subject("firebase-uid-2").Claim("email", "sam@example.com") })
		wantStatus(t, student.post("/api/auth/firebase", map[string]string{"idToken": token}), http.StatusOK)
		me := student.get("/api/auth/me")
		wantStatus(t, me, http.StatusOK)
		if u := me.JSON(t)["user"].(map[string]any); u["email"] != "sam@example.com" || u["role"] != "user" || u["emailVerified"] != true {
			t.Fatalf("a student's Firebase sign-in: %v", u)
		}
	})
}
