package app

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

const pw = "correct horse battery staple"

func TestSignupVerifyEmailOverSMTP(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, nil)
		b := app.browser(t, "10.0.0.1")

		// Sign-up signs nobody in; logging in before verifying works.
		signup := b.signup("Ana Lee", "Ana@Example.com", pw)
		wantStatus(t, signup, http.StatusAccepted)
		if b.sessionCookie() != "" {
			t.Fatal("signup signed the browser in")
		}
		app.Mail.WaitFor(t, "ana@example.com", 10*time.Second)
		r := b.login("ana@example.com", pw)
		wantStatus(t, r, http.StatusOK)
		u := r.JSON(t)["user"].(map[string]any)
		if u["email"] != "ana@example.com" || u["name"] != "Ana Lee" || u["emailVerified"] != false || u["role"] != "user" ||
			u["promoCodeUsed"] != nil {
			t.Fatalf("new user record: %v", u)
		}
		// The account is who the student is: the pass and the practice
		// counts are billing's and practice's, on the dashboard.
		for _, other := range []string{"hasPaid", "paidAt", "subscriptionEndsAt", "sessionsCompleted", "questionsPracticed"} {
			if _, ok := u[other]; ok {
				t.Fatalf("the account carries %s: %v", other, u)
			}
		}
		created, _ := time.Parse(time.RFC3339Nano, u["createdAt"].(string))
		trial, _ := time.Parse(time.RFC3339Nano, u["trialExpiresAt"].(string))
		if trial.Sub(created) != 7*24*time.Hour {
			t.Fatalf("trial ends %v after signup, want 7 days", trial.Sub(created))
		}

		msg := app.Mail.WaitFor(t, "ana@example.com", 10*time.Second)
		if !msg.HasPart("text/html") || !msg.HasPart("text/plain") {
			t.Fatalf("verification email lacks a text or HTML part:\n%s", msg.Raw)
		}
		link := msg.Link(t)
		if link.Path != "/verify-email" || !strings.HasPrefix(link.String(), app.URL) {
			t.Fatalf("link %s does not point at %s/verify-email", link, app.URL)
		}
		token := link.Query().Get("token")

		// Opening the link (as a mail scanner would) must not use it up.
		wantStatus(t, b.get(link.RequestURI()), http.StatusOK)
		if me := b.get("/api/auth/me").JSON(t)["user"].(map[string]any); me["emailVerified"] != false {
			t.Fatal("GET of the link verified the email")
		}

		wantStatus(t, b.post("/api/auth/verification/confirm", map[string]string{"token": token}), http.StatusOK)
		if me := b.get("/api/auth/me").JSON(t)["user"].(map[string]any); me["emailVerified"] != true {
			t.Fatalf("email not verified after confirm: %v", me)
		}
		again := b.post("/api/auth/verification/confirm", map[string]string{"token": token})
		wantStatus(t, again, http.StatusBadRequest)
		if again.Detail(t) != auth.MsgBadLink {
			t.Fatalf("reused token detail %q", again.Detail(t))
		}

		dup := app.browser(t, "10.0.0.2").signup("Other", "ana@example.com", pw)
		wantStatus(t, dup, http.StatusAccepted)
	})
}

func TestTokenSingleUseUnderConcurrentPosts(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, nil)
		b := app.browser(t, "10.0.0.1")
		b.signupAndLogin("Ana", "ana@example.com", pw)
		verify := app.Mail.WaitFor(t, "ana@example.com", 10*time.Second).Link(t).Query().Get("token")

		wantStatus(t, b.post("/api/auth/password/forgot", map[string]string{"email": "ana@example.com"}), http.StatusAccepted)
		var reset string
		deadline := time.Now().Add(10 * time.Second)
		for reset == "" && time.Now().Before(deadline) {
			for _, m := range app.Mail.To("ana@example.com") {
				if l := m.Link(t); l.Path == "/reset-password" {
					reset = l.Query().Get("token")
				}
			}
			time.Sleep(20 * time.Millisecond)
		}
		if reset == "" {
			t.Fatal("no reset email arrived")
		}

		for _, tc := range []struct {
			path string
			body map[string]string
		}{
			{"/api/auth/verification/confirm", map[string]string{"token": verify}},
			{"/api/auth/password/reset", map[string]string{"token": reset, "password": "a brand new passphrase"}},
		} {
			statuses := make([]int, 2)
			var wg sync.WaitGroup
			start := make(chan struct{})
			for i := range statuses {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					statuses[i] = app.browser(t, "10.0.1."+strconv.Itoa(i)).post(tc.path, tc.body).Status
				}()
			}
			close(start)
			wg.Wait()
			ok, bad := 0, 0
			for _, s := range statuses {
				switch s {
				case http.StatusOK:
					ok++
				case http.StatusBadRequest:
					bad++
				}
			}
			if ok != 1 || bad != 1 {
				t.Fatalf("%s: statuses %v, want exactly one 200 and one 400", tc.path, statuses)
			}
		}
		// The reset signed every browser out and the new password works.
		wantSignedOut(t, b)
		wantStatus(t, b.login("ana@example.com", "a brand new passphrase"), http.StatusOK)
	})
}

func TestTokensExpire(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, nil)
		b := app.browser(t, "10.0.0.1")
		b.signupAndLogin("Ana", "ana@example.com", pw)
		verify := app.Mail.WaitFor(t, "ana@example.com", 10*time.Second).Link(t).Query().Get("token")
		app.Clock.Advance(auth.VerifyTokenTTL + time.Second)
		wantStatus(t, b.post("/api/auth/verification/confirm", map[string]string{"token": verify}), http.StatusBadRequest)

		// A fresh link works, and a reset link expires after an hour.
		wantStatus(t, b.post("/api/auth/verification/resend", map[string]string{"email": "ana@example.com"}), http.StatusAccepted)
		fresh := waitForLinks(t, app, "ana@example.com", "/verify-email", 2)
		wantStatus(t, b.post("/api/auth/verification/confirm", map[string]string{"token": fresh}), http.StatusOK)

		wantStatus(t, b.post("/api/auth/password/forgot", map[string]string{"email": "ana@example.com"}), http.StatusAccepted)
		reset := waitForLinks(t, app, "ana@example.com", "/reset-password", 1)
		app.Clock.Advance(auth.ResetTokenTTL + time.Second)
		wantStatus(t, b.post("/api/auth/password/reset", map[string]string{"token": reset, "password": "another fine passphrase"}), http.StatusBadRequest)
		wantStatus(t, b.login("ana@example.com", pw), http.StatusOK)
	})
}

// waitForLinks waits until n emails with links to page reached addr and
// returns the newest link's token.
func waitForLinks(t *testing.T, app *testApp, addr, page string, n int) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		var tokens []string
		for _, m := range app.Mail.To(addr) {
			if !strings.Contains(string(m.Raw), page) {
				continue // another email, such as a deletion's confirmation
			}
			if l := m.Link(t); l.Path == page {
				tokens = append(tokens, l.Query().Get("token"))
			}
		}
		if len(tokens) >= n {
			return tokens[len(tokens)-1]
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("fewer than %d %s emails reached %s", n, page, addr)
	return ""
}

func TestResetAndResendAnswerIdenticallyForUnknownEmails(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, nil)
		app.browser(t, "10.0.0.1").signupAndLogin("Ana", "ana@example.com", pw)
		for _, path := range []string{"/api/auth/password/forgot", "/api/auth/verification/resend"} {
			known := app.browser(t, "10.0.0.2").post(path, map[string]string{"email": "ana@example.com"})
			unknown := app.browser(t, "10.0.0.3").post(path, map[string]string{"email": "nobody@example.com"})
			if known.Status != http.StatusAccepted || known.Status != unknown.Status || !bytes.Equal(known.Body, unknown.Body) {
				t.Fatalf("%s: known %d %s, unknown %d %s", path, known.Status, known.Body, unknown.Status, unknown.Body)
			}
			if known.Header.Get("Set-Cookie") != unknown.Header.Get("Set-Cookie") {
				t.Fatalf("%s: cookies differ", path)
			}
		}
		waitForLinks(t, app, "ana@example.com", "/reset-password", 1)
		if got := len(app.Mail.To("nobody@example.com")); got != 0 {
			t.Fatalf("%d emails sent to an unknown address", got)
		}
	})
}

func TestSessionRotationAndLogout(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, nil)
		b := app.browser(t, "10.0.0.1")
		b.signupAndLogin("Ana", "ana@example.com", pw)
		first := b.sessionCookie()
		if len(first) < 22 { // 128 bits in unpadded base64url
			t.Fatalf("session token %q is shorter than 128 bits", first)
		}
		wantStatus(t, b.login("ana@example.com", pw), http.StatusOK)
		second := b.sessionCookie()
		if second == "" || second == first {
			t.Fatal("login did not issue a new session token")
		}
		old := app.browser(t, "10.0.0.1")
		old.setSessionCookie(first)
		wantSignedOut(t, old)
		wantSignedIn(t, b)

		r := b.post("/api/auth/logout", map[string]string{})
		wantStatus(t, r, http.StatusNoContent)
		if c := r.Header.Get("Set-Cookie"); !strings.Contains(c, "Max-Age=0") || !strings.Contains(c, "HttpOnly") {
			t.Fatalf("logout cookie %q does not clear the session", c)
		}
		replay := app.browser(t, "10.0.0.1")
		replay.setSessionCookie(second)
		wantSignedOut(t, replay)
	})
}

func TestSessionCookieAttributes(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, nil)
		r := app.browser(t, "10.0.0.1").signupAndLogin("Ana", "ana@example.com", pw)
		cookies := r.Header.Values("Set-Cookie")
		if len(cookies) != 2 || !strings.HasPrefix(cookies[0], "whitecoat_session=") || !strings.HasPrefix(cookies[1], "whitecoat_device=") {
			t.Fatalf("login cookies %q, want the session and the device cookie", cookies)
		}
		for _, c := range cookies {
			for _, want := range []string{"HttpOnly", "SameSite=Lax", "Path=/"} {
				if !strings.Contains(c, want) {
					t.Fatalf("cookie %q lacks %s", c, want)
				}
			}
			if strings.Contains(c, "Secure") {
				t.Fatalf("cookie %q is Secure on plain http, so browsers would drop it", c)
			}
		}
	})
	t.Run("https", func(t *testing.T) {
		app := newTestApp(t, storetest.SQLite(t), map[string]string{"BASE_URL": "https://whitecoat.test"})
		if _, err := app.auth.CreateUser(t.Context(), "Ana", "ana@example.com", pw, auth.RoleUser); err != nil {
			t.Fatal(err)
		}
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, "/api/auth/login", strings.NewReader(`{"email":"ana@example.com","password":"`+pw+`"}`))
		req.Header.Set("Content-Type", "application/json")
		app.Handler().ServeHTTP(rec, req)
		cookies := rec.Header().Values("Set-Cookie")
		if rec.Code != http.StatusOK || len(cookies) != 2 {
			t.Fatalf("login over https: %d, cookies %q", rec.Code, cookies)
		}
		for i, prefix := range []string{"__Host-whitecoat_session=", "__Host-whitecoat_device="} {
			if !strings.HasPrefix(cookies[i], prefix) || !strings.Contains(cookies[i], "Secure") {
				t.Fatalf("cookie %q over https, want %s… Secure", cookies[i], prefix)
			}
		}
	})
}

func TestSessionIdleAndAbsoluteTimeouts(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, map[string]string{"SESSION_IDLE_TIMEOUT": "1h", "SESSION_ABSOLUTE_TIMEOUT": "3h"})
		idle := app.browser(t, "10.0.0.1")
		idle.signupAndLogin("Ana", "ana@example.com", pw)
		app.Clock.Advance(59 * time.Minute)
		wantSignedIn(t, idle)
		app.Clock.Advance(59 * time.Minute) // active 59 minutes ago: still fine
		wantSignedIn(t, idle)
		app.Clock.Advance(61 * time.Minute)
		wantSignedOut(t, idle)

		busy := app.browser(t, "10.0.0.2")
		wantStatus(t, busy.login("ana@example.com", pw), http.StatusOK)
		for range 4 { // active every 40 minutes, but 3 hours is the cap
			app.Clock.Advance(40 * time.Minute)
			wantSignedIn(t, busy)
		}
		app.Clock.Advance(21 * time.Minute)
		wantSignedOut(t, busy)
	})
}

func TestSignupResetAndResendAreRateLimited(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, map[string]string{"RATE_LIMIT_PER_ACCOUNT": "2", "RATE_LIMIT_PER_IP": "4"})
		for _, path := range []string{"/api/auth/password/forgot", "/api/auth/verification/resend"} {
			b := app.browser(t, "10.9.9.9")
			for range 2 {
				wantStatus(t, b.post(path, map[string]string{"email": "victim@example.com"}), http.StatusAccepted)
			}
			wantStatus(t, b.post(path, map[string]string{"email": "victim@example.com"}), http.StatusTooManyRequests)
		}
		ip := app.browser(t, "10.8.8.8")
		for i := range 4 {
			wantStatus(t, ip.signup("N", "user"+strconv.Itoa(i)+"@example.com", pw), http.StatusAccepted)
		}
		wantStatus(t, ip.signup("N", "user9@example.com", pw), http.StatusTooManyRequests)
	})
}

func TestPasswordRules(t *testing.T) {
	t.Parallel()
	app := newTestApp(t, storetest.SQLite(t), nil)
	b := app.browser(t, "10.0.0.1")
	for _, tc := range []struct {
		password string
		status   int
		detail   string
	}{
		{"short", http.StatusBadRequest, "Password must be at least 8 characters."},
		{"password123", http.StatusBadRequest, "This password is too common. Please choose one that is harder to guess."},
		{strings.Repeat("x", 257), http.StatusBadRequest, "Password must be at most 256 characters."},
		{strings.Repeat("é", 128), http.StatusAccepted, ""},
	} {
		r := b.signup("Ana", "ana"+strconv.Itoa(len(tc.password))+"@example.com", tc.password)
		wantStatus(t, r, tc.status)
		if tc.detail != "" && r.Detail(t) != tc.detail {
			t.Errorf("password %q: detail %q, want %q", tc.password, r.Detail(t), tc.detail)
		}
	}
}

func TestCrossSitePostIsRejected(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, nil)
		b := app.browser(t, "10.0.0.1")
		body := `{"email":"a@example.com","password":"whatever1"}`
		for name, h := range map[string]map[string]string{
			"sec-fetch-site": {"Sec-Fetch-Site": "cross-site"},
			"foreign origin": {"Origin": "https://evil.example"},
		} {
			h["Content-Type"] = "application/json"
			r := b.do(http.MethodPost, "/api/auth/login", strings.NewReader(body), h)
			if r.Status != http.StatusForbidden {
				t.Errorf("%s: status %d, want 403", name, r.Status)
			}
		}
		same := b.do(http.MethodPost, "/api/auth/login", strings.NewReader(body),
			map[string]string{"Content-Type": "application/json", "Sec-Fetch-Site": "same-origin"})
		wantStatus(t, same, http.StatusUnauthorized)
	})
}

func TestSecurityHeadersEverywhere(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, nil)
		b := app.browser(t, "10.0.0.1")
		for _, path := range []string{"/api/no-such-endpoint", "/dental", "/", "/assets/app.js", "/healthz"} {
			r := b.get(path)
			for _, h := range []string{"Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy", "Permissions-Policy"} {
				if r.Header.Get(h) == "" {
					t.Errorf("%s (%d): missing %s", path, r.Status, h)
				}
			}
			if r.Header.Get("Strict-Transport-Security") != "" {
				t.Errorf("%s: HSTS sent over plain http", path)
			}
		}
		// The web app's page, with the preloaded profession list in its head.
		if r := b.get("/dental/dashboard"); r.Status != http.StatusOK || !strings.HasSuffix(string(r.Body), "</head><body><div id=\"root\"></div></body></html>") ||
			!strings.HasPrefix(string(r.Body), "<!doctype html><html><head><meta name=\"description\" content=\"The app.\" /><title>Whitecoat</title>") {
			t.Fatalf("/dental/dashboard: %d %s, want index.html", r.Status, r.Body)
		}
		if r := b.get("/api/no-such-endpoint"); r.Status != http.StatusNotFound {
			t.Fatalf("unknown API path: %d", r.Status)
		}
		if !strings.Contains(b.get("/").Header.Get("Permissions-Policy"), "microphone=(self)") {
			t.Fatal("Permissions-Policy does not allow the microphone for this origin")
		}
	})
}

func TestHSTSOverHTTPS(t *testing.T) {
	t.Parallel()
	app := newTestApp(t, storetest.SQLite(t), map[string]string{"BASE_URL": "https://whitecoat.test"})
	for _, path := range []string{"/dental", "/api/nothing"} {
		rec := httptest.NewRecorder()
		app.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if got := rec.Header().Get("Strict-Transport-Security"); !strings.Contains(got, "max-age=") {
			t.Errorf("%s: HSTS %q", path, got)
		}
	}
}

func TestBadInputGetsActionable4xx(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, nil)
		b := app.browser(t, "10.0.0.1")
		json := map[string]string{"Content-Type": "application/json"}
		for _, tc := range []struct {
			name   string
			body   string
			header map[string]string
			status int
			detail string
		}{
			{"malformed JSON", `{"email": "a@example.com",`, json, http.StatusBadRequest, "not valid JSON"},
			{"missing field", `{"email": "a@example.com"}`, json, http.StatusUnprocessableEntity, "password"},
			{"wrong type", `{"email": 7, "password": "x"}`, json, http.StatusUnprocessableEntity, "email"},
			{"wrong content type", `email=a@example.com`, map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, http.StatusUnsupportedMediaType, "application/json"},
			{"10 MB body", `{"email":"` + strings.Repeat("a", 10<<20) + `"}`, json, http.StatusRequestEntityTooLarge, "too large"},
			{"invalid email", `{"name":"A","email":"not-an-email","password":"long enough pass"}`, json, http.StatusBadRequest, "valid email"},
			{"blank name", `{"name":"   ","email":"a@example.com","password":"long enough pass"}`, json, http.StatusBadRequest, "Name is required"},
		} {
			path := "/api/auth/login"
			if strings.Contains(tc.body, `"name"`) {
				path = "/api/auth/signup"
			}
			r := b.do(http.MethodPost, path, strings.NewReader(tc.body), tc.header)
			if r.Status != tc.status || !strings.Contains(r.Detail(t), tc.detail) {
				t.Errorf("%s: %d %q, want %d containing %q", tc.name, r.Status, r.Detail(t), tc.status, tc.detail)
			}
			if strings.Contains(string(r.Body), "long enough pass") {
				t.Errorf("%s: the response echoes the password", tc.name)
			}
		}
		// Streaming an oversized body without a declared length is cut off too.
		big := b.do(http.MethodPost, "/api/auth/login", struct{ io.Reader }{strings.NewReader(strings.Repeat(" ", 10<<20))}, json)
		wantStatus(t, big, http.StatusRequestEntityTooLarge)
		// The server keeps serving.
		wantStatus(t, b.signup("Ana", "ana@example.com", pw), http.StatusAccepted)
	})
}

// cliRunner runs operator commands on db, returning what they print.
func cliRunner(t *testing.T, db *store.DB) func(stdin string, args ...string) (string, error) {
	t.Helper()
	return func(stdin string, args ...string) (string, error) {
		var out, errOut bytes.Buffer
		err := Run(context.Background(), args, IO{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut,
			Getenv: func(k string) string {
				if k == "DATABASE_URL" {
					return db.DSN
				}
				if k == "LOG_LEVEL" {
					return "error"
				}
				return ""
			}})
		return out.String() + errOut.String(), err
	}
}

func TestOperatorCLICreatesAndPromotesUsers(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		run := cliRunner(t, db)
		out, err := run(pw+"\n", "user", "create", "--email", "Admin@Example.com", "--name", "Dr Admin", "--password-stdin", "--admin")
		if err != nil || !strings.Contains(out, "second factor") {
			t.Fatalf("user create: %v\n%s", err, out)
		}
		if _, err := run(pw+"\n", "user", "create", "--email", "plain@example.com", "--name", "Plain", "--password-stdin"); err != nil {
			t.Fatal(err)
		}
		if _, err := run("", "user", "create", "--email", "x@example.com", "--name", "X", "--password-stdin"); err == nil {
			t.Fatal("user create without a password on stdin succeeded")
		}
		if _, err := run("", "user", "promote", "nobody@example.com"); err == nil {
			t.Fatal("promoting an unknown email succeeded")
		}
		app := newTestApp(t, db, nil)
		admin := app.browser(t, "10.0.0.1")
		secret, _ := admin.enrolAdmin("admin@example.com", pw)
		if u := admin.get("/api/auth/me").JSON(t)["user"].(map[string]any); u["role"] != "admin" || u["emailVerified"] != true {
			t.Fatalf("CLI admin: %v", u)
		}
		plain := app.browser(t, "10.0.0.2")
		if u := plain.login("plain@example.com", pw).JSON(t)["user"].(map[string]any); u["role"] != "user" {
			t.Fatalf("CLI user role %v", u["role"])
		}
		out, err = run("", "user", "promote", "plain@example.com")
		if err != nil || !strings.Contains(out, "must set up a second factor") {
			t.Fatalf("promote: %v\n%s", err, out)
		}
		// The promoted user's session stops counting until they enrol.
		wantSignedOut(t, plain)
		plain.enrolAdmin("plain@example.com", pw)
		if u := plain.get("/api/auth/me").JSON(t)["user"].(map[string]any); u["role"] != "admin" {
			t.Fatalf("promoted user role %v", u["role"])
		}

		// An admin who lost their authenticator: the operator removes it,
		// every session ends, and the next login enrols again.
		if out, err := run("", "user", "reset-second-factor", "admin@example.com"); err != nil || !strings.Contains(out, "second factor") {
			t.Fatalf("reset-second-factor: %v\n%s", err, out)
		}
		wantSignedOut(t, admin)
		if newSecret, _ := admin.enrolAdmin("admin@example.com", pw); newSecret == secret {
			t.Fatal("re-enrolment reused the old secret")
		}
	})
}

// The verification link signs in the browser that confirms it (issue 30),
// once: the token stays single-use and short-lived, a link whose account
// was verified some other way since signs nobody in, and neither does one
// for an admin, whose sign-in takes a password and a second factor.
func TestVerificationLinkSignsIn(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, nil)
		wantStatus(t, app.browser(t, "10.0.0.1").signup("Ana Lee", "ana@example.com", pw), http.StatusAccepted)
		token := waitForLinks(t, app, "ana@example.com", "/verify-email", 1)

		// Another browser opens the link from the mail: not signed in
		// before, signed in to the verified account after.
		b := app.browser(t, "10.0.0.2")
		wantStatus(t, b.get("/verify-email?token="+token), http.StatusOK)
		wantSignedOut(t, b)
		confirmed := b.post("/api/auth/verification/confirm", map[string]string{"token": token})
		wantStatus(t, confirmed, http.StatusOK)
		if confirmed.JSON(t)["signedIn"] != true || b.sessionCookie() == "" {
			t.Fatalf("confirm did not sign the browser in: %s", confirmed.Body)
		}
		if me := b.get("/api/auth/me").JSON(t)["user"].(map[string]any); me["email"] != "ana@example.com" || me["emailVerified"] != true {
			t.Fatalf("signed in as %v", me)
		}

		// Used once: a second browser with the same link gets no session.
		other := app.browser(t, "10.0.0.3")
		again := other.post("/api/auth/verification/confirm", map[string]string{"token": token})
		wantStatus(t, again, http.StatusBadRequest)
		if again.Detail(t) != auth.MsgBadLink || other.sessionCookie() != "" {
			t.Fatalf("reused link: %s, cookie %q", again.Body, other.sessionCookie())
		}

		// Expired: no session either.
		wantStatus(t, app.browser(t, "10.0.0.1").signup("Bo", "bo@example.com", pw), http.StatusAccepted)
		late := waitForLinks(t, app, "bo@example.com", "/verify-email", 1)
		app.Clock.Advance(auth.VerifyTokenTTL + time.Second)
		expired := app.browser(t, "10.0.0.4")
		wantStatus(t, expired.post("/api/auth/verification/confirm", map[string]string{"token": late}), http.StatusBadRequest)
		if expired.sessionCookie() != "" {
			t.Fatal("an expired link signed the browser in")
		}

		// A link for an account verified since (by a password reset) still
		// confirms, but signs nobody in.
		wantStatus(t, app.browser(t, "10.0.0.1").signup("Cy", "cy@example.com", pw), http.StatusAccepted)
		stale := waitForLinks(t, app, "cy@example.com", "/verify-email", 1)
		wantStatus(t, app.browser(t, "10.0.0.1").post("/api/auth/password/forgot", map[string]string{"email": "cy@example.com"}), http.StatusAccepted)
		reset := waitForLinks(t, app, "cy@example.com", "/reset-password", 1)
		wantStatus(t, app.browser(t, "10.0.0.1").post("/api/auth/password/reset", map[string]string{"token": reset, "password": "a brand new passphrase"}), http.StatusOK)
		c := app.browser(t, "10.0.0.5")
		r := c.post("/api/auth/verification/confirm", map[string]string{"token": stale})
		wantStatus(t, r, http.StatusOK)
		if r.JSON(t)["signedIn"] != false || c.sessionCookie() != "" {
			t.Fatalf("a link for a verified account signed in: %s", r.Body)
		}

		// An admin's link confirms without signing in.
		wantStatus(t, app.browser(t, "10.0.0.1").signup("Di", "di@example.com", pw), http.StatusAccepted)
		adminLink := waitForLinks(t, app, "di@example.com", "/verify-email", 1)
		if _, err := cliRunner(t, db)("", "user", "promote", "di@example.com"); err != nil {
			t.Fatal(err)
		}
		d := app.browser(t, "10.0.0.6")
		r = d.post("/api/auth/verification/confirm", map[string]string{"token": adminLink})
		wantStatus(t, r, http.StatusOK)
		if r.JSON(t)["signedIn"] != false || d.sessionCookie() != "" {
			t.Fatalf("an admin's link signed in: %s", r.Body)
		}
	})
}
