// Package jobs runs Whitecoat's background work on River, over whichever
// database the store opened. Both River drivers used here work on
// database/sql, so jobs can be inserted in the same *sql.Tx as domain rows.
package jobs

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/riverqueue/river/riverdriver/riversqlite"

	"github.com/whitecoat/whitecoat/internal/store"
)

// Client is the River client for the app's database.
type Client = river.Client[*sql.Tx]

// Options configures the client.
type Options struct {
	Workers      *river.Workers
	PeriodicJobs []*river.PeriodicJob
	// MaxWorkers is how many jobs run at once on this instance.
	MaxWorkers int
	// PollInterval is how often idle workers look for new jobs; neither
	// driver used here has LISTEN/NOTIFY, so this bounds job pick-up latency.
	PollInterval time.Duration
	// JobTimeout cancels a job that runs longer; RescueAfter re-queues a job
	// whose worker died (a crashed process) after that long.
	JobTimeout  time.Duration
	RescueAfter time.Duration
}

// New builds a River client on db. Call Start to begin working jobs; a
// client without workers can still insert.
func New(db *store.DB, logger *slog.Logger, opts Options) (*Client, error) {
	var driver riverdriver.Driver[*sql.Tx]
	if db.Dialect == store.Postgres {
		driver = riverdatabasesql.New(db.SQL)
	} else {
		driver = riversqlite.New(db.SQL)
	}
	cfg := &river.Config{
		// River reports routine bookkeeping at info every few seconds;
		// keep its warnings and errors only.
		Logger:               slog.New(minLevel{Handler: logger.Handler(), min: slog.LevelWarn}),
		Schema:               db.Schema,
		PeriodicJobs:         opts.PeriodicJobs,
		FetchPollInterval:    opts.PollInterval,
		FetchCooldown:        min(opts.PollInterval, 100*time.Millisecond),
		JobTimeout:           opts.JobTimeout,
		RescueStuckJobsAfter: opts.RescueAfter,
	}
	if opts.Workers != nil {
		cfg.Workers = opts.Workers
		cfg.Queues = map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: max(1, opts.MaxWorkers)}}
	}
	c, err := river.NewClient(driver, cfg)
	if err != nil {
		return nil, fmt.Errorf("jobs: new client: %w", err)
	}
	return c, nil
}

// DefaultOptions are the settings the server runs with; the caller adds
// its workers and periodic jobs.
func DefaultOptions(jobTimeout time.Duration) Options {
	return Options{MaxWorkers: 4, PollInterval: 100 * time.Millisecond,
		JobTimeout: jobTimeout, RescueAfter: jobTimeout + 15*time.Second}
}

// Stop lets running jobs finish until ctx ends, then cancels them.
func Stop(ctx context.Context, c *Client) error {
	if err := c.Stop(ctx); err != nil {
		return c.StopAndCancel(context.Background())
	}
	return nil
}

// minLevel drops records below min.
type minLevel struct {
	slog.Handler
	min slog.Level
}

func (h minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}

func (h minLevel) WithAttrs(attrs []slog.Attr) slog.Handler {
	return minLevel{Handler: h.Handler.WithAttrs(attrs), min: h.min}
}

func (h minLevel) WithGroup(name string) slog.Handler {
	return minLevel{Handler: h.Handler.WithGroup(name), min: h.min}
}
