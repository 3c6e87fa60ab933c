package auth

import (
	"context"
	"testing"

	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

func TestCountAnswerAddsToTheUsage(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := newTestService(db, Argon2Params{MemoryKiB: 8192, Iterations: 1, Parallelism: 1})
		u, err := s.CreateUser(ctx, "Ana", "ana@example.com", "s3cret-passphrase", RoleUser)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.CountAnswer(ctx, db.SQL, u.ID); err != nil {
			t.Fatal(err)
		}
		got, err := userByID(ctx, db.SQL, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.UsageCount != 1 {
			t.Fatalf("usage %+v, want 1 answer", got)
		}
	})
}
