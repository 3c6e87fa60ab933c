package practice_test

import (
	"context"
	"testing"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/billing"
	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/practice/practicetest"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

// Sessions averaging 60, then one whose answer was not scored, then 90:
// the unscored session is not counted as practice and takes no part in
// the averages. The dashboard's average is 75, not the 70 of a running
// mean that gave the unscored session the old mean's weight, and the last
// session compares with the 60.
func TestASessionWithNoScoredAnswerTakesNoPartInTheAverages(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.NewIdle(t, db)
		reload := f.User(t, "ana@example.com")
		f.GivePass(t, "ana@example.com")
		ctx := context.Background()
		score := func(v int) *int { return &v }
		var last practice.Session
		for _, average := range []*int{score(60), nil, score(90)} {
			s, err := f.Practice.Create(ctx, reload(), practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "random", QuestionCount: 1})
			if err != nil {
				t.Fatal(err)
			}
			if err := f.Practice.SettleAnswer(ctx, s.Items[0].ID, average); err != nil {
				t.Fatal(err)
			}
			if _, err := f.Practice.Complete(ctx, reload(), s.ID, 60); err != nil {
				t.Fatal(err)
			}
			if err := f.Practice.Finalize(ctx, s.ID); err != nil {
				t.Fatal(err)
			}
			if last, err = f.Practice.Get(ctx, reload(), s.ID); err != nil {
				t.Fatal(err)
			}
		}
		d, err := f.History.Dashboard(ctx, reload())
		if err != nil {
			t.Fatal(err)
		}
		if d.Stats != (practice.Stats{SessionsCompleted: 2, QuestionsPracticed: 2, AverageScore: 75}) {
			t.Fatalf("dashboard stats %+v, want 2 sessions, 2 questions and an average of 75", d.Stats)
		}
		if last.AverageScore == nil || *last.AverageScore != 90 || last.Improvement == nil || *last.Improvement != 30 {
			t.Fatalf("last session: average %v, improvement %v; want 90 and 30 (against the 60)", last.AverageScore, last.Improvement)
		}
	})
}

// A one-question session answered with silence (a silent or broken
// microphone): no answer was scored, so it uses no free session. The
// dashboard still offers both, both can then be practised, and the saved
// copy says it was not scored rather than averaging 0. Correcting the
// silent answer's transcript scores it, and so uses a free session then —
// or is refused once none is left, so a correction is no way round the
// trial.
func TestASessionWithNothingScoredUsesNoFreeSession(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.New(t, db, nil)
		ana := f.User(t, "ana@example.com")
		ctx := context.Background()
		oneQuestion := practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "random", QuestionCount: 1}
		freeLeft := func(want int) {
			t.Helper()
			d, err := f.History.Dashboard(ctx, ana())
			if err != nil {
				t.Fatal(err)
			}
			if d.Access.FreeSessionsRemaining != want || d.Stats.SessionsCompleted != billing.FreeSessions-want {
				t.Fatalf("%d free sessions remaining, %d completed; want %d remaining", d.Access.FreeSessionsRemaining, d.Stats.SessionsCompleted, want)
			}
		}

		silentA := f.Practise(t, ana, "", oneQuestion)
		if silentA.AverageScore != nil || silentA.Items[0].Meaningful == nil || *silentA.Items[0].Meaningful {
			t.Fatalf("silent answer: average %v, item %+v", silentA.AverageScore, silentA.Items[0])
		}
		freeLeft(2)
		saved, err := f.History.Save(ctx, ana(), silentA.ID, "Silence")
		if err != nil {
			t.Fatal(err)
		}
		if saved.Scored {
			t.Fatal("a saved session with no scored answer says it was scored")
		}
		silentB := f.Practise(t, ana, "", oneQuestion)
		freeLeft(2)

		if _, err := f.Practice.CorrectTranscript(ctx, ana(), silentA.ID, silentA.Items[0].ID, practicetest.Spoken); err != nil {
			t.Fatal(err)
		}
		freeLeft(1)
		if got, err := f.History.GetSaved(ctx, ana(), saved.ID); err != nil || !got.Scored {
			t.Fatalf("saved session after its answer was scored: scored %v, %v", got.Scored, err)
		}
		if scored := f.Practise(t, ana, practicetest.Spoken, oneQuestion); scored.AverageScore == nil {
			t.Fatalf("second free session not scored: %+v", scored.Items[0])
		}
		freeLeft(0)
		_, err = f.Practice.CorrectTranscript(ctx, ana(), silentB.ID, silentB.Items[0].ID, practicetest.Spoken)
		practicetest.WantKind(t, err, apperr.KindForbidden, billing.MsgLocked)
		freeLeft(0)
	})
}
