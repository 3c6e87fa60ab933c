package tryout

import (
	"context"
	"time"

	"github.com/riverqueue/river"
)

// TranscribeArgs and ScoreArgs are a try's two steps, as a practice
// answer's: a scoring retry starts from the transcript kept, not from the
// recording. They carry the try's id (a hash), never its recording or
// words.
type TranscribeArgs struct {
	ID string `json:"id"`
}

func (TranscribeArgs) Kind() string { return "tryout_transcribe" }

type ScoreArgs struct {
	ID string `json:"id"`
}

func (ScoreArgs) Kind() string { return "tryout_score" }

// SweepArgs deletes the tries whose time is up.
type SweepArgs struct{}

func (SweepArgs) Kind() string { return "tryout_sweep" }

type transcribeWorker struct {
	river.WorkerDefaults[TranscribeArgs]
	svc *Service
}

func (w *transcribeWorker) Work(ctx context.Context, job *river.Job[TranscribeArgs]) error {
	return w.svc.transcribe(ctx, job.Args.ID, job.Attempt >= job.MaxAttempts)
}

type scoreWorker struct {
	river.WorkerDefaults[ScoreArgs]
	svc *Service
}

func (w *scoreWorker) Work(ctx context.Context, job *river.Job[ScoreArgs]) error {
	return w.svc.score(ctx, job.Args.ID, job.Attempt >= job.MaxAttempts)
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
	river.AddWorker(workers, &transcribeWorker{svc: s})
	river.AddWorker(workers, &scoreWorker{svc: s})
	river.AddWorker(workers, &sweepWorker{svc: s})
}

// SweepPeriodically sweeps expired tries every interval and on start.
func SweepPeriodically(interval time.Duration) *river.PeriodicJob {
	return river.NewPeriodicJob(river.PeriodicInterval(interval),
		func() (river.JobArgs, *river.InsertOpts) { return SweepArgs{}, nil },
		&river.PeriodicJobOpts{RunOnStart: true})
}
