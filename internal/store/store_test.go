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
		_, err := db.SQL.ExecContext(ctx, `INSERT INTO users (id, name, email, password_hash, created_at, trial_expires_at, email_verified)
			VALUES ($1, $2, $3, $4, $5, $6, $7)`, "u1", "Ana", "ana@example.com", "x", now, later, false)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.SQL.ExecContext(ctx, `INSERT INTO premium_passes (user_id, paid_at, on_hold) VALUES ($1, $2, $3)`, "u1", now, true); err != nil {
			t.Fatal(err)
		}
		var (
			created, trial, paidAt time.Time
			onHold, verified       bool
			endsAt                 *time.Time
		)
		err = db.SQL.QueryRowContext(ctx, `SELECT u.created_at, u.trial_expires_at, p.paid_at, p.on_hold, u.email_verified, p.ends_at
			FROM users u JOIN premium_passes p ON p.user_id = u.id WHERE u.id = $1`, "u1").
			Scan(&created, &trial, &paidAt, &onHold, &verified, &endsAt)
		if err != nil {
			t.Fatal(err)
		}
		if !created.Equal(now) || !trial.Equal(later) || !paidAt.Equal(now) || !onHold || verified || endsAt != nil {
			t.Fatalf("round trip: got %v %v %v %v %v %v, want %v %v %v true false nil", created, trial, paidAt, onHold, verified, endsAt, now, later, now)
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
