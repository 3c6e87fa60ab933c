package question

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

var testNow = time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)

func newTestService(db *store.DB) *Service {
	return NewService(db, func() time.Time { return testNow })
}

// sameDialect opens another fresh database of db's dialect, for moving data
// between two databases.
func sameDialect(t *testing.T, db *store.DB) *store.DB {
	if db.Dialect == store.Postgres {
		return storetest.Postgres(t)
	}
	return storetest.SQLite(t)
}

func seeded(t *testing.T, db *store.DB) (*Service, []Question) {
	t.Helper()
	svc := newTestService(db)
	if _, err := svc.Seed(context.Background()); err != nil {
		t.Fatal(err)
	}
	all, err := svc.Questions(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	return svc, all
}

func bySeedKey(t *testing.T, qs []Question, key string) Question {
	t.Helper()
	for _, q := range qs {
		if q.SeedKey == key {
			return q
		}
	}
	t.Fatalf("no question with seed key %s", key)
	return Question{}
}

func inputOf(q Question) QuestionInput {
	return QuestionInput{Text: q.Text, Subtag: string(q.Subtag), Tip: q.Tip, Big3: q.Big3, Big3Order: q.Big3Order, MainTags: q.MainTags,
		Points: q.Points, Traps: q.Traps}
}

// A database seeded before questions had points gets the bank's at the
// next start; a question an admin has given points of their own keeps
// them (issue 40).
func TestSeedFillsPointsOfQuestionsSeededWithout(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc, all := seeded(t, db)
		bank, err := Bank()
		if err != nil {
			t.Fatal(err)
		}
		old := bySeedKey(t, all, "dental-big3-about-yourself")
		if len(old.Points) < MinPoints {
			t.Fatalf("seeded with %d points, want the bank's", len(old.Points))
		}
		if _, err := db.SQL.ExecContext(ctx, `UPDATE questions SET points = '[]', traps = '[]'`); err != nil {
			t.Fatal(err)
		}
		mine := bySeedKey(t, all, "medical-big3-why-profession")
		in := inputOf(mine)
		in.Points, in.Traps = []Point{{Text: "Name the patient who changed your mind.", Cues: []string{"changed my mind"}}}, nil
		if _, err := svc.Update(ctx, "admin@example.com", mine.ID, QuestionEdit{QuestionInput: in, Version: mine.Version}); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Seed(ctx); err != nil {
			t.Fatal(err)
		}
		after, err := svc.Questions(ctx, "")
		if err != nil {
			t.Fatal(err)
		}
		want := bySeedKey(t, bank, old.SeedKey)
		if got := bySeedKey(t, after, old.SeedKey); !reflect.DeepEqual(got.Points, want.Points) || !reflect.DeepEqual(got.Traps, want.Traps) {
			t.Errorf("points after re-seed: %+v / %+v, want the bank's", got.Points, got.Traps)
		}
		if got := bySeedKey(t, after, mine.SeedKey); !reflect.DeepEqual(got.Points, in.Points) || got.Traps != nil {
			t.Errorf("the admin's points were overwritten: %+v / %+v", got.Points, got.Traps)
		}
	})
}

func TestSeedAddsOnlyWhatWasNeverAdded(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		bank, err := Bank()
		if err != nil {
			t.Fatal(err)
		}
		svc, all := seeded(t, db)
		if len(all) != len(bank) {
			t.Fatalf("first seed stored %d questions, bank has %d", len(all), len(bank))
		}

		edited := bySeedKey(t, all, "dental-big3-about-yourself")
		in := inputOf(edited)
		in.Text = "Walk me through your story."
		if _, err := svc.Update(ctx, "admin@example.com", edited.ID, QuestionEdit{QuestionInput: in, Version: edited.Version}); err != nil {
			t.Fatal(err)
		}
		deleted := bySeedKey(t, all, "medical-big3-why-profession")
		if err := svc.Delete(ctx, deleted.ID); err != nil {
			t.Fatal(err)
		}

		for range 2 {
			n, err := svc.Seed(ctx)
			if err != nil || n != 0 {
				t.Fatalf("re-seed inserted %d (err %v), want 0", n, err)
			}
		}
		after, err := svc.Questions(ctx, "")
		if err != nil {
			t.Fatal(err)
		}
		if len(after) != len(bank)-1 {
			t.Fatalf("after edit, delete and two re-seeds: %d questions, want %d", len(after), len(bank)-1)
		}
		got := bySeedKey(t, after, "dental-big3-about-yourself")
		if got.Text != "Walk me through your story." || got.UpdatedBy != "admin@example.com" || got.CreatedBy != SeedAuthor {
			t.Fatalf("admin edit lost or misattributed by re-seed: %+v", got)
		}
		for _, q := range after {
			if q.SeedKey == deleted.SeedKey {
				t.Fatal("re-seed brought back a question an admin deleted")
			}
		}
	})
}

func TestCreateAndUpdateValidation(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc, all := seeded(t, db)
		target := bySeedKey(t, all, "dental-patient-refuses-treatment")
		valid := QuestionInput{Text: "How would you handle an anxious patient?", Subtag: "Communication", MainTags: []string{"dental", "medical"}}
		with := func(change func(*QuestionInput)) QuestionInput {
			in := valid
			in.MainTags = append([]string(nil), valid.MainTags...)
			change(&in)
			return in
		}
		tests := []struct {
			name       string
			update     bool
			in         QuestionInput
			wantKind   apperr.Kind
			wantDetail string
		}{
			{"add: empty text", false, with(func(in *QuestionInput) { in.Text = "" }), apperr.KindInvalid, MsgCompleteAllFields},
			{"add: blank text", false, with(func(in *QuestionInput) { in.Text = "  \n " }), apperr.KindInvalid, MsgCompleteAllFields},
			{"add: no main tag", false, with(func(in *QuestionInput) { in.MainTags = nil }), apperr.KindInvalid, MsgCompleteAllFields},
			{"add: only blank tags", false, with(func(in *QuestionInput) { in.MainTags = []string{" "} }), apperr.KindInvalid, MsgCompleteAllFields},
			{"add: unknown profession", false, with(func(in *QuestionInput) { in.MainTags = []string{"dentl"} }), apperr.KindInvalid, `mainTags: "dentl" is not a profession`},
			{"add: unknown subtag", false, with(func(in *QuestionInput) { in.Subtag = "Empathy" }), apperr.KindInvalid, `subtag: "Empathy" is not one of`},
			{"add: big3 without order", false, with(func(in *QuestionInput) { in.Big3 = true }), apperr.KindInvalid, "big3Order: is 0 but a Big 3 question needs 1, 2 or 3"},
			{"add: second Big 3 number 1", false, with(func(in *QuestionInput) { in.Big3, in.Big3Order = true, 1 }), apperr.KindConflict, "is already Big 3 number 1 for dental"},
			{"add: repeats a bank text", false, with(func(in *QuestionInput) { in.Text = "  " + strings.ToUpper(target.Text) }), apperr.KindConflict, "already asks this for dental"},
			{"edit: empty text", true, with(func(in *QuestionInput) { in.Text = "" }), apperr.KindInvalid, MsgAllFieldsRequired},
			{"edit: no main tag", true, with(func(in *QuestionInput) { in.MainTags = []string{} }), apperr.KindInvalid, MsgAllFieldsRequired},
			{"edit: unknown subtag", true, with(func(in *QuestionInput) { in.Subtag = "Nope" }), apperr.KindInvalid, `subtag: "Nope" is not one of`},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				var err error
				if tt.update {
					_, err = svc.Update(ctx, "admin@example.com", target.ID, QuestionEdit{QuestionInput: tt.in, Version: target.Version})
				} else {
					_, err = svc.Create(ctx, "admin@example.com", tt.in)
				}
				e, ok := apperr.As(err)
				if !ok || e.Kind != tt.wantKind || !strings.Contains(e.Message, tt.wantDetail) {
					t.Fatalf("got %v, want kind %d with %q", err, tt.wantKind, tt.wantDetail)
				}
			})
		}
		if after, _ := svc.Questions(ctx, ""); len(after) != len(all) {
			t.Fatalf("failed writes changed the bank: %d questions, want %d", len(after), len(all))
		}

		created, err := svc.Create(ctx, "admin@example.com", with(func(in *QuestionInput) { in.Subtag = "" }))
		if err != nil {
			t.Fatalf("add without a subtag: %v", err)
		}
		got, err := svc.Get(ctx, created.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Subtag != "" || got.CreatedBy != "admin@example.com" || !got.CreatedAt.Equal(testNow) || strings.Join(got.MainTags, ",") != "dental,medical" {
			t.Fatalf("stored question %+v", got)
		}
		// Editing a question must not count it as clashing with itself.
		if _, err := svc.Update(ctx, "other@example.com", target.ID, QuestionEdit{QuestionInput: inputOf(target), Version: target.Version}); err != nil {
			t.Fatalf("saving a question unchanged: %v", err)
		}
		if _, err := svc.Update(ctx, "a@example.com", "missing", QuestionEdit{QuestionInput: valid, Version: 1}); apperr.KindOf(err) != apperr.KindNotFound {
			t.Fatalf("edit of a missing question: %v", err)
		}
		if err := svc.Delete(ctx, "missing"); apperr.KindOf(err) != apperr.KindNotFound {
			t.Fatalf("delete of a missing question: %v", err)
		}
	})
}

// Two admins editing one question: the later save undid the earlier one.
// An edit made on a version the question has moved past is refused with
// the question as stored, and saves nothing; of edits sent at once on one
// version, one is saved and every other refused, on PostgreSQL too.
func TestAnEditOnAnOlderVersionIsRefused(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc, all := seeded(t, db)
		opened := bySeedKey(t, all, "dental-patient-refuses-treatment")
		if opened.Version != 1 {
			t.Fatalf("a seeded question at version %d", opened.Version)
		}
		edit := func(text string, version int) QuestionEdit {
			in := inputOf(opened)
			in.Text = text
			return QuestionEdit{QuestionInput: in, Version: version}
		}
		first, err := svc.Update(ctx, "ada@example.com", opened.ID, edit("Ada's wording?", opened.Version))
		if err != nil || first.Version != opened.Version+1 {
			t.Fatalf("first edit: version %d, %v", first.Version, err)
		}
		_, err = svc.Update(ctx, "ben@example.com", opened.ID, edit("Ben's wording?", opened.Version))
		stale, ok := errors.AsType[*StaleEditError](err)
		if !ok || apperr.KindOf(err) != apperr.KindConflict {
			t.Fatalf("an edit on the older version: %v", err)
		}
		if stale.Current.Text != "Ada's wording?" || stale.Current.Version != first.Version || stale.Current.UpdatedBy != "ada@example.com" {
			t.Fatalf("the refusal carries %+v", stale.Current)
		}
		if got, _ := svc.Get(ctx, opened.ID); got.Text != "Ada's wording?" || got.Version != first.Version {
			t.Fatalf("stored after the refusal: %+v", got)
		}

		const editors = 8
		errs := make([]error, editors)
		var wg sync.WaitGroup
		for i := range editors {
			wg.Go(func() {
				_, errs[i] = svc.Update(ctx, "admin@example.com", opened.ID, edit(fmt.Sprintf("Wording %d?", i), first.Version))
			})
		}
		wg.Wait()
		saved, refused := 0, 0
		for _, err := range errs {
			switch _, isStale := errors.AsType[*StaleEditError](err); {
			case err == nil:
				saved++
			case isStale:
				refused++
			default:
				t.Errorf("edit at once: %v", err)
			}
		}
		if saved != 1 || refused != editors-1 {
			t.Fatalf("of %d edits on one version at once, %d saved and %d refused", editors, saved, refused)
		}
		if got, _ := svc.Get(ctx, opened.ID); got.Version != first.Version+1 {
			t.Fatalf("version %d after one more save", got.Version)
		}
	})
}

func TestListFiltersSearchesAndPages(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc, all := seeded(t, db)
		count := func(keep func(Question) bool) int {
			n := 0
			for _, q := range all {
				if keep(q) {
					n++
				}
			}
			return n
		}
		tests := []struct {
			name  string
			query ListQuery
			want  int
		}{
			{"everything", ListQuery{}, len(all)},
			{"profession", ListQuery{Profession: "PT"}, count(func(q Question) bool { return q.HasTag("pt") })},
			{"subtag, any case", ListQuery{Subtag: "ethical"}, count(func(q Question) bool { return q.Subtag == Ethical })},
			{"profession and subtag", ListQuery{Profession: "veterinary", Subtag: "Teamwork"},
				count(func(q Question) bool { return q.HasTag("veterinary") && q.Subtag == Teamwork })},
			{"text search, any case", ListQuery{Text: "TELL ME ABOUT"}, count(func(q Question) bool { return strings.Contains(strings.ToLower(q.Text), "tell me about") })},
			{"wildcards match literally", ListQuery{Text: "%"}, count(func(q Question) bool { return strings.Contains(q.Text, "%") })},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				if tt.want == 0 && tt.name != "wildcards match literally" {
					t.Fatal("the bank has no question this filter should find; the test checks nothing")
				}
				tt.query.PageSize = MaxPageSize
				list, err := svc.List(ctx, tt.query)
				if err != nil {
					t.Fatal(err)
				}
				if list.Total != tt.want || len(list.Questions) != min(tt.want, MaxPageSize) {
					t.Fatalf("total %d with %d on the page, want %d", list.Total, len(list.Questions), tt.want)
				}
			})
		}

		seen := map[string]bool{}
		for page := 1; ; page++ {
			list, err := svc.List(ctx, ListQuery{Profession: "dental", Page: page, PageSize: 10})
			if err != nil {
				t.Fatal(err)
			}
			if len(list.Questions) == 0 {
				break
			}
			for _, q := range list.Questions {
				if seen[q.ID] || !q.HasTag("dental") {
					t.Fatalf("page %d repeats or strays: %s %v", page, q.ID, q.MainTags)
				}
				seen[q.ID] = true
			}
		}
		if len(seen) != count(func(q Question) bool { return q.HasTag("dental") }) {
			t.Fatalf("paging visited %d dental questions", len(seen))
		}

		for _, bad := range []ListQuery{{Profession: "nursing"}, {Subtag: "Empathy"}} {
			if _, err := svc.List(ctx, bad); apperr.KindOf(err) != apperr.KindInvalid {
				t.Errorf("List(%+v): %v, want invalid", bad, err)
			}
		}
	})
}

func TestQuestionsFeedSelect(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		svc, _ := seeded(t, db)
		pool, err := svc.Questions(context.Background(), "pharmacy")
		if err != nil {
			t.Fatal(err)
		}
		picked, err := Select(pool, "pharmacy", 5, true, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		for i, q := range picked {
			if !q.HasTag("pharmacy") || (i < 3 && q.Big3Order != i+1) || (i >= 3 && q.Big3) {
				t.Fatalf("pick %d: %+v", i, q)
			}
		}
	})
}

func TestImportWithOneBadRowImportsNothing(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc, all := seeded(t, db)
		aboutYourself := bySeedKey(t, all, "ot-big3-about-yourself")
		other := bySeedKey(t, all, "dental-patient-refuses-treatment")
		tests := []struct {
			name    string
			csv     string
			wantRow int
			want    string
		}{
			{"row invalid on its own", "text,subtag,mainTags\nFine question one?,Ethical,dental\nBad subtag?,Kindness,dental\nFine question three?,,pa\n",
				2, `subtag: "Kindness" is not one of`},
			{"row clashes with the stored bank", "text,big3,big3Order,mainTags\nFine question one?,false,0,dental\nWho are you?,true,1,ot\n",
				2, "is already Big 3 number 1 for ot"},
			{"seed key owned by another question", "id,seedKey,text,mainTags\n" + other.ID + ",ot-big3-about-yourself,Fine question one?,ot\n",
				1, "belongs to stored question " + aboutYourself.ID + ", not " + other.ID},
			{"row repeats a stored text", "text,mainTags\nFine question one?,dental\n" + aboutYourself.Text + ",ot;pa\n",
				2, "already asks this for ot"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				_, err := svc.Import(ctx, "tester", strings.NewReader(tt.csv), FormatCSV)
				var rows *InvalidRowsError
				if !errors.As(err, &rows) {
					t.Fatalf("import error %v, want *InvalidRowsError", err)
				}
				if len(rows.Rows) == 0 || rows.Rows[0].Row != tt.wantRow || !strings.Contains(rows.Rows[0].String(), tt.want) {
					t.Fatalf("row errors %v, want row %d with %q", rows.Rows, tt.wantRow, tt.want)
				}
				if !strings.Contains(err.Error(), fmt.Sprintf("row %d", tt.wantRow)) {
					t.Fatalf("error message does not name the row: %v", err)
				}
				after, _ := svc.Questions(ctx, "")
				if len(after) != len(all) {
					t.Fatalf("a failed import changed the bank: %d questions, want %d", len(after), len(all))
				}
			})
		}
	})
}

func TestExportImportRoundTrip(t *testing.T) {
	t.Parallel()
	for _, format := range []Format{FormatJSON, FormatCSV} {
		t.Run(string(format), func(t *testing.T) {
			storetest.Each(t, func(t *testing.T, db *store.DB) {
				ctx := context.Background()
				svc, _ := seeded(t, db)
				if _, err := svc.Create(ctx, "admin@example.com", QuestionInput{Text: "A question, with \"quotes\",\nand a second line?", Tip: "Breathe.", MainTags: []string{"pa", "dental"},
					Points: []Point{{Text: "Say \"why\"; then how.", Cues: []string{"why", "=then how"}}}, Traps: []Point{{Text: "+Blaming others"}}}); err != nil {
					t.Fatal(err)
				}
				var first bytes.Buffer
				n, err := svc.Export(ctx, &first, format)
				if err != nil {
					t.Fatal(err)
				}

				// Into an empty database: identical data, ids included.
				other := newTestService(sameDialect(t, db))
				res, err := other.Import(ctx, "tester", bytes.NewReader(first.Bytes()), format)
				if err != nil || res.Inserted != n || res.Updated != 0 {
					t.Fatalf("import into an empty database: %+v, %v; want %d inserted", res, err, n)
				}
				var second bytes.Buffer
				if _, err := other.Export(ctx, &second, format); err != nil {
					t.Fatal(err)
				}
				if first.String() != second.String() {
					t.Fatalf("export -> import -> export differs:\n%s", firstDiff(first.String(), second.String()))
				}

				// Into a database that already has the bank, as every started
				// one does: bank rows update its copies and keep its ids.
				withBank, _ := seeded(t, sameDialect(t, db))
				res, err = withBank.Import(ctx, "tester", bytes.NewReader(first.Bytes()), format)
				if err != nil || res.Inserted != 1 || res.Updated != n-1 {
					t.Fatalf("import into a seeded database: %+v, %v; want 1 inserted, %d updated", res, err, n-1)
				}
				var fourth bytes.Buffer
				if _, err := withBank.Export(ctx, &fourth, format); err != nil {
					t.Fatal(err)
				}
				if a, b := withoutIDs(t, first.Bytes(), format), withoutIDs(t, fourth.Bytes(), format); !reflect.DeepEqual(a, b) {
					t.Fatalf("import into a seeded database changed more than ids")
				}

				// Back into the same database: every row updates itself unchanged.
				res, err = svc.Import(ctx, "tester", bytes.NewReader(first.Bytes()), format)
				if err != nil || res.Inserted != 0 || res.Updated != n {
					t.Fatalf("re-import: %+v, %v; want %d updated", res, err, n)
				}
				var third bytes.Buffer
				if _, err := svc.Export(ctx, &third, format); err != nil {
					t.Fatal(err)
				}
				if first.String() != third.String() {
					t.Fatalf("re-import changed data:\n%s", firstDiff(first.String(), third.String()))
				}
			})
		})
	}
}

func withoutIDs(t *testing.T, data []byte, format Format) []Question {
	t.Helper()
	qs, err := Decode(bytes.NewReader(data), format)
	if err != nil {
		t.Fatal(err)
	}
	for i := range qs {
		qs[i].ID = ""
	}
	return qs
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d:\n- %s\n+ %s", i+1, al[i], bl[i])
		}
	}
	return "lengths differ"
}
