package app

import (
	"bytes"
	"context"
	"math"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwt"

	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/billing"
	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
	"github.com/whitecoat/whitecoat/internal/transcribe/whispertest"
)

// devCheckout is the setting of a test app that sells passes through the
// development checkout.
var devCheckout = map[string]string{"DEV_CHECKOUT": "1"}

// premiumWithASession gives b's student a paid pass (a payments row) and a
// completed, saved session with one answer and one question left
// unanswered, and returns the account.
func premiumWithASession(t *testing.T, app *testApp, b *browser, email string) auth.User {
	t.Helper()
	ctx := context.Background()
	r := b.post("/api/create-checkout-session", map[string]string{"profession": "dental"})
	wantStatus(t, r, http.StatusOK)
	page, err := url.Parse(r.JSON(t)["url"].(string))
	if err != nil {
		t.Fatal(err)
	}
	wantStatus(t, b.post("/api/dev-checkout/pay", map[string]string{"session": page.Query().Get("session")}), http.StatusOK)
	id := b.get("/api/auth/me").JSON(t)["user"].(map[string]any)["id"].(string)
	u, err := app.auth.UserByID(ctx, id)
	if err != nil || u.Email != email {
		t.Fatalf("user %+v, %v", u, err)
	}
	s, err := app.practice.Create(ctx, u, practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "random", QuestionCount: 2})
	if err != nil {
		t.Fatal(err)
	}
	it, err := app.practice.AdmitAnswer(ctx, u, s.ID, s.Items[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := app.practice.UploadAdmitted(ctx, u, it, "audio/webm", bytes.NewReader(whispertest.Recording(t))); err != nil {
		t.Fatal(err)
	}
	if _, err := app.practice.Complete(ctx, u, s.ID, 90); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		got, err := app.practice.Get(ctx, u, s.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !got.Processing {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the session is still processing")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if _, err := app.history.Save(ctx, u, s.ID, ""); err != nil {
		t.Fatal(err)
	}
	return u
}

// rowsAbout counts, table by table, the rows that still refer to userID.
func rowsAbout(t *testing.T, db *store.DB, userID string) map[string]int {
	t.Helper()
	out := map[string]int{}
	for table, query := range map[string]string{
		"users":              `SELECT COUNT(*) FROM users WHERE id = $1`,
		"auth_sessions":      `SELECT COUNT(*) FROM auth_sessions WHERE user_id = $1`,
		"one_time_tokens":    `SELECT COUNT(*) FROM one_time_tokens WHERE user_id = $1`,
		"trusted_devices":    `SELECT COUNT(*) FROM trusted_devices WHERE user_id = $1`,
		"second_factors":     `SELECT COUNT(*) FROM second_factors WHERE user_id = $1`,
		"recovery_codes":     `SELECT COUNT(*) FROM recovery_codes WHERE user_id = $1`,
		"practice_sessions":  `SELECT COUNT(*) FROM practice_sessions WHERE user_id = $1`,
		"practice_items":     `SELECT COUNT(*) FROM practice_items i JOIN practice_sessions s ON s.id = i.session_id WHERE s.user_id = $1`,
		"processed_sessions": `SELECT COUNT(*) FROM processed_sessions WHERE user_id = $1`,
		"saved_sessions":     `SELECT COUNT(*) FROM saved_sessions WHERE user_id = $1`,
		"practice_voices":    `SELECT COUNT(*) FROM practice_voices WHERE user_id = $1`,
		"payments":           `SELECT COUNT(*) FROM payments WHERE user_id = $1`,
		"premium_passes":     `SELECT COUNT(*) FROM premium_passes WHERE user_id = $1`,
	} {
		var n int
		if err := db.SQL.QueryRowContext(context.Background(), query, userID).Scan(&n); err != nil {
			t.Fatalf("%s: %v", table, err)
		}
		if n > 0 {
			out[table] = n
		}
	}
	return out
}

// tracesOf lists the rate-limit keys and the jobs whose arguments name
// the user or carry one of ids (their sessions' and answers' ids).
func tracesOf(t *testing.T, db *store.DB, u auth.User, ids []string) []string {
	t.Helper()
	var out []string
	for _, query := range []string{`SELECT key FROM rate_limits`, `SELECT CAST(args AS TEXT) FROM river_job`} {
		rows, err := db.SQL.QueryContext(context.Background(), query)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var text string
			if err := rows.Scan(&text); err != nil {
				t.Fatal(err)
			}
			for _, id := range append([]string{u.ID, u.Email, u.Name}, ids...) {
				if strings.Contains(text, id) {
					out = append(out, text)
					break
				}
			}
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// keptPayments counts the payment rows no longer tied to anyone.
func keptPayments(t *testing.T, db *store.DB) int {
	t.Helper()
	var n int
	if err := db.SQL.QueryRow(`SELECT COUNT(*) FROM payments WHERE user_id IS NULL AND amount_cents > 0`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestStudentDownloadsTheirDataAndDeletesTheAccount(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, devCheckout)
		b := student(t, app)
		u := premiumWithASession(t, app, b, "ana@example.com")

		r := b.get("/api/account/export")
		wantStatus(t, r, http.StatusOK)
		if cd := r.Header.Get("Content-Disposition"); !strings.Contains(cd, "attachment") {
			t.Fatalf("Content-Disposition %q", cd)
		}
		ex := r.JSON(t)
		sessions, _ := ex["sessions"].([]any)
		saved, _ := ex["savedSessions"].([]any)
		payments, _ := ex["payments"].([]any)
		account, _ := ex["account"].(map[string]any)
		if len(sessions) != 1 || len(saved) != 1 || len(payments) != 1 || account["email"] != "ana@example.com" {
			t.Fatalf("export: %d sessions, %d saved, %d payments, account %v", len(sessions), len(saved), len(payments), account)
		}
		if pass, _ := ex["pass"].(map[string]any); pass["hasPaid"] != true || pass["paidAt"] == nil || pass["subscriptionEndsAt"] == nil {
			t.Fatalf("the export does not show the Premium pass: %v", ex["pass"])
		}
		if stats, _ := ex["stats"].(map[string]any); stats["sessionsCompleted"] != 1.0 || stats["questionsPracticed"] != 1.0 {
			t.Fatalf("the export's stats: %v", ex["stats"])
		}
		items := sessions[0].(map[string]any)["items"].([]any)
		first := items[0].(map[string]any)
		if first["transcript"] == nil || first["feedback"] == nil {
			t.Fatalf("exported answer without its transcript or feedback: %v", first)
		}
		// The account's averages are computed from its one scored session.
		averages, _ := ex["averages"].(map[string]any)
		rolling, _ := averages["rollingAverageScore"].(float64)
		if average, _ := sessions[0].(map[string]any)["averageScore"].(float64); rolling == 0 || math.Round(rolling) != average ||
			averages["lastAverageScore"] != rolling {
			t.Fatalf("exported averages %v, session average %v", averages, sessions[0].(map[string]any)["averageScore"])
		}

		r = b.get("/api/account/export.csv")
		wantStatus(t, r, http.StatusOK)
		lines := strings.Split(strings.TrimSpace(string(r.Body)), "\n")
		if !strings.HasPrefix(r.Header.Get("Content-Type"), "text/csv") || !strings.HasPrefix(lines[0], "session_id,") ||
			!strings.Contains(string(r.Body), first["question"].(string)) {
			t.Fatalf("CSV %s:\n%s", r.Header.Get("Content-Type"), r.Body)
		}

		other := app.browser(t, "10.4.0.9") // a second sign-in, which must end too
		wantStatus(t, other.login("ana@example.com", pw), http.StatusOK)

		r = b.post("/api/account/delete", map[string]string{"password": "not the password"})
		wantStatus(t, r, http.StatusBadRequest)
		ids := []string{u.ID, u.Email}
		for _, s := range sessions {
			ids = append(ids, s.(map[string]any)["id"].(string))
			for _, it := range s.(map[string]any)["items"].([]any) {
				ids = append(ids, it.(map[string]any)["id"].(string))
			}
		}
		if traces := tracesOf(t, db, u, ids); len(traces) < 2 {
			t.Fatalf("before deletion, rate limits and jobs name the user %d times; the test needs both", len(traces))
		}
		// The pass is billing's row, which the deletion must remove too.
		if got := rowsAbout(t, db, u.ID); got["users"] != 1 || got["practice_sessions"] != 1 || got["premium_passes"] != 1 {
			t.Fatalf("a wrong password deleted rows: %v", got)
		}
		r = b.post("/api/account/delete", map[string]string{"password": pw})
		wantStatus(t, r, http.StatusOK)
		if msg, _ := r.JSON(t)["message"].(string); !strings.Contains(msg, billing.KeptRecords) {
			t.Fatalf("message %q does not name the records kept", msg)
		}

		if left := rowsAbout(t, db, u.ID); len(left) != 0 {
			t.Fatalf("rows still refer to the deleted user: %v", left)
		}
		if n := keptPayments(t, db); n != 1 {
			t.Fatalf("%d payment records kept, want 1", n)
		}
		entries, _ := os.ReadDir(app.cfg.Speech.AudioTmpDir)
		for _, e := range entries {
			if !e.IsDir() {
				t.Fatalf("recording %s left in the audio directory", e.Name())
			}
		}
		if left := tracesOf(t, db, u, ids); len(left) != 0 {
			t.Fatalf("rate limits and jobs still name the deleted user: %v", left)
		}
		wantSignedOut(t, b)
		wantSignedOut(t, other)
		wantStatus(t, app.browser(t, "10.4.0.3").login("ana@example.com", pw), http.StatusUnauthorized)
		mail := waitForMail(t, app, "ana@example.com", "Your Whitecoat account has been deleted")
		if !strings.Contains(mail.Text(t), "accounting law") {
			t.Fatalf("confirmation does not say what was kept:\n%s", mail.Text(t))
		}
	})
}

func TestAdminExportsAndDeletesAUserOnRequest(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, devCheckout)
		b := student(t, app)
		u := premiumWithASession(t, app, b, "ana@example.com")
		if _, err := app.auth.CreateUser(context.Background(), "Ada Admin", "ada@example.com", pw, auth.RoleAdmin); err != nil {
			t.Fatal(err)
		}
		admin := app.browser(t, "10.4.0.2")
		admin.enrolAdmin("ada@example.com", pw)

		wantStatus(t, b.get("/api/admin/users/"+u.ID+"/export"), http.StatusForbidden)
		r := admin.get("/api/admin/users/" + u.ID + "/export")
		wantStatus(t, r, http.StatusOK)
		if account, _ := r.JSON(t)["account"].(map[string]any); account["id"] != u.ID {
			t.Fatalf("admin export of another account: %v", account)
		}
		wantStatus(t, admin.get("/api/admin/users/"+u.ID+"/export.csv"), http.StatusOK)

		wantStatus(t, admin.do(http.MethodDelete, "/api/admin/users/"+u.ID, nil, nil), http.StatusOK)
		if left := rowsAbout(t, db, u.ID); len(left) != 0 {
			t.Fatalf("rows still refer to the deleted user: %v", left)
		}
		if n := keptPayments(t, db); n != 1 {
			t.Fatalf("%d payment records kept, want 1", n)
		}
		wantSignedOut(t, b)
		wantStatus(t, admin.do(http.MethodDelete, "/api/admin/users/"+u.ID, nil, nil), http.StatusNotFound)
		waitForMail(t, app, "ana@example.com", "Your Whitecoat account has been deleted")
	})
}

// An admin could delete another admin with no safeguard. Through the API
// an admin deletes only themselves; another admin is first demoted by the
// operator (whitecoat user demote).
func TestAdminsCannotDeleteOtherAdmins(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, nil)
		ctx := context.Background()
		ada, err := app.auth.CreateUser(ctx, "Ada Admin", "ada@example.com", pw, auth.RoleAdmin)
		if err != nil {
			t.Fatal(err)
		}
		bob, err := app.auth.CreateUser(ctx, "Bob Admin", "bob@example.com", pw, auth.RoleAdmin)
		if err != nil {
			t.Fatal(err)
		}
		admin := app.browser(t, "10.4.0.2")
		admin.enrolAdmin("ada@example.com", pw)
		r := admin.do(http.MethodDelete, "/api/admin/users/"+bob.ID, nil, nil)
		wantStatus(t, r, http.StatusForbidden)
		if r.Detail(t) != MsgAdminNotDeletable {
			t.Fatalf("refusal: %q", r.Detail(t))
		}
		if got := rowsAbout(t, db, bob.ID); got["users"] != 1 {
			t.Fatalf("the other admin's rows: %v", got)
		}

		if out, err := cliRunner(t, db)("", "user", "demote", "bob@example.com"); err != nil {
			t.Fatalf("demote: %v\n%s", err, out)
		}
		wantStatus(t, admin.do(http.MethodDelete, "/api/admin/users/"+bob.ID, nil, nil), http.StatusOK)
		wantStatus(t, admin.do(http.MethodDelete, "/api/admin/users/"+ada.ID, nil, nil), http.StatusOK)
		if left := rowsAbout(t, db, ada.ID); len(left) != 0 {
			t.Fatalf("the admin's own deletion left %v", left)
		}
	})
}

// A Firebase-made account never had a password, and deletion asked for
// one. It now confirms with a fresh Firebase sign-in for the same address
// instead: a token whose auth_time is recent, checked as at sign-in.
func TestAFirebaseAccountDeletesItselfAfterAFreshSignIn(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app, keys := firebaseApp(t, db)
		b := app.browser(t, "10.0.0.1")
		id := b.firebaseSignIn(keys.Token(t, app.Clock.Now(), nil))["user"].(map[string]any)["id"].(string)

		now := app.Clock.Now()
		stale := keys.Token(t, now, func(b *jwt.Builder) { b.Claim("auth_time", now.Add(-time.Hour).Unix()) })
		someoneElse := keys.Token(t, now, func(b *jwt.Builder) { b.Subject("firebase-uid-2").Claim("email", "sam@example.com") })
		for name, body := range map[string]map[string]string{
			"a guessed password":     {"password": "a guess at a password"},
			"an old sign-in":         {"idToken": stale},
			"another address":        {"idToken": someoneElse},
			"a token not Firebase's": {"idToken": "not.a.token"},
		} { // four: attempts count against RATE_LIMIT_PER_ACCOUNT (5 here)
			if r := b.post("/api/account/delete", body); r.Status != http.StatusBadRequest {
				t.Fatalf("%s: status %d, want 400; %s", name, r.Status, r.Body)
			}
		}
		if got := rowsAbout(t, db, id); got["users"] != 1 {
			t.Fatalf("a refused deletion deleted: %v", got)
		}
		r := b.post("/api/account/delete", map[string]string{"idToken": keys.Token(t, app.Clock.Now(), nil)})
		wantStatus(t, r, http.StatusOK)
		if left := rowsAbout(t, db, id); len(left) != 0 {
			t.Fatalf("rows still refer to the deleted user: %v", left)
		}
		wantSignedOut(t, b)
	})
}

// Deleting the account and signing up again with the same address started
// a fresh 7-day trial. The address's salted hash now keeps the trial it
// had: a new account with it carries the old trial end, or none at all
// once a free session was used; sign-up answers as for any address.
func TestDeletingAndSigningUpAgainDoesNotRenewTheTrial(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, nil)
		ctx := context.Background()
		trialEnd := func(email string) time.Time {
			t.Helper()
			var end time.Time
			if err := db.SQL.QueryRowContext(ctx, `SELECT trial_expires_at FROM users WHERE email = $1`, email).Scan(&end); err != nil {
				t.Fatal(err)
			}
			return end.UTC()
		}
		signUpAgain := func(ip string, n int) {
			t.Helper()
			b := app.browser(t, ip)
			again, fresh := b.signup("Ana Again", "ana@example.com", pw), b.signup("Someone New", ip+"@example.com", pw)
			wantStatus(t, again, http.StatusAccepted)
			if string(again.Body) != string(fresh.Body) {
				t.Fatalf("sign-up answered %s for a deleted address, %s for a new one", again.Body, fresh.Body)
			}
			token := waitForLinks(t, app, "ana@example.com", "/verify-email", n)
			wantStatus(t, b.post("/api/auth/verification/confirm", map[string]string{"token": token}), http.StatusOK)
			// The new address's account is written after the answer, as Ana's
			// is: its link says it exists.
			waitForLinks(t, app, ip+"@example.com", "/verify-email", 1)
		}

		first := app.browser(t, "10.0.0.1")
		first.signupAndLogin("Ana Lee", "ana@example.com", pw)
		wantStatus(t, first.post("/api/auth/verification/confirm", map[string]string{"token": waitForLinks(t, app, "ana@example.com", "/verify-email", 1)}), http.StatusOK)
		end := trialEnd("ana@example.com")
		app.Clock.Advance(3 * 24 * time.Hour)
		wantStatus(t, first.login("ana@example.com", pw), http.StatusOK)
		wantStatus(t, first.post("/api/account/delete", map[string]string{"password": pw}), http.StatusOK)

		signUpAgain("10.0.0.2", 2)
		if got := trialEnd("ana@example.com"); !got.Equal(end) {
			t.Fatalf("the new account's trial ends %v, want the deleted one's %v", got, end)
		}
		if got := trialEnd("10.0.0.2@example.com"); !got.Equal(app.Clock.Now().Add(auth.TrialLength)) {
			t.Fatalf("a new address's trial ends %v", got)
		}

		// A free session used, then deleted again: the trial is spent.
		second := app.browser(t, "10.0.0.3")
		wantStatus(t, second.login("ana@example.com", pw), http.StatusOK)
		practiseAndSave(t, second, "Why dentistry?", "Used")
		wantStatus(t, second.post("/api/account/delete", map[string]string{"password": pw}), http.StatusOK)
		deletedAt := app.Clock.Now()
		app.Clock.Advance(time.Hour)
		signUpAgain("10.0.0.4", 3)
		if got := trialEnd("ana@example.com"); got.After(deletedAt) {
			t.Fatalf("after a free session was used the new account's trial ends %v, after the deletion at %v", got, deletedAt)
		}
	})
}
