package practice_test

import (
	"context"
	"testing"

	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

// A question answered before shows the earlier answers, newest first;
// one answered for the first time shows none; another student's answers
// never appear.
func TestEarlierAttemptsAreTheStudentsOwnAnswersToTheSameQuestion(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db, nil)
		ana := f.user(t, "ana@example.com")
		ben := f.user(t, "ben@example.com")
		ctx := context.Background()
		f.givePass(t, "ana@example.com", "ben@example.com")
		run := func(who func() auth.User, text string, questions ...string) practice.Session {
			return f.practise(t, who, text, customSession("dental", questions...))
		}
		first := run(ana, misheard, "Why dentistry?")
		run(ben, corrected, "Why dentistry?")
		second := run(ana, corrected, "why  DENTISTRY?")
		third := run(ana, corrected, "Why dentistry?", "Tell me about a mistake.")

		got, err := f.svc.EarlierAttempts(ctx, ana(), third.ID)
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
		if attempts[1].Transcript != misheard || attempts[1].Feedback.OverallScore != first.Items[0].Feedback.OverallScore || attempts[1].Metrics == nil {
			t.Fatalf("the first attempt: %+v", attempts[1])
		}
		if none, err := f.svc.EarlierAttempts(ctx, ana(), first.ID); err != nil || len(none.Items) != 0 {
			t.Fatalf("the first session has nothing earlier: %+v, %v", none, err)
		}
		if _, err := f.svc.EarlierAttempts(ctx, ben(), third.ID); err == nil {
			t.Fatal("another student's session was compared")
		}
	})
}
