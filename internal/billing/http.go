package billing

import (
	"context"
	"errors"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/httpx"
	"github.com/whitecoat/whitecoat/internal/profession"
	"github.com/whitecoat/whitecoat/internal/route"
)

// WebhookPath is where Stripe delivers events; it reads its body raw, to
// check the signature over the exact bytes sent.
const WebhookPath = "/api/stripe/webhook"

// MaxWebhookBytes bounds one Stripe event; real ones are a few kilobytes.
const MaxWebhookBytes = 256 << 10

var billingTags = []string{"Billing"}

// failureCheckout is what a failed checkout says, whatever went wrong
// (spec §8): the web shows it also when the request never arrived.
var failureCheckout = apperr.Failure{Name: "checkout-failed", Message: MsgProviderFailed}

// Handler serves the billing API.
type Handler struct{ svc *Service }

// NewHandler returns the HTTP handlers for svc.
func NewHandler(svc *Service) *Handler { return &Handler{svc: svc} }

type checkoutInput struct{ Body checkoutBody }

// checkoutBody is a named type so that its schema can publish the
// professions (Huma transforms the schemas of named types only).
type checkoutBody struct {
	Profession string `json:"profession,omitempty" doc:"Whose dashboard the student returns to; dental when left out."`
}

// TransformSchema implements huma.SchemaTransformer.
func (checkoutBody) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	httpx.SetEnum(s, "profession", profession.Slugs())
	return s
}

type checkoutOutput struct{ Body Checkout }

type webhookInput struct {
	Signature string `header:"Stripe-Signature" maxLength:"2048"`
	RawBody   []byte
}

type webhookOutput struct {
	Body struct {
		Received bool `json:"received"`
	}
}

type simulatedPaymentInput struct {
	Body struct {
		Session string `json:"session" pattern:"^cs_simulated_[A-Z2-7]{26}$" doc:"The session id in the development checkout page's address."`
	}
}

type paymentsModeOutput struct {
	Body struct {
		Mode Mode `json:"mode" enum:"stripe,simulated,off" doc:"How this server sells passes: Stripe Checkout; simulated (DEV_CHECKOUT=1, the development checkout: no money moves, and the pages say so); or off (nothing is sold)."`
	}
}

type paymentsInput struct {
	UserID string `path:"id" maxLength:"64"`
}

type paymentsOutput struct {
	Body struct {
		Payments []Payment `json:"payments"`
	}
}

// eventBody describes a Stripe event without Huma reading it: the
// signature is checked over the raw bytes before anything is parsed.
var eventBody = &huma.RequestBody{Required: true, Content: map[string]*huma.MediaType{
	"application/json": {Schema: &huma.Schema{Type: huma.TypeObject, Description: "A Stripe event, as Stripe sends it."}},
}}

// RegisterRoutes adds the billing endpoints to api.
func (h *Handler) RegisterRoutes(api huma.API) {
	route.PublishFailures(api, failureCheckout)
	route.Register(api, route.Endpoint{ID: "create-checkout-session", Method: http.MethodPost, Path: "/api/create-checkout-session",
		Summary: "Start buying a one-year Premium pass", Description: "Answers the URL of Stripe Checkout (or, on a development server started with DEV_CHECKOUT=1, of the test checkout page).",
		Tags: billingTags, Access: route.AccessVerified}, h.createCheckout)
	route.Register(api, route.Endpoint{ID: "stripe-webhook", Method: http.MethodPost, Path: WebhookPath, Summary: "Stripe events (signed)",
		Tags: billingTags, Access: route.AccessPublic, MaxBodyBytes: MaxWebhookBytes, RequestBody: eventBody}, h.webhook)
	route.Register(api, route.Endpoint{ID: "pay-simulated-checkout", Method: http.MethodPost, Path: "/api/dev-checkout/pay",
		Summary: "Pay on the development checkout page", Description: "Only on a server started with DEV_CHECKOUT=1 (and no Stripe key): sends a signed checkout.session.completed event through the webhook's fulfillment. No money moves.",
		Tags: billingTags, Access: route.AccessVerified}, h.paySimulated)
	route.Register(api, route.Endpoint{ID: "get-payments-mode", Method: http.MethodGet, Path: "/api/payments/mode", Summary: "How this server sells passes",
		Tags: billingTags, Access: route.AccessPublic}, h.paymentsMode)
	route.Register(api, route.Endpoint{ID: "admin-list-payments", Method: http.MethodGet, Path: "/api/admin/users/{id}/payments", Summary: "A user's payments",
		Tags: billingTags, Access: route.AccessAdmin}, h.listPayments)
}

func (h *Handler) createCheckout(ctx context.Context, u auth.User, in *checkoutInput) (*checkoutOutput, error) {
	slug := in.Body.Profession
	if slug == "" {
		slug = profession.Default.Slug
	}
	c, err := h.svc.CreateCheckout(ctx, u, slug)
	if errors.Is(err, errProvider) {
		httpx.Logger(ctx).Error("Stripe refused a checkout session", "user", u.ID, "err", err)
		return nil, huma.Error502BadGateway(MsgProviderFailed)
	}
	if err != nil {
		return nil, err
	}
	return &checkoutOutput{Body: c}, nil
}

func (h *Handler) webhook(ctx context.Context, _ auth.User, in *webhookInput) (*webhookOutput, error) {
	if err := h.svc.HandleWebhook(ctx, in.RawBody, in.Signature); err != nil {
		return nil, err
	}
	out := &webhookOutput{}
	out.Body.Received = true
	return out, nil
}

func (h *Handler) paySimulated(ctx context.Context, u auth.User, in *simulatedPaymentInput) (*webhookOutput, error) {
	if err := h.svc.PaySimulated(ctx, u, in.Body.Session); err != nil {
		return nil, err
	}
	out := &webhookOutput{}
	out.Body.Received = true
	return out, nil
}

func (h *Handler) paymentsMode(context.Context, auth.User, *struct{}) (*paymentsModeOutput, error) {
	out := &paymentsModeOutput{}
	out.Body.Mode = h.svc.mode
	return out, nil
}

func (h *Handler) listPayments(ctx context.Context, _ auth.User, in *paymentsInput) (*paymentsOutput, error) {
	list, err := paymentsOf(ctx, h.svc.db.SQL, in.UserID)
	if err != nil {
		return nil, err
	}
	out := &paymentsOutput{}
	out.Body.Payments = list
	return out, nil
}
