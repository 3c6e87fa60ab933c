package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"

	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/billing"
	"github.com/whitecoat/whitecoat/internal/config"
	"github.com/whitecoat/whitecoat/internal/history"
	"github.com/whitecoat/whitecoat/internal/httpx"
	"github.com/whitecoat/whitecoat/internal/jobs"
	"github.com/whitecoat/whitecoat/internal/metrics"
	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/profession"
	"github.com/whitecoat/whitecoat/internal/question"
	"github.com/whitecoat/whitecoat/internal/route"
	"github.com/whitecoat/whitecoat/internal/share"
	"github.com/whitecoat/whitecoat/internal/site"
	"github.com/whitecoat/whitecoat/internal/tryout"
	"github.com/whitecoat/whitecoat/web"
)

// apiConfig describes the API for the OpenAPI document.
func apiConfig() huma.Config {
	hc := huma.DefaultConfig("Whitecoat API", "1.0.0")
	hc.Info.Description = "Mock-interview practice for health-profession school applicants."
	hc.OpenAPIPath = "/api/openapi"
	hc.DocsPath = ""
	hc.SchemasPath = ""
	// No "$schema" links in responses: clients use the generated types.
	hc.CreateHooks = nil
	hc.Components.SecuritySchemes = map[string]*huma.SecurityScheme{
		"session": {Type: "apiKey", In: "cookie", Name: "whitecoat_session",
			Description: "HttpOnly session cookie set by signup and login (__Host-whitecoat_session over https)."},
	}
	return hc
}

// App is the Whitecoat server: the services on one database, the practice
// pipeline with its engines and job workers, and the HTTP handler in front
// of them. New builds all of it; serve and the tests run the same App.
type App struct {
	*services
	cfg      config.Config
	logger   *slog.Logger
	engines  engines
	practice *practice.Service
	history  *history.Service
	billing  *billing.Service
	share    *share.Service
	jobs     *jobs.Client
	site     *site.Library
	examples tryout.Examples
	tryout   *tryout.Service
	metrics  *metrics.Metrics
	api      huma.API
	handler  http.Handler
}

// Deps are what the App takes from its caller rather than from the
// configuration. The zero value is what serve uses.
type Deps struct {
	// Logger receives the app's logs; nil logs to standard error as the
	// configuration says.
	Logger *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// SPA is the web app's files; nil means the build embedded in the binary.
	SPA fs.FS
	// JobPollInterval is how often idle job workers look for work; 0 keeps
	// the server's default.
	JobPollInterval time.Duration
}

// New builds the App for cfg: it opens and migrates the database, seeds
// the question bank and starts the speech engine. Start runs its job
// workers; Close releases what New opened.
func New(ctx context.Context, cfg config.Config, deps Deps) (*App, error) {
	logger, now, spa := deps.Logger, deps.Now, deps.SPA
	if logger == nil {
		logger = newLogger(cfg, os.Stderr)
	}
	if now == nil {
		now = time.Now
	}
	if spa == nil {
		spa = web.Dist()
	}
	opts := jobs.DefaultOptions(cfg.JobTimeout)
	if deps.JobPollInterval > 0 {
		opts.PollInterval = deps.JobPollInterval
	}
	if err := makeAudioDir(cfg); err != nil {
		return nil, err
	}
	s, err := newServices(ctx, cfg, logger, now)
	if err != nil {
		return nil, err
	}
	eng, err := newEngines(cfg, logger)
	if err != nil {
		s.db.Close()
		return nil, err
	}
	a := &App{services: s, cfg: cfg, logger: logger, engines: eng, metrics: metrics.New()}
	a.engines.speech = a.metrics.Speech(eng.speech)
	a.engines.scorer = a.metrics.Feedback(eng.scorer)
	a.observeQueues()
	if a.site, a.examples, err = newSite(ctx, cfg); err != nil {
		a.Close()
		return nil, err
	}
	if a.jobs, err = newPipeline(a, cfg, logger, a.engines, opts); err != nil {
		a.Close()
		return nil, err
	}
	// Every page carries the profession list, which the header and the
	// landing page render from.
	catalog, err := json.Marshal(profession.CurrentCatalog())
	if err != nil {
		a.Close()
		return nil, fmt.Errorf("profession catalog: %w", err)
	}
	a.handler, a.api = newHTTPHandler(a, spa, httpx.Preloaded{Path: "/api/professions", Body: catalog})
	return a, nil
}

// Handler is the whole HTTP surface: API, probes and web app.
func (a *App) Handler() http.Handler { return a.handler }

// Shutdown lets the jobs and the mail in flight finish until ctx ends.
func (a *App) Shutdown(ctx context.Context) error {
	err := jobs.Stop(ctx, a.jobs)
	a.auth.Shutdown(ctx)
	return err
}

// Close releases the speech engine and the database.
func (a *App) Close() error {
	return errors.Join(a.engines.speech.Close(), a.db.Close())
}

// newHTTPHandler assembles the whole HTTP surface: API, probes and SPA,
// behind the middleware every response passes through. The API it returns
// is where the OpenAPI document and the authorisation matrix test come
// from.
func newHTTPHandler(a *App, spaFiles fs.FS, preloaded ...httpx.Preloaded) (http.Handler, huma.API) {
	mux := http.NewServeMux()
	api := humago.New(mux, apiConfig())
	api.UseMiddleware(route.Guard(api, auth.Admit), auth.TakeReadTurns())
	accounts := auth.NewHandler(a.auth, a.cfg.SecureCookies(), auth.Across{Erase: a.eraseAccount, Listed: a.listedAccounts})
	accounts.RegisterRoutes(api)
	accounts.RegisterAdminRoutes(api)
	profession.RegisterRoutes(api)
	question.NewHandler(a.questions).RegisterRoutes(api)
	practice.NewHandler(a.practice).RegisterRoutes(api)
	history.NewHandler(a.history).RegisterRoutes(api)
	billing.NewHandler(a.billing).RegisterRoutes(api)
	share.NewHandler(a.share).RegisterRoutes(api)
	tryout.NewHandler(a.examples, a.tryout, a.keepTry).RegisterRoutes(api)
	registerDataRoutes(api, a)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = io.WriteString(w, "ok\n")
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		if err := a.db.Ping(r.Context()); err != nil {
			httpx.Logger(r.Context()).Warn("readiness check failed", "err", err)
			httpx.WriteProblem(w, http.StatusServiceUnavailable, "The database is not reachable.")
			return
		}
		if err := a.db.CheckSchema(r.Context()); err != nil {
			httpx.Logger(r.Context()).Warn("readiness check failed", "err", err)
			httpx.WriteProblem(w, http.StatusServiceUnavailable, "The database does not hold the schema this version works on.")
			return
		}
		if err := a.practice.CheckStorage(); err != nil {
			httpx.Logger(r.Context()).Warn("readiness check failed", "err", err)
			httpx.WriteProblem(w, http.StatusServiceUnavailable, "Recorded answers cannot be stored.")
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = io.WriteString(w, "ready\n")
	})
	pages := site.NewHandler(a.site)
	pages.RegisterRoutes(api)
	pages.RegisterFiles(mux)
	mux.Handle("/", httpx.SPA(spaFiles, a.site.Head, a.site.Prerendered, accounts.MayBeSignedIn, preloaded...))
	patternOf := func(r *http.Request) string {
		_, pattern := mux.Handler(r)
		return pattern
	}
	uploads := map[string]bool{http.MethodPut + " " + practice.AudioPath: true, http.MethodPatch + " " + practice.AudioPath: true,
		http.MethodPost + " " + tryout.RecordPath: true}
	return a.metrics.Requests(httpx.Chain(mux,
		httpx.ClientIPFrom(httpx.ProxyTrust{Header: a.cfg.TrustedProxyHeader, Proxies: a.cfg.TrustedProxies}),
		httpx.RequestLog(a.logger, patternOf),
		httpx.Recover,
		httpx.SecurityHeaders(a.cfg.SecureCookies()),
		httpx.NoStoreAPI,
		httpx.BodyLimit(route.MaxJSONBytes, map[string]int64{practice.UploadPathPrefix: practice.MaxUploadBytes, billing.WebhookPath: billing.MaxWebhookBytes,
			tryout.RecordPathPrefix: tryout.MaxAudioBytes}),
		httpx.TextHygiene(route.JSONBodyWait),
		httpx.CrossOrigin,
		accounts.Middleware,
	), patternOf, uploads), api
}

// printOpenAPI writes the OpenAPI document of the App serve runs, built on
// a throwaway SQLite database so that `make generate`, which turns it into
// the web client's types, needs no configuration. The OpenAI-compatible
// speech engine stands in for the local one, which would load its model
// for nothing: it connects to nothing until an answer arrives.
func printOpenAPI(ctx context.Context, w io.Writer) error {
	dir, err := os.MkdirTemp("", "whitecoat-openapi-")
	if err != nil {
		return fmt.Errorf("app: openapi: %w", err)
	}
	defer os.RemoveAll(dir)
	env := map[string]string{"DATA_DIR": dir, "SPEECH_ENGINE": "openai", "SPEECH_OPENAI_BASE_URL": "http://localhost/v1"}
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		return err
	}
	a, err := New(ctx, cfg, Deps{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return err
	}
	defer a.Close()
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(a.api.OpenAPI())
}

// serve runs the web server and job workers until SIGINT or SIGTERM, then
// finishes in-flight requests and jobs before returning.
func serve(parent context.Context, cfg config.Config, logger *slog.Logger) error {
	ctx, stop := signal.NotifyContext(parent, syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	a, err := New(ctx, cfg, Deps{Logger: logger})
	if err != nil {
		return err
	}
	defer a.Close()
	if err := a.Start(ctx); err != nil {
		return err
	}

	srv := &http.Server{
		Addr:              cfg.Addr,
		Handler:           a.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("app: listen on %s: %w", cfg.Addr, err)
	}
	if cfg.MetricsAddr != "" {
		stopMetrics, err := a.serveMetrics(context.WithoutCancel(ctx), logger)
		if err != nil {
			ln.Close()
			return err
		}
		defer func() { _ = stopMetrics(context.WithoutCancel(parent)) }()
	}
	logger.Info("Whitecoat is running", "url", cfg.BaseURL.String(), "listen", ln.Addr().String(),
		"database", string(a.db.Dialect), "mail", a.mailer.Describe())

	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(ln) }()

	select {
	case err := <-serveErr:
		if !errors.Is(err, http.ErrServerClosed) {
			return fmt.Errorf("app: serve: %w", err)
		}
	case <-ctx.Done():
	}
	logger.Info("shutting down: finishing in-flight requests and jobs", "timeout", cfg.ShutdownTimeout)
	shutdownCtx, cancel := context.WithTimeout(context.WithoutCancel(parent), cfg.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		logger.Warn("HTTP shutdown incomplete", "err", err)
	}
	if err := a.Shutdown(shutdownCtx); err != nil {
		logger.Warn("job shutdown incomplete", "err", err)
	}
	logger.Info("stopped")
	return nil
}
