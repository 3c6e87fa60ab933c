package auth

import (
	"context"
	"time"

	"github.com/riverqueue/river"
)

// PruneArgs is the periodic job that deletes expired sessions, tokens and
// rate-limit windows.
type PruneArgs struct{}

func (PruneArgs) Kind() string { return "auth_prune_expired" }

// PruneWorker runs PruneArgs.
type PruneWorker struct {
	river.WorkerDefaults[PruneArgs]
	Service *Service
}

func (w *PruneWorker) Work(ctx context.Context, _ *river.Job[PruneArgs]) error {
	n, err := w.Service.PruneExpired(ctx)
	if err != nil {
		return err
	}
	w.Service.logger.Debug("pruned expired auth rows", "rows", n)
	return nil
}

// PrunePeriodically runs the prune job every interval, and once at start.
func PrunePeriodically(interval time.Duration) *river.PeriodicJob {
	return river.NewPeriodicJob(river.PeriodicInterval(interval),
		func() (river.JobArgs, *river.InsertOpts) { return PruneArgs{}, nil },
		&river.PeriodicJobOpts{RunOnStart: true})
}
