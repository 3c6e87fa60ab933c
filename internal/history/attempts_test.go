package history_test

import (
	"context"
	"testing"

	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/practice/practicetest"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

// A question answered before shows the earlier answers, newest first;
// one answered for the first time shows none; another student's answers
// never appear.
func TestEarlierAttemptsAreTheStudentsOwnAnswersToTheSameQuestion(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.New(t, db, nil)
		ana := f.User(t, "ana@example.com")
		ben := f.User(t, "ben@example.com")
		ctx := context.Background()
		f.GivePass(t, "ana@example.com", "ben@example.com")
		run := func(who func() auth.User, text string, questions ...string) practice.Session {
			return f.Practise(t, who, text, practicetest.CustomSession("dental", questions...))
		}
		first := run(ana, practicetest.Misheard, "Why dentistry?")
		run(ben, practicetest.Corrected, "Why dentistry?")
		second := run(ana, practicetest.Corrected, "why  DENTISTRY?")
		third := run(ana, practicetest.Corrected, "Why dentistry?", "Tell me about a mistake.")

		got, err := f.History.EarlierAttempts(ctx, ana(), third.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Locked || len(got.Items) != 1 || got.Items[0].ItemID != third.Items[0].ID {
			t.Fatalf("comparison %+v; want the first question only", got)
		}
		attempts := got.Items[0].Attempts
		if len(attempts) != 2 || attempts[0].SessionID != second.ID || attempts[1].SessionID != first.ID {
			t.Fatalf("attempts %+v; want the second session's then the first's", attempts)
		}
		if attempts[1].Transcript != practicetest.Misheard || attempts[1].Feedback.OverallScore != first.Items[0].Feedback.OverallScore || attempts[1].Metrics == nil {
			t.Fatalf("the first attempt: %+v", attempts[1])
		}
		if none, err := f.History.EarlierAttempts(ctx, ana(), first.ID); err != nil || len(none.Items) != 0 {
			t.Fatalf("the first session has nothing earlier: %+v, %v", none, err)
		}
		if _, err := f.History.EarlierAttempts(ctx, ben(), third.ID); err == nil {
			t.Fatal("another student's session was compared")
		}
	})
}
