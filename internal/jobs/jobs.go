// Package jobs runs Whitecoat's background work on River, over whichever
// database the store opened. Both River drivers used here work on
// database/sql, so jobs can be inserted in the same *sql.Tx as domain rows.
package jobs

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"sync"
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
	// MaxWorkers is how many jobs of River's default queue run at once
	// on this instance.
	MaxWorkers int
	// Queues are the other queues, each with how many of its jobs run at
	// once on this instance: work that may wait long, kept from holding
	// the workers of the default queue.
	Queues map[string]int
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
		Logger:               riverLogger(logger, time.Now),
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
		for name, n := range opts.Queues {
			cfg.Queues[name] = river.QueueConfig{MaxWorkers: max(1, n)}
		}
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

// repeatEvery is how often one of River's messages is written while it
// keeps repeating: with the database down, its loops report the same error
// about ten times a second.
const repeatEvery = time.Minute

// riverLogger is River's view of logger: routine bookkeeping (info, every
// few seconds) is dropped, and each warning or error is written once per
// repeatEvery, the next time counting how many were held back.
func riverLogger(logger *slog.Logger, now func() time.Time) *slog.Logger {
	limited := &oncePer{Handler: logger.Handler(), every: repeatEvery, now: now, state: &repeats{last: map[string]time.Time{}, held: map[string]int{}}}
	return slog.New(minLevel{Handler: limited, min: slog.LevelWarn})
}

// oncePer writes a record whose message was already written less than
// every ago only as a count, added to the next one that is written.
type oncePer struct {
	slog.Handler
	every time.Duration
	now   func() time.Time
	state *repeats
}

// repeats is shared by a handler and the copies WithAttrs and WithGroup
// make of it, as River's components each derive their own logger.
type repeats struct {
	mu   sync.Mutex
	last map[string]time.Time
	held map[string]int
}

func (h *oncePer) Handle(ctx context.Context, r slog.Record) error {
	key := r.Level.String() + " " + r.Message
	now := h.now()
	h.state.mu.Lock()
	if last, ok := h.state.last[key]; ok && now.Sub(last) < h.every {
		h.state.held[key]++
		h.state.mu.Unlock()
		return nil
	}
	h.state.last[key] = now
	held := h.state.held[key]
	delete(h.state.held, key)
	h.state.mu.Unlock()
	if held > 0 {
		r = r.Clone()
		r.AddAttrs(slog.Int("repeated_since_last_logged", held))
	}
	return h.Handler.Handle(ctx, r)
}

func (h *oncePer) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &oncePer{Handler: h.Handler.WithAttrs(attrs), every: h.every, now: h.now, state: h.state}
}

func (h *oncePer) WithGroup(name string) slog.Handler {
	return &oncePer{Handler: h.Handler.WithGroup(name), every: h.every, now: h.now, state: h.state}
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
