package billing

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strconv"
	"time"

	"github.com/stripe/stripe-go/v84"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/mail"
	"github.com/whitecoat/whitecoat/internal/store"
)

// Mode is how this server sells Premium passes.
type Mode string

const (
	// ModeStripe sells through Stripe Checkout and its signed webhooks.
	ModeStripe Mode = "stripe"
	// ModeSimulated is the development checkout, turned on by DEV_CHECKOUT=1
	// on a server without a key: no money moves.
	ModeSimulated Mode = "simulated"
	// ModeOff sells nothing: checkout answers that payments are not set up.
	ModeOff Mode = "off"
)

// Messages the spec and the issue fix.
const (
	MsgNotSetUp       = "Payments are not set up on this server yet."
	MsgProviderFailed = "Something went wrong. Please try again."
	// RenewWindow is how close to its end a pass may be renewed: a
	// student with more left would pay for days far ahead.
	RenewWindow = 30
)

// Config is what billing needs from the server's configuration.
type Config struct {
	SecretKey     string
	WebhookSecret string
	PriceID       string
	PriceCents    int64
	Currency      string
	APIURL        string
	// BaseURL builds the URLs Stripe sends the student back to.
	BaseURL *url.URL
	// DevCheckout turns the development checkout on (DEV_CHECKOUT=1):
	// passes for nothing, so only ever by the operator's explicit choice,
	// never from where a request seems to come from.
	DevCheckout  bool
	SupportEmail string
}

// ModeOf is the mode cfg selects: Stripe whenever a key is set (config
// refuses a key with DEV_CHECKOUT=1), the simulator only when turned on.
func ModeOf(cfg Config) Mode {
	switch {
	case cfg.SecretKey != "":
		return ModeStripe
	case cfg.DevCheckout:
		return ModeSimulated
	}
	return ModeOff
}

// MsgSimulated is what the server logs at start, and the pricing and
// checkout pages say, while payments are simulated.
const MsgSimulated = "Payments are SIMULATED on this server (DEV_CHECKOUT=1): Upgrade grants a Premium pass without taking any money. Never turn this on where real students sign up."

// Accounts finds the accounts passes are sold to and mailed about; auth
// implements it.
type Accounts interface {
	UserByID(ctx context.Context, id string) (auth.User, error)
	UserByEmail(ctx context.Context, email string) (auth.User, error)
}

// Service sells Premium passes and fulfils them.
type Service struct {
	db       *store.DB
	accounts Accounts
	mailer   mail.Mailer
	logger   *slog.Logger
	now      func() time.Time
	cfg      Config
	mode     Mode
	stripe   *stripe.Client
	// webhookSecret checks Stripe-Signature: the configured one, or for
	// the simulator one made up at start, known to this process only.
	webhookSecret string
}

// NewService builds the billing service for cfg.
func NewService(db *store.DB, accounts Accounts, mailer mail.Mailer, logger *slog.Logger, now func() time.Time, cfg Config) *Service {
	s := &Service{db: db, accounts: accounts, mailer: mailer, logger: logger, now: now, cfg: cfg, mode: ModeOf(cfg), webhookSecret: cfg.WebhookSecret}
	switch s.mode {
	case ModeStripe:
		backends := stripe.NewBackendsWithConfig(&stripe.BackendConfig{URL: stripe.String(cfg.APIURL), LeveledLogger: quietLogger{logger}})
		s.stripe = stripe.NewClient(cfg.SecretKey, stripe.WithBackends(backends))
	case ModeSimulated:
		s.webhookSecret = "whsec_simulated_" + rand.Text()
		logger.Warn(MsgSimulated)
	}
	return s
}

// Mode is how this server sells passes.
func (s *Service) Mode() Mode { return s.mode }

// KeptRecords names what deleting an account keeps of its payments, as
// the account's owner is told.
const KeptRecords = "Your payment records (amount, currency, dates and the card processor's payment ids) are kept, no longer linked to you, because accounting law requires us to keep sales records."

// Payments lists the user's payments, newest first, for their data export.
func (s *Service) Payments(ctx context.Context, userID string) ([]Payment, error) {
	return paymentsOf(ctx, s.db.SQL, userID)
}

// DeleteUserData deletes the user's Premium pass and keeps their payment
// records, which accounting requires, unlinked from the account, inside
// the caller's transaction that deletes it.
func (s *Service) DeleteUserData(ctx context.Context, q store.Queryer, userID string) error {
	if err := deletePass(ctx, q, userID); err != nil {
		return err
	}
	return detachPayments(ctx, q, userID)
}

// Checkout is where the browser goes to pay.
type Checkout struct {
	URL string `json:"url" format:"uri" doc:"Stripe Checkout, or the development checkout page; the browser goes there."`
}

// errProvider marks Stripe's own failures; the API answers 502.
var errProvider = errors.New("billing: payment provider failed")

// CreateCheckout starts a purchase of a one-year pass for u, who comes
// back to profession's dashboard. A student whose pass has more than
// RenewWindow days left is told until when it runs instead.
func (s *Service) CreateCheckout(ctx context.Context, u auth.User, profession string) (Checkout, error) {
	// Only the pass decides (a trial has nothing to extend), so the
	// entitlement's trial and free sessions are not read.
	held, err := passOf(ctx, s.db.SQL, u.ID)
	if err != nil {
		return Checkout{}, err
	}
	access := Evaluate(accountWith(time.Time{}, held, 0), s.now())
	if access.Status == PaidActive && access.DaysLeft > RenewWindow {
		return Checkout{}, apperr.Conflict(fmt.Sprintf("Your Premium pass is active until %s.", FormatDate(*access.SubscriptionEndsAt)))
	}
	back := func(state string) string {
		return s.cfg.BaseURL.JoinPath(profession, "dashboard").String() + "?checkout=" + state
	}
	switch s.mode {
	case ModeOff:
		return Checkout{}, apperr.Unavailable(MsgNotSetUp, time.Hour, nil)
	case ModeSimulated:
		page := s.cfg.BaseURL.JoinPath(profession, "checkout", "test")
		// The amount rides along for the page to show; Pay charges what
		// the server is configured with, whatever the address says.
		page.RawQuery = url.Values{"session": {"cs_simulated_" + rand.Text()}, "amount": {strconv.FormatInt(s.cfg.PriceCents, 10)}, "currency": {s.cfg.Currency}}.Encode()
		return Checkout{URL: page.String()}, nil
	}
	params := &stripe.CheckoutSessionCreateParams{
		Mode:                stripe.String(string(stripe.CheckoutSessionModePayment)),
		ClientReferenceID:   stripe.String(u.ID),
		CustomerEmail:       stripe.String(u.Email),
		SuccessURL:          stripe.String(back("success")),
		CancelURL:           stripe.String(back("cancelled")),
		AllowPromotionCodes: stripe.Bool(true),
		LineItems:           []*stripe.CheckoutSessionCreateLineItemParams{s.lineItem()},
		Metadata:            s.sessionMetadata(),
		// The payment's refunds and disputes name only its PaymentIntent:
		// stamped too, it tells the webhook which payments are ours.
		PaymentIntentData: &stripe.CheckoutSessionCreatePaymentIntentDataParams{Metadata: s.sessionMetadata()},
	}
	// One key per attempt: a retried request inside stripe-go reuses it,
	// a new click starts a new session.
	params.SetIdempotencyKey("checkout-" + u.ID + "-" + rand.Text())
	session, err := s.stripe.V1CheckoutSessions.Create(ctx, params)
	if err != nil {
		return Checkout{}, fmt.Errorf("%w: create checkout session: %w", errProvider, err)
	}
	return Checkout{URL: session.URL}, nil
}

func (s *Service) lineItem() *stripe.CheckoutSessionCreateLineItemParams {
	item := &stripe.CheckoutSessionCreateLineItemParams{Quantity: stripe.Int64(1)}
	if s.cfg.PriceID != "" {
		item.Price = stripe.String(s.cfg.PriceID)
		return item
	}
	item.PriceData = &stripe.CheckoutSessionCreateLineItemPriceDataParams{
		Currency:   stripe.String(s.cfg.Currency),
		UnitAmount: stripe.Int64(s.cfg.PriceCents),
		ProductData: &stripe.CheckoutSessionCreateLineItemPriceDataProductDataParams{
			Name:        stripe.String("Whitecoat Premium pass"),
			Description: stripe.String("One year of interview practice. One-time payment; it does not renew."),
		},
	}
	return item
}

// The metadata every Checkout Session this server creates carries: the
// webhook grants a pass only for a session stamped so, which no Payment
// Link or other integration on the same Stripe account is.
const (
	metaProduct = "whitecoat_product"
	metaPrice   = "whitecoat_price"
	productPass = "premium_pass"
)

func (s *Service) sessionMetadata() map[string]string {
	return map[string]string{metaProduct: productPass, metaPrice: s.priceStamp()}
}

// priceStamp names what a session sells the pass for: the configured
// Stripe Price, else the amount and currency.
func (s *Service) priceStamp() string {
	if s.cfg.PriceID != "" {
		return s.cfg.PriceID
	}
	return strconv.FormatInt(s.cfg.PriceCents, 10) + " " + s.cfg.Currency
}

// unrecognised says why a completed Checkout Session is not the pass this
// server sells, or "" when it is: a one-time payment, taken, of a session
// stamped by this server at its current price, whose price before
// discounts is PREMIUM_PRICE_CENTS in PREMIUM_CURRENCY. A promotion code
// (allowed at checkout) lowers only the total, which is not compared.
func (s *Service) unrecognised(cs stripe.CheckoutSession) string {
	switch {
	case cs.Mode != stripe.CheckoutSessionModePayment:
		return fmt.Sprintf("mode %q, not a one-time payment", cs.Mode)
	case cs.PaymentStatus != stripe.CheckoutSessionPaymentStatusPaid:
		return fmt.Sprintf("payment status %q: no payment was taken", cs.PaymentStatus)
	case cs.Metadata[metaProduct] != productPass:
		return "not a checkout this server created (no " + metaProduct + " metadata): a Payment Link or another integration"
	case cs.Metadata[metaPrice] != s.priceStamp():
		return fmt.Sprintf("sold at price %q, this server sells at %q", cs.Metadata[metaPrice], s.priceStamp())
	case string(cs.Currency) != s.cfg.Currency || cs.AmountSubtotal != s.cfg.PriceCents:
		return fmt.Sprintf("priced %s before discounts, the pass costs %s", FormatAmount(cs.AmountSubtotal, string(cs.Currency)), FormatAmount(s.cfg.PriceCents, s.cfg.Currency))
	}
	return ""
}

// FormatDate is how dates appear in messages and emails.
func FormatDate(t time.Time) string { return t.UTC().Format("January 2, 2006") }

// quietLogger sends stripe-go's logs to ours at debug level; failures
// reach the log once, from the caller, with their context.
type quietLogger struct{ logger *slog.Logger }

func (l quietLogger) Debugf(format string, v ...any) { l.logger.Debug(fmt.Sprintf(format, v...)) }
func (l quietLogger) Infof(format string, v ...any)  { l.logger.Debug(fmt.Sprintf(format, v...)) }
func (l quietLogger) Warnf(format string, v ...any)  { l.logger.Debug(fmt.Sprintf(format, v...)) }
func (l quietLogger) Errorf(format string, v ...any) { l.logger.Debug(fmt.Sprintf(format, v...)) }
