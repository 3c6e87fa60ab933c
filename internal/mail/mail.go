// Package mail sends Whitecoat's emails: over SMTP in production, or into
// the log during development so a fresh checkout works with no mail server.
package mail

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"strconv"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// Message is one email with both a plain-text and an HTML body.
type Message struct {
	To      string
	Subject string
	Text    string
	HTML    string
	// Link is the one action the email asks for; the development mailer
	// prints it so a developer can click it from the log.
	Link string
}

// Mailer delivers messages.
type Mailer interface {
	Send(ctx context.Context, m Message) error
	// Describe says where mail goes, for start-up logs and `whitecoat doctor`.
	Describe() string
}

// New returns an SMTP mailer when smtpURL is set, else the development one.
func New(smtpURL *url.URL, from string, logger *slog.Logger) (Mailer, error) {
	if smtpURL == nil {
		return &LogMailer{From: from, Logger: logger}, nil
	}
	return NewSMTP(smtpURL, from)
}

// LogMailer writes each message to the log instead of sending it.
type LogMailer struct {
	From   string
	Logger *slog.Logger
}

func (l *LogMailer) Send(ctx context.Context, m Message) error {
	l.Logger.InfoContext(ctx, "development email (set SMTP_URL to send real mail)",
		"to", m.To, "subject", m.Subject, "link", m.Link)
	return nil
}

func (l *LogMailer) Describe() string {
	return "development mailer: emails and their links are written to the log"
}

// SMTP sends through a mail server described by an smtp:// or smtps:// URL.
// Plain smtp:// upgrades with STARTTLS when the server offers it; credentials
// in the URL turn on authentication.
type SMTP struct {
	from    string
	host    string
	options []gomail.Option
	display string
}

// NewSMTP parses u into a ready client configuration.
func NewSMTP(u *url.URL, from string) (*SMTP, error) {
	opts := []gomail.Option{gomail.WithTimeout(15 * time.Second)}
	port := 587
	if u.Scheme == "smtps" {
		port = 465
		opts = append(opts, gomail.WithSSL())
	} else {
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil {
			return nil, fmt.Errorf("mail: invalid SMTP port %q", p)
		}
		port = n
	}
	opts = append(opts, gomail.WithPort(port))
	if user := u.User.Username(); user != "" {
		pass, _ := u.User.Password()
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover),
			gomail.WithUsername(user), gomail.WithPassword(pass))
	}
	return &SMTP{from: from, host: u.Hostname(), options: opts, display: u.Redacted()}, nil
}

func (s *SMTP) Send(ctx context.Context, m Message) error {
	msg := gomail.NewMsg()
	if err := msg.From(s.from); err != nil {
		return fmt.Errorf("mail: from %q: %w", s.from, err)
	}
	if err := msg.To(m.To); err != nil {
		return fmt.Errorf("mail: to: %w", err)
	}
	msg.Subject(m.Subject)
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	msg.AddAlternativeString(gomail.TypeTextHTML, m.HTML)
	client, err := gomail.NewClient(s.host, s.options...)
	if err != nil {
		return fmt.Errorf("mail: smtp client: %w", err)
	}
	if err := client.DialAndSendWithContext(ctx, msg); err != nil {
		return fmt.Errorf("mail: send to %s via %s: %w", m.To, s.display, err)
	}
	return nil
}

func (s *SMTP) Describe() string { return "SMTP " + s.display }

// Check dials the server, for `whitecoat doctor`.
func (s *SMTP) Check(ctx context.Context) error {
	client, err := gomail.NewClient(s.host, s.options...)
	if err != nil {
		return fmt.Errorf("mail: smtp client: %w", err)
	}
	if err := client.DialWithContext(ctx); err != nil {
		return fmt.Errorf("mail: connect to %s: %w", s.display, err)
	}
	return client.Close()
}
