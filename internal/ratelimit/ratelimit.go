// Package ratelimit counts attempts per key in fixed windows kept in the
// database, so every copy of the binary behind a load balancer shares them.
package ratelimit

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/whitecoat/whitecoat/internal/store"
)

// Limiter counts attempts in the rate_limits table.
type Limiter struct {
	db  *store.DB
	now func() time.Time

	// refused remembers, in this process, keys known to be over their
	// limit until their window ends: a flood of refused attempts then
	// costs no database write each (50 connections of made-up resets
	// were otherwise thousands of writes a second). Other copies of the
	// binary learn the same from the table at their first refusal.
	mu      sync.Mutex
	refused map[string]time.Time
	// nextSweep is the earliest time a full map is scanned for expired
	// refusals again: once a second at most, not on every refusal.
	nextSweep time.Time
}

// maxRemembered bounds the refused keys kept in memory; past it, attempts
// on keys not yet remembered are simply counted in the database.
const maxRemembered = 10_000

// New returns a Limiter using now as its clock.
func New(db *store.DB, now func() time.Time) *Limiter {
	return &Limiter{db: db, now: now, refused: map[string]time.Time{}}
}

// refusedUntil reports until when key is known to be refused.
func (l *Limiter) refusedUntil(key string, now time.Time) (time.Time, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	until, ok := l.refused[key]
	if ok && !now.Before(until) {
		delete(l.refused, key)
		return time.Time{}, false
	}
	return until, ok
}

func (l *Limiter) rememberRefused(key string, until, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.refused) >= maxRemembered {
		if now.Before(l.nextSweep) {
			return
		}
		l.nextSweep = now.Add(time.Second)
		for k, u := range l.refused {
			if !now.Before(u) {
				delete(l.refused, k)
			}
		}
		if len(l.refused) >= maxRemembered {
			return
		}
	}
	l.refused[key] = until
}

func (l *Limiter) forget(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.refused, key)
}

// Rule is a number of attempts allowed per window.
type Rule struct {
	Limit  int
	Window time.Duration
}

// Hit records one attempt on key. When the attempt is over the rule's limit
// it returns allowed=false and how long until the window resets.
func (l *Limiter) Hit(ctx context.Context, key string, r Rule) (allowed bool, retryAfter time.Duration, err error) {
	now := store.Truncate(l.now())
	if until, ok := l.refusedUntil(key, now); ok {
		return false, until.Sub(now), nil
	}
	var (
		hits  int
		start time.Time
	)
	err = l.db.SQL.QueryRowContext(ctx, `
		INSERT INTO rate_limits (key, window_start, hits) VALUES ($1, $2, 1)
		ON CONFLICT (key) DO UPDATE SET
			hits = CASE WHEN rate_limits.window_start <= $3 THEN 1 ELSE rate_limits.hits + 1 END,
			window_start = CASE WHEN rate_limits.window_start <= $3 THEN $2 ELSE rate_limits.window_start END
		RETURNING hits, window_start`, key, now, now.Add(-r.Window)).Scan(&hits, &start)
	if err != nil {
		return false, 0, fmt.Errorf("ratelimit: hit %s: %w", key, err)
	}
	if hits > r.Limit {
		l.rememberRefused(key, start.Add(r.Window), now)
		return false, start.Add(r.Window).Sub(now), nil
	}
	return true, 0, nil
}

// Forgive takes back one attempt counted against key in its current
// window: attempts are counted before their outcome is known, and a
// successful one should not use up the allowance.
func (l *Limiter) Forgive(ctx context.Context, key string) error {
	l.forget(key)
	if _, err := l.db.SQL.ExecContext(ctx, `UPDATE rate_limits SET hits = hits - 1 WHERE key = $1 AND hits > 0`, key); err != nil {
		return fmt.Errorf("ratelimit: forgive %s: %w", key, err)
	}
	return nil
}

// Reset forgets key's attempts, e.g. after a successful login.
func (l *Limiter) Reset(ctx context.Context, key string) error {
	l.forget(key)
	if _, err := l.db.SQL.ExecContext(ctx, `DELETE FROM rate_limits WHERE key = $1`, key); err != nil {
		return fmt.Errorf("ratelimit: reset %s: %w", key, err)
	}
	return nil
}

// Forget deletes, inside the caller's transaction, the windows of every
// key that counts attempts by one of identities (an email, an account id,
// a device cookie's hash): a key ends with the identity it counts, after a
// colon ("login:account:ana@example.com"). An account being deleted leaves
// no key that names it.
func (l *Limiter) Forget(ctx context.Context, q store.Queryer, identities ...string) error {
	for _, identity := range identities {
		if identity == "" {
			continue
		}
		suffix := ":" + identity
		// length and substr count characters in both dialects.
		_, err := q.ExecContext(ctx, `DELETE FROM rate_limits WHERE length(key) > $1 AND substr(key, length(key) - $1 + 1) = $2`,
			utf8.RuneCountInString(suffix), suffix)
		if err != nil {
			return fmt.Errorf("ratelimit: forget: %w", err)
		}
		l.forgetEndingWith(suffix)
	}
	return nil
}

func (l *Limiter) forgetEndingWith(suffix string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for key := range l.refused {
		if strings.HasSuffix(key, suffix) {
			delete(l.refused, key)
		}
	}
}

// Prune deletes windows that started before cutoff.
func (l *Limiter) Prune(ctx context.Context, cutoff time.Time) (int64, error) {
	res, err := l.db.SQL.ExecContext(ctx, `DELETE FROM rate_limits WHERE window_start < $1`, store.Truncate(cutoff))
	if err != nil {
		return 0, fmt.Errorf("ratelimit: prune: %w", err)
	}
	return res.RowsAffected()
}
