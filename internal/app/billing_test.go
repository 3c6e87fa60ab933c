package app

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v84/webhook"

	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/billing"
	"github.com/whitecoat/whitecoat/internal/billing/stripemock"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

// student signs in a verified student whose trial has run out.
func student(t *testing.T, app *testApp) *browser {
	t.Helper()
	return studentAt(t, app, "10.4.0.1")
}

// studentAt signs in a student whose trial has ended, from address ip.
func studentAt(t *testing.T, app *testApp, ip string) *browser {
	t.Helper()
	if _, err := app.auth.CreateUser(context.Background(), "Ana Lee", "ana@example.com", pw, auth.RoleUser); err != nil {
		t.Fatal(err)
	}
	app.Clock.Advance(8 * 24 * time.Hour)
	b := app.browser(t, ip)
	wantStatus(t, b.login("ana@example.com", pw), http.StatusOK)
	return b
}

func badge(t *testing.T, b *browser) string {
	t.Helper()
	r := b.get("/api/dashboard")
	wantStatus(t, r, http.StatusOK)
	access, _ := r.JSON(t)["access"].(map[string]any)
	return access["badge"].(string)
}

// TestCheckoutThroughStripe runs the purchase as a Stripe deployment does:
// the session is created on stripe-mock, and the webhook, signed here with
// the configured secret, reaches the public endpoint with no browser
// headers, as Stripe's servers send it.
func TestCheckoutThroughStripe(t *testing.T) {
	t.Parallel()
	api := stripemock.Start(t)
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		const secret = "whsec_app_test"
		app := newTestApp(t, db, map[string]string{"STRIPE_SECRET_KEY": "sk_test_app", "STRIPE_WEBHOOK_SECRET": secret, "STRIPE_API_URL": api})
		b := student(t, app)
		if got := badge(t, b); got != "Trial Expired" {
			t.Fatalf("badge %q", got)
		}
		r := b.post("/api/create-checkout-session", map[string]string{"profession": "dental"})
		wantStatus(t, r, http.StatusOK)
		if u, _ := r.JSON(t)["url"].(string); !strings.HasPrefix(u, "https://") {
			t.Fatalf("checkout url %q", u)
		}
		wantStatus(t, b.post("/api/dev-checkout/pay", map[string]string{"session": "cs_simulated_AAAAAAAAAAAAAAAAAAAAAAAAAA"}), http.StatusNotFound)

		me := b.get("/api/auth/me").JSON(t)
		userID := me["user"].(map[string]any)["id"].(string)
		session := func(id string) map[string]any {
			return map[string]any{"id": id, "object": "checkout.session", "mode": "payment", "client_reference_id": userID,
				"payment_status": "paid", "amount_subtotal": 2900, "amount_total": 2900, "currency": "usd", "payment_intent": "pi_" + id,
				"metadata": map[string]any{"whitecoat_product": "premium_pass", "whitecoat_price": "2900 usd"}}
		}
		event := func(id string, object map[string]any) []byte {
			body, _ := json.Marshal(map[string]any{"id": id, "object": "event", "type": "checkout.session.completed", "api_version": "2020-08-27",
				"created": time.Now().Unix(), "data": map[string]any{"object": object}})
			return body
		}
		payload := event("evt_app_1", session("cs_app_1"))
		stripeServer := app.browser(t, "10.9.0.1")
		send := func(body []byte, header string) response {
			return stripeServer.do(http.MethodPost, billing.WebhookPath, bytes.NewReader(body), map[string]string{"Content-Type": "application/json", "Stripe-Signature": header})
		}
		// A Payment Link on the same Stripe account, a cent, with the
		// student's id: acknowledged, recorded for admins, nothing granted.
		link := session("cs_link")
		delete(link, "metadata")
		link["amount_subtotal"], link["amount_total"] = 1, 1
		linkEvent := event("evt_link", link)
		wantStatus(t, send(linkEvent, webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: linkEvent, Secret: secret}).Header), http.StatusOK)
		// Signed an hour ahead: refused.
		ahead := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret, Timestamp: time.Now().Add(time.Hour)})
		wantStatus(t, send(payload, ahead.Header), http.StatusBadRequest)
		if got := badge(t, b); got != "Trial Expired" {
			t.Fatalf("a Payment Link or a future signature changed the badge to %q", got)
		}
		tampered := bytes.Replace(payload, []byte(`"amount_total":2900`), []byte(`"amount_total":100`), 1)
		signed := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret})
		wantStatus(t, send(tampered, signed.Header), http.StatusBadRequest)
		if got := badge(t, b); got != "Trial Expired" {
			t.Fatalf("a tampered event changed the badge to %q", got)
		}
		wantStatus(t, send(payload, signed.Header), http.StatusOK)
		wantStatus(t, send(payload, signed.Header), http.StatusOK) // replayed
		if got := badge(t, b); got != "Premium (365 days left)" {
			t.Fatalf("badge after payment %q", got)
		}
		// More than 30 days left: a precise 409.
		r = b.post("/api/create-checkout-session", map[string]string{})
		wantStatus(t, r, http.StatusConflict)
		if !strings.HasPrefix(r.Detail(t), "Your Premium pass is active until ") {
			t.Fatalf("detail %q", r.Detail(t))
		}

		admin := app.browser(t, "10.4.0.2")
		if _, err := app.auth.CreateUser(context.Background(), "Ada Admin", "ada@example.com", pw, auth.RoleAdmin); err != nil {
			t.Fatal(err)
		}
		admin.enrolAdmin("ada@example.com", pw)
		r = admin.get("/api/admin/users/" + userID + "/payments")
		wantStatus(t, r, http.StatusOK)
		statuses := map[string]string{}
		for _, p := range r.JSON(t)["payments"].([]any) {
			statuses[p.(map[string]any)["id"].(string)] = p.(map[string]any)["status"].(string)
		}
		if len(statuses) != 2 || statuses["cs_app_1"] != "paid" || statuses["cs_link"] != "unrecognised" {
			t.Fatalf("payments %s", r.Body)
		}
	})
}

// TestCheckoutWithoutStripe: the development checkout, turned on with
// DEV_CHECKOUT=1, goes through the webhook's fulfilment; the pages learn
// that payments are simulated.
func TestCheckoutWithoutStripe(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, map[string]string{"DEV_CHECKOUT": "1", "BASE_URL": "http://whitecoat.example"})
		b := student(t, app)
		if mode := b.get("/api/payments/mode").JSON(t)["mode"]; mode != string(billing.ModeSimulated) {
			t.Fatalf("mode %v", mode)
		}
		r := b.post("/api/create-checkout-session", map[string]string{"profession": "medical"})
		wantStatus(t, r, http.StatusOK)
		page, err := url.Parse(r.JSON(t)["url"].(string))
		if err != nil || page.Path != "/medical/checkout/test" {
			t.Fatalf("checkout page %v (%v)", page, err)
		}
		wantStatus(t, b.post("/api/dev-checkout/pay", map[string]string{"session": page.Query().Get("session")}), http.StatusOK)
		if got := badge(t, b); got != "Premium (365 days left)" {
			t.Fatalf("badge after the test payment %q", got)
		}
	})
}

// TestCheckoutOffWithoutStripe: with no key and no DEV_CHECKOUT nothing is
// sold, on the default loopback BASE_URL and from a loopback client too
// (behind a proxy on the same host every visitor is one), and the
// development checkout does not exist.
func TestCheckoutOffWithoutStripe(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, nil)
		b := studentAt(t, app, "127.0.0.1")
		if mode := b.get("/api/payments/mode").JSON(t)["mode"]; mode != string(billing.ModeOff) {
			t.Fatalf("mode %v", mode)
		}
		r := b.post("/api/create-checkout-session", map[string]string{})
		wantStatus(t, r, http.StatusServiceUnavailable)
		if r.Detail(t) != billing.MsgNotSetUp {
			t.Fatalf("detail %q", r.Detail(t))
		}
		wantStatus(t, b.post("/api/dev-checkout/pay", map[string]string{"session": "cs_simulated_AAAAAAAAAAAAAAAAAAAAAAAAAA"}), http.StatusNotFound)
		wantStatus(t, b.do(http.MethodPost, billing.WebhookPath, strings.NewReader(`{}`), map[string]string{"Content-Type": "application/json", "Stripe-Signature": "t=1,v1=00"}), http.StatusNotFound)
		if got := badge(t, b); got != "Trial Expired" {
			t.Fatalf("badge %q", got)
		}
	})
}

// TestCheckoutWhenStripeFails: Stripe out of reach is the spec's plain
// "Something went wrong", answered 502.
func TestCheckoutWhenStripeFails(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, map[string]string{"STRIPE_SECRET_KEY": "sk_test_app", "STRIPE_WEBHOOK_SECRET": "whsec_x", "STRIPE_API_URL": "http://127.0.0.1:1"})
		r := student(t, app).post("/api/create-checkout-session", map[string]string{})
		wantStatus(t, r, http.StatusBadGateway)
		if r.Detail(t) != billing.MsgProviderFailed {
			t.Fatalf("detail %q", r.Detail(t))
		}
	})
}

func TestDoctorReportsPayments(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cfg  billing.Config
		want string
	}{
		{billing.Config{SecretKey: "sk_live_1", APIURL: "https://api.stripe.com"}, "stripe (live mode, https://api.stripe.com)"},
		{billing.Config{SecretKey: "sk_test_1", APIURL: "http://127.0.0.1:12111"}, "stripe (test mode, http://127.0.0.1:12111)"},
		{billing.Config{DevCheckout: true}, "simulated (DEV_CHECKOUT=1): development checkout, no money moves"},
		{billing.Config{}, "off: no STRIPE_SECRET_KEY nor DEV_CHECKOUT=1, checkout answers that payments are not set up"},
	} {
		if got := paymentsChoice(tc.cfg); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.cfg, got, tc.want)
		}
	}
}
