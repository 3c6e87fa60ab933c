package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

func TestMigrateAndRoundTripTypes(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		now := store.Now()
		later := now.Add(90 * time.Minute)
		_, err := db.SQL.ExecContext(ctx, `INSERT INTO users (id, name, email, password_hash, created_at, trial_expires_at, has_paid, email_verified)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, "u1", "Ana", "ana@example.com", "x", now, later, true, false)
		if err != nil {
			t.Fatal(err)
		}
		var (
			created, trial time.Time
			paid, verified bool
			paidAt         *time.Time
		)
		err = db.SQL.QueryRowContext(ctx, `SELECT created_at, trial_expires_at, has_paid, email_verified, paid_at FROM users WHERE id = $1`, "u1").
			Scan(&created, &trial, &paid, &verified, &paidAt)
		if err != nil {
			t.Fatal(err)
		}
		if !created.Equal(now) || !trial.Equal(later) || !paid || verified || paidAt != nil {
			t.Fatalf("round trip: got %v %v %v %v %v, want %v %v true false nil", created, trial, paid, verified, paidAt, now, later)
		}
		// Time comparisons must order correctly in both dialects.
		var n int
		if err := db.SQL.QueryRowContext(ctx, `SELECT count(*) FROM users WHERE trial_expires_at > $1`, now.Add(time.Hour)).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 1 {
			t.Fatalf("time comparison: got %d rows, want 1", n)
		}
		_, err = db.SQL.ExecContext(ctx, `INSERT INTO users (id, name, email, password_hash, created_at, trial_expires_at) VALUES ($1, $2, $3, $4, $5, $6)`,
			"u2", "Ana", "ana@example.com", "x", now, later)
		if !store.IsUniqueViolation(err) {
			t.Fatalf("duplicate email: got %v, want a unique violation", err)
		}
	})
}
