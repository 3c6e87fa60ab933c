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

// User is the spec's user record. JSON names follow the spec so it reads as
// the API's reference. Its Premium pass (HasPaid, PaidAt,
// SubscriptionEndsAt, PassOnHold) is billing's, read with it (see Pass).
type User struct {
	ID                 string     `json:"id"`
	Name               string     `json:"name"`
	Email              string     `json:"email"`
	CreatedAt          time.Time  `json:"createdAt"`
	TrialExpiresAt     time.Time  `json:"trialExpiresAt"`
	HasPaid            bool       `json:"hasPaid"`
	PromoCodeUsed      *string    `json:"promoCodeUsed"`
	EmailVerified      bool       `json:"emailVerified"`
	Role               Role       `json:"role" enum:"user,admin"`
	PaidAt             *time.Time `json:"paidAt"`
	SubscriptionEndsAt *time.Time `json:"subscriptionEndsAt"`
	UsageCount         int        `json:"usageCount"`
	// SessionsCompleted and QuestionsPracticed count the account's
	// practice once per session. The spec's rollingAverageScore and
	// lastAverageScore are computed by practice from its sessions when
	// read (the dashboard, the data export), never stored here.
	SessionsCompleted  int  `json:"sessionsCompleted"`
	QuestionsPracticed int  `json:"questionsPracticed"`
	PassOnHold         bool `json:"-"` // a payment for the pass is disputed

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
