package auth

import (
	"context"
	"testing"

	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

func TestRecordSessionRollsTheAverages(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := newTestService(db, Argon2Params{MemoryKiB: 8192, Iterations: 1, Parallelism: 1})
		u, err := s.CreateUser(ctx, "Ana", "ana@example.com", "s3cret-passphrase", RoleUser)
		if err != nil {
			t.Fatal(err)
		}
		score := func(v float64) *float64 { return &v }
		for _, step := range []struct {
			answered int
			average  *float64
		}{
			{2, score(60)},
			{1, nil}, // nothing scored: the averages stay
			{3, score(90)},
		} {
			if err := s.RecordSession(ctx, db.SQL, u.ID, step.answered, step.average); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.CountAnswer(ctx, db.SQL, u.ID); err != nil {
			t.Fatal(err)
		}
		got, err := userByID(ctx, db.SQL, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.SessionsCompleted != 3 || got.QuestionsPracticed != 6 || got.UsageCount != 1 || got.LastAverageScore != 90 {
			t.Fatalf("stats %+v", got)
		}
		// (60*2 + 90) / 3: the unscored session counts in the rolling average's weight.
		if got.RollingAverageScore != 70 {
			t.Fatalf("rolling average %v, want 70", got.RollingAverageScore)
		}
	})
}
