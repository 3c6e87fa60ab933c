package billing

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/stripe/stripe-go/v84"

	"github.com/whitecoat/whitecoat/internal/store"
)

// PaymentStatus is where a payment stands.
type PaymentStatus string

const (
	// PaymentPaid: the pass it bought counts.
	PaymentPaid PaymentStatus = "paid"
	// PaymentRefunded: fully refunded; its days were taken off the pass.
	PaymentRefunded PaymentStatus = "refunded"
	// PaymentDisputed: a chargeback is open; its days are withheld.
	PaymentDisputed PaymentStatus = "disputed"
	// PaymentDisputeLost: the chargeback went against us; its days are gone.
	PaymentDisputeLost PaymentStatus = "dispute_lost"
	// PaymentUnrecognised: paid, but not the pass this server sells; it
	// granted nothing, and Note says why.
	PaymentUnrecognised PaymentStatus = "unrecognised"
)

// Payment is one paid Checkout Session and what became of it.
type Payment struct {
	ID            string        `json:"id" doc:"The Stripe Checkout Session id."`
	UserID        string        `json:"userId"`
	EventID       string        `json:"-"`
	PaymentIntent string        `json:"paymentIntent"`
	AmountCents   int64         `json:"amountCents"`
	Currency      string        `json:"currency"`
	Status        PaymentStatus `json:"status" enum:"paid,refunded,disputed,dispute_lost,unrecognised"`
	CreatedAt     time.Time     `json:"createdAt"`
	PassStartsAt  time.Time     `json:"passStartsAt"`
	PassEndsAt    time.Time     `json:"passEndsAt"`
	RefundedAt    *time.Time    `json:"refundedAt"`
	DisputedAt    *time.Time    `json:"disputedAt"`
	Note          string        `json:"note" doc:"Why an unrecognized payment granted nothing."`
}

const paymentColumns = `id, user_id, event_id, payment_intent, amount_cents, currency, status, created_at, pass_starts_at, pass_ends_at, refunded_at, disputed_at, note`

func scanPayment(row interface{ Scan(...any) error }) (Payment, error) {
	var p Payment
	var status string
	var userID sql.NullString // NULL once the account is deleted
	err := row.Scan(&p.ID, &userID, &p.EventID, &p.PaymentIntent, &p.AmountCents, &p.Currency, &status, &p.CreatedAt,
		&p.PassStartsAt, &p.PassEndsAt, &p.RefundedAt, &p.DisputedAt, &p.Note)
	p.Status = PaymentStatus(status)
	p.UserID = userID.String
	return p, err
}

// recordEvent notes that event is being acted on; fresh is false when it
// was before (a redelivery), and then nothing else may change. A
// concurrent delivery waits here for the first to commit.
func recordEvent(ctx context.Context, q store.Queryer, event stripe.Event, now time.Time) (fresh bool, err error) {
	res, err := q.ExecContext(ctx, `INSERT INTO stripe_events (id, type, received_at) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING`,
		event.ID, string(event.Type), now)
	if err != nil {
		return false, fmt.Errorf("billing: record event: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// insertPayment adds p unless its Checkout Session was recorded already;
// an empty UserID is no account. The pass dates are set by setPassDates
// once the pass is computed.
func insertPayment(ctx context.Context, q store.Queryer, p Payment) (created bool, err error) {
	res, err := q.ExecContext(ctx, `INSERT INTO payments (id, user_id, event_id, payment_intent, amount_cents, currency, status, created_at, pass_starts_at, pass_ends_at, note)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $8, $9) ON CONFLICT (id) DO NOTHING`,
		p.ID, sql.NullString{String: p.UserID, Valid: p.UserID != ""}, p.EventID, p.PaymentIntent, p.AmountCents, p.Currency, string(p.Status), p.CreatedAt, p.Note)
	if err != nil {
		return false, fmt.Errorf("billing: insert payment: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

func setPassDates(ctx context.Context, q store.Queryer, id string, start, end time.Time) error {
	if _, err := q.ExecContext(ctx, `UPDATE payments SET pass_starts_at = $1, pass_ends_at = $2 WHERE id = $3`, start, end, id); err != nil {
		return fmt.Errorf("billing: set pass dates: %w", err)
	}
	return nil
}

func paymentByIntent(ctx context.Context, q store.Queryer, paymentIntent string) (Payment, error) {
	return scanPayment(q.QueryRowContext(ctx, `SELECT `+paymentColumns+` FROM payments WHERE payment_intent = $1 AND payment_intent <> ''`, paymentIntent))
}

func markRefunded(ctx context.Context, q store.Queryer, id string, at time.Time) error {
	if _, err := q.ExecContext(ctx, `UPDATE payments SET status = $1, refunded_at = $2 WHERE id = $3`, string(PaymentRefunded), at, id); err != nil {
		return fmt.Errorf("billing: mark refunded: %w", err)
	}
	return nil
}

func markDisputed(ctx context.Context, q store.Queryer, id string, at time.Time) error {
	if _, err := q.ExecContext(ctx, `UPDATE payments SET status = $1, disputed_at = $2 WHERE id = $3`, string(PaymentDisputed), at, id); err != nil {
		return fmt.Errorf("billing: mark disputed: %w", err)
	}
	return nil
}

func setPaymentStatus(ctx context.Context, q store.Queryer, id string, status PaymentStatus) error {
	if _, err := q.ExecContext(ctx, `UPDATE payments SET status = $1 WHERE id = $2`, string(status), id); err != nil {
		return fmt.Errorf("billing: set payment status: %w", err)
	}
	return nil
}

// passesFrom lists the user's paid passes starting at or after from: the
// ones queued behind a pass whose days are taken away.
func passesFrom(ctx context.Context, q store.Queryer, userID string, from time.Time) ([]Payment, error) {
	return queryPayments(ctx, q, `SELECT `+paymentColumns+` FROM payments WHERE user_id = $1 AND status = $2 AND pass_starts_at >= $3 ORDER BY pass_starts_at`,
		userID, string(PaymentPaid), from)
}

// hasOpenDispute reports whether any of the user's payments is disputed.
func hasOpenDispute(ctx context.Context, q store.Queryer, userID string) (bool, error) {
	var n int
	if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM payments WHERE user_id = $1 AND status = $2`, userID, string(PaymentDisputed)).Scan(&n); err != nil {
		return false, fmt.Errorf("billing: count disputes: %w", err)
	}
	return n > 0, nil
}

// detachPayments keeps a user's payments for the accounts but no longer
// tied to the account, which is about to be deleted.
func detachPayments(ctx context.Context, q store.Queryer, userID string) error {
	if _, err := q.ExecContext(ctx, `UPDATE payments SET user_id = NULL WHERE user_id = $1`, userID); err != nil {
		return fmt.Errorf("billing: detach payments: %w", err)
	}
	return nil
}

// paymentsOf lists a user's payments, newest first.
func paymentsOf(ctx context.Context, q store.Queryer, userID string) ([]Payment, error) {
	return queryPayments(ctx, q, `SELECT `+paymentColumns+` FROM payments WHERE user_id = $1 ORDER BY created_at DESC, id`, userID)
}

func queryPayments(ctx context.Context, q store.Queryer, query string, args ...any) ([]Payment, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("billing: list payments: %w", err)
	}
	defer rows.Close()
	out := []Payment{}
	for rows.Next() {
		p, err := scanPayment(rows)
		if err != nil {
			return nil, fmt.Errorf("billing: list payments: %w", err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// paymentsEndingBy lists the paid passes ending between now and by whose
// holder has not been reminded, leaving out any a later purchase extended.
func paymentsEndingBy(ctx context.Context, q store.Queryer, now, by time.Time) ([]Payment, error) {
	return queryPayments(ctx, q, `SELECT `+paymentColumns+` FROM payments p
		WHERE status = $1 AND user_id IS NOT NULL AND reminder_sent_at IS NULL AND pass_ends_at > $2 AND pass_ends_at <= $3
		AND NOT EXISTS (SELECT 1 FROM payments later WHERE later.user_id = p.user_id AND later.status = $1 AND later.pass_ends_at > p.pass_ends_at)
		ORDER BY pass_ends_at`, string(PaymentPaid), now, by)
}

// claimReminder marks a pass reminded; false when another run did first.
func claimReminder(ctx context.Context, q store.Queryer, id string, now time.Time) (bool, error) {
	res, err := q.ExecContext(ctx, `UPDATE payments SET reminder_sent_at = $1 WHERE id = $2 AND reminder_sent_at IS NULL`, now, id)
	if err != nil {
		return false, fmt.Errorf("billing: claim reminder: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

func releaseReminder(ctx context.Context, q store.Queryer, id string) error {
	if _, err := q.ExecContext(ctx, `UPDATE payments SET reminder_sent_at = NULL WHERE id = $1`, id); err != nil {
		return fmt.Errorf("billing: release reminder: %w", err)
	}
	return nil
}

// passOf is userID's Premium pass; the zero Pass when the account has none.
func passOf(ctx context.Context, q store.Queryer, userID string) (Pass, error) {
	passes, err := passesOf(ctx, q, []string{userID})
	return passes[userID], err
}

// passesOf is the passes of those of userIDs that have one.
func passesOf(ctx context.Context, q store.Queryer, userIDs []string) (map[string]Pass, error) {
	out := map[string]Pass{}
	if len(userIDs) == 0 {
		return out, nil
	}
	marks := make([]string, len(userIDs))
	args := make([]any, len(userIDs))
	for i, id := range userIDs {
		marks[i], args[i] = "$"+strconv.Itoa(i+1), id
	}
	rows, err := q.QueryContext(ctx, `SELECT user_id, paid_at, ends_at, on_hold FROM premium_passes WHERE user_id IN (`+strings.Join(marks, ", ")+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("billing: read passes: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var userID string
		p := Pass{Paid: true}
		if err := rows.Scan(&userID, &p.PaidAt, &p.EndsAt, &p.OnHold); err != nil {
			return nil, fmt.Errorf("billing: read passes: %w", err)
		}
		p.PaidAt, p.EndsAt = inUTC(p.PaidAt), inUTC(p.EndsAt)
		out[userID] = p
	}
	return out, rows.Err()
}

func inUTC(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// savePass records that userID holds a pass bought at paidAt and ending
// at endsAt; its hold stays as it was.
func savePass(ctx context.Context, q store.Queryer, userID string, paidAt, endsAt time.Time) error {
	_, err := q.ExecContext(ctx, `INSERT INTO premium_passes (user_id, paid_at, ends_at) VALUES ($1, $2, $3)
		ON CONFLICT (user_id) DO UPDATE SET paid_at = excluded.paid_at, ends_at = excluded.ends_at`, userID, paidAt, endsAt)
	if err != nil {
		return fmt.Errorf("billing: save pass: %w", err)
	}
	return nil
}

// adjustPass moves the end of userID's pass and sets its hold; an account
// without a pass is left without one.
func adjustPass(ctx context.Context, q store.Queryer, userID string, endsAt time.Time, onHold bool) error {
	if _, err := q.ExecContext(ctx, `UPDATE premium_passes SET ends_at = $1, on_hold = $2 WHERE user_id = $3`, endsAt, onHold, userID); err != nil {
		return fmt.Errorf("billing: adjust pass: %w", err)
	}
	return nil
}

// deletePass removes userID's pass; the account is about to be deleted.
func deletePass(ctx context.Context, q store.Queryer, userID string) error {
	if _, err := q.ExecContext(ctx, `DELETE FROM premium_passes WHERE user_id = $1`, userID); err != nil {
		return fmt.Errorf("billing: delete pass: %w", err)
	}
	return nil
}
