package app

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwt"

	"github.com/whitecoat/whitecoat/internal/auth/firebasetest"
	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

// Without FIREBASE_PROJECT_ID the web app is told not to offer Firebase
// sign-in and the exchange endpoint refuses every token.
func TestFirebaseSignInIsOffByDefault(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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

		noExpiry := keys.TokenWithout(t, app.Clock.Now(), "exp")
		wantStatus(t, b.post("/api/auth/firebase", map[string]string{"idToken": noExpiry}), http.StatusUnauthorized)
		if b.sessionCookie() != "" {
			t.Fatal("a token without an expiry signed the browser in")
		}

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

// firebaseApp is a test app that accepts keys' Firebase tokens.
func firebaseApp(t *testing.T, db *store.DB) (*testApp, *firebasetest.Keys) {
	t.Helper()
	keys := firebasetest.Start(t, "whitecoat-firebase", "key-1")
	return newTestApp(t, db, map[string]string{"FIREBASE_PROJECT_ID": keys.Project, "FIREBASE_JWKS_URL": keys.URL}), keys
}

// firebaseSignIn signs b in with token and returns the account.
func (b *browser) firebaseSignIn(token string) map[string]any {
	b.t.Helper()
	r := b.post("/api/auth/firebase", map[string]string{"idToken": token})
	wantStatus(b.t, r, http.StatusOK)
	return r.JSON(b.t)
}

// An attacker signed up with the victim's address and a password of their
// own; the account stayed unverified but could log in. "Continue with
// Google" by the victim merged into it and verified it, and the attacker's
// password and cookie went on working on the victim's account. Now the
// squatter's account is replaced: its sign-ins and password end with it,
// and the victim's account is a new one with nothing of the squatter's.
func TestFirebaseSignInDoesNotAdoptAnUnverifiedAccount(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app, keys := firebaseApp(t, db)
		const attackerPassword = "mallory's own passphrase"
		attacker := app.browser(t, "10.0.0.66")
		squatter := attacker.signupAndLogin("Mallory", "fran@example.com", attackerPassword).JSON(t)["user"].(map[string]any)
		if squatter["emailVerified"] != false {
			t.Fatalf("the squatter's account: %v", squatter)
		}

		victim := app.browser(t, "10.0.0.1")
		account := victim.firebaseSignIn(keys.Token(t, app.Clock.Now(), nil))["user"].(map[string]any)
		if account["id"] == squatter["id"] || account["name"] != "Fran Firebase" || account["emailVerified"] != true {
			t.Fatalf("the victim signed in to %v; the squatter's account was %v", account, squatter)
		}
		u, err := app.auth.UserByID(context.Background(), account["id"].(string))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := app.practice.Create(context.Background(), u, practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "random", QuestionCount: 1}); err != nil {
			t.Fatal(err)
		}

		// The attacker's cookie, password and export are gone.
		wantSignedOut(t, attacker)
		wantStatus(t, attacker.get("/api/account/export"), http.StatusUnauthorized)
		wantStatus(t, app.browser(t, "10.0.0.67").login("fran@example.com", attackerPassword), http.StatusUnauthorized)
		if left := rowsAbout(t, db, squatter["id"].(string)); len(left) != 0 {
			t.Fatalf("rows of the squatter's account remain: %v", left)
		}

		// The victim keeps their own account and data.
		me := victim.get("/api/account/export")
		wantStatus(t, me, http.StatusOK)
		if sessions, _ := me.JSON(t)["sessions"].([]any); len(sessions) != 1 {
			t.Fatalf("the victim's export holds %d sessions, want 1", len(sessions))
		}
		again := app.browser(t, "10.0.0.2").firebaseSignIn(keys.Token(t, app.Clock.Now(), nil))["user"].(map[string]any)
		if again["id"] != account["id"] {
			t.Fatalf("a second Firebase sign-in found %v, not the victim's account %v", again["id"], account["id"])
		}
	})
}

// The admin role is ours alone: a Firebase `admin: true` claim opened the
// admin console and the role stayed after the claim was gone. Now the
// claim grants nothing; the operator's promote makes an admin (who owes
// the second factor) and demote ends it at the next request.
func TestFirebaseClaimsGrantNoRole(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app, keys := firebaseApp(t, db)
		b := app.browser(t, "10.0.0.1")
		claimed := keys.Token(t, app.Clock.Now(), func(b *jwt.Builder) { b.Claim("admin", true) })
		r := b.firebaseSignIn(claimed)
		if r["secondFactor"] != nil || r["user"].(map[string]any)["role"] != "user" {
			t.Fatalf("a Firebase sign-in with an admin claim: %v", r)
		}
		wantStatus(t, b.get("/api/admin/users"), http.StatusForbidden)
		wantStatus(t, b.post("/api/auth/second-factor/enrolment", map[string]string{}), http.StatusForbidden)

		operator := cliRunner(t, db)
		if out, err := operator("", "user", "promote", "fran@example.com"); err != nil {
			t.Fatalf("promote: %v\n%s", err, out)
		}
		if r := b.firebaseSignIn(keys.Token(t, app.Clock.Now(), nil)); r["secondFactor"] != "enrol" {
			t.Fatalf("a promoted account's Firebase sign-in: %v", r)
		}
		wantStatus(t, b.post("/api/auth/second-factor/enrolment", map[string]string{}), http.StatusOK)
		if out, err := operator("", "user", "demote", "fran@example.com"); err != nil || !strings.Contains(out, "no longer an admin") {
			t.Fatalf("demote: %v\n%s", err, out)
		}
		// The half-finished admin sign-in is a student's now: the role is
		// read on every request.
		wantStatus(t, b.get("/api/admin/users"), http.StatusForbidden)
		r = b.firebaseSignIn(claimed)
		if r["secondFactor"] != nil || r["user"].(map[string]any)["role"] != "user" {
			t.Fatalf("sign-in after demotion: %v", r)
		}
		wantStatus(t, b.get("/api/admin/users"), http.StatusForbidden)
		if _, err := operator("", "user", "demote", "nobody@example.com"); err == nil {
			t.Fatal("demoting an unknown email succeeded")
		}
	})
}
