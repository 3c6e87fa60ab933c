package history_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/billing"
	"github.com/whitecoat/whitecoat/internal/history"
	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/practice/practicetest"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

func TestHistoryFiltersSearchesAndPages(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.New(t, db, nil)
		reload := f.User(t, "ana@example.com")
		ctx := context.Background()
		// Sessions whose questions were all skipped use no free session,
		// so the trial allows as many as the test needs.
		saveSkipped := func(profession string, format practice.Format) history.Saved {
			s, err := f.Practice.Create(ctx, reload(), practice.CreateInput{Profession: profession, Mode: "audio", InterviewType: "random", QuestionCount: 1,
				Format: format})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.Practice.Skip(ctx, reload(), s.ID, s.Items[0].ID); err != nil {
				t.Fatal(err)
			}
			if _, err := f.Practice.Complete(ctx, reload(), s.ID, 10); err != nil {
				t.Fatal(err)
			}
			sv, err := f.History.Save(ctx, reload(), s.ID, "")
			if err != nil {
				t.Fatal(err)
			}
			return sv
		}
		var dental []history.Saved
		for range history.PageSize + 1 {
			dental = append(dental, saveSkipped("dental", ""))
		}
		pa := saveSkipped("pa", practice.FormatKira)

		list := func(hq history.Query) history.HistoryPage {
			t.Helper()
			page, err := f.History.List(ctx, reload(), hq)
			if err != nil {
				t.Fatal(err)
			}
			return page
		}
		all := list(history.Query{})
		if all.Total != len(dental)+1 || len(all.Sessions) != history.PageSize || all.Sessions[0].ID != pa.ID {
			t.Fatalf("first page: total %d, %d sessions, newest %s", all.Total, len(all.Sessions), all.Sessions[0].ID)
		}
		if last := list(history.Query{Page: 2}); len(last.Sessions) != 2 || last.Page != 2 {
			t.Fatalf("second page: %d sessions, page %d", len(last.Sessions), last.Page)
		}
		if far := list(history.Query{Page: 1 << 40}); len(far.Sessions) != 0 || far.Page != store.MaxPage {
			t.Fatalf("a page past the end: %d sessions, page %d", len(far.Sessions), far.Page)
		}
		if got := list(history.Query{Profession: "pa"}); got.Total != 1 || got.Sessions[0].ID != pa.ID {
			t.Fatalf("profession filter: %+v", got)
		}
		if got := list(history.Query{Format: practice.FormatKira}); got.Total != 1 || got.Sessions[0].ID != pa.ID || got.Sessions[0].Format != practice.FormatKira {
			t.Fatalf("format filter: %+v", got)
		}
		if got := list(history.Query{Format: practice.FormatTraditional}); got.Total != len(dental) {
			t.Fatalf("traditional sessions: %d of %d", got.Total, len(dental))
		}
		if _, err := f.History.List(ctx, reload(), history.Query{Format: "panel"}); err == nil {
			t.Fatal("an unknown format was accepted")
		}
		today := time.Now().UTC().Truncate(24 * time.Hour)
		if got := list(history.Query{From: today, To: today}); got.Total != all.Total {
			t.Fatalf("today's sessions: %d, want %d", got.Total, all.Total)
		}
		if got := list(history.Query{From: today.AddDate(0, 0, 1)}); got.Total != 0 {
			t.Fatalf("sessions from tomorrow: %d", got.Total)
		}
		if got := list(history.Query{To: today.AddDate(0, 0, -1)}); got.Total != 0 {
			t.Fatalf("sessions until yesterday: %d", got.Total)
		}

		full, err := f.History.GetSaved(ctx, reload(), pa.ID)
		if err != nil {
			t.Fatal(err)
		}
		question := full.Items[0].Question
		words := strings.Fields(question)
		search := strings.ToUpper(strings.Join(words[len(words)/2:], " "))
		found := list(history.Query{Search: search, Profession: "pa"})
		if found.Total != 1 || found.Sessions[0].ID != pa.ID || len(found.Sessions[0].Items) != 0 {
			t.Fatalf("search %q: %+v", search, found)
		}
		if got := list(history.Query{Search: "no question says this"}); got.Total != 0 || got.Sessions == nil {
			t.Fatalf("search without a match: %+v", got)
		}

		practicetest.EndTrial(t, db, "ana@example.com")
		_, err = f.History.List(ctx, reload(), history.Query{})
		practicetest.WantKind(t, err, apperr.KindForbidden, billing.MsgLocked)
	})
}

// One student with 1,000 saved sessions made each history search decode
// every answer they had saved (30 MB, 0.7 s a search), and a loop of
// searches slowed every other student's dashboard. The history now reads a
// saved session's summary and its questions, never its answers, so a
// search costs the same whatever the answers hold: here the saved answers
// cannot even be read, and the sessions are still listed and found. The
// search matches the questions' text literally, ignoring case.
func TestHistoryNeverReadsTheSavedAnswers(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.New(t, db, nil)
		ana := f.User(t, "ana@example.com")
		ctx := context.Background()
		effort := saveUnanswered(t, f, ana(), practicetest.CustomSession("dental", "Why dentistry?", "What does 100% effort mean to you, ÉMILE?"))
		teamwork := saveUnanswered(t, f, ana(), practicetest.CustomSession("dental", "Tell me about teamwork."))
		if _, err := db.SQL.ExecContext(ctx, `UPDATE saved_sessions SET items = 'not readable'`); err != nil {
			t.Fatal(err)
		}
		if _, err := f.History.GetSaved(ctx, ana(), effort.ID); err == nil {
			t.Fatal("a saved session with unreadable answers was read: the test shows nothing")
		}

		for _, tc := range []struct {
			search string
			want   []string
		}{
			{"", []string{teamwork.ID, effort.ID}},
			{"100% EFFORT", []string{effort.ID}},
			{"émile", []string{effort.ID}},
			{"%", []string{effort.ID}},
			{"100_ effort", nil},
			{"dentistry? what", nil}, // two questions are not one text
			{"  tell   ME ", []string{teamwork.ID}},
		} {
			page, err := f.History.List(ctx, ana(), history.Query{Search: tc.search})
			if err != nil {
				t.Fatalf("search %q: %v", tc.search, err)
			}
			var got []string
			for _, sv := range page.Sessions {
				got = append(got, sv.ID)
			}
			if page.Total != len(tc.want) || strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("search %q: total %d, %v; want %v", tc.search, page.Total, got, tc.want)
			}
		}
		d, err := f.History.Dashboard(ctx, ana())
		if err != nil || len(d.RecentSessions) != 2 {
			t.Fatalf("dashboard: %+v, %v", d.RecentSessions, err)
		}
	})
}

// Sessions saved before the history searched question_text get theirs
// from migration 00013, from their items, as a save writes it.
func TestTheMigrationFillsTheQuestionTextOfEarlierSessions(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.New(t, db, nil)
		ana := f.User(t, "ana@example.com")
		ctx := context.Background()
		saveUnanswered(t, f, ana(), practicetest.CustomSession("dental", "Why DENTISTRY?", "What does 100% effort mean to you, Émile?"))
		var saved string
		if err := db.SQL.QueryRowContext(ctx, `SELECT question_text FROM saved_sessions`).Scan(&saved); err != nil {
			t.Fatal(err)
		}
		if want := "why dentistry?\nwhat does 100% effort mean to you, émile?"; saved != want {
			t.Fatalf("question text %q, want %q", saved, want)
		}

		migration, err := os.ReadFile(filepath.Join("..", "store", "migrations", string(db.Dialect), "00013_history_search.sql"))
		if err != nil {
			t.Fatal(err)
		}
		up, _, _ := strings.Cut(string(migration), "-- +goose Down")
		var fill string
		for stmt := range strings.SplitSeq(up, ";\n") {
			if i := strings.Index(stmt, "UPDATE saved_sessions"); i >= 0 {
				fill = stmt[i:]
			}
		}
		if fill == "" {
			t.Fatal("migration 00013 fills no question_text")
		}
		if _, err := db.SQL.ExecContext(ctx, `UPDATE saved_sessions SET question_text = ''`); err != nil {
			t.Fatal(err)
		}
		if _, err := db.SQL.ExecContext(ctx, fill); err != nil {
			t.Fatalf("%s: %v", fill, err)
		}
		var migrated string
		if err := db.SQL.QueryRowContext(ctx, `SELECT question_text FROM saved_sessions`).Scan(&migrated); err != nil {
			t.Fatal(err)
		}
		// SQLite's lower() folds ASCII only (see the migration).
		if db.Dialect == store.SQLite {
			saved = strings.Replace(saved, "émile", "Émile", 1)
		}
		if migrated != saved {
			t.Fatalf("migrated question text %q, saved %q", migrated, saved)
		}
	})
}

// Sessions whose questions were all skipped can be saved without limit,
// so a search looks through the newest MaxSearchedSessions that match the
// other filters and says when there were more; a filter reaches the older.
func TestASearchLooksThroughTheNewestSessions(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.New(t, db, nil)
		ana := f.User(t, "ana@example.com")
		ctx := context.Background()
		effort := saveUnanswered(t, f, ana(), practicetest.CustomSession("dental", "What does effort mean to you?"))
		teamwork := saveUnanswered(t, f, ana(), practicetest.CustomSession("medical", "Tell me about teamwork."))
		err := db.WithTx(ctx, func(tx *sql.Tx) error {
			for i := range history.MaxSearchedSessions {
				_, err := tx.ExecContext(ctx, `INSERT INTO saved_sessions (id, user_id, practice_session_id, title, profession, created_at, overall_avg,
					total_session_time, total_questions, answered, skipped, items, format, question_text)
					SELECT $1, user_id, $2, title, profession, $3, overall_avg, total_session_time, total_questions, answered, skipped, items, format, question_text
					FROM saved_sessions WHERE id = $4`, store.NewID(), store.NewID(), teamwork.CreatedAt.Add(time.Duration(i+1)*time.Second), teamwork.ID)
				if err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			hq      history.Query
			total   int
			limited bool
		}{
			{history.Query{Search: "effort"}, 0, true},
			{history.Query{Search: "teamwork"}, history.MaxSearchedSessions, true},
			{history.Query{Search: "effort", Profession: "dental"}, 1, false},
			{history.Query{}, history.MaxSearchedSessions + 2, false},
		} {
			page, err := f.History.List(ctx, ana(), tc.hq)
			if err != nil {
				t.Fatal(err)
			}
			if page.Total != tc.total || page.SearchLimited != tc.limited || page.SearchLimit != history.MaxSearchedSessions {
				t.Errorf("%+v: total %d, limited %v (limit %d); want %d, %v", tc.hq, page.Total, page.SearchLimited, page.SearchLimit, tc.total, tc.limited)
			}
			if tc.total == 1 && page.Sessions[0].ID != effort.ID {
				t.Errorf("%+v found %s", tc.hq, page.Sessions[0].ID)
			}
		}
	})
}

// saveUnanswered saves a session of in whose questions were all left
// unanswered: it uses no free session, so a trial saves as many as a test
// needs.
func saveUnanswered(t *testing.T, f *practicetest.Fixture, u auth.User, in practice.CreateInput) history.Saved {
	t.Helper()
	ctx := context.Background()
	s, err := f.Practice.Create(ctx, u, in)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Practice.Complete(ctx, u, s.ID, 10); err != nil {
		t.Fatal(err)
	}
	sv, err := f.History.Save(ctx, u, s.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	return sv
}
