package app

import (
	"bytes"
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/whitecoat/whitecoat/internal/auth"

	"github.com/whitecoat/whitecoat/internal/httpx"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

// On PostgreSQL a NUL byte or invalid UTF-8 in any text reached the
// database and came back as a 500; on SQLite it was stored. Both now get
// the same 422 before any handler runs, and a broken User-Agent (which
// every login stores) is cleaned instead of breaking sign-in.
func TestTextWithNULOrInvalidUTF8IsRefusedOnBothDatabases(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, nil)
		b := app.browser(t, "10.0.0.1")
		jsonBody := map[string]string{"Content-Type": "application/json"}

		for _, tc := range []struct {
			name, method, path string
			body               []byte
			location           string
		}{
			{"NUL in a name", http.MethodPost, "/api/auth/signup",
				[]byte(`{"name":"Ana\u0000Lee","email":"nul@example.com","password":"` + pw + `"}`), "body"},
			{"NUL in an email", http.MethodPost, "/api/auth/login",
				[]byte(`{"email":"a\u0000@example.com","password":"x"}`), "body"},
			{"invalid UTF-8 in a name", http.MethodPost, "/api/auth/signup",
				[]byte("{\"name\":\"Ana \xff\xfe\",\"email\":\"utf8@example.com\",\"password\":\"" + pw + "\"}"), "body"},
			{"NUL in a path id", http.MethodGet, "/api/practice/sessions/ab%00cd", nil, "path"},
			{"NUL in an admin search", http.MethodGet, "/api/admin/users?q=%00", nil, "query"},
			{"invalid UTF-8 in a search", http.MethodGet, "/api/admin/questions?q=%ff", nil, "query"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				var header map[string]string
				if tc.body != nil {
					header = jsonBody
				}
				r := b.do(tc.method, tc.path, bytes.NewReader(tc.body), header)
				wantStatus(t, r, http.StatusUnprocessableEntity)
				if r.Detail(t) != httpx.MsgBadText {
					t.Fatalf("detail %q", r.Detail(t))
				}
				errs, _ := r.JSON(t)["errors"].([]any)
				if len(errs) != 1 || errs[0].(map[string]any)["location"] != tc.location {
					t.Fatalf("errors %v, want one at %s", errs, tc.location)
				}
			})
		}
		// Nothing was created by the refused signups.
		wantStatus(t, b.login("nul@example.com", pw), http.StatusUnauthorized)

		// The six characters \u0000 typed as text are ordinary text.
		r := b.post("/api/auth/signup", map[string]string{"name": `Ana \u0000`, "email": "text@example.com", "password": pw})
		wantStatus(t, r, http.StatusAccepted)
		app.Mail.WaitFor(t, "text@example.com", 10*time.Second)

		// A User-Agent with invalid UTF-8
		// no longer breaks every login from that client.
		browser := app.browser(t, "10.0.0.2")
		r = browser.do(http.MethodPost, "/api/auth/login", bytes.NewReader([]byte(`{"email":"text@example.com","password":"`+pw+`"}`)),
			map[string]string{"Content-Type": "application/json", "User-Agent": "Mozilla/5.0 \xff\xfe broken"})
		wantStatus(t, r, http.StatusOK)
		wantSignedIn(t, browser)
	})
}

// A huge page number gave 500 on PostgreSQL (its offset overflowed) and
// page 1 on SQLite; pages are now bounded in the contract.
func TestHugePageNumbersAreRefusedOnBothDatabases(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, nil)
		if _, err := app.auth.CreateUser(context.Background(), "Ada Admin", "admin@example.com", pw, auth.RoleAdmin); err != nil {
			t.Fatal(err)
		}
		admin := app.browser(t, "10.0.0.1")
		admin.enrolAdmin("admin@example.com", pw)
		for _, list := range []string{"/api/admin/users", "/api/admin/questions"} {
			for _, page := range []string{"9223372036854775807", "99999999999"} {
				r := admin.get(list + "?page=" + page)
				wantStatus(t, r, http.StatusUnprocessableEntity)
				if !strings.Contains(r.Detail(t), "page") {
					t.Fatalf("GET %s?page=%s: detail %q does not name the page", list, page, r.Detail(t))
				}
			}
			// The last allowed page is simply empty.
			wantStatus(t, admin.get(list+"?page="+strconv.Itoa(store.MaxPage)), http.StatusOK)
		}
	})
}
