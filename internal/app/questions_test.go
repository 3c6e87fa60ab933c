package app

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/httpx"
	"github.com/whitecoat/whitecoat/internal/profession"
	"github.com/whitecoat/whitecoat/internal/question"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

// runCommand runs a whitecoat subcommand against dsn and returns its
// standard output and, separately, its error output.
func runCommand(dsn, stdin string, args ...string) (string, string, error) {
	var out, errOut bytes.Buffer
	err := Run(context.Background(), args, IO{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut,
		Getenv: func(k string) string {
			return map[string]string{"DATABASE_URL": dsn, "LOG_LEVEL": "error"}[k]
		}})
	return out.String(), errOut.String(), err
}

func exportedQuestions(t *testing.T, dsn string) []question.Question {
	t.Helper()
	out, errOut, err := runCommand(dsn, "", "questions", "export", "--format", "json")
	if err != nil {
		t.Fatalf("questions export: %v\n%s", err, errOut)
	}
	var doc struct{ Questions []question.Question }
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("export is not JSON: %v", err)
	}
	return doc.Questions
}

func TestQuestionsExportOnFreshDatabase(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		qs := exportedQuestions(t, db.DSN)
		if len(qs) < 210 {
			t.Fatalf("fresh database exports %d questions, want at least 210", len(qs))
		}
		for _, p := range profession.All() {
			var total int
			subtags := map[question.Subtag]bool{}
			var big3 []int
			for _, q := range qs {
				if !q.HasTag(p.Slug) {
					continue
				}
				total++
				subtags[q.Subtag] = true
				if q.Big3 {
					big3 = append(big3, q.Big3Order)
				}
			}
			if total < 30 {
				t.Errorf("%s: %d questions, want at least 30", p.Slug, total)
			}
			for _, st := range question.Subtags() {
				if !subtags[st] {
					t.Errorf("%s: no %s question", p.Slug, st)
				}
			}
			if len(big3) != 3 || !sameOrders(big3) {
				t.Errorf("%s: Big 3 orders %v, want exactly 1, 2 and 3", p.Slug, big3)
			}
		}

		for _, args := range [][]string{{"questions", "seed"}, {"questions", "seed"}} {
			out, errOut, err := runCommand(db.DSN, "", args...)
			if err != nil || out != "seeded 0 new question(s)\n" {
				t.Fatalf("re-seed: %q %q %v", out, errOut, err)
			}
		}
		if n := len(exportedQuestions(t, db.DSN)); n != len(qs) {
			t.Fatalf("seeding twice changed the count from %d to %d", len(qs), n)
		}
	})
}

func sameOrders(orders []int) bool {
	seen := map[int]bool{}
	for _, o := range orders {
		seen[o] = true
	}
	return seen[1] && seen[2] && seen[3]
}

func TestQuestionsImportCommand(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		before := len(exportedQuestions(t, db.DSN))
		dir := t.TempDir()
		bad := filepath.Join(dir, "bad.csv")
		good := filepath.Join(dir, "good.json")
		if err := os.WriteFile(bad, []byte("text,subtag,mainTags\nFirst?,Ethical,dental\nSecond?,Ethical,nursing\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(good, []byte(`[{"text":"Imported?","subtag":"Teamwork","mainTags":["ot"]}]`), 0o600); err != nil {
			t.Fatal(err)
		}
		tests := []struct {
			name    string
			args    []string
			wantErr string
			wantOut string
			added   int
		}{
			{"one bad row imports nothing", []string{"questions", "import", bad}, `row 2 (line 3): mainTags: "nursing" is not a profession`, "", 0},
			{"unknown format", []string{"questions", "import", filepath.Join(dir, "x.txt")}, "usage", "", 0},
			{"good file", []string{"questions", "import", "--as", "ops@example.com", good}, "", "imported 1 new and 0 updated question(s)\n", 1},
			{"unknown subcommand", []string{"questions", "wipe"}, "usage", "", 1},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				out, _, err := runCommand(db.DSN, "", tt.args...)
				if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				if out != tt.wantOut {
					t.Fatalf("output %q, want %q", out, tt.wantOut)
				}
				if n := len(exportedQuestions(t, db.DSN)); n != before+tt.added {
					t.Fatalf("%d questions, want %d", n, before+tt.added)
				}
			})
		}
	})
}

// TestAdminQuestionManagerOverHTTP checks the texts and statuses the web
// client relies on, through the real router and session cookie.
func TestAdminQuestionManagerOverHTTP(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		app := newTestApp(t, db, nil)
		if _, err := app.questions.Seed(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := app.auth.CreateUser(ctx, "Ada Admin", "admin@example.com", pw, auth.RoleAdmin); err != nil {
			t.Fatal(err)
		}
		admin := app.browser(t, "10.0.0.1")
		admin.enrolAdmin("admin@example.com", pw)
		send := func(method, path string, body any) response {
			data, _ := json.Marshal(body)
			return admin.do(method, path, bytes.NewReader(data), map[string]string{"Content-Type": "application/json"})
		}

		incomplete := httpx.ProblemType(question.FailureIncompleteNew.Name)
		tests := []struct {
			name       string
			method     string
			body       any
			wantStatus int
			wantDetail string
			// wantType is the problem type the web tells the failure apart by.
			wantType string
		}{
			{"add without text", http.MethodPost, map[string]any{"mainTags": []string{"dental"}}, 400, question.MsgCompleteAllFields, incomplete},
			{"add without tags", http.MethodPost, map[string]any{"text": "Why?"}, 400, question.MsgCompleteAllFields, incomplete},
			{"add with unknown subtag", http.MethodPost, map[string]any{"text": "Why?", "subtag": "Grit", "mainTags": []string{"pa"}}, 400, `subtag: "Grit" is not one of`, ""},
			{"add", http.MethodPost, map[string]any{"text": "Why now?", "mainTags": []string{"pa"}}, 201, "", ""},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				r := send(tt.method, "/api/admin/questions", tt.body)
				wantStatus(t, r, tt.wantStatus)
				if tt.wantDetail != "" && !strings.Contains(r.Detail(t), tt.wantDetail) {
					t.Fatalf("detail %q, want %q", r.Detail(t), tt.wantDetail)
				}
				if got, _ := r.JSON(t)["type"].(string); tt.wantStatus >= 400 && (got == incomplete) != (tt.wantType == incomplete) {
					t.Fatalf("problem type %q, want %q", got, tt.wantType)
				}
			})
		}

		list := admin.get("/api/admin/questions?profession=pa&q=why+now")
		wantStatus(t, list, http.StatusOK)
		page := list.JSON(t)
		qs := page["questions"].([]any)
		if page["total"] != float64(1) || len(qs) != 1 {
			t.Fatalf("search for the new question: %s", list.Body)
		}
		created := qs[0].(map[string]any)
		id := created["id"].(string)
		if created["createdBy"] != "admin@example.com" || created["subtag"] != "" {
			t.Fatalf("created question %v", created)
		}

		r := send(http.MethodPut, "/api/admin/questions/"+id, map[string]any{"text": " ", "mainTags": []string{"pa"}, "version": created["version"]})
		wantStatus(t, r, http.StatusBadRequest)
		if r.Detail(t) != question.MsgAllFieldsRequired || r.JSON(t)["type"] != httpx.ProblemType(question.FailureIncompleteEdit.Name) {
			t.Fatalf("edit problem %s", r.Body)
		}
		wantStatus(t, send(http.MethodPut, "/api/admin/questions/"+id, map[string]any{"text": "Why now, really?", "mainTags": []string{"pa", "ot"}, "version": created["version"]}), http.StatusOK)
		got := admin.get("/api/admin/questions/" + id).JSON(t)
		if got["text"] != "Why now, really?" || got["updatedBy"] != "admin@example.com" {
			t.Fatalf("after edit: %v", got)
		}
		wantStatus(t, admin.do(http.MethodDelete, "/api/admin/questions/"+id, nil, nil), http.StatusNoContent)
		wantStatus(t, admin.get("/api/admin/questions/"+id), http.StatusNotFound)
		wantStatus(t, admin.get("/api/admin/questions?pageSize=101"), http.StatusUnprocessableEntity)

		bank := admin.get("/api/questions?profession=ot").JSON(t)["questions"].([]any)
		if len(bank) == 0 {
			t.Fatal("the users' bank is empty")
		}
		for _, q := range bank {
			if _, ok := q.(map[string]any)["createdBy"]; ok {
				t.Fatalf("the users' bank shows authors: %v", q)
			}
			// A custom session asks questions on their own: a station's
			// prompt ("What would you do?") means nothing without its scenario.
			if q.(map[string]any)["scenario"] != "" {
				t.Fatalf("the users' bank offers a station: %v", q)
			}
		}
	})
}

// Two admins opened one question and both saved it: the later save
// silently put back the text the earlier one had replaced. An edit now
// carries the version it was made on; one made on an older version is
// refused with 409, saying so, and with the question as now stored, and
// the earlier edit stays.
func TestAStaleQuestionEditIsRefusedWithTheNewerQuestion(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		app := newTestApp(t, db, nil)
		for _, email := range []string{"ada@example.com", "ben@example.com"} {
			if _, err := app.auth.CreateUser(ctx, "An Admin", email, pw, auth.RoleAdmin); err != nil {
				t.Fatal(err)
			}
		}
		ada, ben := app.browser(t, "10.0.0.1"), app.browser(t, "10.0.0.2")
		ada.enrolAdmin("ada@example.com", pw)
		ben.enrolAdmin("ben@example.com", pw)
		put := func(b *browser, path string, body any) response {
			data, _ := json.Marshal(body)
			return b.do(http.MethodPut, path, bytes.NewReader(data), map[string]string{"Content-Type": "application/json"})
		}
		created := ada.post("/api/admin/questions", map[string]any{"text": "Why now?", "mainTags": []string{"pa"}})
		wantStatus(t, created, http.StatusCreated)
		path := "/api/admin/questions/" + created.JSON(t)["id"].(string)
		opened := ben.get(path).JSON(t)["version"]
		if opened != created.JSON(t)["version"] || opened == nil {
			t.Fatalf("version %v as created, %v as opened", created.JSON(t)["version"], opened)
		}

		saved := put(ada, path, map[string]any{"text": "Why now, and why PA?", "mainTags": []string{"pa"}, "version": opened})
		wantStatus(t, saved, http.StatusOK)
		stale := put(ben, path, map[string]any{"text": "Why now, Ben asks?", "mainTags": []string{"pa", "ot"}, "version": opened})
		wantStatus(t, stale, http.StatusConflict)
		problem := stale.JSON(t)
		if problem["type"] != httpx.ProblemType(question.FailureEditedMeanwhile.Name) || problem["detail"] != question.FailureEditedMeanwhile.Message {
			t.Fatalf("stale edit: %s", stale.Body)
		}
		current, _ := problem["current"].(map[string]any)
		if current["text"] != "Why now, and why PA?" || current["updatedBy"] != "ada@example.com" || current["version"] != saved.JSON(t)["version"] {
			t.Fatalf("the stale edit's problem carries %v, not the question as Ada saved it (%s)", current, saved.Body)
		}
		if got := ben.get(path).JSON(t); got["text"] != "Why now, and why PA?" {
			t.Fatalf("Ada's edit was undone: %v", got)
		}

		// Redone on the version the refusal carried, Ben's edit is saved.
		redone := put(ben, path, map[string]any{"text": "Why now, Ben asks?", "mainTags": []string{"pa", "ot"}, "version": current["version"]})
		wantStatus(t, redone, http.StatusOK)
		if got := ada.get(path).JSON(t); got["text"] != "Why now, Ben asks?" || got["updatedBy"] != "ben@example.com" {
			t.Fatalf("after the redone edit: %v", got)
		}
		if r := put(ada, path, map[string]any{"text": "No version.", "mainTags": []string{"pa"}}); r.Status != http.StatusUnprocessableEntity {
			t.Fatalf("an edit without its version: %d %s", r.Status, r.Body)
		}
	})
}
