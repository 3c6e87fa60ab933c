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
