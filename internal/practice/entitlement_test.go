package practice_test

import (
	"context"
	"testing"
	"time"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/billing"
	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/practice/practicetest"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

// agreeOnStart checks that what the dashboard shows u about starting a
// session is what Start then does: the free sessions remaining it shows
// are want, it offers Start exactly when a free session is left, and
// Start answers as it offered.
func agreeOnStart(t *testing.T, f *practicetest.Fixture, u func() auth.User, want int) {
	t.Helper()
	ctx := context.Background()
	d, err := f.History.Dashboard(ctx, u())
	if err != nil {
		t.Fatal(err)
	}
	if d.Access.FreeSessionsRemaining != want || d.Access.PracticeEnabled != (want > 0) {
		t.Fatalf("the dashboard shows %d free sessions remaining, practice enabled %v; want %d", d.Access.FreeSessionsRemaining, d.Access.PracticeEnabled, want)
	}
	_, err = f.Practice.Create(ctx, u(), oneQuestion)
	if d.Access.PracticeEnabled {
		if err != nil {
			t.Fatalf("the dashboard offered Start, which answered %v", err)
		}
		return
	}
	practicetest.WantKind(t, err, apperr.KindForbidden, billing.MsgLocked)
}

// practiseScored runs a one-question session for u whose answer is
// scored, to the end: it uses a free session and its stats are in.
func practiseScored(t *testing.T, f *practicetest.Fixture, u func() auth.User) {
	t.Helper()
	ctx := context.Background()
	score := 70
	s, err := f.Practice.Create(ctx, u(), oneQuestion)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Practice.SettleAnswer(ctx, s.Items[0].ID, &score); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Practice.Complete(ctx, u(), s.ID, 60); err != nil {
		t.Fatal(err)
	}
	if err := f.Practice.Finalize(ctx, s.ID); err != nil {
		t.Fatal(err)
	}
}

// A student's second free session has an answer scored but is not
// finished. The dashboard counted only the sessions counted when finished
// (the stored sessionsCompleted, 1) and offered a free session, while
// Start, counting the sessions with a scored answer, refused it: two
// counters for one fact. Spec §4's sessionsCompleted is the one count of
// the sessions that used a free session, and the dashboard and Start both
// read it.
func TestTheDashboardAndStartCountTheSameFreeSessions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.NewIdle(t, db)
		ana := f.User(t, "ana@example.com")
		ctx := context.Background()
		practiseScored(t, f, ana)
		second, err := f.Practice.Create(ctx, ana(), practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "random", QuestionCount: 2})
		if err != nil {
			t.Fatal(err)
		}
		score := 70
		if err := f.Practice.SettleAnswer(ctx, second.Items[0].ID, &score); err != nil {
			t.Fatal(err)
		}
		agreeOnStart(t, f, ana, 0)
	})
}

// A recording still arriving in pieces spends no free session: starting
// a session ends the one in progress and lets go of the recording (see
// endOpenSessions), so a student whose second session has only that may
// start another, and the dashboard says so.
func TestARecordingArrivingInPiecesSpendsNoFreeSession(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.NewIdle(t, db)
		ana := f.User(t, "ana@example.com")
		ctx := context.Background()
		practiseScored(t, f, ana)
		second, err := f.Practice.Create(ctx, ana(), oneQuestion)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Practice.AppendAudio(ctx, ana(), second.ID, second.Items[0].ID, 0, "audio/webm", practicetest.Recording(t)[:4096]); err != nil {
			t.Fatal(err)
		}
		agreeOnStart(t, f, ana, 1)
	})
}

// Entitlements.Of is the one answer every decision reads: from the
// trial's end (auth), the pass (billing) and the sessions that used a free
// session (practice), on both databases. The session being answered does
// not count against the free sessions; a session whose only answer came
// to nothing uses none.
func TestTheEntitlementReadsTheTrialThePassAndTheSessionsUsed(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.NewIdle(t, db)
		ana := f.User(t, "ana@example.com")
		ctx := context.Background()
		access := billing.NewEntitlements(f.Auth, practice.UsedSessionCounter{}, time.Now)
		want := func(besides string, status billing.Status, free int, practise, historyLocked bool) {
			t.Helper()
			got, err := access.Of(ctx, db.SQL, ana().ID, besides)
			if err != nil {
				t.Fatal(err)
			}
			if got.Status != status || got.FreeSessionsRemaining != free || got.PracticeEnabled != practise || got.HistoryLocked != historyLocked {
				t.Fatalf("besides %q: %+v; want %s, %d free, practice %v, history locked %v", besides, got, status, free, practise, historyLocked)
			}
		}
		answered := func(score *int) practice.Session {
			t.Helper()
			s, err := f.Practice.Create(ctx, ana(), oneQuestion)
			if err != nil {
				t.Fatal(err)
			}
			if err := f.Practice.SettleAnswer(ctx, s.Items[0].ID, score); err != nil {
				t.Fatal(err)
			}
			return s
		}
		score := 80
		want("", billing.FreeTrialActive, 2, true, false)
		answered(nil) // failed: no free session used
		want("", billing.FreeTrialActive, 2, true, false)
		first := answered(&score)
		want("", billing.FreeTrialActive, 1, true, false)
		want(first.ID, billing.FreeTrialActive, 2, true, false)
		second := answered(&score)
		want("", billing.FreeTrialActive, 0, false, false)
		want(second.ID, billing.FreeTrialActive, 1, true, false)

		practicetest.EndTrial(t, db, "ana@example.com")
		want("", billing.FreeTrialExpired, 2, false, true)
		f.GivePass(t, "ana@example.com")
		want("", billing.PaidActive, 2, true, false)
		if _, err := access.Of(ctx, db.SQL, "nobody", ""); apperr.KindOf(err) != apperr.KindNotFound {
			t.Fatalf("the entitlement of no account: %v", err)
		}
	})
}
