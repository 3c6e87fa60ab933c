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

// TrialLength is the free trial every new account starts with (spec §9).
const TrialLength = 7 * 24 * time.Hour

// Token lifetimes (issue 2).
const (
	VerifyTokenTTL = 72 * time.Hour
	ResetTokenTTL  = time.Hour
)

// User is the spec's user record. JSON names follow the spec so it reads as
// the API's reference.
type User struct {
	ID                  string     `json:"id"`
	Name                string     `json:"name"`
	Email               string     `json:"email"`
	CreatedAt           time.Time  `json:"createdAt"`
	TrialExpiresAt      time.Time  `json:"trialExpiresAt"`
	HasPaid             bool       `json:"hasPaid"`
	PromoCodeUsed       *string    `json:"promoCodeUsed"`
	EmailVerified       bool       `json:"emailVerified"`
	Role                Role       `json:"role" enum:"user,admin"`
	PaidAt              *time.Time `json:"paidAt"`
	SubscriptionEndsAt  *time.Time `json:"subscriptionEndsAt"`
	UsageCount          int        `json:"usageCount"`
	SessionsCompleted   int        `json:"sessionsCompleted"`
	QuestionsPracticed  int        `json:"questionsPracticed"`
	RollingAverageScore float64    `json:"rollingAverageScore"`
	LastAverageScore    float64    `json:"lastAverageScore"`

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
}

type ctxKey int

const (
	userKey ctxKey = iota
	sessionKey
)

// WithUser returns ctx carrying the signed-in user and their session.
func WithUser(ctx context.Context, u User, s Session) context.Context {
	return context.WithValue(context.WithValue(ctx, userKey, u), sessionKey, s)
}

// UserFrom returns the signed-in user, if any.
func UserFrom(ctx context.Context) (User, bool) {
	u, ok := ctx.Value(userKey).(User)
	return u, ok
}

// SessionFrom returns the current sign-in session, if any.
func SessionFrom(ctx context.Context) (Session, bool) {
	s, ok := ctx.Value(sessionKey).(Session)
	return s, ok
}
