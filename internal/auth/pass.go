package auth

import (
	"context"
	"time"

	"github.com/whitecoat/whitecoat/internal/store"
)

// Pass is what an account shows of its Premium pass. billing keeps the
// pass and alone writes it; auth reads it through Passes to show it with
// the account (hasPaid, paidAt, subscriptionEndsAt) and to hand it, with
// the account, to the domains that decide on it.
type Pass struct {
	// Paid: the account has been given a pass.
	Paid   bool
	PaidAt *time.Time
	// EndsAt is when the pass ends; nil: PaidAt + a year (spec §4).
	EndsAt *time.Time
	// OnHold: a payment for the pass is disputed.
	OnHold bool
}

// Passes reads accounts' Premium passes; billing implements it and app
// wires it in (NewService).
type Passes interface {
	// PassOf is userID's pass as q sees it (the zero Pass when the account
	// has none): inside the caller's transaction when the caller decides
	// on it.
	PassOf(ctx context.Context, q store.Queryer, userID string) (Pass, error)
	// PassesOf is the passes of those of userIDs that have one.
	PassesOf(ctx context.Context, q store.Queryer, userIDs []string) (map[string]Pass, error)
}

// withPass is u with its Premium pass as q sees it.
func (s *Service) withPass(ctx context.Context, q store.Queryer, u User) (User, error) {
	p, err := s.passes.PassOf(ctx, q, u.ID)
	if err != nil {
		return User{}, err
	}
	u.HasPaid, u.PaidAt, u.SubscriptionEndsAt, u.PassOnHold = p.Paid, p.PaidAt, p.EndsAt, p.OnHold
	return u, nil
}
