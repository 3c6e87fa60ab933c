package billing

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/stripe/stripe-go/v84"
	"github.com/stripe/stripe-go/v84/webhook"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/mail"
	"github.com/whitecoat/whitecoat/internal/store"
)

// MsgBadSignature answers a webhook whose Stripe-Signature does not hold.
const MsgBadSignature = "The Stripe-Signature header does not match this payload."

// errNotYetKnown: a refund or dispute arrived before the payment it is
// about. Stripe redelivers events answered with an error, by which time
// the payment has been recorded.
var errNotYetKnown = apperr.Unavailable("This event is about a payment not recorded yet; send it again later.", time.Minute, nil)

// HandleWebhook verifies and acts on one Stripe event. Every change it
// makes is written with the event's id in one transaction, so a replayed,
// concurrent or reordered delivery changes nothing twice.
func (s *Service) HandleWebhook(ctx context.Context, payload []byte, signature string) error {
	if s.mode == ModeOff {
		return apperr.NotFound(MsgNotSetUp)
	}
	// Stripe's account may send a newer API version than stripe-go's; the
	// few fields read here are the same in every version.
	event, err := webhook.ConstructEventWithOptions(payload, signature, s.webhookSecret, webhook.ConstructEventOptions{IgnoreAPIVersionMismatch: true})
	if err != nil {
		s.logger.WarnContext(ctx, "refused a Stripe webhook", "err", err)
		return apperr.Invalid("", MsgBadSignature)
	}
	switch event.Type {
	case stripe.EventTypeCheckoutSessionCompleted, stripe.EventTypeCheckoutSessionAsyncPaymentSucceeded:
		var cs stripe.CheckoutSession
		if err := json.Unmarshal(event.Data.Raw, &cs); err != nil {
			return fmt.Errorf("billing: read checkout session of %s: %w", event.ID, err)
		}
		// A completed session can still wait for a bank transfer; its
		// async_payment_succeeded event grants the pass then.
		if cs.PaymentStatus != stripe.CheckoutSessionPaymentStatusPaid {
			return nil
		}
		return s.fulfil(ctx, event, cs)
	case stripe.EventTypeChargeRefunded:
		var ch stripe.Charge
		if err := json.Unmarshal(event.Data.Raw, &ch); err != nil {
			return fmt.Errorf("billing: read charge of %s: %w", event.ID, err)
		}
		if !ch.Refunded || ch.PaymentIntent == nil {
			return nil // a partial refund leaves the pass as it is
		}
		return s.refund(ctx, event, ch.PaymentIntent.ID)
	case stripe.EventTypeChargeDisputeCreated:
		var d stripe.Dispute
		if err := json.Unmarshal(event.Data.Raw, &d); err != nil {
			return fmt.Errorf("billing: read dispute of %s: %w", event.ID, err)
		}
		if d.PaymentIntent == nil {
			return nil
		}
		return s.dispute(ctx, event, d.PaymentIntent.ID)
	}
	return nil
}

// fulfil grants a one-year pass for a paid Checkout Session, once.
func (s *Service) fulfil(ctx context.Context, event stripe.Event, cs stripe.CheckoutSession) error {
	now := store.Truncate(s.now())
	pass := newPass(now)
	var (
		granted bool
		userID  = cs.ClientReferenceID
	)
	// A session another integration created, or paid for by an account
	// deleted since: nothing to grant, and nothing Stripe could change by
	// sending it again.
	if _, err := s.accounts.UserByID(ctx, userID); apperr.KindOf(err) == apperr.KindNotFound {
		s.logger.ErrorContext(ctx, "paid checkout session names no account", "session", cs.ID, "user", userID, "event", event.ID)
		return nil
	} else if err != nil {
		return fmt.Errorf("billing: fulfil %s: %w", cs.ID, err)
	}
	err := s.db.WithTx(ctx, func(tx *sql.Tx) error {
		if fresh, err := recordEvent(ctx, tx, event, now); err != nil || !fresh {
			return err
		}
		paymentIntent := ""
		if cs.PaymentIntent != nil {
			paymentIntent = cs.PaymentIntent.ID
		}
		p := Payment{ID: cs.ID, UserID: userID, EventID: event.ID, PaymentIntent: paymentIntent, AmountCents: cs.AmountTotal,
			Currency: string(cs.Currency), Status: PaymentPaid, CreatedAt: now}
		// The payment row comes first: a second event for the same session
		// waits on its key and then finds it, before any pass changes.
		created, err := insertPayment(ctx, tx, p)
		if err != nil || !created {
			return err
		}
		if _, err := s.accounts.ExtendPass(ctx, tx, userID, pass.dates); err != nil {
			return err
		}
		granted = true
		return setPassDates(ctx, tx, cs.ID, pass.Start, pass.End)
	})
	if err != nil {
		return fmt.Errorf("billing: fulfil %s: %w", cs.ID, err)
	}
	if granted {
		s.logger.InfoContext(ctx, "Premium pass granted", "user", userID, "session", cs.ID, "ends", pass.End)
		s.sendReceipt(ctx, userID, cs.AmountTotal, string(cs.Currency), pass)
	}
	return nil
}

// refund ends the pass a fully refunded payment bought, at once.
func (s *Service) refund(ctx context.Context, event stripe.Event, paymentIntent string) error {
	now := store.Truncate(s.now())
	return s.onPayment(ctx, event, paymentIntent, now, func(tx *sql.Tx, p Payment) error {
		if err := markRefunded(ctx, tx, p.ID, now); err != nil {
			return err
		}
		// A pass ending exactly now still counts as active (spec §4);
		// a refunded one has ended a moment before.
		return s.accounts.EndPass(ctx, tx, p.UserID, now.Add(-time.Second))
	})
}

// dispute records that the student's bank disputes a payment, for admins.
func (s *Service) dispute(ctx context.Context, event stripe.Event, paymentIntent string) error {
	now := store.Truncate(s.now())
	return s.onPayment(ctx, event, paymentIntent, now, func(tx *sql.Tx, p Payment) error {
		return markDisputed(ctx, tx, p.ID, now)
	})
}

// onPayment runs change on the payment an event is about, once per event.
func (s *Service) onPayment(ctx context.Context, event stripe.Event, paymentIntent string, now time.Time, change func(*sql.Tx, Payment) error) error {
	err := s.db.WithTx(ctx, func(tx *sql.Tx) error {
		if fresh, err := recordEvent(ctx, tx, event, now); err != nil || !fresh {
			return err
		}
		p, err := paymentByIntent(ctx, tx, paymentIntent)
		if errors.Is(err, sql.ErrNoRows) {
			return errNotYetKnown
		}
		if err != nil {
			return err
		}
		return change(tx, p)
	})
	if err != nil && !errors.Is(err, errNotYetKnown) {
		return fmt.Errorf("billing: %s %s: %w", event.Type, event.ID, err)
	}
	return err
}

// sendReceipt mails the receipt; the pass is granted whether or not the
// mail goes out, so a failure is logged, not returned to Stripe.
func (s *Service) sendReceipt(ctx context.Context, userID string, cents int64, currency string, p *pass) {
	u, err := s.accounts.UserByID(ctx, userID)
	if err == nil {
		var m mail.Message
		m, err = mail.PassReceipt(u.Email, u.Name, mail.Pass{RefundDays: RefundDays, Amount: FormatAmount(cents, currency), Start: FormatDate(p.Start), End: FormatDate(p.End),
			Support: s.cfg.SupportEmail, Link: s.cfg.BaseURL.JoinPath("dashboard").String()})
		if err == nil {
			err = s.mailer.Send(ctx, m)
		}
	}
	if err != nil {
		s.logger.ErrorContext(ctx, "receipt not sent", "user", userID, "err", err)
	}
}

// FormatAmount writes an amount in the currency's smallest unit as people
// read it: "$29.00", or "29.00 EUR" for other currencies.
func FormatAmount(cents int64, currency string) string {
	major := fmt.Sprintf("%d.%02d", cents/100, cents%100)
	if currency == "usd" {
		return "$" + major
	}
	return major + " " + strings.ToUpper(currency)
}
