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
// what a purchase does, and what support uses to make amends.
func GrantPass(ctx context.Context, passes Passes, email string, now time.Time) (time.Time, error) {
	pass := newPass(now)
	if err := passes.SetPass(ctx, email, pass.dates); err != nil {
		return time.Time{}, fmt.Errorf("billing: grant pass: %w", err)
	}
	return pass.End, nil
}

// pass is one year of Premium bought at Bought. A pass bought while one is
// running starts when the old one ends, so nobody loses days by renewing
// early; dates fills in Start and End from the account as it stands.
type pass struct {
	Bought, Start, End time.Time
}

func newPass(now time.Time) *pass { return &pass{Bought: store.Truncate(now)} }

func (p *pass) dates(u auth.User) (paidAt, endsAt time.Time) {
	p.Start = p.Bought
	if e := SubscriptionEnd(AccountOf(u)); u.HasPaid && e != nil && e.After(p.Start) {
		p.Start = *e
	}
	p.End = p.Start.Add(SubscriptionLength)
	return p.Bought, p.End
}

// endedBefore is how long before the event that ends a pass it counts as
// ended: a pass ending exactly now still counts as active (spec §4).
const endedBefore = time.Second

// withhold takes off the account the days p's pass has not run yet now,
// and moves the passes queued behind it forward by as much: a refund or a
// dispute costs that payment's days and no others. onHold is the
// account's hold once done.
func (s *Service) withhold(ctx context.Context, q store.Queryer, p Payment, now time.Time, onHold bool) error {
	taken := withheld(p, now)
	if taken <= 0 {
		return s.settle(ctx, q, p.UserID, onHold, func(end time.Time) time.Time { return end })
	}
	queued, err := passesFrom(ctx, q, p.UserID, p.PassEndsAt)
	if err != nil {
		return err
	}
	for _, next := range queued {
		if err := setPassDates(ctx, q, next.ID, next.PassStartsAt.Add(-taken), next.PassEndsAt.Add(-taken)); err != nil {
			return err
		}
	}
	return s.settle(ctx, q, p.UserID, onHold, func(end time.Time) time.Time {
		if end = end.Add(-taken); end.After(now) {
			return end
		}
		return now.Add(-endedBefore)
	})
}

// withheld is how much of p's pass had not run at at.
func withheld(p Payment, at time.Time) time.Duration {
	return p.PassEndsAt.Sub(latest(p.PassStartsAt, at))
}

// giveBack returns the days a dispute withheld from p, now that it is won:
// they run from now, or after the passes the account holds.
func (s *Service) giveBack(ctx context.Context, q store.Queryer, p Payment, now time.Time) error {
	taken := max(withheld(p, *p.DisputedAt), 0)
	if err := setPaymentStatus(ctx, q, p.ID, PaymentPaid); err != nil {
		return err
	}
	onHold, err := hasOpenDispute(ctx, q, p.UserID)
	if err != nil {
		return err
	}
	var start time.Time
	if err := s.settle(ctx, q, p.UserID, onHold, func(end time.Time) time.Time {
		start = latest(now, end)
		return start.Add(taken)
	}); err != nil {
		return err
	}
	return setPassDates(ctx, q, p.ID, start, start.Add(taken))
}

// settle sets the account's pass end, as move makes it from the end it
// has, and its hold.
func (s *Service) settle(ctx context.Context, q store.Queryer, userID string, onHold bool, move func(end time.Time) time.Time) error {
	return s.accounts.AdjustPass(ctx, q, userID, func(u auth.User) (time.Time, bool) {
		end := s.now()
		if e := SubscriptionEnd(AccountOf(u)); e != nil {
			end = *e
		}
		return move(end), onHold
	})
}

func latest(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
