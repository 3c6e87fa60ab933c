package tryout

import (
	"context"
	"time"

	"github.com/riverqueue/river"
)

// AnswerArgs transcribes and scores one try. It carries the try's id (a
// hash), never its recording or words.
type AnswerArgs struct {
	ID string `json:"id"`
}

func (AnswerArgs) Kind() string { return "tryout_answer" }

// SweepArgs deletes the tries whose time is up.
type SweepArgs struct{}

func (SweepArgs) Kind() string { return "tryout_sweep" }

type answerWorker struct {
	river.WorkerDefaults[AnswerArgs]
	svc *Service
}

func (w *answerWorker) Work(ctx context.Context, job *river.Job[AnswerArgs]) error {
	return w.svc.answer(ctx, job.Args.ID, job.Attempt >= job.MaxAttempts)
}

type sweepWorker struct {
	river.WorkerDefaults[SweepArgs]
	svc *Service
}

func (w *sweepWorker) Work(ctx context.Context, _ *river.Job[SweepArgs]) error {
	n, err := w.svc.Sweep(ctx)
	if n > 0 {
		w.svc.logger.Info("swept expired tries", "tries", n)
	}
	return err
}

// AddWorkers registers the try workers on workers.
func AddWorkers(workers *river.Workers, s *Service) {
	river.AddWorker(workers, &answerWorker{svc: s})
	river.AddWorker(workers, &sweepWorker{svc: s})
}

// SweepPeriodically sweeps expired tries every interval and on start.
func SweepPeriodically(interval time.Duration) *river.PeriodicJob {
	return river.NewPeriodicJob(river.PeriodicInterval(interval),
		func() (river.JobArgs, *river.InsertOpts) { return SweepArgs{}, nil },
		&river.PeriodicJobOpts{RunOnStart: true})
}
