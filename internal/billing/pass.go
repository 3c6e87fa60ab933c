package billing

import (
	"context"
	"fmt"
	"time"

	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/store"
)

// Passes records a Premium pass on an account. auth, which owns the
// accounts, implements it: dates computes the pass from the account as it
// stands, in the transaction that records it.
type Passes interface {
	SetPass(ctx context.Context, email string, dates func(auth.User) (paidAt, endsAt time.Time)) error
}

// GrantPass gives the account with email a one-year Premium pass from now:
// what a purchase does, and what support uses to make amends. A pass
// bought while one is running starts when the old one ends, so nobody
// loses days by renewing early.
func GrantPass(ctx context.Context, passes Passes, email string, now time.Time) (time.Time, error) {
	now = store.Truncate(now)
	var end time.Time
	err := passes.SetPass(ctx, email, func(u auth.User) (time.Time, time.Time) {
		start := now
		if e := SubscriptionEnd(Account{HasPaid: u.HasPaid, PaidAt: u.PaidAt, SubscriptionEndsAt: u.SubscriptionEndsAt}); u.HasPaid && e != nil && e.After(now) {
			start = *e
		}
		end = start.Add(SubscriptionLength)
		return now, end
	})
	if err != nil {
		return time.Time{}, fmt.Errorf("billing: grant pass: %w", err)
	}
	return end, nil
}
