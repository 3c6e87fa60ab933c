package app

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/riverqueue/river"

	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/billing"
	"github.com/whitecoat/whitecoat/internal/config"
	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/history"
	"github.com/whitecoat/whitecoat/internal/jobs"
	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/share"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/transcribe"
	"github.com/whitecoat/whitecoat/internal/tryout"
)

// engines are what the practice pipeline transcribes and scores with.
type engines struct {
	speech transcribe.Engine
	scorer feedback.Engine
}

func newEngines(cfg config.Config, logger *slog.Logger) (engines, error) {
	speech, err := transcribe.New(speechConfig(cfg), logger)
	if err != nil {
		return engines{}, err
	}
	scorer, err := feedbackEngines(cfg)(cfg.Feedback.Engine, logger)
	if err != nil {
		speech.Close()
		return engines{}, err
	}
	return engines{speech: speech, scorer: scorer}, nil
}

func practiceConfig(cfg config.Config) practice.Config {
	return practice.Config{
		AnswerLimit:      cfg.AnswerLimit,
		AudioDir:         cfg.Speech.AudioTmpDir,
		MaxAudioBytes:    practice.MaxUploadBytes,
		DailyAnswerLimit: cfg.DailyAnswerLimit,
		AudioMaxAge:      time.Hour,
		// With retries backing off to 15 s, 25 attempts ride out about
		// five minutes of engine outage before an answer is marked failed.
		MaxAttempts: 25,
		StuckAfter:  2 * cfg.JobTimeout,
		// Recognising every 3 s keeps the part left when the student stops
		// to a few seconds; a step only feeds the recording's new bytes to
		// the ffmpeg run decoding it (transcribe/live.go).
		AdvanceEvery: 3 * time.Second,
	}
}

func billingConfig(cfg config.Config) billing.Config {
	p := cfg.Payments
	return billing.Config{
		SecretKey: p.StripeSecretKey, WebhookSecret: p.StripeWebhookSecret, PriceID: p.StripePriceID,
		PriceCents: p.PriceCents, Currency: p.Currency, APIURL: p.StripeAPIURL,
		BaseURL: cfg.BaseURL, DevCheckout: p.DevCheckout, SupportEmail: cfg.SupportEmail,
	}
}

// newPipeline creates the practice service on s with the job client it
// enqueues on, and registers the workers that process answers and run the
// periodic clean-ups; Start starts them.
func newPipeline(s *App, cfg config.Config, logger *slog.Logger, eng engines, opts jobs.Options) (*jobs.Client, error) {
	workers := river.NewWorkers()
	opts.Workers = workers
	opts.Queues = map[string]int{practice.AdvanceQueue: practice.AdvanceWorkers, tryout.Queue: tryout.Workers}
	opts.PeriodicJobs = append(opts.PeriodicJobs, auth.PrunePeriodically(time.Hour), practice.SweepPeriodically(cfg.JobTimeout),
		billing.RemindPeriodically(time.Hour), tryout.SweepPeriodically(10*time.Minute))
	client, err := jobs.New(s.db, logger, opts)
	if err != nil {
		return nil, err
	}
	// What a student may do is billing's one answer over the trial (auth),
	// the pass (billing) and the free sessions used (practice).
	access := billing.NewEntitlements(s.auth, practice.UsedSessionCounter{}, s.now)
	// A corrected answer rewrites the session's saved copy, which history
	// keeps; history reads the sessions it is drawn from through practice.
	s.practice = practice.NewService(s.db, client, s.auth, access, s.questions, history.Copies{}, eng.speech, eng.scorer, logger, s.now, practiceConfig(cfg))
	s.history = history.NewService(s.db, s.practice, access)
	s.billing = billing.NewService(s.db, s.auth, s.mailer, logger, s.now, billingConfig(cfg))
	tryLimits := tryout.DefaultLimits
	tryLimits.PerAddressPerHour = cfg.TryLimitPerIP
	s.tryout = tryout.NewService(s.db, client, s.limiter, eng.speech, eng.scorer, logger, s.now, tryLimits)
	river.AddWorker(workers, &auth.PruneWorker{Service: s.auth})
	river.AddWorker(workers, &billing.RemindWorker{Service: s.billing})
	// Sharing reads saved sessions through history and accounts through
	// auth.
	s.share = share.NewService(s.db, client, s.history, s.auth, s.limiter, s.mailer, logger, s.now, cfg.BaseURL, cfg.CommentMailDelay)
	river.AddWorker(workers, &share.CommentMailWorker{Service: s.share})
	practice.AddWorkers(workers, s.practice)
	tryout.AddWorkers(workers, s.tryout)
	return client, nil
}

// Start queues again the answers a crash cut off, then starts the job
// workers. Jobs stop through Shutdown after the HTTP server drains, not
// when ctx ends.
func (a *App) Start(ctx context.Context) error {
	// Answers in progress for longer than a job may run were cut off by a
	// crash; on SQLite, which has this one process working on it, every
	// answer in progress was. Queue them now, not at the next sweep.
	olderThan := a.cfg.JobTimeout
	if a.db.Dialect == store.SQLite {
		olderThan = 0
	}
	if _, err := a.practice.RecoverStuck(ctx, olderThan); err != nil {
		return err
	}
	if err := a.jobs.Start(context.WithoutCancel(ctx)); err != nil {
		return fmt.Errorf("app: start jobs: %w", err)
	}
	return nil
}
