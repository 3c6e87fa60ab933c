package auth

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

// occupy takes every hash slot until the test ends, as a flood would.
func occupy(t *testing.T, s *Service) {
	for range cap(s.hashes.slots) {
		s.hashes.slots <- struct{}{}
	}
	t.Cleanup(func() {
		for range cap(s.hashes.slots) {
			<-s.hashes.slots
		}
	})
}

func TestHashingIsBoundedAndRefusedWhenBusy(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := newTestService(db, Argon2Params{MemoryKiB: 8192, Iterations: 1, Parallelism: 1})
		if _, err := s.CreateUser(ctx, "Ana", "ana@example.com", "s3cret-passphrase", RoleUser); err != nil {
			t.Fatal(err)
		}
		s.hashes.wait = 50 * time.Millisecond
		occupy(t, s)

		_, err := s.Login(ctx, "ana@example.com", "s3cret-passphrase", Client{IP: "10.0.0.1"}, "")
		if e, ok := apperr.As(err); !ok || e.Kind != apperr.KindUnavailable || e.Message != MsgBusy || e.RetryAfter <= 0 {
			t.Fatalf("login while every slot is busy: %v, want %q with a retry delay", err, MsgBusy)
		}

		// A made-up reset token is refused without waiting for a slot: it
		// is checked before anything is hashed. Were it to queue for one,
		// the slots stay taken and the wait is an hour, so it would come
		// back busy (or with its context's deadline), not with the link
		// message; no clock is read to decide.
		s.hashes.wait = time.Hour
		resetCtx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		_, err = s.ResetPassword(resetCtx, "made-up-token", "a brand new passphrase", Client{IP: "10.0.0.1"})
		if e, ok := apperr.As(err); !ok || e.Message != MsgBadLink {
			t.Fatalf("reset with a made-up token: %v, want %q without waiting for a hash slot", err, MsgBadLink)
		}
	})
}

func TestHashGateRunsAtMostItsSlotsAtOnce(t *testing.T) {
	g := newHashGate(2, time.Second)
	running, peak := make(chan int, 1), 0
	running <- 0
	done := make(chan error)
	for range 8 {
		go func() {
			done <- g.run(context.Background(), func() {
				n := <-running + 1
				peak = max(peak, n)
				running <- n
				time.Sleep(10 * time.Millisecond)
				running <- <-running - 1
			})
		}()
	}
	for range 8 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	if peak != 2 {
		t.Fatalf("peak concurrency %d, want 2", peak)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	g.slots <- struct{}{}
	g.slots <- struct{}{}
	if err := g.run(ctx, func() {}); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled request waiting for a slot: %v", err)
	}
}
