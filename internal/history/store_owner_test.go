package history

import (
	"context"
	"errors"
	"testing"

	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

// The statements on a saved session name its student too, though the
// requests that run them have found the practice session theirs first
// (owner_test.go): one that lost its owner filter would otherwise change
// another student's saved copy the day a caller forgot to look first.
func TestSavedSessionStatementsActOnlyOnTheUsersOwn(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		now := store.Now()
		storetest.Users(t, db, "ana", "bob")
		anas := Saved{ID: "saved", Title: "Ana's", Profession: "dental", Format: practice.FormatTraditional, CreatedAt: now, OverallAvg: 70,
			PracticeSessionID: "practised"}
		if err := insertSaved(ctx, db.SQL, "ana", anas, []storedItem{{Question: "Why dentistry?"}}); err != nil {
			t.Fatal(err)
		}

		if _, err := savedIDForPracticeSession(ctx, db.SQL, "bob", anas.PracticeSessionID); !errors.Is(err, errNotFound) {
			t.Errorf("Bob found Ana's saved copy: %v", err)
		}
		if err := renameSaved(ctx, db.SQL, "bob", anas.ID, "Bob's"); err != nil {
			t.Fatal(err)
		}
		if err := replaceSavedItems(ctx, db.SQL, "bob", anas.ID, nil, 10); err != nil {
			t.Fatal(err)
		}
		got, err := getSaved(ctx, db.SQL, "ana", anas.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Title != anas.Title || got.OverallAvg != anas.OverallAvg || len(got.Items) != 1 {
			t.Fatalf("Bob's statements changed Ana's saved session: %+v", got)
		}
	})
}
