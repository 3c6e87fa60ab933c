package billing

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/stripe/stripe-go/v84"
	"github.com/stripe/stripe-go/v84/webhook"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/mail"
	"github.com/whitecoat/whitecoat/internal/store"
)

// MsgBadSignature answers a webhook whose Stripe-Signature does not hold,
// or was made outside Stripe's tolerance of the present, either way.
const MsgBadSignature = "The Stripe-Signature header does not match this payload, or was not made within five minutes of now."

// UnknownPaymentWait is how long a refund or dispute of a payment not
// recorded here may be answered "send it again": its
// checkout.session.completed may still be on its way, and Stripe sends
// that within seconds (and again, for days, when it failed). Stripe is
// asked first whether the payment is one of ours (its PaymentIntent
// carries our stamp); one that is not is acknowledged and ignored at once.
// Only when Stripe cannot answer does the event's age decide: older ones
// are acknowledged and ignored, or Stripe would retry them for three days.
const UnknownPaymentWait = time.Hour

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
	if err == nil && signedInFuture(signature, time.Now()) {
		err = errSignedAhead
	}
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
		if cs.PaymentStatus == stripe.CheckoutSessionPaymentStatusUnpaid {
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
		return s.onPayment(ctx, event, ch.PaymentIntent.ID, s.refund)
	case stripe.EventTypeChargeDisputeCreated, stripe.EventTypeChargeDisputeClosed:
		var d stripe.Dispute
		if err := json.Unmarshal(event.Data.Raw, &d); err != nil {
			return fmt.Errorf("billing: read dispute of %s: %w", event.ID, err)
		}
		if d.PaymentIntent == nil {
			return nil
		}
		change := s.dispute
		if event.Type == stripe.EventTypeChargeDisputeClosed {
			change = func(ctx context.Context, tx *sql.Tx, p Payment, now time.Time) error {
				return s.closeDispute(ctx, tx, p, now, d.Status)
			}
		}
		return s.onPayment(ctx, event, d.PaymentIntent.ID, change)
	}
	return nil
}

// errSignedAhead: stripe-go refuses signatures older than its tolerance
// only; one made further ahead is a forged clock or a replay kept for later.
var errSignedAhead = errors.New("billing: Stripe-Signature timestamp is ahead of the tolerance")

// signedInFuture reports whether the signature's timestamp is more than
// Stripe's tolerance after now.
func signedInFuture(signature string, now time.Time) bool {
	for part := range strings.SplitSeq(signature, ",") {
		if v, ok := strings.CutPrefix(part, "t="); ok {
			t, err := strconv.ParseInt(v, 10, 64)
			return err != nil || time.Unix(t, 0).Sub(now) > webhook.DefaultTolerance
		}
	}
	return false
}

// fulfil grants a one-year pass for a paid Checkout Session of the pass
// this server sells, once; any other paid session is recorded, for
// admins, as unrecognised.
func (s *Service) fulfil(ctx context.Context, event stripe.Event, cs stripe.CheckoutSession) error {
	now := store.Truncate(s.now())
	pass := newPass(now)
	var (
		granted bool
		userID  = cs.ClientReferenceID
	)
	why := s.unrecognised(cs)
	if _, err := s.accounts.UserByID(ctx, userID); apperr.KindOf(err) == apperr.KindNotFound {
		// Another integration's session, or one paid for by an account
		// deleted since: nothing to grant, nothing to tie it to.
		userID = ""
		why = strings.TrimPrefix(why+"; names no account here", "; ")
	} else if err != nil {
		return fmt.Errorf("billing: fulfill %s: %w", cs.ID, err)
	}
	paymentIntent := ""
	if cs.PaymentIntent != nil {
		paymentIntent = cs.PaymentIntent.ID
	}
	p := Payment{ID: cs.ID, UserID: userID, EventID: event.ID, PaymentIntent: paymentIntent, AmountCents: cs.AmountTotal,
		Currency: string(cs.Currency), Status: PaymentPaid, CreatedAt: now}
	if why != "" {
		p.Status, p.Note = PaymentUnrecognised, why
	}
	err := s.db.WithTx(ctx, func(tx *sql.Tx) error {
		if fresh, err := recordEvent(ctx, tx, event, now); err != nil || !fresh {
			return err
		}
		// The payment row comes first: a second event for the same session
		// waits on its key and then finds it, before any pass changes.
		created, err := insertPayment(ctx, tx, p)
		if err != nil || !created || p.Status != PaymentPaid {
			return err
		}
		if err := extendPass(ctx, s.db, tx, userID, pass); err != nil {
			return err
		}
		granted = true
		return setPassDates(ctx, tx, cs.ID, pass.Start, pass.End)
	})
	if err != nil {
		return fmt.Errorf("billing: fulfill %s: %w", cs.ID, err)
	}
	if why != "" {
		s.logger.ErrorContext(ctx, "paid checkout session is not the pass this server sells; recorded as unrecognized, nothing granted",
			"session", cs.ID, "user", cs.ClientReferenceID, "event", event.ID, "why", why)
	}
	if granted {
		s.logger.InfoContext(ctx, "Premium pass granted", "user", userID, "session", cs.ID, "ends", pass.End)
		s.sendReceipt(ctx, userID, cs.AmountTotal, string(cs.Currency), pass)
	}
	return nil
}

// refund takes off the account the days a fully refunded payment bought.
func (s *Service) refund(ctx context.Context, tx *sql.Tx, p Payment, now time.Time) error {
	switch p.Status {
	case PaymentPaid:
		if err := markRefunded(ctx, tx, p.ID, now); err != nil {
			return err
		}
		onHold, err := hasOpenDispute(ctx, tx, p.UserID)
		if err != nil {
			return err
		}
		return s.withhold(ctx, tx, p, now, onHold)
	case PaymentDisputed: // its days are withheld already
		if err := markRefunded(ctx, tx, p.ID, now); err != nil {
			return err
		}
		return s.releaseHold(ctx, tx, p.UserID)
	}
	return nil
}

// dispute withholds the days a disputed payment bought and puts the
// account's pass on hold until the dispute closes.
func (s *Service) dispute(ctx context.Context, tx *sql.Tx, p Payment, now time.Time) error {
	if p.Status != PaymentPaid {
		return nil // refunded, or disputed already: no days of its left
	}
	if err := markDisputed(ctx, tx, p.ID, now); err != nil {
		return err
	}
	return s.withhold(ctx, tx, p, now, true)
}

// closeDispute gives the withheld days back when the dispute is won (or
// was an inquiry that closed), and keeps them when it is lost.
func (s *Service) closeDispute(ctx context.Context, tx *sql.Tx, p Payment, now time.Time, outcome stripe.DisputeStatus) error {
	if p.Status != PaymentDisputed {
		return nil
	}
	if outcome == stripe.DisputeStatusLost {
		if err := setPaymentStatus(ctx, tx, p.ID, PaymentDisputeLost); err != nil {
			return err
		}
		return s.releaseHold(ctx, tx, p.UserID)
	}
	return s.giveBack(ctx, tx, p, now)
}

// releaseHold takes the account's pass off hold unless another dispute is open.
func (s *Service) releaseHold(ctx context.Context, tx *sql.Tx, userID string) error {
	onHold, err := hasOpenDispute(ctx, tx, userID)
	if err != nil {
		return err
	}
	return s.settle(ctx, tx, userID, onHold, func(end time.Time) time.Time { return end })
}

// onPayment runs change on the payment an event is about, once per event.
// One about a payment not recorded here is sent again later while young
// (see UnknownPaymentWait), then acknowledged and ignored.
func (s *Service) onPayment(ctx context.Context, event stripe.Event, paymentIntent string, change func(context.Context, *sql.Tx, Payment, time.Time) error) error {
	now := store.Truncate(s.now())
	ignored := false
	err := s.db.WithTx(ctx, func(tx *sql.Tx) error {
		if fresh, err := recordEvent(ctx, tx, event, now); err != nil || !fresh {
			return err
		}
		p, err := paymentByIntent(ctx, tx, paymentIntent)
		if errors.Is(err, sql.ErrNoRows) {
			if now.Sub(time.Unix(event.Created, 0)) < UnknownPaymentWait {
				return errNotYetKnown
			}
			ignored = true
			return nil
		}
		if err != nil {
			return err
		}
		return change(ctx, tx, p, now)
	})
	if errors.Is(err, errNotYetKnown) {
		if sold, known := s.soldHere(ctx, paymentIntent); known && !sold {
			err = s.db.WithTx(ctx, func(tx *sql.Tx) error {
				_, err := recordEvent(ctx, tx, event, now)
				return err
			})
			ignored = true
		}
	}
	if ignored {
		s.logger.ErrorContext(ctx, "Stripe event about a payment this server never recorded; ignored", "event", event.ID, "type", event.Type, "payment_intent", paymentIntent)
	}
	if err != nil && !errors.Is(err, errNotYetKnown) {
		return fmt.Errorf("billing: %s %s: %w", event.Type, event.ID, err)
	}
	return err
}

// soldHere asks Stripe whether paymentIntent was taken by a checkout this
// server created, whose PaymentIntent carries our stamp. known is false
// when Stripe cannot be asked (no key: the development checkout) or did
// not answer; Stripe's own answer is asked outside any transaction.
func (s *Service) soldHere(ctx context.Context, paymentIntent string) (sold, known bool) {
	if s.stripe == nil {
		return false, false
	}
	pi, err := s.stripe.V1PaymentIntents.Retrieve(ctx, paymentIntent, nil)
	if err != nil {
		s.logger.WarnContext(ctx, "could not ask Stripe whose payment an event is about", "payment_intent", paymentIntent, "err", err)
		return false, false
	}
	return pi.Metadata[metaProduct] == productPass, true
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
