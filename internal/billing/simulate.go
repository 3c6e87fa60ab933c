package billing

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net"
	"time"

	"github.com/stripe/stripe-go/v84"
	"github.com/stripe/stripe-go/v84/webhook"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/auth"
)

// MsgNoSimulator answers the development checkout on a server where it
// must not run: one with a Stripe key, or one others can reach.
const MsgNoSimulator = "The test checkout only runs on a development server without Stripe."

// PaySimulated is the development checkout's Pay button: it signs the
// event Stripe would send for session and hands it to HandleWebhook, so a
// server without Stripe goes through the same fulfilment as one with it.
// Only a client on this machine may press it: a loopback BASE_URL does not
// stop a development server listening on every interface (ADDR=:8080)
// from being reached from the rest of a network.
func (s *Service) PaySimulated(ctx context.Context, u auth.User, session, clientIP string) error {
	if ip := net.ParseIP(clientIP); s.mode != ModeSimulated || ip == nil || !ip.IsLoopback() {
		return apperr.NotFound(MsgNoSimulator)
	}
	payload, header, err := signedEvent(s.webhookSecret, "evt_simulated_"+rand.Text(), stripe.EventTypeCheckoutSessionCompleted, map[string]any{
		"id": session, "object": "checkout.session", "mode": "payment", "client_reference_id": u.ID, "customer_email": u.Email,
		"payment_status": "paid", "status": "complete", "amount_total": s.cfg.PriceCents, "currency": s.cfg.Currency,
		"payment_intent": "pi_simulated_" + rand.Text(),
		// Signed at the real time, not the service's clock: the signature's
		// tolerance is checked against the real one.
	}, time.Now())
	if err != nil {
		return err
	}
	return s.HandleWebhook(ctx, payload, header)
}

// signedEvent builds a Stripe event around object and signs it with
// secret as Stripe does, returning the body and its Stripe-Signature.
func signedEvent(secret, id string, typ stripe.EventType, object map[string]any, at time.Time) (payload []byte, header string, err error) {
	payload, err = json.Marshal(map[string]any{
		"id": id, "object": "event", "type": typ, "api_version": stripe.APIVersion, "created": at.Unix(), "livemode": false,
		"data": map[string]any{"object": object},
	})
	if err != nil {
		return nil, "", fmt.Errorf("billing: build event: %w", err)
	}
	signed := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret, Timestamp: at})
	return payload, signed.Header, nil
}
