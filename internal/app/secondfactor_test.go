package app

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/mail/mailtest"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

// signupAndLogin creates an account the way a person does since sign-up
// stopped signing browsers in: sign up, wait for the verification email
// (the account exists once it is sent), then log in, still unverified.
func (b *browser) signupAndLogin(name, email, password string) response {
	b.t.Helper()
	wantStatus(b.t, b.signup(name, email, password), http.StatusAccepted)
	b.app.Mail.WaitFor(b.t, strings.ToLower(email), 10*time.Second)
	r := b.login(email, password)
	wantStatus(b.t, r, http.StatusOK)
	return r
}

// code is what the admin's authenticator app shows now, on the test clock.
func (a *testApp) code(t *testing.T, secret string) string {
	t.Helper()
	code, err := auth.TOTPCode(secret, a.Clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	return code
}

// enrolAdmin logs an admin without a second factor in, sets up TOTP and
// returns its secret and recovery codes; the browser is then fully signed in.
func (b *browser) enrolAdmin(email, password string) (secret string, recovery []string) {
	b.t.Helper()
	r := b.login(email, password)
	wantStatus(b.t, r, http.StatusOK)
	if step := r.JSON(b.t)["secondFactor"]; step != "enrol" {
		b.t.Fatalf("admin login: secondFactor %v, want enrol", step)
	}
	e := b.post("/api/auth/second-factor/enrolment", map[string]string{})
	wantStatus(b.t, e, http.StatusOK)
	secret, _ = e.JSON(b.t)["secret"].(string)
	done := b.post("/api/auth/second-factor/enrolment/confirm", map[string]string{"code": b.app.code(b.t, secret)})
	wantStatus(b.t, done, http.StatusOK)
	for _, c := range done.JSON(b.t)["recoveryCodes"].([]any) {
		recovery = append(recovery, c.(string))
	}
	return secret, recovery
}

// Admins had only a password between them and the question bank and every
// user's data. They now set up TOTP at their first login and give a code
// (or a single-use recovery code) at every login; until then the browser is
// signed in to nothing.
func TestAdminsSignInWithASecondFactor(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, nil)
		if _, err := app.auth.CreateUser(t.Context(), "Ada Admin", "ada@example.com", pw, auth.RoleAdmin); err != nil {
			t.Fatal(err)
		}
		b := app.browser(t, "10.0.0.1")
		r := b.login("ada@example.com", pw)
		wantStatus(t, r, http.StatusOK)
		if r.JSON(t)["secondFactor"] != "enrol" || b.sessionCookie() == "" {
			t.Fatalf("first admin login: %s", r.Body)
		}
		pending := b.sessionCookie()
		for _, path := range []string{"/api/admin/users", "/api/dashboard"} {
			wantStatus(t, b.get(path), http.StatusUnauthorized)
		}
		wantSignedOut(t, b) // not until the second factor
		wantStatus(t, b.post("/api/auth/second-factor", map[string]string{"code": "123456"}), http.StatusConflict)

		e := b.post("/api/auth/second-factor/enrolment", map[string]string{}).JSON(t)
		secret, uri := e["secret"].(string), e["uri"].(string)
		if len(secret) != 32 || !strings.HasPrefix(uri, "otpauth://totp/Whitecoat:ada@example.com?") || !strings.Contains(uri, "secret="+secret) {
			t.Fatalf("enrolment %v", e)
		}
		wrong := b.post("/api/auth/second-factor/enrolment/confirm", map[string]string{"code": "000000"})
		wantStatus(t, wrong, http.StatusBadRequest)
		if wrong.Detail(t) != auth.MsgSecondFactorWrong {
			t.Fatalf("wrong code: %q", wrong.Detail(t))
		}
		done := b.post("/api/auth/second-factor/enrolment/confirm", map[string]string{"code": app.code(t, secret)})
		wantStatus(t, done, http.StatusOK)
		var recovery []string
		for _, c := range done.JSON(t)["recoveryCodes"].([]any) {
			recovery = append(recovery, c.(string))
		}
		if len(recovery) != auth.RecoveryCodeCount || len(slices.Compact(slices.Sorted(slices.Values(recovery)))) != auth.RecoveryCodeCount {
			t.Fatalf("recovery codes %v", recovery)
		}
		wantStatus(t, b.get("/api/admin/users"), http.StatusOK)
		if b.sessionCookie() == pending {
			t.Fatal("passing the second factor kept the half-signed-in session token")
		}
		wantStatus(t, b.post("/api/auth/second-factor/enrolment", map[string]string{}), http.StatusForbidden)

		// The next login asks for a code: the one just used is refused, the
		// next step's code works.
		next := app.browser(t, "10.0.0.2")
		r = next.login("ada@example.com", pw)
		if r.JSON(t)["secondFactor"] != "code" {
			t.Fatalf("enrolled admin login: %s", r.Body)
		}
		wantStatus(t, next.get("/api/admin/users"), http.StatusUnauthorized)
		wantStatus(t, next.post("/api/auth/second-factor/enrolment", map[string]string{}), http.StatusConflict)
		wantStatus(t, next.post("/api/auth/second-factor", map[string]string{"code": app.code(t, secret)}), http.StatusBadRequest)
		app.Clock.Advance(30 * time.Second)
		wantStatus(t, next.post("/api/auth/second-factor", map[string]string{"code": app.code(t, secret)}), http.StatusOK)
		wantStatus(t, next.get("/api/admin/users"), http.StatusOK)

		// A recovery code works once, typed in any case and grouping.
		lost := app.browser(t, "10.0.0.3")
		wantStatus(t, lost.login("ada@example.com", pw), http.StatusOK)
		typed := strings.ToUpper(strings.ReplaceAll(recovery[0], "-", " "))
		wantStatus(t, lost.post("/api/auth/second-factor", map[string]string{"code": typed}), http.StatusOK)
		wantStatus(t, lost.get("/api/admin/users"), http.StatusOK)
		again := app.browser(t, "10.0.0.4")
		wantStatus(t, again.login("ada@example.com", pw), http.StatusOK)
		wantStatus(t, again.post("/api/auth/second-factor", map[string]string{"code": recovery[0]}), http.StatusBadRequest)
		wantStatus(t, again.post("/api/auth/second-factor", map[string]string{"code": recovery[1]}), http.StatusOK)

		// Codes are limited like passwords (RATE_LIMIT_PER_ACCOUNT is 5 here).
		guesser := app.browser(t, "10.0.0.5")
		wantStatus(t, guesser.login("ada@example.com", pw), http.StatusOK)
		for i := range 5 {
			wantStatus(t, guesser.post("/api/auth/second-factor", map[string]string{"code": strconv.Itoa(100000 + i)}), http.StatusBadRequest)
		}
		limited := guesser.post("/api/auth/second-factor", map[string]string{"code": recovery[2]})
		wantStatus(t, limited, http.StatusTooManyRequests)

		// A half-finished sign-in expires quickly.
		late := app.browser(t, "10.0.0.6")
		wantStatus(t, late.login("ada@example.com", pw), http.StatusOK)
		app.Clock.Advance(auth.PendingSignInTTL + time.Second)
		wantStatus(t, late.post("/api/auth/second-factor", map[string]string{"code": app.code(t, secret)}), http.StatusUnauthorized)
	})
}

// Sign-up answered 409 "An account with this email already exists", so
// anyone could test which emails are registered. It now answers alike and
// the owner of a registered address hears about the attempt by email.
func TestSignupAnswersAlikeForRegisteredEmails(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, nil)
		app.browser(t, "10.0.0.1").signupAndLogin("Ana Lee", "ana@example.com", pw)

		fresh := app.browser(t, "10.0.0.2").signup("Ben New", "ben@example.com", pw)
		taken := app.browser(t, "10.0.0.3").signup("Mallory", "ana@example.com", "another fine passphrase")
		wantStatus(t, fresh, http.StatusAccepted)
		if fresh.Status != taken.Status || string(fresh.Body) != string(taken.Body) {
			t.Fatalf("new email: %d %s; registered email: %d %s", fresh.Status, fresh.Body, taken.Status, taken.Body)
		}
		if fresh.JSON(t)["message"] != auth.MsgSignupStarted {
			t.Fatalf("message %s", fresh.Body)
		}
		for _, h := range []http.Header{fresh.Header, taken.Header} {
			if c := h.Values("Set-Cookie"); len(c) != 0 {
				t.Fatalf("sign-up set cookies %v", c)
			}
		}
		// Unavoidably different: the time and each request's own id.
		for _, h := range []http.Header{fresh.Header, taken.Header} {
			h.Del("Date")
			h.Del("X-Request-Id")
		}
		for name := range fresh.Header {
			if fresh.Header.Get(name) != taken.Header.Get(name) {
				t.Errorf("header %s: %q for a new email, %q for a registered one", name, fresh.Header.Get(name), taken.Header.Get(name))
			}
		}
		if len(fresh.Header) != len(taken.Header) {
			t.Errorf("headers differ: %v vs %v", fresh.Header, taken.Header)
		}

		// The new address gets its verification link; the owner of the
		// registered one a note with links to log in and reset.
		waitForLinks(t, app, "ben@example.com", "/verify-email", 1)
		note := waitForMail(t, app, "ana@example.com", "Someone tried to sign up with your email").Text(t)
		if words := strings.Fields(note); !slices.Contains(words, app.URL+"/login") || !slices.Contains(words, app.URL+"/forgot-password") {
			t.Fatalf("the note lacks the login and reset links:\n%s", note)
		}
		// Nothing changed for the owner.
		wantStatus(t, app.browser(t, "10.0.0.4").login("ana@example.com", "another fine passphrase"), http.StatusUnauthorized)
		r := app.browser(t, "10.0.0.5").login("ana@example.com", pw)
		if u := r.JSON(t)["user"].(map[string]any); u["name"] != "Ana Lee" {
			t.Fatalf("owner's account changed: %v", u)
		}
	})
}

// waitForMail waits for an email to addr whose subject is subject.
func waitForMail(t *testing.T, app *testApp, addr, subject string) mailtest.Received {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		for _, m := range app.Mail.To(addr) {
			if strings.Contains(string(m.Raw), "Subject: "+subject) {
				return m
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no %q email reached %s", subject, addr)
	return mailtest.Received{}
}

// Login limits were per IP and per email-and-IP pair, so 5 addresses × 10
// guesses all went through. Clients without a device cookie for the account
// now share one allowance per account across all addresses; the owner's
// browser, which has signed in before, is limited on its own and still
// gets in.
func TestLoginLimitPerAccountAcrossAddressesSparesTheOwnersBrowser(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, map[string]string{"RATE_LIMIT_PER_ACCOUNT": "3", "RATE_LIMIT_PER_IP": "100", "RATE_LIMIT_WINDOW": "10m"})
		owner := app.browser(t, "10.0.0.1")
		owner.signupAndLogin("Ana", "ana@example.com", pw)
		wantStatus(t, owner.post("/api/auth/logout", map[string]string{}), http.StatusNoContent)

		count := map[int]int{}
		for ip := range 5 {
			attacker := app.browser(t, "203.0.113."+strconv.Itoa(ip+1))
			for i := range 3 {
				r := attacker.login("ana@example.com", "wrong guess "+strconv.Itoa(i))
				count[r.Status]++
				if r.Status == http.StatusUnauthorized && r.Detail(t) != auth.MsgInvalidLogin {
					t.Fatalf("detail %q", r.Detail(t))
				}
			}
		}
		if count[http.StatusUnauthorized] != 3 || count[http.StatusTooManyRequests] != 12 {
			t.Fatalf("5 addresses × 3 guesses: %v, want 3 checked and 12 refused", count)
		}
		// Even the right password is refused to a client the account has
		// never seen...
		blocked := app.browser(t, "198.51.100.7").login("ana@example.com", pw)
		wantStatus(t, blocked, http.StatusTooManyRequests)
		if ra, err := strconv.Atoi(blocked.Header.Get("Retry-After")); err != nil || ra <= 0 || ra > 600 {
			t.Fatalf("Retry-After %q", blocked.Header.Get("Retry-After"))
		}
		// ...but the owner's browser gets in, and its own mistakes count
		// only against itself.
		wantStatus(t, owner.login("ana@example.com", "a typo"), http.StatusUnauthorized)
		wantStatus(t, owner.login("ana@example.com", pw), http.StatusOK)

		// A device cookie for another account does not help.
		mallory := app.browser(t, "203.0.113.50")
		mallory.signupAndLogin("Mallory", "mallory@example.com", pw)
		wantStatus(t, mallory.login("ana@example.com", "one more guess"), http.StatusTooManyRequests)

		// The owner on a new computer: a password reset from their inbox
		// trusts that browser.
		laptop := app.browser(t, "198.51.100.8")
		wantStatus(t, laptop.post("/api/auth/password/forgot", map[string]string{"email": "ana@example.com"}), http.StatusAccepted)
		reset := waitForLinks(t, app, "ana@example.com", "/reset-password", 1)
		wantStatus(t, laptop.post("/api/auth/password/reset", map[string]string{"token": reset, "password": "a brand new passphrase"}), http.StatusOK)
		wantStatus(t, laptop.login("ana@example.com", "a brand new passphrase"), http.StatusOK)
		wantStatus(t, app.browser(t, "198.51.100.9").login("ana@example.com", "a brand new passphrase"), http.StatusTooManyRequests)

		// When the window ends, untrusted clients may try again; unknown
		// accounts are limited the same way as real ones.
		app.Clock.Advance(10*time.Minute + time.Second)
		wantStatus(t, app.browser(t, "198.51.100.9").login("ana@example.com", "a brand new passphrase"), http.StatusOK)
		ghost := app.browser(t, "203.0.113.9")
		for range 3 {
			wantStatus(t, ghost.login("ghost@example.com", "nope nope nope"), http.StatusUnauthorized)
		}
		wantStatus(t, app.browser(t, "203.0.113.10").login("ghost@example.com", "nope nope nope"), http.StatusTooManyRequests)
	})
}

// Whoever held an admin's password could spend the account's allowance of
// wrong codes and lock the real admin out of the second factor for the
// whole rate window. A browser that has passed the admin's second factor
// before (it holds that admin's device cookie) now has an allowance of its
// own, which nobody else can spend; every other browser shares the
// account's.
func TestASecondFactorGuesserCannotLockTheAdminOut(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, nil)
		if _, err := app.auth.CreateUser(t.Context(), "Ada Admin", "ada@example.com", pw, auth.RoleAdmin); err != nil {
			t.Fatal(err)
		}
		owner := app.browser(t, "10.0.0.1")
		secret, _ := owner.enrolAdmin("ada@example.com", pw)
		wantStatus(t, owner.post("/api/auth/logout", map[string]string{}), http.StatusNoContent)

		guesser := app.browser(t, "10.0.0.66")
		wantStatus(t, guesser.login("ada@example.com", pw), http.StatusOK)
		for i := range 5 { // RATE_LIMIT_PER_ACCOUNT
			wantStatus(t, guesser.post("/api/auth/second-factor", map[string]string{"code": strconv.Itoa(200000 + i)}), http.StatusBadRequest)
		}
		wantStatus(t, guesser.post("/api/auth/second-factor", map[string]string{"code": "200009"}), http.StatusTooManyRequests)
		// A fresh browser, though the password gives it a device cookie,
		// has not passed the second factor: it shares the spent allowance.
		another := app.browser(t, "10.0.0.67")
		wantStatus(t, another.login("ada@example.com", pw), http.StatusOK)
		wantStatus(t, another.post("/api/auth/second-factor", map[string]string{"code": "200010"}), http.StatusTooManyRequests)

		r := owner.login("ada@example.com", pw)
		wantStatus(t, r, http.StatusOK)
		if r.JSON(t)["secondFactor"] != "code" {
			t.Fatalf("owner's login: %s", r.Body)
		}
		app.Clock.Advance(30 * time.Second) // the enrolment used this step's code
		wantStatus(t, owner.post("/api/auth/second-factor", map[string]string{"code": app.code(t, secret)}), http.StatusOK)
		wantStatus(t, owner.get("/api/admin/users"), http.StatusOK)
	})
}
