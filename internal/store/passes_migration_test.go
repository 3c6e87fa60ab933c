package store_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/pressly/goose/v3"

	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

// Migration 00015 moves the Premium pass out of the users table into
// billing's premium_passes, and back when undone: an account that had paid
// keeps its pass's dates and hold, one that had not gets no row.
func TestPremiumPassesMoveOutOfUsers(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		dialect := goose.DialectSQLite3
		if db.Dialect == store.Postgres {
			dialect = goose.DialectPostgres
		}
		migrations, err := goose.NewProvider(dialect, db.SQL, os.DirFS("migrations/"+string(db.Dialect)))
		if err != nil {
			t.Fatal(err)
		}
		paidAt := store.Truncate(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
		endsAt := paidAt.Add(400 * 24 * time.Hour)
		for _, id := range []string{"paid", "trial"} {
			if _, err := db.SQL.ExecContext(ctx, `INSERT INTO users (id, name, email, password_hash, created_at, trial_expires_at) VALUES ($1, $1, $2, 'x', $3, $3)`,
				id, id+"@example.com", paidAt); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := db.SQL.ExecContext(ctx, `INSERT INTO premium_passes (user_id, paid_at, ends_at, on_hold) VALUES ('paid', $1, $2, $3)`, paidAt, endsAt, true); err != nil {
			t.Fatal(err)
		}

		if _, err := migrations.DownTo(ctx, 14); err != nil {
			t.Fatal(err)
		}
		rows, err := db.SQL.QueryContext(ctx, `SELECT id, has_paid, paid_at, subscription_ends_at, pass_on_hold FROM users ORDER BY id`)
		if err != nil {
			t.Fatal(err)
		}
		type legacy struct {
			id             string
			paid, onHold   bool
			paidAt, endsAt *time.Time
		}
		var undone []legacy
		for rows.Next() {
			var l legacy
			if err := rows.Scan(&l.id, &l.paid, &l.paidAt, &l.endsAt, &l.onHold); err != nil {
				t.Fatal(err)
			}
			undone = append(undone, l)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
		if len(undone) != 2 || !undone[0].paid || !undone[0].onHold || undone[0].paidAt == nil || !undone[0].paidAt.Equal(paidAt) ||
			undone[0].endsAt == nil || !undone[0].endsAt.Equal(endsAt) || undone[1].paid || undone[1].paidAt != nil || undone[1].onHold {
			t.Fatalf("undone, users hold %+v", undone)
		}

		if _, err := migrations.Up(ctx); err != nil {
			t.Fatal(err)
		}
		var (
			n               int
			gotPaid, gotEnd time.Time
			onHold          bool
		)
		if err := db.SQL.QueryRowContext(ctx, `SELECT count(*) FROM premium_passes`).Scan(&n); err != nil || n != 1 {
			t.Fatalf("%d passes (%v), want the paid account's only", n, err)
		}
		err = db.SQL.QueryRowContext(ctx, `SELECT paid_at, ends_at, on_hold FROM premium_passes WHERE user_id = 'paid'`).Scan(&gotPaid, &gotEnd, &onHold)
		if err != nil || !gotPaid.Equal(paidAt) || !gotEnd.Equal(endsAt) || !onHold {
			t.Fatalf("moved pass: paid %v, ends %v, on hold %v (%v)", gotPaid, gotEnd, onHold, err)
		}
		if _, err := db.SQL.ExecContext(ctx, `SELECT has_paid FROM users`); err == nil {
			t.Fatal("users still has has_paid")
		}
	})
}
