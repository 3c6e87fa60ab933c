package billing

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/riverqueue/river"

	"github.com/whitecoat/whitecoat/internal/mail"
	"github.com/whitecoat/whitecoat/internal/store"
)

// ReminderLead is how long before a pass ends its holder is reminded.
const ReminderLead = 7 * 24 * time.Hour

// RemindArgs is the periodic job that emails students whose pass ends
// within ReminderLead.
type RemindArgs struct{}

func (RemindArgs) Kind() string { return "billing_remind_pass_ending" }

// RemindWorker runs RemindArgs.
type RemindWorker struct {
	river.WorkerDefaults[RemindArgs]
	Service *Service
}

func (w *RemindWorker) Work(ctx context.Context, _ *river.Job[RemindArgs]) error {
	_, err := w.Service.SendReminders(ctx)
	return err
}

// RemindPeriodically runs the reminder job every interval, and once at start.
func RemindPeriodically(interval time.Duration) *river.PeriodicJob {
	return river.NewPeriodicJob(river.PeriodicInterval(interval),
		func() (river.JobArgs, *river.InsertOpts) { return RemindArgs{}, nil },
		&river.PeriodicJobOpts{RunOnStart: true})
}

// SendReminders emails each student whose pass ends within ReminderLead,
// once per pass: the payment that set the end is claimed before the mail
// goes out, and released again if it fails, for the next run.
func (s *Service) SendReminders(ctx context.Context) (int, error) {
	now := store.Truncate(s.now())
	due, err := paymentsEndingBy(ctx, s.db.SQL, now, now.Add(ReminderLead))
	if err != nil {
		return 0, err
	}
	sent := 0
	var errs []error
	for _, p := range due {
		claimed, err := claimReminder(ctx, s.db.SQL, p.ID, now)
		if err != nil || !claimed {
			errs = append(errs, err)
			continue
		}
		if err := s.sendReminder(ctx, p); err != nil {
			errs = append(errs, err, releaseReminder(ctx, s.db.SQL, p.ID))
			continue
		}
		sent++
	}
	if err := errors.Join(errs...); err != nil {
		return sent, fmt.Errorf("billing: reminders: %w", err)
	}
	return sent, nil
}

func (s *Service) sendReminder(ctx context.Context, p Payment) error {
	u, err := s.accounts.UserByID(ctx, p.UserID)
	if err != nil {
		return err
	}
	m, err := mail.PassReminder(u.Email, u.Name, mail.Pass{RefundDays: RefundDays, End: FormatDate(p.PassEndsAt), Support: s.cfg.SupportEmail,
		Link: s.cfg.BaseURL.JoinPath("pricing").String()})
	if err != nil {
		return err
	}
	return s.mailer.Send(ctx, m)
}
