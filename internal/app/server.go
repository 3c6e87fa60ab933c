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
	"os/signal"
	"syscall"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"

	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/config"
	"github.com/whitecoat/whitecoat/internal/httpx"
	"github.com/whitecoat/whitecoat/internal/jobs"
	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/profession"
	"github.com/whitecoat/whitecoat/internal/question"
	"github.com/whitecoat/whitecoat/web"
)

// Request body caps: JSON endpoints get a small one; uploads (later) get
// their own under their path prefix.
const jsonBodyLimit = 64 << 10

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

// handlers are the HTTP faces of the services.
type handlers struct {
	auth      *auth.Handler
	questions *question.Handler
	practice  *practice.Handler
}

func newHandlers(s *services, cfg config.Config) handlers {
	var (
		authSvc     *auth.Service
		questionSvc *question.Service
		practiceSvc *practice.Service
	)
	if s != nil {
		authSvc, questionSvc, practiceSvc = s.auth, s.questions, s.practice
	}
	return handlers{auth: auth.NewHandler(authSvc, cfg.SecureCookies()), questions: question.NewHandler(questionSvc),
		practice: practice.NewHandler(practiceSvc)}
}

// registerAPI adds every API operation to api. The OpenAPI document and the
// authorisation matrix test both come from this one list.
func registerAPI(api huma.API, h handlers) {
	h.auth.RegisterRoutes(api)
	h.auth.RegisterAdminRoutes(api)
	profession.RegisterRoutes(api)
	h.questions.RegisterRoutes(api)
	h.practice.RegisterRoutes(api)
}

// newHTTPHandler assembles the whole HTTP surface: API, probes and SPA,
// behind the middleware every response passes through.
func newHTTPHandler(s *services, cfg config.Config, logger *slog.Logger, spaFiles fs.FS) (http.Handler, huma.API) {
	mux := http.NewServeMux()
	api := humago.New(mux, apiConfig())
	api.UseMiddleware(auth.Guard(api))
	h := newHandlers(s, cfg)
	registerAPI(api, h)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = io.WriteString(w, "ok\n")
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		if err := s.db.Ping(r.Context()); err != nil {
			httpx.Logger(r.Context()).Warn("readiness check failed", "err", err)
			httpx.WriteProblem(w, http.StatusServiceUnavailable, "The database is not reachable.")
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = io.WriteString(w, "ready\n")
	})
	mux.Handle("/", httpx.SPA(spaFiles))
	return httpx.Chain(mux,
		httpx.ClientIPFrom(cfg.TrustedProxyHeader),
		httpx.RequestLog(logger),
		httpx.Recover,
		httpx.SecurityHeaders(cfg.SecureCookies()),
		httpx.NoStoreAPI,
		httpx.BodyLimit(jsonBodyLimit, map[string]int64{practice.UploadPathPrefix: practice.MaxUploadBytes}),
		httpx.TextHygiene,
		httpx.CrossOrigin,
		h.auth.Middleware,
	), api
}

// printOpenAPI writes the OpenAPI document without opening a database:
// `make generate` turns it into the web client's types.
func printOpenAPI(w io.Writer) error {
	cfg, err := config.Load(func(string) string { return "" })
	if err != nil {
		return err
	}
	api := humago.New(http.NewServeMux(), apiConfig())
	registerAPI(api, newHandlers(nil, cfg))
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(api.OpenAPI())
}

// serve runs the web server and job workers until SIGINT or SIGTERM, then
// finishes in-flight requests and jobs before returning.
func serve(parent context.Context, cfg config.Config, logger *slog.Logger) error {
	ctx, stop := signal.NotifyContext(parent, syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	s, err := newServices(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer s.db.Close()

	eng, err := newEngines(cfg, logger)
	if err != nil {
		return err
	}
	defer eng.speech.Close()
	jobClient, err := startPipeline(ctx, s, cfg, logger, eng, jobs.DefaultOptions(cfg.JobTimeout))
	if err != nil {
		return err
	}

	handler, _ := newHTTPHandler(s, cfg, logger, web.Dist())
	srv := &http.Server{
		Addr:              cfg.Addr,
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("app: listen on %s: %w", cfg.Addr, err)
	}
	logger.Info("Whitecoat is running", "url", cfg.BaseURL.String(), "listen", ln.Addr().String(),
		"database", string(s.db.Dialect), "mail", s.mailer.Describe())

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
	if err := jobs.Stop(shutdownCtx, jobClient); err != nil {
		logger.Warn("job shutdown incomplete", "err", err)
	}
	s.auth.Shutdown(shutdownCtx)
	logger.Info("stopped")
	return nil
}
