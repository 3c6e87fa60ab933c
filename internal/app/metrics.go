package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/whitecoat/whitecoat/internal/jobs"
)

// scrapeTimeout bounds the database reads a scrape makes.
const scrapeTimeout = 2 * time.Second

// observeQueues adds the series read at each scrape: the job queue from
// the database (every instance sees the same queue) and this process's
// password hashing.
func (a *App) observeQueues() {
	a.metrics.Collect("whitecoat_jobs", "Background jobs by kind and state.", []string{"kind", "state"}, scrapeTimeout,
		func(ctx context.Context, report func(float64, ...string)) error {
			counts, _, err := jobs.Stats(ctx, a.db, a.now())
			for _, c := range counts {
				report(float64(c.Jobs), c.Kind, string(c.State))
			}
			return err
		})
	a.metrics.Collect("whitecoat_job_queue_lag_seconds", "How long the oldest job of each kind waiting to run has waited.", []string{"kind"}, scrapeTimeout,
		func(ctx context.Context, report func(float64, ...string)) error {
			_, lag, err := jobs.Stats(ctx, a.db, a.now())
			for kind, d := range lag {
				report(d.Seconds(), kind)
			}
			return err
		})
	a.metrics.Gauge("whitecoat_password_hashes_computing", "Password hashes being computed right now.", func() float64 {
		computing, _ := a.auth.HashQueue()
		return float64(computing)
	})
	a.metrics.Gauge("whitecoat_password_hashes_waiting", "Requests waiting for a password hashing slot.", func() float64 {
		_, waiting := a.auth.HashQueue()
		return float64(waiting)
	})
}

// serveMetrics serves /metrics on cfg.MetricsAddr until ctx ends; the
// returned function stops it.
func (a *App) serveMetrics(ctx context.Context, logger *slog.Logger) (stop func(context.Context) error, err error) {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", a.metrics.Handler())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, BaseContext: func(net.Listener) context.Context { return ctx }}
	ln, err := net.Listen("tcp", a.cfg.MetricsAddr)
	if err != nil {
		return nil, fmt.Errorf("app: listen for metrics on %s: %w", a.cfg.MetricsAddr, err)
	}
	logger.Info("metrics are served", "url", "http://"+ln.Addr().String()+"/metrics")
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			logger.Error("metrics listener stopped", "err", err)
		}
	}()
	return srv.Shutdown, nil
}
