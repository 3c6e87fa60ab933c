// Package app wires Whitecoat together: config, logger, store, services,
// jobs and HTTP, and dispatches the command-line subcommands.
package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/config"
	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/httpx"
	"github.com/whitecoat/whitecoat/internal/mail"
	"github.com/whitecoat/whitecoat/internal/question"
	"github.com/whitecoat/whitecoat/internal/ratelimit"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/transcribe"
)

// IO is the process's standard streams and environment, passed in so tests
// can run commands without touching the real ones.
type IO struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
}

// ErrUsage marks a command-line mistake; main exits with status 2.
var ErrUsage = errors.New("usage")

const usage = `Whitecoat — interview practice for health-profession school applicants.

Usage:
  whitecoat serve                      start the web server (the default)
  whitecoat migrate                    apply database migrations and exit
  whitecoat doctor                     check the database, mail and engines
  whitecoat user create --email E --name N --password-stdin [--admin]
  whitecoat user promote EMAIL         give an account the admin role (it sets up a second factor at next login)
  whitecoat user demote EMAIL          take the admin role away (from the account's next request)
  whitecoat user reset-second-factor EMAIL
                                       remove an admin's lost second factor; they set up a new one at next login
  whitecoat user grant-pass EMAIL      give an account a one-year Premium pass (support)
  whitecoat openapi                    print the API's OpenAPI document
  whitecoat public-pages               print the public pages' templates, which the web build prerenders
` + question.CLIUsage + `  whitecoat transcribe [--engine local|openai] [--json] FILE
                                       transcribe one recorded answer
  whitecoat feedback --profession P --question Q --transcript-file F [--json] ...
                                       score one answer's transcript

Configuration comes from environment variables; see README.md.
`

func init() {
	// Huma builds its own errors (validation, body limits) through this
	// hook; route them through the same problem shape as ours.
	huma.NewError = httpx.NewProblem
	// An empty list is sent as [], never null, so clients need no
	// null checks for arrays.
	huma.DefaultArrayNullable = false
}

// Run executes the subcommand named by args[0] (serve when empty).
func Run(ctx context.Context, args []string, sio IO) error {
	cmd := "serve"
	if len(args) > 0 {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "help", "-h", "--help":
		fmt.Fprint(sio.Stdout, usage)
		return nil
	case "openapi":
		return printOpenAPI(ctx, sio.Stdout)
	case "public-pages":
		return printPublicPages(ctx, sio.Stdout)
	}
	cfg, err := config.Load(sio.Getenv)
	if err != nil {
		return err
	}
	logger := newLogger(cfg, sio.Stderr)
	switch cmd {
	case "serve":
		return serve(ctx, cfg, logger)
	case "migrate":
		db, err := openStore(ctx, cfg, logger)
		if err != nil {
			return err
		}
		defer db.Close()
		fmt.Fprintln(sio.Stdout, "migrations applied")
		return nil
	case "doctor":
		if err := makeAudioDir(cfg); err != nil {
			return err
		}
		return doctor(ctx, cfg, logger, sio.Stdout)
	case "user":
		return userCommand(ctx, cfg, logger, args, sio)
	case "questions":
		return questionsCommand(ctx, cfg, logger, args, sio)
	case "transcribe":
		if err := makeAudioDir(cfg); err != nil {
			return err
		}
		return transcribe.RunCLI(ctx, speechConfig(cfg), args, sio.Stdout, sio.Stderr)
	case "feedback":
		return feedback.RunCLI(ctx, cfg.Feedback.Engine, feedbackEngines(cfg), args, sio.Stdin, sio.Stdout, sio.Stderr)
	}
	fmt.Fprint(sio.Stderr, usage)
	return fmt.Errorf("%w: unknown command %q", ErrUsage, cmd)
}

func newLogger(cfg config.Config, w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// openStore opens and migrates the configured database.
func openStore(ctx context.Context, cfg config.Config, logger *slog.Logger) (*store.DB, error) {
	db, err := store.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return nil, err
	}
	if err := db.Migrate(ctx, logger); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// makeAudioDir creates the directory answers wait in for transcription,
// private to the service user; the speech engines make their working
// directories inside it.
func makeAudioDir(cfg config.Config) error {
	if err := os.MkdirAll(cfg.Speech.AudioTmpDir, 0o700); err != nil {
		return fmt.Errorf("app: audio temp directory: %w", err)
	}
	return nil
}

// services are the store and the domain services every entry point
// shares: New builds the server on them, and the operator commands (user,
// questions) use them alone.
type services struct {
	db        *store.DB
	mailer    mail.Mailer
	now       func() time.Time
	auth      *auth.Service
	questions *question.Service
	limiter   *ratelimit.Limiter
}

// newServices opens the configured database and builds the services on
// it; now is the clock (time.Now outside tests).
func newServices(ctx context.Context, cfg config.Config, logger *slog.Logger, now func() time.Time) (*services, error) {
	db, err := openStore(ctx, cfg, logger)
	if err != nil {
		return nil, err
	}
	mailer, err := mail.New(cfg.SMTPURL, cfg.MailFrom, logger)
	if err != nil {
		db.Close()
		return nil, err
	}
	limiter := ratelimit.New(db, now)
	authSvc := auth.NewService(db, mailer, limiter, logger, now, auth.Config{
		BaseURL:         cfg.BaseURL,
		IdleTimeout:     cfg.SessionIdleTimeout,
		AbsoluteTimeout: cfg.SessionAbsoluteTimeout,
		Argon2:          auth.DefaultArgon2,
		RateWindow:      cfg.RateLimitWindow,
		PerAccount:      cfg.RateLimitPerAccount,
		PerIP:           cfg.RateLimitPerIP,
		Firebase: auth.FirebaseConfig{
			ProjectID: cfg.Firebase.ProjectID, APIKey: cfg.Firebase.APIKey, AuthDomain: cfg.Firebase.AuthDomain, JWKSURL: cfg.Firebase.JWKSURL,
		},
	})
	s := &services{db: db, mailer: mailer, now: now, auth: authSvc, questions: question.NewService(db, now), limiter: limiter}
	// The built-in bank belongs to every database like its schema does;
	// seeding only ever adds questions it never added before.
	if n, err := s.questions.Seed(ctx); err != nil {
		db.Close()
		return nil, err
	} else if n > 0 {
		logger.Info("seeded the question bank", "questions", n)
	}
	return s, nil
}

// Main is what cmd/whitecoat calls: it runs the command and turns its
// error into an exit status.
func Main() int {
	ctx := context.Background()
	err := Run(ctx, os.Args[1:], IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv})
	switch {
	case err == nil:
		return 0
	case errors.Is(err, ErrUsage):
		fmt.Fprintln(os.Stderr, "whitecoat:", err)
		return 2
	default:
		fmt.Fprintln(os.Stderr, "whitecoat:", err)
		return 1
	}
}
