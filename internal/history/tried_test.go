package history_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/whitecoat/whitecoat/internal/answer"
	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/history"
	"github.com/whitecoat/whitecoat/internal/practice/practicetest"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

func triedAnswer(tryID string) history.TriedAnswer {
	transcript, meaningful := "I want to care for people's smiles.", true
	return history.TriedAnswer{TryID: tryID, Profession: "dental", AnsweredAt: time.Now(), Answer: answer.Answer{Question: "Why do you want to become a dentist?",
		Kind: answer.KindTyped, Status: answer.StatusDone, Transcript: &transcript, Meaningful: &meaningful}}
}

// keptTries counts the saved sessions kept from tries, whoever's.
func keptTries(t *testing.T, f *practicetest.Fixture) int {
	t.Helper()
	var n int
	if err := f.DB.SQL.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM saved_sessions WHERE title = $1`, history.TitleTried).Scan(&n); err != nil {
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
		f := practicetest.NewIdle(t, db)
		u := f.User(t, "twice@example.com")
		ctx := context.Background()
		first, err := f.History.KeepTried(ctx, u(), triedAnswer("try-1"))
		if err != nil {
			t.Fatal(err)
		}
		again, err := f.History.KeepTried(ctx, u(), triedAnswer("try-1"))
		if err != nil || again.ID != first.ID {
			t.Fatalf("kept again: %v, %v; first %v", again.ID, err, first.ID)
		}
		var wg sync.WaitGroup
		errs := make(chan error, 8)
		for range 8 {
			wg.Go(func() {
				_, err := f.History.KeepTried(ctx, u(), triedAnswer("try-2"))
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
		if n := keptTries(t, f); n != 2 {
			t.Fatalf("%d saved sessions from two tries", n)
		}
	})
}

// A student whose history is locked cannot keep a try, and nothing is
// written for the refusal: a saved session would wait there, unseen.
func TestALockedStudentKeepsNoTry(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.NewIdle(t, db)
		u := f.User(t, "locked@example.com")
		ctx := context.Background()
		if _, err := db.SQL.ExecContext(ctx, `UPDATE users SET trial_expires_at = $1 WHERE email = $2`, time.Now().Add(-time.Hour), "locked@example.com"); err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if _, err := f.History.KeepTried(ctx, u(), triedAnswer("try-locked")); apperr.KindOf(err) != apperr.KindForbidden {
				t.Fatalf("a locked student kept a try: %v", err)
			}
		}
		if n := keptTries(t, f); n != 0 {
			t.Fatalf("%d saved sessions written for refused keeps", n)
		}
	})
}
