// Package ratelimit counts attempts per key in fixed windows kept in the
// database, so every copy of the binary behind a load balancer shares them.
package ratelimit

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/whitecoat/whitecoat/internal/store"
)

// Limiter counts attempts in the rate_limits table.
type Limiter struct {
	db  *store.DB
	now func() time.Time
}

// New returns a Limiter using now as its clock.
func New(db *store.DB, now func() time.Time) *Limiter {
	return &Limiter{db: db, now: now}
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
		return false, start.Add(r.Window).Sub(now), nil
	}
	return true, 0, nil
}

// Exceeded reports, without counting an attempt, whether key has used up
// its attempts in the current window.
func (l *Limiter) Exceeded(ctx context.Context, key string, r Rule) (bool, time.Duration, error) {
	now := store.Truncate(l.now())
	var hits int
	var start time.Time
	err := l.db.SQL.QueryRowContext(ctx,
		`SELECT hits, window_start FROM rate_limits WHERE key = $1 AND window_start > $2`, key, now.Add(-r.Window)).Scan(&hits, &start)
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return false, 0, nil
		}
		return false, 0, fmt.Errorf("ratelimit: check %s: %w", key, err)
	}
	if hits >= r.Limit {
		return true, start.Add(r.Window).Sub(now), nil
	}
	return false, 0, nil
}

// Reset forgets key's attempts, e.g. after a successful login.
func (l *Limiter) Reset(ctx context.Context, key string) error {
	if _, err := l.db.SQL.ExecContext(ctx, `DELETE FROM rate_limits WHERE key = $1`, key); err != nil {
		return fmt.Errorf("ratelimit: reset %s: %w", key, err)
	}
	return nil
}

// Prune deletes windows that started before cutoff.
func (l *Limiter) Prune(ctx context.Context, cutoff time.Time) (int64, error) {
	res, err := l.db.SQL.ExecContext(ctx, `DELETE FROM rate_limits WHERE window_start < $1`, store.Truncate(cutoff))
	if err != nil {
		return 0, fmt.Errorf("ratelimit: prune: %w", err)
	}
	return res.RowsAffected()
}
