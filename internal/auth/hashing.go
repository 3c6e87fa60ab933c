package auth

import (
	"context"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/whitecoat/whitecoat/internal/apperr"
)

// MsgBusy answers a request that needs a password hash while the server is
// already computing as many as it allows.
const MsgBusy = "The server is busy right now. Please try again in a moment."

// Every argon2id hash takes ~19 MiB and most of a core for tens of
// milliseconds. Unbounded, 50 connections sending logins or resets drove
// the server to 1.7 GB and starved every other request, so the whole
// process computes at most Config.HashSlots at once (by default half the
// cores, leaving the rest to the pages students are using). A request
// waits up to hashWait for a slot, then gets 503 with Retry-After.
func defaultHashSlots() int { return max(1, runtime.GOMAXPROCS(0)/2) }

const (
	hashWait       = 2 * time.Second
	hashRetryAfter = 2 * time.Second
)

// hashGate is the process-wide semaphore in front of argon2id.
type hashGate struct {
	slots chan struct{}
	wait  time.Duration
	// waiting counts the requests waiting for a slot, for /metrics.
	waiting atomic.Int64
}

func newHashGate(slots int, wait time.Duration) *hashGate {
	return &hashGate{slots: make(chan struct{}, slots), wait: wait}
}

// run computes fn in a slot, or refuses with KindUnavailable when none
// frees up in time.
func (g *hashGate) run(ctx context.Context, fn func()) error {
	timer := time.NewTimer(g.wait)
	defer timer.Stop()
	g.waiting.Add(1)
	select {
	case g.slots <- struct{}{}:
		g.waiting.Add(-1)
	case <-timer.C:
		g.waiting.Add(-1)
		return apperr.Unavailable(MsgBusy, hashRetryAfter, nil)
	case <-ctx.Done():
		g.waiting.Add(-1)
		return ctx.Err()
	}
	defer func() { <-g.slots }()
	fn()
	return nil
}

// HashQueue is the password hashing at this moment: hashes being computed
// and requests waiting for a slot.
func (s *Service) HashQueue() (computing, waiting int) {
	return len(s.hashes.slots), int(s.hashes.waiting.Load())
}

// hash is HashPassword in a slot.
func (s *Service) hash(ctx context.Context, password string) (string, error) {
	var (
		phc string
		err error
	)
	if gateErr := s.hashes.run(ctx, func() { phc, err = HashPassword(password, s.cfg.Argon2) }); gateErr != nil {
		return "", gateErr
	}
	return phc, err
}

// verify is VerifyPassword in a slot.
func (s *Service) verify(ctx context.Context, password, phc string) (ok, needsRehash bool, err error) {
	if gateErr := s.hashes.run(ctx, func() { ok, needsRehash, err = VerifyPassword(password, phc, s.cfg.Argon2) }); gateErr != nil {
		return false, false, gateErr
	}
	return ok, needsRehash, err
}
