package billing

import (
	"context"
	"fmt"
	"time"

	"github.com/whitecoat/whitecoat/internal/store"
)

// What a student may do — start a session, have an answer taken, see
// their history, progress and earlier attempts, keep a try made before
// signing up, share a saved session — is one answer, Entitlements.Of,
// over three facts each read from its owner: when the trial ends (auth),
// the Premium pass (billing) and the free sessions used (practice,
// counted from its sessions, never a stored counter).

// Trials reads when an account's free trial ends; auth keeps it with the
// account.
type Trials interface {
	TrialEnd(ctx context.Context, q store.Queryer, userID string) (time.Time, error)
}

// UsedSessions counts the free sessions a student has used; practice
// implements it over its sessions.
type UsedSessions interface {
	// UsedSessions counts userID's sessions, other than besides ("" for
	// none), that used a free session.
	UsedSessions(ctx context.Context, q store.Queryer, userID, besides string) (int, error)
}

// Entitlements answers spec §4 for a student.
type Entitlements struct {
	trials Trials
	used   UsedSessions
	now    func() time.Time
}

// NewEntitlements answers from trials, the passes and used; now is the
// clock.
func NewEntitlements(trials Trials, used UsedSessions, now func() time.Time) *Entitlements {
	return &Entitlements{trials: trials, used: used, now: now}
}

// Of is userID's access now as q sees it: inside the transaction that
// acts on it when it decides (an answer taken), so that the trial, the
// pass and the sessions are as they stand then. besides is a session
// being answered, which does not count against the free sessions it is
// one of ("" when none is). The free sessions are counted only while the
// trial runs: a pass, or an ended trial, decides without them, and then
// FreeSessionsRemaining is the trial's full allowance.
func (e *Entitlements) Of(ctx context.Context, q store.Queryer, userID, besides string) (Access, error) {
	trialEnd, err := e.trials.TrialEnd(ctx, q, userID)
	if err != nil {
		return Access{}, fmt.Errorf("billing: entitlement: %w", err)
	}
	held, err := passOf(ctx, q, userID)
	if err != nil {
		return Access{}, err
	}
	now := store.Truncate(e.now())
	acct := accountWith(trialEnd, held, 0)
	if Evaluate(acct, now).Status != FreeTrialActive {
		return Evaluate(acct, now), nil
	}
	if acct.SessionsCompleted, err = e.used.UsedSessions(ctx, q, userID, besides); err != nil {
		return Access{}, fmt.Errorf("billing: entitlement: %w", err)
	}
	return Evaluate(acct, now), nil
}
