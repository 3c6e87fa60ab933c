package billing

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/mail"
	"github.com/whitecoat/whitecoat/internal/ratelimit"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

func TestEvaluate(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 9, 10, 12, 0, 0, 0, time.UTC)
	at := func(d time.Duration) *time.Time { t := now.Add(d); return &t }
	day := 24 * time.Hour
	for _, tc := range []struct {
		name     string
		acct     Account
		status   Status
		badge    string
		daysLeft int
		practice bool
		free     int
		header   string
		banner   string
	}{
		{"new trial", Account{TrialExpiresAt: now.Add(7 * day)}, FreeTrialActive, "Free Trial", 7, true, 2,
			"Continue your interview preparation journey", "Free trial: 7 days left and 2 free sessions remaining."},
		{"trial, 1 session, 1.2 days", Account{TrialExpiresAt: now.Add(29 * time.Hour), SessionsCompleted: 1}, FreeTrialActive, "Free Trial", 2, true, 1,
			"Continue your interview preparation journey", "Free trial: 2 days left and 1 free session remaining."},
		{"trial, hours left rounds up to 1 day", Account{TrialExpiresAt: now.Add(3 * time.Hour)}, FreeTrialActive, "Free Trial", 1, true, 2,
			"Continue your interview preparation journey", "Free trial: 1 day left and 2 free sessions remaining."},
		{"trial sessions used", Account{TrialExpiresAt: now.Add(3 * day), SessionsCompleted: 2}, FreeTrialActive, "Free Trial", 3, false, 0,
			"Continue your interview preparation journey", "You've used your 2 free sessions. Upgrade to Premium to keep practicing."},
		{"trial over-used", Account{TrialExpiresAt: now.Add(3 * day), SessionsCompleted: 5}, FreeTrialActive, "Free Trial", 3, false, 0,
			"Continue your interview preparation journey", "You've used your 2 free sessions. Upgrade to Premium to keep practicing."},
		{"trial expired at the instant", Account{TrialExpiresAt: now}, FreeTrialExpired, "Trial Expired", 0, false, 2,
			"Upgrade to continue your interview preparation journey", "Your free trial has ended. Upgrade to Premium to keep practicing."},
		{"paid, explicit end", Account{HasPaid: true, PaidAt: at(-10 * day), SubscriptionEndsAt: at(30 * day), TrialExpiresAt: now.Add(-day), SessionsCompleted: 9}, PaidActive, "Premium (30 days left)", 30, true, 0,
			"Continue your interview preparation journey", "Premium: 30 days remaining."},
		{"paid, fallback paidAt+365", Account{HasPaid: true, PaidAt: at(-364 * day), TrialExpiresAt: now.Add(-day)}, PaidActive, "Premium (1 day left)", 1, true, 2,
			"Continue your interview preparation journey", "Premium: 1 day remaining."},
		{"paid, ends exactly now is still active", Account{HasPaid: true, SubscriptionEndsAt: at(0)}, PaidActive, "Premium (0 days left)", 0, true, 2,
			"Continue your interview preparation journey", "Premium: Active"},
		{"paid, ended", Account{HasPaid: true, PaidAt: at(-366 * day)}, PaidCancelled, "Subscription Ended", 0, false, 2,
			"Your subscription has ended. Reactivate to continue your progress.", "Your Premium pass has ended. Buy a new pass to keep practicing."},
		{"paid, on hold while a payment is disputed", Account{HasPaid: true, SubscriptionEndsAt: at(-time.Second), OnHold: true}, PaidSuspended, "Premium on hold", 0, false, 2,
			"Continue your interview preparation journey", MsgOnHold},
		{"paid, on hold but another pass still runs", Account{HasPaid: true, SubscriptionEndsAt: at(3 * day), OnHold: true}, PaidActive, "Premium (3 days left)", 3, true, 2,
			"Continue your interview preparation journey", "Premium: 3 days remaining."},
		{"paid with no dates", Account{HasPaid: true}, PaidCancelled, "Subscription Ended", 0, false, 2,
			"Your subscription has ended. Reactivate to continue your progress.", "Your Premium pass has ended. Buy a new pass to keep practicing."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Evaluate(tc.acct, now)
			if got.Status != tc.status || got.Badge != tc.badge || got.DaysLeft != tc.daysLeft || got.PracticeEnabled != tc.practice ||
				got.FreeSessionsRemaining != tc.free || got.HeaderText != tc.header || got.Banner != tc.banner {
				t.Fatalf("got %+v", got)
			}
			if got.HistoryLocked != (tc.status == FreeTrialExpired || tc.status == PaidCancelled) {
				t.Fatalf("history locked = %v for %s", got.HistoryLocked, tc.status)
			}
		})
	}
}

func TestGrantPass(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		now := time.Date(2026, 9, 10, 12, 0, 0, 0, time.UTC)
		if _, err := db.SQL.ExecContext(ctx, `INSERT INTO users (id, name, email, password_hash, created_at, trial_expires_at) VALUES ($1, $2, $3, $4, $5, $6)`,
			"u1", "Ana", "ana@example.com", "x", now, now.Add(7*24*time.Hour)); err != nil {
			t.Fatal(err)
		}
		logger := slog.New(slog.NewTextHandler(io.Discard, nil))
		accounts := auth.NewService(db, &mail.LogMailer{Logger: logger}, ratelimit.New(db, time.Now), logger, time.Now, auth.Config{})
		end, err := GrantPass(ctx, db, accounts, "ana@example.com", now)
		if err != nil || !end.Equal(now.Add(SubscriptionLength)) {
			t.Fatalf("first pass ends %v (%v)", end, err)
		}
		// Renewing 100 days in adds a year after the current pass ends.
		renewed, err := GrantPass(ctx, db, accounts, "ana@example.com", now.Add(100*24*time.Hour))
		if err != nil || !renewed.Equal(end.Add(SubscriptionLength)) {
			t.Fatalf("renewal ends %v (%v), want %v", renewed, err, end.Add(SubscriptionLength))
		}
		// The pass is billing's row.
		var ends time.Time
		if err := db.SQL.QueryRowContext(ctx, `SELECT ends_at FROM premium_passes WHERE user_id = 'u1'`).Scan(&ends); err != nil || !ends.Equal(renewed) {
			t.Fatalf("premium_passes ends_at %v (%v), want %v", ends, err, renewed)
		}
		p, err := passOf(ctx, db.SQL, "u1")
		if err != nil || !p.Paid || p.EndsAt == nil || !p.EndsAt.Equal(renewed) || !p.PaidAt.Equal(now.Add(100*24*time.Hour)) {
			t.Fatalf("the pass is paid %v, paid at %v, ends %v (%v)", p.Paid, p.PaidAt, p.EndsAt, err)
		}
		if _, err := GrantPass(ctx, db, accounts, "nobody@example.com", now); err == nil {
			t.Fatal("granted a pass to an unknown email")
		}
	})
}
