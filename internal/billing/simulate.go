package billing

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"time"

	"github.com/stripe/stripe-go/v84"
	"github.com/stripe/stripe-go/v84/webhook"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/auth"
)

// MsgNoSimulator answers the development checkout on a server where it
// is not turned on.
const MsgNoSimulator = "The test checkout only runs on a development server started with DEV_CHECKOUT=1."

// PaySimulated is the development checkout's Pay button: it signs the
// event Stripe would send for session and hands it to HandleWebhook, so a
// server without Stripe goes through the same fulfilment as one with it.
// Whether it runs is the operator's choice (DEV_CHECKOUT=1) alone; where a
// request seems to come from decides nothing: behind a proxy on the same
// host every visitor is a loopback client.
func (s *Service) PaySimulated(ctx context.Context, u auth.User, session string) error {
	if s.mode != ModeSimulated {
		return apperr.NotFound(MsgNoSimulator)
	}
	payload, header, err := signedEvent(s.webhookSecret, "evt_simulated_"+rand.Text(), stripe.EventTypeCheckoutSessionCompleted, map[string]any{
		"id": session, "object": "checkout.session", "mode": "payment", "client_reference_id": u.ID, "customer_email": u.Email,
		"payment_status": "paid", "status": "complete", "amount_subtotal": s.cfg.PriceCents, "amount_total": s.cfg.PriceCents, "currency": s.cfg.Currency,
		"metadata":       s.sessionMetadata(),
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
