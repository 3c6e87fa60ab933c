package app

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/url"
	"strings"
	"time"

	"github.com/whitecoat/whitecoat/content"
	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/billing"
	"github.com/whitecoat/whitecoat/internal/config"
	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/feedback/rubric"
	"github.com/whitecoat/whitecoat/internal/site"
	"github.com/whitecoat/whitecoat/internal/transcribe"
	"github.com/whitecoat/whitecoat/internal/tryout"
)

// newSite renders the public pages with the facts they state: the
// operator's from configuration, the product's from the constants that
// enforce them. Each landing page shows its profession's example answer
// scored by the rubric engine, whichever engine the server scores
// students' answers with: the example's feedback is the same on every
// server, so the web build can prerender it.
func newSite(ctx context.Context, cfg config.Config) (*site.Library, tryout.Examples, error) {
	lib, err := site.Load(content.FS, siteFacts(cfg))
	if err != nil {
		return nil, nil, fmt.Errorf("app: %w", err)
	}
	examples, err := tryout.ScoreExamples(ctx, content.FS, rubric.New())
	if err != nil {
		return nil, nil, fmt.Errorf("app: %w", err)
	}
	lib.ReadOnLanding(func(slug string) (string, any) { return tryout.ExamplePath(slug), examples[slug] })
	return lib, examples, nil
}

func siteFacts(cfg config.Config) site.Facts {
	price := billing.FormatAmount(cfg.Payments.PriceCents, cfg.Payments.Currency)
	return site.Facts{
		Company:          cfg.Operator.Company,
		SupportEmail:     cfg.SupportEmail,
		ContactEmail:     cfg.Operator.ContactEmail,
		PrivacyEmail:     cfg.Operator.PrivacyEmail,
		GoverningLaw:     cfg.Operator.GoverningLaw,
		SiteURL:          cfg.BaseURL.String(),
		EffectiveDate:    site.EffectiveDate,
		TrialDays:        days(auth.TrialLength),
		FreeSessions:     billing.FreeSessions,
		PassPrice:        price,
		PassPriceShort:   strings.TrimSuffix(price, ".00"),
		PassDays:         days(billing.SubscriptionLength),
		RefundDays:       billing.RefundDays,
		MinimumAge:       auth.MinimumAge,
		AnswerMinutes:    int(math.Ceil(cfg.AnswerLimit.Minutes())),
		SignInIdleDays:   int(math.Ceil(cfg.SessionIdleTimeout.Hours() / 24)),
		SignInMaxDays:    int(math.Ceil(cfg.SessionAbsoluteTimeout.Hours() / 24)),
		DeviceCookieDays: days(auth.DeviceTTL),
		RecordingHours:   int(math.Ceil(practiceConfig(cfg).AudioMaxAge.Hours())),
		SpeechProvider:   providerHost(cfg.Speech.Engine == transcribe.EngineOpenAI, cfg.Speech.OpenAIBaseURL),
		FeedbackProvider: providerHost(cfg.Feedback.Engine == feedback.EngineLLM, cfg.Feedback.OpenAIBaseURL),
	}
}

// providerHost is the host an engine sends its work to when it is remote.
func providerHost(remote bool, baseURL string) string {
	if !remote {
		return ""
	}
	u, err := url.Parse(baseURL)
	if err != nil || u.Host == "" {
		return baseURL
	}
	return u.Hostname()
}

// days is d in whole days, as the pages state lengths of time.
func days(d time.Duration) int { return int(d / (24 * time.Hour)) }

// printPublicPages writes the template of every public page, which the
// web build renders to HTML (web/scripts/prerender.mjs), for a server
// configured with the defaults: the values a configuration decides are
// tokens that each server fills in with its own.
func printPublicPages(ctx context.Context, w io.Writer) error {
	cfg, err := config.Load(func(string) string { return "" })
	if err != nil {
		return fmt.Errorf("app: public pages: %w", err)
	}
	lib, _, err := newSite(ctx, cfg)
	if err != nil {
		return err
	}
	pages, err := lib.Templates()
	if err != nil {
		return fmt.Errorf("app: public pages: %w", err)
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(map[string]any{"pages": pages}); err != nil {
		return fmt.Errorf("app: public pages: %w", err)
	}
	return nil
}
