package app

import (
	"net/http"
	"testing"

	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

func TestHistoryOverHTTP(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, nil)
		b := app.browser(t, "10.5.0.1")
		b.signupAndLogin("Ana Lee", "ana@example.com", pw)
		wantStatus(t, b.get("/api/practice/history"), http.StatusForbidden) // unverified
		if _, err := db.SQL.Exec(`UPDATE users SET email_verified = $1`, true); err != nil {
			t.Fatal(err)
		}
		r := b.get("/api/practice/history?profession=dental&from=2026-01-01&to=2026-12-31&q=ethics&page=2")
		wantStatus(t, r, http.StatusOK)
		if body := r.JSON(t); body["total"] != 0.0 || body["page"] != 2.0 {
			t.Fatalf("history %v", body)
		}
		for _, bad := range []string{"?from=2026-13-01", "?to=yesterday", "?page=0", "?page=100001", "?from=2026-02-01&to=2026-01-01"} {
			if r := b.get("/api/practice/history" + bad); r.Status != http.StatusBadRequest && r.Status != http.StatusUnprocessableEntity {
				t.Fatalf("%s: status %d", bad, r.Status)
			}
		}
	})
}
