package practice_test

import (
	"context"
	"testing"

	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

// Sessions averaging 60, then one whose answer was not scored, then 90:
// the unscored session is counted as practice but takes no part in the
// averages. The dashboard's average is 75, not the 70 of a running mean
// that gave the unscored session the old mean's weight, and the last
// session compares with the 60.
func TestASessionWithNoScoredAnswerTakesNoPartInTheAverages(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newIdleFixture(t, db)
		reload := f.user(t, "ana@example.com")
		f.givePass(t, "ana@example.com")
		ctx := context.Background()
		score := func(v int) *int { return &v }
		var last practice.Session
		for _, average := range []*int{score(60), nil, score(90)} {
			s, err := f.svc.Create(ctx, reload(), practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "random", QuestionCount: 1})
			if err != nil {
				t.Fatal(err)
			}
			if err := f.svc.SettleAnswer(ctx, s.Items[0].ID, average); err != nil {
				t.Fatal(err)
			}
			if _, err := f.svc.Complete(ctx, reload(), s.ID, 60); err != nil {
				t.Fatal(err)
			}
			if err := f.svc.Finalize(ctx, s.ID); err != nil {
				t.Fatal(err)
			}
			if last, err = f.svc.Get(ctx, reload(), s.ID); err != nil {
				t.Fatal(err)
			}
		}
		d, err := f.svc.Dashboard(ctx, reload())
		if err != nil {
			t.Fatal(err)
		}
		if d.Stats != (practice.Stats{SessionsCompleted: 3, QuestionsPracticed: 3, AverageScore: 75}) {
			t.Fatalf("dashboard stats %+v, want 3 sessions, 3 questions and an average of 75", d.Stats)
		}
		if last.AverageScore == nil || *last.AverageScore != 90 || last.Improvement == nil || *last.Improvement != 30 {
			t.Fatalf("last session: average %v, improvement %v; want 90 and 30 (against the 60)", last.AverageScore, last.Improvement)
		}
	})
}
