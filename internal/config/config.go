// Package config parses Whitecoat's settings once, from the environment, into
// a typed Config that is passed explicitly to whatever needs it.
package config

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/mail"
	"net/netip"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Config is every setting Whitecoat reads. Zero values are never used
// directly: Load fills in the documented defaults.
type Config struct {
	Addr string
	// MetricsAddr is where /metrics is served; empty for nowhere.
	MetricsAddr string
	BaseURL     *url.URL
	DatabaseURL string
	DataDir     string

	LogLevel  slog.Level
	LogFormat string

	SMTPURL  *url.URL
	MailFrom string

	SessionIdleTimeout     time.Duration
	SessionAbsoluteTimeout time.Duration

	// Rate limits: attempts allowed per window, per account and per client
	// IP. Logins from a browser holding the account's device cookie count
	// per browser instead (see auth.Service.Login).
	RateLimitWindow     time.Duration
	RateLimitPerAccount int
	RateLimitPerIP      int
	// CommentMailDelay is how long a reviewer's comments on one link
	// gather before the student is emailed once about them (issue 41).
	CommentMailDelay time.Duration
	// TryLimitPerIP is how many tries of a question without an account
	// one client IP may make an hour (issue 31).
	TryLimitPerIP int

	// TrustedProxyHeader names the header carrying the client IP when the
	// binary runs behind a proxy that sets it; empty means use RemoteAddr.
	TrustedProxyHeader string
	// TrustedProxies are the proxies' addresses; empty means the TCP peer
	// is the only proxy (see httpx.ProxyTrust).
	TrustedProxies []netip.Prefix

	ShutdownTimeout time.Duration

	// AnswerLimit is when a recording stops by itself (3 minutes unless
	// ANSWER_LIMIT says otherwise).
	AnswerLimit time.Duration
	// JobTimeout bounds one background job (transcribing one answer).
	JobTimeout time.Duration
	// DailyAnswerLimit is the usage guard: answers one user may upload in
	// 24 hours before practice pauses with the spec's heavy-usage message.
	DailyAnswerLimit int

	Speech   Speech
	Feedback Feedback
	Payments Payments

	// SupportEmail is where students write for help; pages and emails show it.
	SupportEmail string
	// Operator is who runs this Whitecoat, as the public pages name them.
	Operator Operator
	// Firebase is the optional Firebase Authentication project; empty
	// ProjectID for none.
	Firebase Firebase
}

// Firebase is a Firebase project whose accounts may sign in.
type Firebase struct {
	ProjectID, APIKey, AuthDomain string
	// JWKSURL is empty for Google's.
	JWKSURL string
}

// Operator is what the privacy policy, the terms and the about page say
// about whoever runs this copy of Whitecoat.
type Operator struct {
	Company      string
	ContactEmail string
	PrivacyEmail string
	GoverningLaw string
}

// Payments configures Stripe. Without a secret key nothing is sold, except
// through the development checkout when DEV_CHECKOUT=1.
type Payments struct {
	StripeSecretKey     string
	StripeWebhookSecret string
	// StripePriceID, when set, is the Price sold; otherwise the line item
	// is built from PriceCents and Currency.
	StripePriceID string
	PriceCents    int64
	Currency      string
	// StripeAPIURL points stripe-go elsewhere (stripe-mock in tests).
	StripeAPIURL string
	// DevCheckout turns on the development checkout: passes for nothing.
	DevCheckout bool
}

// Speech selects and configures the speech-to-text engine.
type Speech struct {
	Engine        string
	OpenAIBaseURL string
	OpenAIAPIKey  string
	OpenAIModel   string
	// OpenAIAlign lines texts up with the recording beside the service
	// (transcribe.OpenAIConfig.Align).
	OpenAIAlign bool
	AudioTmpDir string
}

// Feedback selects and configures the feedback engine.
type Feedback struct {
	Engine        string
	OpenAIBaseURL string
	OpenAIAPIKey  string
	OpenAIModel   string
}

// Var documents one environment variable; the README table is checked
// against this list so the two cannot drift apart.
type Var struct {
	Name    string
	Default string
	Usage   string
}

// Vars lists every environment variable Load reads, with its default.
var Vars = []Var{
	{"ADDR", ":8080", "Address the HTTP server listens on."},
	{"METRICS_ADDR", "", "Address of a second listener serving Prometheus metrics at /metrics (for example 127.0.0.1:9090); empty serves none. Never the public one."},
	{"BASE_URL", "http://localhost:8080", "Public URL of the app; the only source of links in emails. https enables Secure cookies and HSTS."},
	{"DATABASE_URL", "DATA_DIR/whitecoat.db", "SQLite file path (or sqlite:PATH), or a postgres:// URL for PostgreSQL."},
	{"DATA_DIR", "./data", "Directory for local state (SQLite file by default, temporary audio)."},
	{"LOG_LEVEL", "info", "debug, info, warn or error."},
	{"LOG_FORMAT", "text", "text or json."},
	{"SMTP_URL", "", "smtp://user:pass@host:port (STARTTLS when offered), smtps:// for implicit TLS; empty logs emails instead of sending them."},
	{"MAIL_FROM", "Whitecoat <no-reply@localhost>", "Sender address of every email."},
	{"SESSION_IDLE_TIMEOUT", "72h", "A sign-in ends after this long without activity."},
	{"SESSION_ABSOLUTE_TIMEOUT", "720h", "A sign-in ends this long after login, however active."},
	{"RATE_LIMIT_WINDOW", "15m", "Window for login, signup, reset and resend rate limits."},
	{"RATE_LIMIT_PER_ACCOUNT", "10", "Attempts per account per window: logins from browsers without the account's device cookie (across all addresses), per trusted browser, second-factor codes, and emails per address."},
	{"RATE_LIMIT_PER_IP", "50", "Attempts per client IP per window (an IPv6 client counts by its /64)."},
	{"COMMENT_MAIL_DELAY", "5m", "How long a reviewer's comments on a shared session gather before the student gets one email about them."},
	{"TRY_LIMIT_PER_IP", "5", "Tries of a question without an account per client IP per hour (an IPv6 client counts by its /64)."},
	{"TRUSTED_PROXY_HEADER", "", "Header your reverse proxy writes the client IP into (e.g. X-Forwarded-For, X-Real-IP); empty: no proxy, the TCP peer is the client. Only its right-most entries, the ones the proxies added, are believed (see Behind a reverse proxy)."},
	{"TRUSTED_PROXIES", "", "Comma-separated addresses or CIDR ranges of your proxies (e.g. 10.0.0.0/8, 127.0.0.1); the header counts only from them and their entries are skipped from the right. Empty: the TCP peer is the one proxy and the header's right-most entry is the client. Needs TRUSTED_PROXY_HEADER."},
	{"SHUTDOWN_TIMEOUT", "30s", "How long SIGTERM waits for in-flight requests and jobs."},
	{"ANSWER_LIMIT", "3m", "Longest recorded answer; recording stops by itself there."},
	{"PRACTICE_DAILY_ANSWER_LIMIT", "150", "Answers one user may upload per 24 hours before usage pauses (the usage guard)."},
	{"JOB_TIMEOUT", "3m", "Longest a background job (one answer's transcription) may run; a crashed process's work is retried after this."},
	{"SPEECH_ENGINE", "local", "Speech-to-text engine: local (pocketsphinx) or openai (any OpenAI-compatible server)."},
	{"SPEECH_OPENAI_BASE_URL", "https://api.openai.com/v1", "Base URL of the OpenAI-compatible transcription API."},
	{"SPEECH_OPENAI_API_KEY", "", "Bearer key for the transcription API."},
	{"SPEECH_OPENAI_MODEL", "whisper-1", "Transcription model name."},
	{"SPEECH_OPENAI_ALIGN", "1", "With the openai engine: 1 lines a student's browser transcript, and the service's text where it gives no word times, up with the recording using pocketsphinx when it is installed (times, pauses, hesitations); 0 never does."},
	{"AUDIO_TMP_DIR", "DATA_DIR/audio-tmp", "Scratch space where ffmpeg and the speech engine read a recording (the recording itself waits in the database until transcribed); swept regularly."},
	{"FEEDBACK_ENGINE", "rubric", "Feedback engine: rubric (built in) or llm (any OpenAI-compatible chat model)."},
	{"FEEDBACK_OPENAI_BASE_URL", "https://api.openai.com/v1", "Base URL of the OpenAI-compatible chat API."},
	{"FEEDBACK_OPENAI_API_KEY", "", "Bearer key for the chat API."},
	{"FEEDBACK_OPENAI_MODEL", "gpt-4o-mini", "Chat model name."},
	{"STRIPE_SECRET_KEY", "", "Stripe secret key (sk_test_... or sk_live_...); empty sells nothing, except through the development checkout when DEV_CHECKOUT=1."},
	{"STRIPE_WEBHOOK_SECRET", "", "Signing secret (whsec_...) of the Stripe webhook endpoint BASE_URL/api/stripe/webhook; required with STRIPE_SECRET_KEY."},
	{"STRIPE_PRICE_ID", "", "Stripe Price sold as the Premium pass; empty builds it from PREMIUM_PRICE_CENTS and PREMIUM_CURRENCY."},
	{"PREMIUM_PRICE_CENTS", "2900", "Price of the one-year Premium pass in the currency's smallest unit."},
	{"PREMIUM_CURRENCY", "usd", "Currency of the Premium pass (ISO 4217, lower case)."},
	{"STRIPE_API_URL", "https://api.stripe.com", "Stripe API base URL; tests point it at stripe-mock."},
	{"DEV_CHECKOUT", "0", "1 turns on the development checkout: Upgrade grants a Premium pass without any payment, and the server and its pricing page say payments are simulated. For development only; refused with STRIPE_SECRET_KEY."},
	{"SUPPORT_EMAIL", "support@whitecoat.app", "Support address shown on pages and in emails."},
	{"COMPANY_NAME", "Whitecoat", "Operator's name, as the privacy policy, the terms and the PDFs give it."},
	{"CONTACT_EMAIL", "hello@whitecoat.app", "General contact address shown on the about page and in the footer."},
	{"PRIVACY_EMAIL", "privacy@whitecoat.app", "Where the privacy policy sends data-protection requests."},
	{"GOVERNING_LAW", "the laws of the place where the operator is established", "The law the terms of service name as governing them."},
	{"FIREBASE_PROJECT_ID", "", "A Firebase project whose accounts may sign in (Firebase Authentication); empty turns it off."},
	{"FIREBASE_API_KEY", "", "The Firebase web SDK's API key for that project (public by design)."},
	{"FIREBASE_AUTH_DOMAIN", "PROJECT.firebaseapp.com", "The Firebase web SDK's auth domain."},
	{"FIREBASE_JWKS_URL", "Google's securetoken keys", "Where the keys that sign Firebase ID tokens are published; tests point it at their own."},
}

// Load reads the environment through getenv (os.Getenv in production) and
// returns every problem at once, each naming the variable and what is wrong.
func Load(getenv func(string) string) (Config, error) {
	p := parser{getenv: getenv}
	var c Config
	c.Addr = p.str("ADDR")
	if _, _, err := net.SplitHostPort(c.Addr); err != nil {
		p.fail("ADDR", "must be host:port or :port, got %q", c.Addr)
	}
	c.MetricsAddr = p.str("METRICS_ADDR")
	if c.MetricsAddr != "" {
		if _, _, err := net.SplitHostPort(c.MetricsAddr); err != nil {
			p.fail("METRICS_ADDR", "must be host:port or :port, got %q", c.MetricsAddr)
		} else if c.MetricsAddr == c.Addr {
			p.fail("METRICS_ADDR", "must differ from ADDR: metrics are never served on the public listener")
		}
	}
	c.BaseURL = p.baseURL("BASE_URL")
	c.DataDir = p.str("DATA_DIR")
	c.DatabaseURL = p.str("DATABASE_URL")
	if getenv("DATABASE_URL") == "" {
		c.DatabaseURL = filepath.Join(c.DataDir, "whitecoat.db")
	}
	c.LogLevel = p.logLevel("LOG_LEVEL")
	c.LogFormat = p.oneOf("LOG_FORMAT", "text", "json")
	c.SMTPURL = p.smtpURL("SMTP_URL")
	c.MailFrom = p.str("MAIL_FROM")
	if _, err := mail.ParseAddress(c.MailFrom); err != nil {
		p.fail("MAIL_FROM", "must be an email address like \"Whitecoat <no-reply@example.com>\", got %q", c.MailFrom)
	}
	c.SessionIdleTimeout = p.duration("SESSION_IDLE_TIMEOUT")
	c.SessionAbsoluteTimeout = p.duration("SESSION_ABSOLUTE_TIMEOUT")
	if c.SessionIdleTimeout > c.SessionAbsoluteTimeout && c.SessionAbsoluteTimeout > 0 {
		p.fail("SESSION_IDLE_TIMEOUT", "must not exceed SESSION_ABSOLUTE_TIMEOUT (%s)", c.SessionAbsoluteTimeout)
	}
	c.RateLimitWindow = p.duration("RATE_LIMIT_WINDOW")
	c.RateLimitPerAccount = p.positiveInt("RATE_LIMIT_PER_ACCOUNT")
	c.RateLimitPerIP = p.positiveInt("RATE_LIMIT_PER_IP")
	c.TryLimitPerIP = p.positiveInt("TRY_LIMIT_PER_IP")
	c.CommentMailDelay = p.duration("COMMENT_MAIL_DELAY")
	c.TrustedProxyHeader = p.headerName("TRUSTED_PROXY_HEADER")
	c.TrustedProxies = p.prefixes("TRUSTED_PROXIES")
	if len(c.TrustedProxies) > 0 && c.TrustedProxyHeader == "" {
		p.fail("TRUSTED_PROXIES", "needs TRUSTED_PROXY_HEADER: without a header there is no proxy's word to trust")
	}
	c.ShutdownTimeout = p.duration("SHUTDOWN_TIMEOUT")
	c.AnswerLimit = p.duration("ANSWER_LIMIT")
	if c.AnswerLimit > 10*time.Minute {
		p.fail("ANSWER_LIMIT", "must be at most 10m, got %s", c.AnswerLimit)
	}
	c.DailyAnswerLimit = p.positiveInt("PRACTICE_DAILY_ANSWER_LIMIT")
	c.JobTimeout = p.duration("JOB_TIMEOUT")

	c.Speech = Speech{
		Engine:        p.oneOf("SPEECH_ENGINE", "local", "openai"),
		OpenAIBaseURL: p.httpURL("SPEECH_OPENAI_BASE_URL"),
		OpenAIAPIKey:  p.str("SPEECH_OPENAI_API_KEY"),
		OpenAIModel:   p.str("SPEECH_OPENAI_MODEL"),
		OpenAIAlign:   p.oneOf("SPEECH_OPENAI_ALIGN", "0", "1") == "1",
		AudioTmpDir:   p.str("AUDIO_TMP_DIR"),
	}
	if getenv("AUDIO_TMP_DIR") == "" {
		c.Speech.AudioTmpDir = filepath.Join(c.DataDir, "audio-tmp")
	}
	if c.Speech.Engine == "openai" && c.Speech.OpenAIAPIKey == "" && strings.Contains(c.Speech.OpenAIBaseURL, "api.openai.com") {
		p.fail("SPEECH_OPENAI_API_KEY", "is required when SPEECH_ENGINE=openai talks to api.openai.com")
	}
	c.Feedback = Feedback{
		Engine:        p.oneOf("FEEDBACK_ENGINE", "rubric", "llm"),
		OpenAIBaseURL: p.httpURL("FEEDBACK_OPENAI_BASE_URL"),
		OpenAIAPIKey:  p.str("FEEDBACK_OPENAI_API_KEY"),
		OpenAIModel:   p.str("FEEDBACK_OPENAI_MODEL"),
	}
	if c.Feedback.Engine == "llm" && c.Feedback.OpenAIAPIKey == "" && strings.Contains(c.Feedback.OpenAIBaseURL, "api.openai.com") {
		p.fail("FEEDBACK_OPENAI_API_KEY", "is required when FEEDBACK_ENGINE=llm talks to api.openai.com")
	}
	c.Payments = Payments{
		StripeSecretKey:     p.str("STRIPE_SECRET_KEY"),
		StripeWebhookSecret: p.str("STRIPE_WEBHOOK_SECRET"),
		StripePriceID:       p.str("STRIPE_PRICE_ID"),
		PriceCents:          int64(p.positiveInt("PREMIUM_PRICE_CENTS")),
		Currency:            strings.ToLower(p.str("PREMIUM_CURRENCY")),
		StripeAPIURL:        p.httpURL("STRIPE_API_URL"),
		DevCheckout:         p.oneOf("DEV_CHECKOUT", "0", "1") == "1",
	}
	if c.Payments.DevCheckout && c.Payments.StripeSecretKey != "" {
		p.fail("DEV_CHECKOUT", "=1 (passes for nothing) cannot be set together with STRIPE_SECRET_KEY: unset DEV_CHECKOUT to sell through Stripe, or STRIPE_SECRET_KEY to simulate payments")
	}
	if c.Payments.StripeSecretKey != "" && c.Payments.StripeWebhookSecret == "" {
		p.fail("STRIPE_WEBHOOK_SECRET", "is required with STRIPE_SECRET_KEY: without it no payment can be confirmed")
	}
	if len(c.Payments.Currency) != 3 {
		p.fail("PREMIUM_CURRENCY", "must be a three-letter currency code like usd, got %q", c.Payments.Currency)
	}
	c.SupportEmail = p.email("SUPPORT_EMAIL")
	c.Operator = Operator{
		Company:      p.str("COMPANY_NAME"),
		ContactEmail: p.email("CONTACT_EMAIL"),
		PrivacyEmail: p.email("PRIVACY_EMAIL"),
		GoverningLaw: p.str("GOVERNING_LAW"),
	}
	c.Firebase = Firebase{ProjectID: strings.TrimSpace(getenv("FIREBASE_PROJECT_ID")), APIKey: strings.TrimSpace(getenv("FIREBASE_API_KEY")),
		AuthDomain: strings.TrimSpace(getenv("FIREBASE_AUTH_DOMAIN")), JWKSURL: strings.TrimSpace(getenv("FIREBASE_JWKS_URL"))}
	if c.Firebase.JWKSURL != "" {
		if u, err := url.Parse(c.Firebase.JWKSURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			p.fail("FIREBASE_JWKS_URL", "must be an http(s) URL, got %q", c.Firebase.JWKSURL)
		}
	}
	if c.Firebase.ProjectID == "" && (c.Firebase.APIKey != "" || c.Firebase.AuthDomain != "" || c.Firebase.JWKSURL != "") {
		p.fail("FIREBASE_PROJECT_ID", "is required with the other FIREBASE_ settings")
	}
	if len(p.errs) > 0 {
		return Config{}, fmt.Errorf("config: %w", errors.Join(p.errs...))
	}
	return c, nil
}

// SecureCookies reports whether cookies must carry the Secure attribute and
// responses HSTS: only when users reach the app over https.
func (c Config) SecureCookies() bool { return c.BaseURL.Scheme == "https" }

// IsPostgres reports whether DatabaseURL selects PostgreSQL.
func (c Config) IsPostgres() bool { return IsPostgresURL(c.DatabaseURL) }

// IsPostgresURL reports whether a DATABASE_URL value names PostgreSQL.
func IsPostgresURL(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

type parser struct {
	getenv func(string) string
	errs   []error
}

func (p *parser) fail(name, format string, args ...any) {
	p.errs = append(p.errs, fmt.Errorf("%s %s", name, fmt.Sprintf(format, args...)))
}

func (p *parser) str(name string) string {
	if v := strings.TrimSpace(p.getenv(name)); v != "" {
		return v
	}
	for _, v := range Vars {
		if v.Name == name {
			return v.Default
		}
	}
	panic("config: undocumented variable " + name)
}

func (p *parser) email(name string) string {
	v := p.str(name)
	if _, err := mail.ParseAddress(v); err != nil || strings.ContainsAny(v, "<> ") {
		p.fail(name, "must be an email address like help@example.com, got %q", v)
	}
	return v
}

func (p *parser) oneOf(name string, allowed ...string) string {
	v := strings.ToLower(p.str(name))
	for _, a := range allowed {
		if v == a {
			return v
		}
	}
	p.fail(name, "must be one of %s, got %q", strings.Join(allowed, ", "), v)
	return allowed[0]
}

func (p *parser) duration(name string) time.Duration {
	raw := p.str(name)
	d, err := time.ParseDuration(raw)
	if err != nil || d <= 0 {
		p.fail(name, "must be a positive duration like 30s, 15m or 72h, got %q", raw)
		return time.Second
	}
	return d
}

func (p *parser) positiveInt(name string) int {
	raw := p.str(name)
	n, err := strconv.Atoi(raw)
	if err != nil || n <= 0 {
		p.fail(name, "must be a whole number above 0, got %q", raw)
		return 1
	}
	return n
}

// headerName accepts an HTTP header name. Forwarded (RFC 7239) is refused:
// its entries are "for=..." pairs, not addresses, and would never resolve.
func (p *parser) headerName(name string) string {
	v := p.str(name)
	if strings.EqualFold(v, "Forwarded") {
		p.fail(name, "cannot be Forwarded; use X-Forwarded-For or a header holding only the address, such as X-Real-IP")
		return ""
	}
	const tokenChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$%&'*+-.^_`|~"
	if strings.Trim(v, tokenChars) != "" {
		p.fail(name, "must be an HTTP header name such as X-Forwarded-For, got %q", v)
		return ""
	}
	return v
}

// prefixes reads a comma-separated list of IP addresses and CIDR ranges;
// an address is a range of one.
func (p *parser) prefixes(name string) []netip.Prefix {
	var out []netip.Prefix
	for _, entry := range strings.Split(p.str(name), ",") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		if addr, err := netip.ParseAddr(entry); err == nil && addr.Zone() == "" {
			out = append(out, netip.PrefixFrom(addr.Unmap(), addr.Unmap().BitLen()))
		} else if prefix, err := netip.ParsePrefix(entry); err == nil {
			out = append(out, prefix.Masked())
		} else {
			p.fail(name, "must list IP addresses or CIDR ranges such as 10.0.0.0/8, 127.0.0.1, fd00::/8; %q is neither", entry)
		}
	}
	return out
}

func (p *parser) logLevel(name string) slog.Level {
	var l slog.Level
	if err := l.UnmarshalText([]byte(p.str(name))); err != nil {
		p.fail(name, "must be debug, info, warn or error, got %q", p.str(name))
	}
	return l
}

func (p *parser) httpURL(name string) string {
	raw := p.str(name)
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		p.fail(name, "must be an http(s) URL like https://api.example.com/v1, got %q", raw)
	}
	return strings.TrimRight(raw, "/")
}

func (p *parser) baseURL(name string) *url.URL {
	raw := p.httpURL(name)
	u, err := url.Parse(raw)
	if err != nil {
		return &url.URL{Scheme: "http", Host: "localhost"}
	}
	if u.RawQuery != "" || u.Fragment != "" {
		p.fail(name, "must not carry a query or fragment, got %q", raw)
	}
	return u
}

func (p *parser) smtpURL(name string) *url.URL {
	raw := p.getenv(name)
	if raw == "" {
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "smtp" && u.Scheme != "smtps") || u.Hostname() == "" {
		p.fail(name, "must look like smtp://user:pass@host:587 or smtps://host:465, got %q", redact(raw))
		return nil
	}
	if port := u.Port(); port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			p.fail(name, "has an invalid port %q", port)
		}
	}
	return u
}

// redact keeps SMTP passwords out of error messages and logs.
func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparseable URL)"
	}
	return u.Redacted()
}
