package app

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/billing"
	"github.com/whitecoat/whitecoat/internal/config"
	"github.com/whitecoat/whitecoat/internal/mail"
	"github.com/whitecoat/whitecoat/internal/question"
	"github.com/whitecoat/whitecoat/internal/transcribe"
)

func userCommand(ctx context.Context, cfg config.Config, logger *slog.Logger, args []string, sio IO) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: whitecoat user create|promote|demote|reset-second-factor|grant-pass ...", ErrUsage)
	}
	switch args[0] {
	case "create":
		return userCreate(ctx, cfg, logger, args[1:], sio)
	case "promote", "demote", "reset-second-factor":
		return accountChange(ctx, cfg, logger, args, sio)
	case "grant-pass":
		if len(args) != 2 {
			return fmt.Errorf("%w: whitecoat user grant-pass EMAIL", ErrUsage)
		}
		email, err := auth.NormalizeEmail(args[1])
		if err != nil {
			return err
		}
		s, err := newServices(ctx, cfg, logger, time.Now)
		if err != nil {
			return err
		}
		defer s.db.Close()
		end, err := billing.GrantPass(ctx, s.db, s.auth, email, s.now())
		if err != nil {
			return err
		}
		fmt.Fprintf(sio.Stdout, "%s has Premium until %s\n", email, end.Format("January 2, 2006"))
		return nil
	}
	return fmt.Errorf("%w: unknown user command %q (want create, promote, demote, reset-second-factor or grant-pass)", ErrUsage, args[0])
}

// accountChanges are the operator commands that change one account by
// its email: what each does, and what it tells the operator afterwards.
var accountChanges = map[string]struct {
	run  func(s *auth.Service, ctx context.Context, email string) error
	done string
}{
	"promote":             {(*auth.Service).Promote, "%s is now an admin. " + mustEnrol},
	"demote":              {(*auth.Service).Demote, "%s is no longer an admin, from their next request."},
	"reset-second-factor": {(*auth.Service).ResetSecondFactor, "%s has no second factor now and is signed out everywhere. " + mustEnrol},
}

func accountChange(ctx context.Context, cfg config.Config, logger *slog.Logger, args []string, sio IO) error {
	change := accountChanges[args[0]]
	if len(args) != 2 {
		return fmt.Errorf("%w: whitecoat user %s EMAIL", ErrUsage, args[0])
	}
	s, err := newServices(ctx, cfg, logger, time.Now)
	if err != nil {
		return err
	}
	defer s.db.Close()
	if err := change.run(s.auth, ctx, args[1]); err != nil {
		return err
	}
	fmt.Fprintf(sio.Stdout, change.done+"\n", args[1])
	return nil
}

func userCreate(ctx context.Context, cfg config.Config, logger *slog.Logger, args []string, sio IO) error {
	fs := flag.NewFlagSet("user create", flag.ContinueOnError)
	fs.SetOutput(sio.Stderr)
	email := fs.String("email", "", "email address (required)")
	name := fs.String("name", "", "full name (required)")
	fromStdin := fs.Bool("password-stdin", false, "read the password from standard input (required)")
	admin := fs.Bool("admin", false, "give the account the admin role")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", ErrUsage, err)
	}
	if *email == "" || *name == "" || !*fromStdin {
		return fmt.Errorf("%w: whitecoat user create --email E --name N --password-stdin [--admin]", ErrUsage)
	}
	password, err := readPassword(sio.Stdin)
	if err != nil {
		return err
	}
	s, err := newServices(ctx, cfg, logger, time.Now)
	if err != nil {
		return err
	}
	defer s.db.Close()
	role := auth.RoleUser
	if *admin {
		role = auth.RoleAdmin
	}
	u, err := s.auth.CreateUser(ctx, *name, *email, password, role)
	if err != nil {
		return err
	}
	fmt.Fprintf(sio.Stdout, "created %s (%s) with role %s\n", u.Email, u.ID, u.Role)
	if u.IsAdmin() {
		fmt.Fprintln(sio.Stdout, mustEnrol)
	}
	return nil
}

// mustEnrol tells the operator what a new admin meets at their next login.
const mustEnrol = "They must set up a second factor (an authenticator app) at their next login before they can use the admin pages."

func questionsCommand(ctx context.Context, cfg config.Config, logger *slog.Logger, args []string, sio IO) error {
	s, err := newServices(ctx, cfg, logger, time.Now)
	if err != nil {
		return err
	}
	defer s.db.Close()
	err = question.RunCLI(ctx, s.questions, args, sio.Stdin, sio.Stdout, sio.Stderr)
	if errors.Is(err, question.ErrUsage) {
		return fmt.Errorf("%w: %v", ErrUsage, err)
	}
	return err
}

// readPassword takes the first line of r; passwords never go on the
// command line, where other users can read them from the process list.
func readPassword(r io.Reader) (string, error) {
	line, err := bufio.NewReader(io.LimitReader(r, 4096)).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("read password from stdin: %w", err)
	}
	pw := strings.TrimRight(line, "\r\n")
	if pw == "" {
		return "", errors.New("no password on standard input")
	}
	return pw, nil
}

// doctor reports which option each external concern uses and whether it
// works, and fails when any does not.
func doctor(ctx context.Context, cfg config.Config, logger *slog.Logger, w io.Writer) error {
	failed := 0
	report := func(concern, choice string, err error) {
		status := "ok"
		if err != nil {
			status = "FAIL: " + err.Error()
			failed++
		}
		fmt.Fprintf(w, "%-10s %-60s %s\n", concern, choice, status)
	}
	db, err := openStore(ctx, cfg, logger)
	dbChoice := "SQLite " + cfg.DatabaseURL
	if cfg.IsPostgres() {
		dbChoice = "PostgreSQL"
	}
	if err == nil {
		err = db.Ping(ctx)
		db.Close()
	}
	report("database", dbChoice, err)

	mailer, err := mail.New(cfg.SMTPURL, cfg.MailFrom, logger)
	mailChoice := "SMTP"
	if err == nil {
		mailChoice = mailer.Describe()
		if s, ok := mailer.(*mail.SMTP); ok {
			err = s.Check(ctx)
		}
	}
	report("mail", mailChoice, err)
	sc := speechConfig(cfg)
	report("speech", "speech-to-text: "+sc.Engine, transcribe.Check(ctx, sc))
	report("feedback", "feedback: "+cfg.Feedback.Engine, checkFeedback(ctx, cfg))
	report("payments", paymentsChoice(billingConfig(cfg)), nil)
	if failed > 0 {
		return fmt.Errorf("doctor: %d check(s) failed", failed)
	}
	return nil
}

// paymentsChoice says how this server sells passes: through Stripe in
// test or live mode (as the key says), the development simulator, or not.
func paymentsChoice(cfg billing.Config) string {
	switch billing.ModeOf(cfg) {
	case billing.ModeStripe:
		live := "test"
		if strings.HasPrefix(cfg.SecretKey, "sk_live_") || strings.HasPrefix(cfg.SecretKey, "rk_live_") {
			live = "live"
		}
		return "stripe (" + live + " mode, " + cfg.APIURL + ")"
	case billing.ModeSimulated:
		return "simulated (DEV_CHECKOUT=1): development checkout, no money moves"
	}
	return "off: no STRIPE_SECRET_KEY nor DEV_CHECKOUT=1, checkout answers that payments are not set up"
}
