package billing

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v84"
	"github.com/stripe/stripe-go/v84/webhook"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/billing/stripemock"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

const day = 24 * time.Hour

// TestWebhookGrantsOnlyThePassWeSell: a signed, paid Checkout Session
// grants a pass only when it is the session this server created for its
// pass, at its price; anything else is recorded for admins, grants
// nothing, and is acknowledged so that Stripe does not send it again.
func TestWebhookGrantsOnlyThePassWeSell(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := stripeFixture(t, db)
		with := func(id string, change func(map[string]any)) map[string]any {
			s := paidSession(id, "pi_"+id)
			change(s)
			return s
		}
		for name, session := range map[string]map[string]any{
			"one cent": with("cs_cent", func(s map[string]any) { s["amount_total"], s["amount_subtotal"] = 1, 1 }),
			"29 JPY":   with("cs_jpy", func(s map[string]any) { s["amount_total"], s["amount_subtotal"], s["currency"] = 29, 29, "jpy" }),
			"subscription of 0": with("cs_sub", func(s map[string]any) {
				s["mode"], s["amount_total"], s["amount_subtotal"] = "subscription", 0, 0
			}),
			// A Payment Link or another integration on the same Stripe
			// account, for the same amount, with a student's id attached.
			"payment link": with("cs_link", func(s map[string]any) { delete(s, "metadata") }),
			"another price": with("cs_price", func(s map[string]any) {
				s["metadata"] = map[string]any{"whitecoat_product": "premium_pass", "whitecoat_price": "price_cheap"}
			}),
			"nothing paid": with("cs_free", func(s map[string]any) { s["payment_status"], s["amount_total"] = "no_payment_required", 0 }),
		} {
			if err := f.deliver(t, "evt_"+name, stripe.EventTypeCheckoutSessionCompleted, session); err != nil {
				t.Fatalf("%s: %v, want acknowledged", name, err)
			}
			if p := f.pass(t); p.Paid {
				t.Fatalf("%s granted a pass ending %v", name, p.EndsAt)
			}
		}
		list := f.payments(t)
		if len(list) != 6 {
			t.Fatalf("%d payments recorded, want the 6 unrecognised: %+v", len(list), list)
		}
		for _, p := range list {
			if p.Status != PaymentUnrecognised || p.Note == "" || !p.PassEndsAt.Equal(p.PassStartsAt) {
				t.Errorf("payment %s: status %q, note %q, pass %v..%v", p.ID, p.Status, p.Note, p.PassStartsAt, p.PassEndsAt)
			}
		}

		// A promotion code lowers the total, not the price: granted.
		discounted := with("cs_promo", func(s map[string]any) {
			s["amount_total"], s["total_details"] = 1900, map[string]any{"amount_discount": 1000, "amount_tax": 0, "amount_shipping": 0}
		})
		if err := f.deliver(t, "evt_promo", stripe.EventTypeCheckoutSessionCompleted, discounted); err != nil {
			t.Fatal(err)
		}
		f.wantPassEnd(t, f.now.Add(SubscriptionLength))
	})
}

// TestRefundEndsOnlyItsPass: two passes bought one after the other run
// back to back; refunding one takes away its year only.
func TestRefundEndsOnlyItsPass(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := stripeFixture(t, db)
		buy := func(n string) {
			t.Helper()
			if err := f.deliver(t, "evt_buy_"+n, stripe.EventTypeCheckoutSessionCompleted, paidSession("cs_"+n, "pi_"+n)); err != nil {
				t.Fatal(err)
			}
		}
		refund := func(n string) {
			t.Helper()
			if err := f.deliver(t, "evt_refund_"+n, stripe.EventTypeChargeRefunded, fullRefund(n)); err != nil {
				t.Fatal(err)
			}
		}
		buy("1")
		buy("2")
		f.wantPassEnd(t, f.now.Add(2*SubscriptionLength))
		refund("2")
		f.wantPassEnd(t, f.now.Add(SubscriptionLength))
		if access := f.access(t, f.now); access.DaysLeft != 365 || !access.PracticeEnabled {
			t.Fatalf("after refunding the second pass: %+v", access)
		}

		// The first of two stacked passes refunded: one year less, and
		// the second runs from now.
		buy("3")
		f.wantPassEnd(t, f.now.Add(2*SubscriptionLength))
		refund("1")
		f.wantPassEnd(t, f.now.Add(SubscriptionLength))
		for _, p := range f.payments(t) {
			if p.ID == "cs_3" && (!p.PassStartsAt.Equal(f.now) || !p.PassEndsAt.Equal(f.now.Add(SubscriptionLength))) {
				t.Fatalf("the remaining pass runs %v..%v", p.PassStartsAt, p.PassEndsAt)
			}
		}
		refund("3")
		if access := f.access(t, f.now); access.Status != PaidCancelled || access.PracticeEnabled {
			t.Fatalf("every pass refunded: %+v", access)
		}
	})
}

// TestEventsAboutPaymentsNeverSold: a refund or dispute of a payment this
// server never recorded is retried for a while (its checkout may still be
// on its way), then acknowledged and ignored instead of failing forever.
func TestEventsAboutPaymentsNeverSold(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := stripeFixture(t, db)
		dispute := map[string]any{"id": "dp_x", "object": "dispute", "charge": "ch_x", "payment_intent": "pi_x", "amount": 2900, "status": "needs_response"}
		for _, ev := range []struct {
			id     string
			typ    stripe.EventType
			object map[string]any
		}{{"evt_refund_x", stripe.EventTypeChargeRefunded, fullRefund("x")}, {"evt_dispute_x", stripe.EventTypeChargeDisputeCreated, dispute}} {
			f.svc.now = func() time.Time { return f.now }
			if err := f.deliver(t, ev.id, ev.typ, ev.object); apperr.KindOf(err) != apperr.KindUnavailable {
				t.Fatalf("%s just sent: %v, want unavailable (sent again)", ev.typ, err)
			}
			f.svc.now = func() time.Time { return f.now.Add(UnknownPaymentWait + time.Minute) }
			if err := f.deliver(t, ev.id, ev.typ, ev.object); err != nil {
				t.Fatalf("%s sent again after %v: %v, want acknowledged", ev.typ, UnknownPaymentWait, err)
			}
		}
		if p := f.payments(t); len(p) != 0 {
			t.Fatalf("payments %+v", p)
		}
	})
}

// TestStripeSaysWhosePaymentItIs: a young refund or dispute of a payment
// not recorded here is acknowledged at once when Stripe (stripe-mock, whose
// PaymentIntents carry no stamp of ours) says the payment is not ours.
func TestStripeSaysWhosePaymentItIs(t *testing.T) {
	t.Parallel()
	api := stripemock.Start(t)
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db, Config{SecretKey: "sk_test_123", APIURL: api})
		for _, ev := range []struct {
			id     string
			typ    stripe.EventType
			object map[string]any
		}{{"evt_refund_y", stripe.EventTypeChargeRefunded, fullRefund("y")}, {"evt_dispute_y", stripe.EventTypeChargeDisputeCreated, disputeOf("y", "needs_response")}} {
			if err := f.deliver(t, ev.id, ev.typ, ev.object); err != nil {
				t.Fatalf("%s of a payment Stripe says is not ours: %v, want acknowledged", ev.typ, err)
			}
		}
		if p := f.payments(t); len(p) != 0 {
			t.Fatalf("payments %+v", p)
		}
	})
}

// TestDisputeSuspendsThePass: a chargeback takes the disputed pass's days
// away until the dispute closes; won, they come back; lost, they are gone
// as after a refund.
func TestDisputeSuspendsThePass(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := stripeFixture(t, db)
		if err := f.deliver(t, "evt_buy", stripe.EventTypeCheckoutSessionCompleted, paidSession("cs_1", "pi_1")); err != nil {
			t.Fatal(err)
		}
		if err := f.deliver(t, "evt_dispute", stripe.EventTypeChargeDisputeCreated, disputeOf("1", "needs_response")); err != nil {
			t.Fatal(err)
		}
		access := f.access(t, f.now)
		if access.Status != PaidSuspended || access.PracticeEnabled || access.Badge != "Premium on hold" {
			t.Fatalf("disputed: %+v", access)
		}
		if p := f.payments(t); p[0].Status != PaymentDisputed || p[0].DisputedAt == nil {
			t.Fatalf("disputed payment %+v", p[0])
		}

		// Won ten days later: the year comes back from then.
		later := f.now.Add(10 * day)
		f.svc.now = func() time.Time { return later }
		if err := f.deliver(t, "evt_won", stripe.EventTypeChargeDisputeClosed, disputeOf("1", "won")); err != nil {
			t.Fatal(err)
		}
		f.wantPassEnd(t, later.Add(SubscriptionLength))
		if access := f.access(t, later); access.Status != PaidActive || !access.PracticeEnabled {
			t.Fatalf("dispute won: %+v", access)
		}

		// Another dispute, lost: the pass ends as after a refund.
		if err := f.deliver(t, "evt_dispute_2", stripe.EventTypeChargeDisputeCreated, disputeOf("1", "needs_response")); err != nil {
			t.Fatal(err)
		}
		if err := f.deliver(t, "evt_lost", stripe.EventTypeChargeDisputeClosed, disputeOf("1", "lost")); err != nil {
			t.Fatal(err)
		}
		access = f.access(t, later)
		if access.Status != PaidCancelled || access.PracticeEnabled {
			t.Fatalf("dispute lost: %+v", access)
		}
		if p := f.payments(t); p[0].Status != PaymentDisputeLost {
			t.Fatalf("lost dispute recorded as %+v", p[0])
		}
	})
}

// TestRedeliveredEventsChangeNothing pins the de-duplication of Stripe
// events: an old event sent again must not act a second time on a pass
// bought or restored since.
func TestRedeliveredEventsChangeNothing(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := stripeFixture(t, db)
		deliver := func(id string, typ stripe.EventType, object map[string]any) {
			t.Helper()
			if err := f.deliver(t, id, typ, object); err != nil {
				t.Fatal(err)
			}
		}
		deliver("evt_buy_1", stripe.EventTypeCheckoutSessionCompleted, paidSession("cs_1", "pi_1"))
		deliver("evt_refund_1", stripe.EventTypeChargeRefunded, fullRefund("1"))
		deliver("evt_buy_2", stripe.EventTypeCheckoutSessionCompleted, paidSession("cs_2", "pi_2"))
		deliver("evt_refund_1", stripe.EventTypeChargeRefunded, fullRefund("1"))
		if access := f.access(t, f.now); access.Status != PaidActive || access.DaysLeft != 365 {
			t.Fatalf("an old refund sent again: %+v", access)
		}
		deliver("evt_dispute_2", stripe.EventTypeChargeDisputeCreated, disputeOf("2", "needs_response"))
		deliver("evt_won_2", stripe.EventTypeChargeDisputeClosed, disputeOf("2", "won"))
		deliver("evt_dispute_2", stripe.EventTypeChargeDisputeCreated, disputeOf("2", "needs_response"))
		if access := f.access(t, f.now); access.Status != PaidActive || !access.PracticeEnabled {
			t.Fatalf("a dispute sent again after it was won: %+v", access)
		}
	})
}

// TestWebhookRefusesTimestampsOutsideTolerance: Stripe signs with the time
// of sending; an hour either way is a replay or a forged clock.
func TestWebhookRefusesTimestampsOutsideTolerance(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := stripeFixture(t, db)
		for name, at := range map[string]time.Time{"1 h ahead": time.Now().Add(time.Hour), "1 h ago": time.Now().Add(-time.Hour)} {
			payload, header, err := signedEvent(testSecret, "evt_"+name, stripe.EventTypeCheckoutSessionCompleted, paidSession("cs_1", "pi_1"), at)
			if err != nil {
				t.Fatal(err)
			}
			if err := f.svc.HandleWebhook(context.Background(), payload, header); apperr.KindOf(err) != apperr.KindInvalid {
				t.Errorf("signed %s: %v, want invalid", name, err)
			}
		}
		// Within the tolerance, a sender's clock a little ahead is fine.
		payload, _, err := signedEvent(testSecret, "evt_ok", stripe.EventTypeCheckoutSessionCompleted, paidSession("cs_1", "pi_1"), time.Now())
		if err != nil {
			t.Fatal(err)
		}
		ahead := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: testSecret, Timestamp: time.Now().Add(time.Minute)})
		if err := f.svc.HandleWebhook(context.Background(), payload, ahead.Header); err != nil {
			t.Fatal(err)
		}
		f.wantPassEnd(t, f.now.Add(SubscriptionLength))
	})
}

func fullRefund(n string) map[string]any {
	return map[string]any{"id": "ch_" + n, "object": "charge", "refunded": true, "amount_refunded": 2900, "payment_intent": "pi_" + n}
}

func disputeOf(n, status string) map[string]any {
	return map[string]any{"id": "dp_" + n, "object": "dispute", "charge": "ch_" + n, "payment_intent": "pi_" + n, "amount": 2900, "status": status}
}

// TestDisputeOfAQueuedPassLeavesTheRunningOne: the hold covers the
// disputed payment's days only; the pass already running stays usable.
func TestDisputeOfAQueuedPassLeavesTheRunningOne(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := stripeFixture(t, db)
		for _, n := range []string{"1", "2"} {
			if err := f.deliver(t, "evt_buy_"+n, stripe.EventTypeCheckoutSessionCompleted, paidSession("cs_"+n, "pi_"+n)); err != nil {
				t.Fatal(err)
			}
		}
		if err := f.deliver(t, "evt_dispute_2", stripe.EventTypeChargeDisputeCreated, disputeOf("2", "needs_response")); err != nil {
			t.Fatal(err)
		}
		f.wantPassEnd(t, f.now.Add(SubscriptionLength))
		if access := f.access(t, f.now); access.Status != PaidActive || !access.PracticeEnabled {
			t.Fatalf("the running pass while the queued one is disputed: %+v", access)
		}
		// Once the running pass has ended, the disputed days are on hold.
		if access := f.access(t, f.now.Add(SubscriptionLength+day)); access.Status != PaidSuspended {
			t.Fatalf("after the running pass: %+v", access)
		}
	})
}

// TestRefundAfterTheAccountIsDeleted: a refund of a payment whose account
// was deleted since (the record kept for the accounts, unlinked) is
// recorded on the payment, and there is no pass left to shorten. It used
// to look for the account to shorten its pass, find none, and fail on
// every delivery, so the record never showed the refund.
func TestRefundAfterTheAccountIsDeleted(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := stripeFixture(t, db)
		ctx := context.Background()
		if err := f.deliver(t, "evt_1", stripe.EventTypeCheckoutSessionCompleted, paidSession("cs_1", "pi_1")); err != nil {
			t.Fatal(err)
		}
		u := f.user(t)
		err := db.WithTx(ctx, func(tx *sql.Tx) error {
			if err := f.svc.DeleteUserData(ctx, tx, u.ID); err != nil {
				return err
			}
			return f.users.DeleteUser(ctx, tx, u, 0)
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := f.deliver(t, "evt_refund_1", stripe.EventTypeChargeRefunded, fullRefund("1")); err != nil {
			t.Fatalf("refund of a deleted account's payment: %v", err)
		}
		var status string
		if err := db.SQL.QueryRowContext(ctx, `SELECT status FROM payments WHERE id = 'cs_1' AND user_id IS NULL`).Scan(&status); err != nil || status != string(PaymentRefunded) {
			t.Fatalf("kept payment is %q (%v), want refunded", status, err)
		}
		if passes, err := passesOf(ctx, db.SQL, []string{u.ID}); err != nil || len(passes) != 0 {
			t.Fatalf("passes left %v (%v)", passes, err)
		}
	})
}
