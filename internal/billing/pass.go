package billing

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/store"
)

// GrantPass gives the account with email a one-year Premium pass from now:
// what a purchase does, and what support uses to make amends. A pass
// bought while one is running starts when the old one ends, so nobody
// loses days by renewing early.
func GrantPass(ctx context.Context, db *store.DB, email string, now time.Time) (time.Time, error) {
	now = store.Truncate(now)
	var end time.Time
	err := db.WithTx(ctx, func(q *sql.Tx) error {
		var current *time.Time
		var paidAt *time.Time
		var hasPaid bool
		if err := q.QueryRowContext(ctx, `SELECT has_paid, paid_at, subscription_ends_at FROM users WHERE email = $1`, email).
			Scan(&hasPaid, &paidAt, &current); err != nil {
			return apperr.NotFound("No account has the email " + email + ".")
		}
		start := now
		if e := SubscriptionEnd(Account{HasPaid: hasPaid, PaidAt: paidAt, SubscriptionEndsAt: current}); hasPaid && e != nil && e.After(now) {
			start = *e
		}
		end = start.Add(SubscriptionLength)
		_, err := q.ExecContext(ctx, `UPDATE users SET has_paid = $1, paid_at = $2, subscription_ends_at = $3 WHERE email = $4`, true, now, end, email)
		return err
	})
	if err != nil {
		return time.Time{}, fmt.Errorf("billing: grant pass: %w", err)
	}
	return end, nil
}
