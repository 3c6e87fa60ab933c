package practice_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

func triedAnswer(tryID string) practice.TriedAnswer {
	return practice.TriedAnswer{TryID: tryID, Profession: "dental", Question: "Why do you want to become a dentist?", Kind: "typed",
		Transcript: "I want to care for people's smiles.", Meaningful: true, AnsweredAt: time.Now()}
}

// keptTries counts the saved sessions kept from tries, whoever's.
func (f *fixture) keptTries(t *testing.T) int {
	t.Helper()
	var n int
	if err := f.db.SQL.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM saved_sessions WHERE title = $1`, practice.TitleTried).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// One try becomes one saved session, however often and however many at
// once keep it: a keep that reached the account but whose try could not
// be forgotten afterwards is kept again without a copy.
func TestKeepingATryTwiceSavesItOnce(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newIdleFixture(t, db)
		u := f.user(t, "twice@example.com")
		ctx := context.Background()
		first, err := f.svc.KeepTried(ctx, u(), triedAnswer("try-1"))
		if err != nil {
			t.Fatal(err)
		}
		again, err := f.svc.KeepTried(ctx, u(), triedAnswer("try-1"))
		if err != nil || again.ID != first.ID {
			t.Fatalf("kept again: %v, %v; first %v", again.ID, err, first.ID)
		}
		var wg sync.WaitGroup
		errs := make(chan error, 8)
		for range 8 {
			wg.Go(func() {
				_, err := f.svc.KeepTried(ctx, u(), triedAnswer("try-2"))
				errs <- err
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Errorf("kept at once: %v", err)
			}
		}
		if n := f.keptTries(t); n != 2 {
			t.Fatalf("%d saved sessions from two tries", n)
		}
	})
}

// A student whose history is locked cannot keep a try, and nothing is
// written for the refusal: a saved session would wait there, unseen.
func TestALockedStudentKeepsNoTry(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newIdleFixture(t, db)
		u := f.user(t, "locked@example.com")
		ctx := context.Background()
		if _, err := db.SQL.ExecContext(ctx, `UPDATE users SET trial_expires_at = $1 WHERE email = $2`, time.Now().Add(-time.Hour), "locked@example.com"); err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if _, err := f.svc.KeepTried(ctx, u(), triedAnswer("try-locked")); apperr.KindOf(err) != apperr.KindForbidden {
				t.Fatalf("a locked student kept a try: %v", err)
			}
		}
		if n := f.keptTries(t); n != 0 {
			t.Fatalf("%d saved sessions written for refused keeps", n)
		}
	})
}
