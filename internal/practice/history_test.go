package practice_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/billing"
	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

func TestHistoryFiltersSearchesAndPages(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db, nil)
		reload := f.user(t, "ana@example.com")
		ctx := context.Background()
		// Sessions whose questions were all skipped use no free session,
		// so the trial allows as many as the test needs.
		saveSkipped := func(profession string, format practice.Format) practice.Saved {
			s, err := f.svc.Create(ctx, reload(), practice.CreateInput{Profession: profession, Mode: "audio", InterviewType: "random", QuestionCount: 1,
				Format: format})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.svc.Skip(ctx, reload(), s.ID, s.Items[0].ID); err != nil {
				t.Fatal(err)
			}
			if _, err := f.svc.Complete(ctx, reload(), s.ID, 10); err != nil {
				t.Fatal(err)
			}
			sv, err := f.svc.Save(ctx, reload(), s.ID, "")
			if err != nil {
				t.Fatal(err)
			}
			return sv
		}
		var dental []practice.Saved
		for range practice.HistoryPageSize + 1 {
			dental = append(dental, saveSkipped("dental", ""))
		}
		pa := saveSkipped("pa", practice.FormatKira)

		history := func(hq practice.HistoryQuery) practice.HistoryPage {
			t.Helper()
			page, err := f.svc.History(ctx, reload(), hq)
			if err != nil {
				t.Fatal(err)
			}
			return page
		}
		all := history(practice.HistoryQuery{})
		if all.Total != len(dental)+1 || len(all.Sessions) != practice.HistoryPageSize || all.Sessions[0].ID != pa.ID {
			t.Fatalf("first page: total %d, %d sessions, newest %s", all.Total, len(all.Sessions), all.Sessions[0].ID)
		}
		if last := history(practice.HistoryQuery{Page: 2}); len(last.Sessions) != 2 || last.Page != 2 {
			t.Fatalf("second page: %d sessions, page %d", len(last.Sessions), last.Page)
		}
		if far := history(practice.HistoryQuery{Page: 1 << 40}); len(far.Sessions) != 0 || far.Page != store.MaxPage {
			t.Fatalf("a page past the end: %d sessions, page %d", len(far.Sessions), far.Page)
		}
		if got := history(practice.HistoryQuery{Profession: "pa"}); got.Total != 1 || got.Sessions[0].ID != pa.ID {
			t.Fatalf("profession filter: %+v", got)
		}
		if got := history(practice.HistoryQuery{Format: practice.FormatKira}); got.Total != 1 || got.Sessions[0].ID != pa.ID || got.Sessions[0].Format != practice.FormatKira {
			t.Fatalf("format filter: %+v", got)
		}
		if got := history(practice.HistoryQuery{Format: practice.FormatTraditional}); got.Total != len(dental) {
			t.Fatalf("traditional sessions: %d of %d", got.Total, len(dental))
		}
		if _, err := f.svc.History(ctx, reload(), practice.HistoryQuery{Format: "panel"}); err == nil {
			t.Fatal("an unknown format was accepted")
		}
		today := time.Now().UTC().Truncate(24 * time.Hour)
		if got := history(practice.HistoryQuery{From: today, To: today}); got.Total != all.Total {
			t.Fatalf("today's sessions: %d, want %d", got.Total, all.Total)
		}
		if got := history(practice.HistoryQuery{From: today.AddDate(0, 0, 1)}); got.Total != 0 {
			t.Fatalf("sessions from tomorrow: %d", got.Total)
		}
		if got := history(practice.HistoryQuery{To: today.AddDate(0, 0, -1)}); got.Total != 0 {
			t.Fatalf("sessions until yesterday: %d", got.Total)
		}

		full, err := f.svc.GetSaved(ctx, reload(), pa.ID)
		if err != nil {
			t.Fatal(err)
		}
		question := full.Items[0].Question
		words := strings.Fields(question)
		search := strings.ToUpper(strings.Join(words[len(words)/2:], " "))
		found := history(practice.HistoryQuery{Search: search, Profession: "pa"})
		if found.Total != 1 || found.Sessions[0].ID != pa.ID || len(found.Sessions[0].Items) != 0 {
			t.Fatalf("search %q: %+v", search, found)
		}
		if got := history(practice.HistoryQuery{Search: "no question says this"}); got.Total != 0 || got.Sessions == nil {
			t.Fatalf("search without a match: %+v", got)
		}

		endTrial(t, db, "ana@example.com")
		_, err = f.svc.History(ctx, reload(), practice.HistoryQuery{})
		wantKind(t, err, apperr.KindForbidden, billing.MsgLocked)
	})
}
