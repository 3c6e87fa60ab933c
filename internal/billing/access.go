// Package billing decides what an account may do: the free trial, the
// one-year Premium pass, and (later) buying it.
package billing

import (
	"fmt"
	"math"
	"time"
)

// Spec §9 constants.
const (
	FreeSessions       = 2
	SubscriptionLength = 365 * 24 * time.Hour
	// RefundDays is how long after buying a pass a student may ask for a
	// full refund (pricing, terms and receipts all say so). Support makes
	// refunds in Stripe; the webhook then ends the pass.
	RefundDays = 7
)

// Status is the spec's derived access status.
type Status string

const (
	FreeTrialActive  Status = "free_trial_active"
	FreeTrialExpired Status = "free_trial_expired"
	PaidActive       Status = "paid_active"
	PaidCancelled    Status = "paid_cancelled"
	// PaidSuspended: the pass's days are withheld while a payment for it
	// is disputed with the student's bank.
	PaidSuspended Status = "paid_suspended"
)

// Account is what access depends on: the trial's end, the Premium pass
// and spec §4's sessionsCompleted, the free sessions used (see
// Entitlements, which reads each from its owner).
type Account struct {
	HasPaid            bool
	PaidAt             *time.Time
	SubscriptionEndsAt *time.Time
	TrialExpiresAt     time.Time
	SessionsCompleted  int
	// OnHold: a payment for the pass is disputed.
	OnHold bool
}

// accountWith is the Account of a trial ending at trialEnd, the pass p
// and used free sessions.
func accountWith(trialEnd time.Time, p Pass, used int) Account {
	return Account{HasPaid: p.Paid, PaidAt: p.PaidAt, SubscriptionEndsAt: p.EndsAt, TrialExpiresAt: trialEnd, SessionsCompleted: used, OnHold: p.OnHold}
}

// Access is everything the dashboard shows about an account's standing,
// derived in one place so the server's checks and the UI agree.
type Access struct {
	Status                Status `json:"status" enum:"free_trial_active,free_trial_expired,paid_active,paid_cancelled,paid_suspended"`
	Badge                 string `json:"badge"`
	HeaderText            string `json:"headerText"`
	Banner                string `json:"banner"`
	DaysLeft              int    `json:"daysLeft"`
	FreeSessionsRemaining int    `json:"freeSessionsRemaining"`
	PracticeEnabled       bool   `json:"practiceEnabled"`
	// HistoryLocked hides saved sessions when the trial expired or the pass ended.
	HistoryLocked bool `json:"historyLocked"`
	// SubscriptionEndsAt is the pass's end (explicit, else paidAt + 365 days).
	SubscriptionEndsAt *time.Time `json:"subscriptionEndsAt"`
}

// MsgLocked is the refusal when a locked account tries to start practising.
const MsgLocked = "Your free practice sessions are used up or your access has ended. Upgrade to Practice to continue."

// MsgOnHold is the banner of a pass on hold.
const MsgOnHold = "Your bank is disputing a payment for your Premium pass, so the pass is on hold until the dispute is settled. If this is a mistake, write to support."

// SubscriptionEnd is subscriptionEndsAt, else paidAt + 365 days (spec §4).
func SubscriptionEnd(a Account) *time.Time {
	if a.SubscriptionEndsAt != nil {
		t := *a.SubscriptionEndsAt
		return &t
	}
	if a.PaidAt != nil {
		t := a.PaidAt.Add(SubscriptionLength)
		return &t
	}
	return nil
}

// Evaluate derives the access status and its texts at time now.
func Evaluate(a Account, now time.Time) Access {
	out := Access{FreeSessionsRemaining: max(0, FreeSessions-a.SessionsCompleted)}
	end := SubscriptionEnd(a)
	out.SubscriptionEndsAt = end
	switch {
	case !a.HasPaid && now.Before(a.TrialExpiresAt):
		out.Status = FreeTrialActive
		out.DaysLeft = daysLeft(now, a.TrialExpiresAt)
	case a.HasPaid && end != nil && !now.After(*end):
		out.Status = PaidActive
		out.DaysLeft = daysLeft(now, *end)
	case a.HasPaid && a.OnHold:
		out.Status = PaidSuspended
	case a.HasPaid:
		out.Status = PaidCancelled
	default:
		out.Status = FreeTrialExpired
	}
	out.PracticeEnabled = out.Status == PaidActive || (out.Status == FreeTrialActive && out.FreeSessionsRemaining > 0)
	out.HistoryLocked = out.Status == FreeTrialExpired || out.Status == PaidCancelled

	switch out.Status {
	case FreeTrialActive:
		out.Badge = "Free Trial"
		if out.FreeSessionsRemaining == 0 {
			out.Banner = "You've used your 2 free sessions. Upgrade to Premium to keep practicing."
		} else {
			out.Banner = fmt.Sprintf("Free trial: %s left and %s remaining.", days(out.DaysLeft), plural(out.FreeSessionsRemaining, "free session"))
		}
	case FreeTrialExpired:
		out.Badge = "Trial Expired"
		out.Banner = "Your free trial has ended. Upgrade to Premium to keep practicing."
	case PaidActive:
		out.Badge = fmt.Sprintf("Premium (%s left)", days(out.DaysLeft))
		if out.DaysLeft > 0 {
			out.Banner = fmt.Sprintf("Premium: %s remaining.", days(out.DaysLeft))
		} else {
			out.Banner = "Premium: Active"
		}
	case PaidSuspended:
		out.Badge = "Premium on hold"
		out.Banner = MsgOnHold
	case PaidCancelled:
		out.Badge = "Subscription Ended"
		out.Banner = "Your Premium pass has ended. Buy a new pass to keep practicing."
	}
	switch out.Status {
	case FreeTrialExpired:
		out.HeaderText = "Upgrade to continue your interview preparation journey"
	case PaidCancelled:
		out.HeaderText = "Your subscription has ended. Reactivate to continue your progress."
	default:
		out.HeaderText = "Continue your interview preparation journey"
	}
	return out
}

// daysLeft rounds up to whole days, never below 0 (spec §9).
func daysLeft(now, end time.Time) int {
	d := end.Sub(now)
	if d <= 0 {
		return 0
	}
	return int(math.Ceil(d.Hours() / 24))
}

func days(n int) string { return plural(n, "day") }

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}
