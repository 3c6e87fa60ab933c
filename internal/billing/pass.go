package billing

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/whitecoat/whitecoat/internal/store"
)

// An account's Premium pass is billing's: the premium_passes table, which
// only this package reads and writes. What the pass lets a student do is
// answered with the trial and the free sessions by Entitlements; the
// admin users table shows it through PassesOf.

// Pass is an account's Premium pass; its JSON names are the spec's user
// record's.
type Pass struct {
	// Paid: the account has been given a pass.
	Paid   bool       `json:"hasPaid"`
	PaidAt *time.Time `json:"paidAt"`
	// EndsAt is when the pass ends; nil: PaidAt + a year (spec §4).
	EndsAt *time.Time `json:"subscriptionEndsAt"`
	// OnHold: a payment for the pass is disputed.
	OnHold bool `json:"onHold"`
}

// PassOf is userID's pass, for their data export; the zero Pass when they
// have none.
func (s *Service) PassOf(ctx context.Context, userID string) (Pass, error) {
	return passOf(ctx, s.db.SQL, userID)
}

// PassesOf is the passes of those of userIDs that have one, for the admin
// users table.
func (s *Service) PassesOf(ctx context.Context, userIDs []string) (map[string]Pass, error) {
	return passesOf(ctx, s.db.SQL, userIDs)
}

// GrantPass gives the account with email a one-year Premium pass from now:
// what a purchase does, and what support uses to make amends.
func GrantPass(ctx context.Context, db *store.DB, accounts Accounts, email string, now time.Time) (time.Time, error) {
	u, err := accounts.UserByEmail(ctx, email)
	if err != nil {
		return time.Time{}, fmt.Errorf("billing: grant pass: %w", err)
	}
	pass := newPass(now)
	if err := db.WithTx(ctx, func(tx *sql.Tx) error { return extendPass(ctx, db, tx, u.ID, pass) }); err != nil {
		return time.Time{}, fmt.Errorf("billing: grant pass: %w", err)
	}
	return pass.End, nil
}

// pass is one year of Premium bought at Bought. A pass bought while one is
// running starts when the old one ends, so nobody loses days by renewing
// early; after fills in Start and End from the pass the account holds.
type pass struct {
	Bought, Start, End time.Time
}

func newPass(now time.Time) *pass { return &pass{Bought: store.Truncate(now)} }

func (p *pass) after(held Pass) {
	p.Start = p.Bought
	if e := passEnd(held); e != nil && e.After(p.Start) {
		p.Start = *e
	}
	p.End = p.Start.Add(SubscriptionLength)
}

// passEnd is when the pass held ends (see SubscriptionEnd); nil when the
// account holds none.
func passEnd(held Pass) *time.Time {
	if !held.Paid {
		return nil
	}
	return SubscriptionEnd(Account{PaidAt: held.PaidAt, SubscriptionEndsAt: held.EndsAt})
}

// lockPass takes userID's pass for the rest of tx, so that two changes at
// once (two purchases, a purchase and a refund) cannot both start from the
// same end.
func lockPass(ctx context.Context, db *store.DB, tx *sql.Tx, userID string) (Pass, error) {
	if err := db.Lock(ctx, tx, "premium-pass:"+userID); err != nil {
		return Pass{}, err
	}
	return passOf(ctx, tx, userID)
}

// extendPass gives userID the pass p inside tx, so the pass changes
// exactly when the caller's payment row is written; p's dates come from
// the pass the account holds.
func extendPass(ctx context.Context, db *store.DB, tx *sql.Tx, userID string, p *pass) error {
	held, err := lockPass(ctx, db, tx, userID)
	if err != nil {
		return err
	}
	p.after(held)
	return savePass(ctx, tx, userID, p.Bought, p.End)
}

// endedBefore is how long before the event that ends a pass it counts as
// ended: a pass ending exactly now still counts as active (spec §4).
const endedBefore = time.Second

// withhold takes off the account the days p's pass has not run yet now,
// and moves the passes queued behind it forward by as much: a refund or a
// dispute costs that payment's days and no others. onHold is the
// account's hold once done.
func (s *Service) withhold(ctx context.Context, tx *sql.Tx, p Payment, now time.Time, onHold bool) error {
	taken := withheld(p, now)
	if taken <= 0 {
		return s.settle(ctx, tx, p.UserID, onHold, func(end time.Time) time.Time { return end })
	}
	queued, err := passesFrom(ctx, tx, p.UserID, p.PassEndsAt)
	if err != nil {
		return err
	}
	for _, next := range queued {
		if err := setPassDates(ctx, tx, next.ID, next.PassStartsAt.Add(-taken), next.PassEndsAt.Add(-taken)); err != nil {
			return err
		}
	}
	return s.settle(ctx, tx, p.UserID, onHold, func(end time.Time) time.Time {
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
func (s *Service) giveBack(ctx context.Context, tx *sql.Tx, p Payment, now time.Time) error {
	taken := max(withheld(p, *p.DisputedAt), 0)
	if err := setPaymentStatus(ctx, tx, p.ID, PaymentPaid); err != nil {
		return err
	}
	onHold, err := hasOpenDispute(ctx, tx, p.UserID)
	if err != nil {
		return err
	}
	var start time.Time
	if err := s.settle(ctx, tx, p.UserID, onHold, func(end time.Time) time.Time {
		start = latest(now, end)
		return start.Add(taken)
	}); err != nil {
		return err
	}
	return setPassDates(ctx, tx, p.ID, start, start.Add(taken))
}

// settle sets the end of the account's pass, as move makes it from the end
// it has, and its hold; an account without a pass is left without one.
func (s *Service) settle(ctx context.Context, tx *sql.Tx, userID string, onHold bool, move func(end time.Time) time.Time) error {
	held, err := lockPass(ctx, s.db, tx, userID)
	if err != nil {
		return err
	}
	end := s.now()
	if e := passEnd(held); e != nil {
		end = *e
	}
	return adjustPass(ctx, tx, userID, move(end), onHold)
}

func latest(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
