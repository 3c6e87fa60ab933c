// Package auth owns accounts: sign-up, passwords, sign-in sessions, email
// verification, password reset and roles.
package auth

import (
	"context"
	"time"
)

// Role is what a user may do; admins curate the question bank.
type Role string

const (
	RoleUser  Role = "user"
	RoleAdmin Role = "admin"
)

// MinimumAge is the youngest a student may be to hold an account (the
// terms of service).
const MinimumAge = 13

// TrialLength is the free trial every new account starts with (spec §9).
const TrialLength = 7 * 24 * time.Hour

// Token lifetimes (issue 2).
const (
	VerifyTokenTTL = 72 * time.Hour
	ResetTokenTTL  = time.Hour
	// PendingSignInTTL is how long a browser that gave an admin's password
	// has to give the second factor.
	PendingSignInTTL = 10 * time.Minute
	// DeviceTTL is how long a browser stays trusted for an account after
	// signing in to it (see Service.Login).
	DeviceTTL = 180 * 24 * time.Hour
)

// User is the account: who the student is, the spec's user record less
// what other domains keep about them. JSON names follow the spec so it
// reads as the API's reference. The Premium pass (hasPaid, paidAt,
// subscriptionEndsAt) is billing's and the practice counters
// (sessionsCompleted, questionsPracticed, the averages) are practice's,
// derived from its sessions; the dashboard, the admin users table and the
// data export read them there.
//
// TrialExpiresAt is the account's: it is set once, when the account is
// made, from what the address's earlier accounts used (spent_trials, kept
// under a hash of the address), and never changes; billing reads it to
// answer what the student may do (billing.Entitlements).
type User struct {
	ID             string    `json:"id"`
	Name           string    `json:"name"`
	Email          string    `json:"email"`
	CreatedAt      time.Time `json:"createdAt"`
	TrialExpiresAt time.Time `json:"trialExpiresAt"`
	PromoCodeUsed  *string   `json:"promoCodeUsed"`
	EmailVerified  bool      `json:"emailVerified"`
	Role           Role      `json:"role" enum:"user,admin"`
	UsageCount     int       `json:"usageCount"`

	passwordHash string
}

// IsAdmin reports whether the user has the admin role.
func (u User) IsAdmin() bool { return u.Role == RoleAdmin }

// Session is one signed-in browser.
type Session struct {
	TokenHash  string
	UserID     string
	CreatedAt  time.Time
	LastSeenAt time.Time
	ExpiresAt  time.Time
	// SecondFactorAt is when the browser passed the account's second
	// factor; nil when it has not (yet) or the account needs none.
	SecondFactorAt *time.Time
}

// secondFactorOwed reports whether a session of u is only halfway signed
// in: admins count as signed in only once they have passed their second
// factor.
func secondFactorOwed(u User, s Session) bool { return u.IsAdmin() && s.SecondFactorAt == nil }

type ctxKey int

const (
	userKey ctxKey = iota
	sessionKey
	halfSignedInKey
)

// WithUser returns ctx carrying the signed-in user and their session. A
// session that still owes its second factor carries the user only for the
// second-factor endpoints (see HalfSignedInFrom): everywhere else the
// browser is not signed in.
func WithUser(ctx context.Context, u User, s Session) context.Context {
	ctx = context.WithValue(ctx, sessionKey, s)
	if secondFactorOwed(u, s) {
		return context.WithValue(ctx, halfSignedInKey, u)
	}
	return context.WithValue(ctx, userKey, u)
}

// HalfSignedInFrom returns the user whose browser has given the right
// password but not yet the second factor, if any.
func HalfSignedInFrom(ctx context.Context) (User, bool) {
	u, ok := ctx.Value(halfSignedInKey).(User)
	return u, ok
}

// UserFrom returns the signed-in user, if any: never one who still owes a
// second factor.
func UserFrom(ctx context.Context) (User, bool) {
	u, ok := ctx.Value(userKey).(User)
	return u, ok
}

// SessionFrom returns the browser's session, if any, including one that
// still owes a second factor.
func SessionFrom(ctx context.Context) (Session, bool) {
	s, ok := ctx.Value(sessionKey).(Session)
	return s, ok
}
