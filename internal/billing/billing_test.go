package billing

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v84"
	"github.com/stripe/stripe-go/v84/webhook"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/billing/stripemock"
	"github.com/whitecoat/whitecoat/internal/mail"
	"github.com/whitecoat/whitecoat/internal/mail/mailtest"
	"github.com/whitecoat/whitecoat/internal/ratelimit"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

const testSecret = "whsec_test_billing"

// fixture is the billing service on a real database with one student,
// ana (id u1), whose trial has ended, and a real SMTP server for its mail.
type fixture struct {
	db    *store.DB
	svc   *Service
	smtp  *mailtest.Server
	now   time.Time
	users *auth.Service
}

func newFixture(t *testing.T, db *store.DB, cfg Config) *fixture {
	t.Helper()
	ctx := context.Background()
	now := store.Truncate(time.Now())
	if _, err := db.SQL.ExecContext(ctx, `INSERT INTO users (id, name, email, password_hash, created_at, trial_expires_at, email_verified) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
		"u1", "Ana", "ana@example.com", "x", now.Add(-10*24*time.Hour), now.Add(-3*24*time.Hour), true); err != nil {
		t.Fatal(err)
	}
	smtp := mailtest.Start(t)
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	mailer, err := mail.NewSMTP(smtp.URL, "Whitecoat <no-reply@whitecoat.test>")
	if err != nil {
		t.Fatal(err)
	}
	users := auth.NewService(db, mailer, ratelimit.New(db, time.Now), logger, time.Now, auth.Config{})
	if cfg.BaseURL == nil {
		cfg.BaseURL = &url.URL{Scheme: "http", Host: "localhost:8080"}
	}
	if cfg.WebhookSecret == "" && cfg.SecretKey != "" {
		cfg.WebhookSecret = testSecret
	}
	cfg.PriceCents, cfg.Currency, cfg.SupportEmail = 2900, "usd", "support@whitecoat.test"
	svc := NewService(db, users, mailer, logger, func() time.Time { return now }, cfg)
	return &fixture{db: db, svc: svc, smtp: smtp, now: now, users: users}
}

// stripeFixture sells through Stripe with the test's webhook secret.
func stripeFixture(t *testing.T, db *store.DB) *fixture {
	return newFixture(t, db, Config{SecretKey: "sk_test_123", APIURL: "http://127.0.0.1:1"})
}

func (f *fixture) user(t *testing.T) auth.User {
	t.Helper()
	u, err := f.users.UserByID(context.Background(), "u1")
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// pass is the fixture account's Premium pass.
func (f *fixture) pass(t *testing.T) Pass {
	t.Helper()
	p, err := passOf(context.Background(), f.db.SQL, "u1")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// access is what the fixture account may do at at, as every decision
// reads it (Entitlements.Of). Its trial has ended, so the free sessions
// are never counted: practice, which counts them, builds on billing and
// cannot be imported here.
func (f *fixture) access(t *testing.T, at time.Time) Access {
	t.Helper()
	a, err := NewEntitlements(f.users, nil, func() time.Time { return at }).Of(context.Background(), f.db.SQL, "u1", "")
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func (f *fixture) deliver(t *testing.T, id string, typ stripe.EventType, object map[string]any) error {
	t.Helper()
	payload, header, err := signedEvent(testSecret, id, typ, object, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return f.svc.HandleWebhook(context.Background(), payload, header)
}

// paidSession is a paid Checkout Session as this server creates it for
// the fixture's pass: $29.00, one-time, stamped with its metadata.
func paidSession(id, paymentIntent string) map[string]any {
	return map[string]any{"id": id, "object": "checkout.session", "mode": "payment", "client_reference_id": "u1", "payment_status": "paid",
		"amount_subtotal": 2900, "amount_total": 2900, "currency": "usd", "payment_intent": paymentIntent,
		"metadata": map[string]any{"whitecoat_product": "premium_pass", "whitecoat_price": "2900 usd"}}
}

func (f *fixture) payments(t *testing.T) []Payment {
	t.Helper()
	list, err := paymentsOf(context.Background(), f.db.SQL, "u1")
	if err != nil {
		t.Fatal(err)
	}
	return list
}

func (f *fixture) wantPassEnd(t *testing.T, want time.Time) {
	t.Helper()
	p := f.pass(t)
	if !p.Paid || p.EndsAt == nil || !p.EndsAt.Equal(want) {
		t.Fatalf("pass: paid %v, ends %v; want ends %v", p.Paid, p.EndsAt, want)
	}
}

func TestWebhookGrantsThePassOnce(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := stripeFixture(t, db)
		if err := f.deliver(t, "evt_1", stripe.EventTypeCheckoutSessionCompleted, paidSession("cs_1", "pi_1")); err != nil {
			t.Fatal(err)
		}
		end := f.now.Add(SubscriptionLength)
		f.wantPassEnd(t, end)
		if p := f.pass(t); p.PaidAt == nil || !p.PaidAt.Equal(f.now) {
			t.Fatalf("paidAt %v, want %v", p.PaidAt, f.now)
		}
		access := f.access(t, f.now)
		if access.Badge != "Premium (365 days left)" || !access.PracticeEnabled {
			t.Fatalf("access after payment: %+v", access)
		}
		receipt := f.smtp.WaitFor(t, "ana@example.com", 5*time.Second)
		text := receipt.Text(t)
		for _, want := range []string{"Your Whitecoat Premium pass", "$29.00", FormatDate(f.now), FormatDate(end), "within 7 days", "support@whitecoat.test"} {
			if !strings.Contains(string(receipt.Raw)+"\n"+text, want) {
				t.Errorf("receipt lacks %q:\n%s", want, text)
			}
		}

		// Replayed: the same event again changes nothing.
		if err := f.deliver(t, "evt_1", stripe.EventTypeCheckoutSessionCompleted, paidSession("cs_1", "pi_1")); err != nil {
			t.Fatal(err)
		}
		// The same session announced by another event changes nothing either.
		if err := f.deliver(t, "evt_2", stripe.EventTypeCheckoutSessionAsyncPaymentSucceeded, paidSession("cs_1", "pi_1")); err != nil {
			t.Fatal(err)
		}
		f.wantPassEnd(t, end)
		if p := f.payments(t); len(p) != 1 || p[0].AmountCents != 2900 || p[0].Status != PaymentPaid || !p[0].PassEndsAt.Equal(end) {
			t.Fatalf("payments: %+v", p)
		}
		if n := len(f.smtp.To("ana@example.com")); n != 1 {
			t.Fatalf("%d receipts, want 1", n)
		}

		// A second pass bought early starts when the first ends.
		if err := f.deliver(t, "evt_3", stripe.EventTypeCheckoutSessionCompleted, paidSession("cs_2", "pi_2")); err != nil {
			t.Fatal(err)
		}
		f.wantPassEnd(t, end.Add(SubscriptionLength))
	})
}

func TestWebhookRefusesBadSignatures(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := stripeFixture(t, db)
		payload, header, err := signedEvent(testSecret, "evt_1", stripe.EventTypeCheckoutSessionCompleted, paidSession("cs_1", "pi_1"), time.Now())
		if err != nil {
			t.Fatal(err)
		}
		tampered := []byte(strings.Replace(string(payload), `"amount_total":2900`, `"amount_total":1`, 1))
		stale := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: testSecret, Timestamp: time.Now().Add(-webhook.DefaultTolerance - time.Minute)})
		otherSecret := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: "whsec_someone_else"})
		for name, tc := range map[string]struct {
			payload []byte
			header  string
		}{
			"tampered":     {tampered, header},
			"stale":        {payload, stale.Header},
			"other secret": {payload, otherSecret.Header},
			"unsigned":     {payload, ""},
		} {
			err := f.svc.HandleWebhook(context.Background(), tc.payload, tc.header)
			if e, ok := apperr.As(err); !ok || e.Kind != apperr.KindInvalid {
				t.Errorf("%s: err %v, want invalid", name, err)
			}
		}
		if f.pass(t).Paid {
			t.Fatal("a refused event granted a pass")
		}
		if p := f.payments(t); len(p) != 0 {
			t.Fatalf("a refused event recorded %v", p)
		}
	})
}

func TestWebhookConcurrentDeliveries(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := stripeFixture(t, db)
		var wg sync.WaitGroup
		errs := make([]error, 4)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				// Two deliveries of one event, and two events for one session.
				id, typ := "evt_1", stripe.EventTypeCheckoutSessionCompleted
				if i%2 == 1 {
					id, typ = "evt_2", stripe.EventTypeCheckoutSessionAsyncPaymentSucceeded
				}
				errs[i] = f.deliver(t, id, typ, paidSession("cs_1", "pi_1"))
			}()
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			t.Fatal(err)
		}
		f.wantPassEnd(t, f.now.Add(SubscriptionLength))
		if p := f.payments(t); len(p) != 1 {
			t.Fatalf("%d payments, want 1", len(p))
		}
	})
}

func TestWebhookOutOfOrder(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := stripeFixture(t, db)
		// The refund arrives before the payment: refused, so Stripe sends it again.
		refund := map[string]any{"id": "ch_1", "object": "charge", "refunded": true, "amount_refunded": 2900, "payment_intent": "pi_1"}
		if err := f.deliver(t, "evt_refund", stripe.EventTypeChargeRefunded, refund); apperr.KindOf(err) != apperr.KindUnavailable {
			t.Fatalf("early refund: %v, want unavailable", err)
		}
		// The async success lands before the session's completed event,
		// which then says "paid" again: one pass.
		if err := f.deliver(t, "evt_async", stripe.EventTypeCheckoutSessionAsyncPaymentSucceeded, paidSession("cs_1", "pi_1")); err != nil {
			t.Fatal(err)
		}
		if err := f.deliver(t, "evt_done", stripe.EventTypeCheckoutSessionCompleted, paidSession("cs_1", "pi_1")); err != nil {
			t.Fatal(err)
		}
		f.wantPassEnd(t, f.now.Add(SubscriptionLength))
		// An unpaid completion (a bank transfer on its way) grants nothing.
		unpaid := paidSession("cs_2", "pi_2")
		unpaid["payment_status"] = "unpaid"
		if err := f.deliver(t, "evt_unpaid", stripe.EventTypeCheckoutSessionCompleted, unpaid); err != nil {
			t.Fatal(err)
		}
		f.wantPassEnd(t, f.now.Add(SubscriptionLength))
		// Redelivered later, the refund is applied.
		if err := f.deliver(t, "evt_refund", stripe.EventTypeChargeRefunded, refund); err != nil {
			t.Fatal(err)
		}
		if p := f.payments(t); len(p) != 1 || p[0].Status != PaymentRefunded {
			t.Fatalf("payments: %+v", p)
		}
	})
}

func TestWebhookRefundAndDispute(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := stripeFixture(t, db)
		if err := f.deliver(t, "evt_1", stripe.EventTypeCheckoutSessionCompleted, paidSession("cs_1", "pi_1")); err != nil {
			t.Fatal(err)
		}
		// A partial refund leaves the pass.
		partial := map[string]any{"id": "ch_1", "object": "charge", "refunded": false, "amount_refunded": 900, "payment_intent": "pi_1"}
		if err := f.deliver(t, "evt_partial", stripe.EventTypeChargeRefunded, partial); err != nil {
			t.Fatal(err)
		}
		f.wantPassEnd(t, f.now.Add(SubscriptionLength))

		dispute := map[string]any{"id": "dp_1", "object": "dispute", "charge": "ch_1", "payment_intent": "pi_1", "amount": 2900, "status": "needs_response"}
		if err := f.deliver(t, "evt_dispute", stripe.EventTypeChargeDisputeCreated, dispute); err != nil {
			t.Fatal(err)
		}
		if p := f.payments(t); p[0].DisputedAt == nil || p[0].Status != PaymentDisputed {
			t.Fatalf("after dispute: %+v", p[0])
		}

		full := map[string]any{"id": "ch_1", "object": "charge", "refunded": true, "amount_refunded": 2900, "payment_intent": "pi_1"}
		if err := f.deliver(t, "evt_refund", stripe.EventTypeChargeRefunded, full); err != nil {
			t.Fatal(err)
		}
		access := f.access(t, f.now)
		if access.Status != PaidCancelled || access.Badge != "Subscription Ended" || access.PracticeEnabled {
			t.Fatalf("after refund: %+v", access)
		}
		p := f.payments(t)
		if p[0].Status != PaymentRefunded || p[0].RefundedAt == nil {
			t.Fatalf("refund not recorded: %+v", p[0])
		}
		// A paid session naming no account here is acknowledged, not retried.
		stranger := paidSession("cs_other", "pi_other")
		stranger["client_reference_id"] = "someone-else"
		if err := f.deliver(t, "evt_stranger", stripe.EventTypeCheckoutSessionCompleted, stranger); err != nil {
			t.Fatal(err)
		}
		// Other events are acknowledged and ignored.
		if err := f.deliver(t, "evt_other", "customer.created", map[string]any{"id": "cus_1", "object": "customer"}); err != nil {
			t.Fatal(err)
		}
	})
}

func TestCreateCheckoutWithStripeMock(t *testing.T) {
	t.Parallel()
	api := stripemock.Start(t)
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db, Config{SecretKey: "sk_test_123", APIURL: api})
		c, err := f.svc.CreateCheckout(context.Background(), f.user(t), "medical")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(c.URL, "https://") {
			t.Fatalf("checkout URL %q", c.URL)
		}
		// With a configured Price instead of price_data.
		f.svc.cfg.PriceID = "price_123"
		if _, err := f.svc.CreateCheckout(context.Background(), f.user(t), "dental"); err != nil {
			t.Fatal(err)
		}
		// Stripe out of reach is the provider's failure.
		unreachable := NewService(f.db, f.users, f.svc.mailer, f.svc.logger, f.svc.now, Config{SecretKey: "sk_test_123", WebhookSecret: testSecret, APIURL: "http://127.0.0.1:1", BaseURL: f.svc.cfg.BaseURL})
		if _, err := unreachable.CreateCheckout(context.Background(), f.user(t), "dental"); !errors.Is(err, errProvider) {
			t.Fatalf("Stripe unreachable: %v, want provider failure", err)
		}
	})
}

func TestCreateCheckoutRefusesALongPass(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := stripeFixture(t, db)
		if err := f.deliver(t, "evt_1", stripe.EventTypeCheckoutSessionCompleted, paidSession("cs_1", "pi_1")); err != nil {
			t.Fatal(err)
		}
		_, err := f.svc.CreateCheckout(context.Background(), f.user(t), "dental")
		want := "Your Premium pass is active until " + FormatDate(f.now.Add(SubscriptionLength)) + "."
		if e, ok := apperr.As(err); !ok || e.Kind != apperr.KindConflict || e.Message != want {
			t.Fatalf("err %v, want conflict %q", err, want)
		}
	})
}

// TestModes: without a key nothing is sold, on a loopback BASE_URL too;
// the development checkout runs only when turned on, says so loudly at
// start, and never asks where a request comes from.
func TestModes(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		off := newFixture(t, db, Config{BaseURL: &url.URL{Scheme: "http", Host: "127.0.0.1:8080"}})
		if off.svc.Mode() != ModeOff {
			t.Fatalf("no key, loopback BASE_URL, no DEV_CHECKOUT: mode %q, want off", off.svc.Mode())
		}
		if _, err := off.svc.CreateCheckout(context.Background(), off.user(t), "dental"); apperr.KindOf(err) != apperr.KindUnavailable {
			t.Fatalf("without a key: %v, want unavailable", err)
		}
		if err := off.svc.PaySimulated(context.Background(), off.user(t), "cs_simulated_X"); apperr.KindOf(err) != apperr.KindNotFound {
			t.Fatalf("simulator not turned on: %v", err)
		}

		var log strings.Builder
		logger := slog.New(slog.NewTextHandler(&log, nil))
		sim := NewService(off.db, off.users, off.svc.mailer, logger, off.svc.now, Config{DevCheckout: true, BaseURL: &url.URL{Scheme: "https", Host: "whitecoat.example"}, PriceCents: 2900, Currency: "usd"})
		if !strings.Contains(log.String(), "level=WARN") || !strings.Contains(log.String(), "Payments are SIMULATED") {
			t.Fatalf("start-up log of a simulated server:\n%s", log.String())
		}
		c, err := sim.CreateCheckout(context.Background(), off.user(t), "dental")
		session, _ := url.Parse(c.URL)
		if err != nil || session.Path != "/dental/checkout/test" || !strings.HasPrefix(session.Query().Get("session"), "cs_simulated_") || session.Query().Get("amount") != "2900" {
			t.Fatalf("simulated checkout %v (%v)", c, err)
		}
		if err := sim.PaySimulated(context.Background(), off.user(t), session.Query().Get("session")); err != nil {
			t.Fatal(err)
		}
		if !off.pass(t).Paid {
			t.Fatal("the simulated payment granted no pass")
		}

		withKey := NewService(off.db, off.users, off.svc.mailer, off.svc.logger, off.svc.now, Config{SecretKey: "sk_test_1", WebhookSecret: testSecret, DevCheckout: true})
		if err := withKey.PaySimulated(context.Background(), off.user(t), "cs_simulated_X"); apperr.KindOf(err) != apperr.KindNotFound {
			t.Fatalf("simulator with a key: %v", err)
		}
	})
}

func TestReminderSentOnce(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := stripeFixture(t, db)
		if err := f.deliver(t, "evt_1", stripe.EventTypeCheckoutSessionCompleted, paidSession("cs_1", "pi_1")); err != nil {
			t.Fatal(err)
		}
		f.smtp.WaitFor(t, "ana@example.com", 5*time.Second) // the receipt
		ctx := context.Background()
		if n, err := f.svc.SendReminders(ctx); err != nil || n != 0 {
			t.Fatalf("a year ahead: %d reminders (%v)", n, err)
		}
		f.svc.now = func() time.Time { return f.now.Add(SubscriptionLength - 6*24*time.Hour) }
		for range 2 {
			if n, err := f.svc.SendReminders(ctx); err != nil || n > 1 {
				t.Fatalf("%d reminders (%v)", n, err)
			}
		}
		got := f.smtp.To("ana@example.com")
		if len(got) != 2 || !strings.Contains(string(got[1].Raw), "Subject: Your Whitecoat Premium pass ends on "+FormatDate(f.now.Add(SubscriptionLength))) {
			t.Fatalf("mails: %d; last:\n%s", len(got), got[len(got)-1].Raw)
		}
	})
}
