package practice

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/riverqueue/river"

	"github.com/whitecoat/whitecoat/internal/answer"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/transcribe"
)

// Job arguments carry ids only: never audio, never transcripts.

// TranscribeArgs transcribes one uploaded answer.
type TranscribeArgs struct {
	ItemID string `json:"itemId"`
}

func (TranscribeArgs) Kind() string { return "practice_transcribe" }

// ScoreArgs generates feedback for one transcribed answer.
type ScoreArgs struct {
	ItemID string `json:"itemId"`
}

func (ScoreArgs) Kind() string { return "practice_score" }

// FinalizeArgs applies a completed session's stats once all its answers
// are processed.
type FinalizeArgs struct {
	SessionID string `json:"sessionId"`
}

func (FinalizeArgs) Kind() string { return "practice_finalize" }

// SweepArgs re-queues answers a crashed process left in progress and
// deletes recordings left behind.
type SweepArgs struct{}

func (SweepArgs) Kind() string { return "practice_sweep_audio" }

// MsgSpeechUnavailable is shown when transcription kept failing for
// reasons that are not the recording's fault.
const MsgSpeechUnavailable = "Speech recognition is unavailable right now. Press Retry in a minute."

// retryDelay backs off quickly at first, because a student is waiting,
// and caps at 15 seconds so an engine outage of a minute or two is ridden
// out without anyone pressing a button.
func retryDelay(attempt int) time.Duration {
	d := time.Duration(math.Pow(2, float64(attempt-1))) * 500 * time.Millisecond
	return min(d, 15*time.Second)
}

type transcribeWorker struct {
	river.WorkerDefaults[TranscribeArgs]
	s *Service
}

func (w *transcribeWorker) NextRetry(job *river.Job[TranscribeArgs]) time.Time {
	return time.Now().Add(retryDelay(job.Attempt))
}

func (w *transcribeWorker) Work(ctx context.Context, job *river.Job[TranscribeArgs]) error {
	return w.s.transcribeItem(ctx, job.Args.ItemID, job.Attempt >= job.MaxAttempts)
}

type scoreWorker struct {
	river.WorkerDefaults[ScoreArgs]
	s *Service
}

func (w *scoreWorker) NextRetry(job *river.Job[ScoreArgs]) time.Time {
	return time.Now().Add(retryDelay(job.Attempt))
}

func (w *scoreWorker) Work(ctx context.Context, job *river.Job[ScoreArgs]) error {
	return w.s.scoreItem(ctx, job.Args.ItemID, job.Attempt >= job.MaxAttempts)
}

type finalizeWorker struct {
	river.WorkerDefaults[FinalizeArgs]
	s *Service
}

func (w *finalizeWorker) Work(ctx context.Context, job *river.Job[FinalizeArgs]) error {
	return w.s.Finalize(ctx, job.Args.SessionID)
}

type sweepWorker struct {
	river.WorkerDefaults[SweepArgs]
	s *Service
}

func (w *sweepWorker) Work(ctx context.Context, _ *river.Job[SweepArgs]) error {
	if _, err := w.s.RecoverStuck(ctx, w.s.cfg.StuckAfter); err != nil {
		return err
	}
	_, err := w.s.SweepAudio(ctx)
	return err
}

// AddWorkers registers the practice jobs' workers.
func AddWorkers(workers *river.Workers, s *Service) {
	river.AddWorker(workers, &transcribeWorker{s: s})
	river.AddWorker(workers, &scoreWorker{s: s})
	river.AddWorker(workers, &finalizeWorker{s: s})
	river.AddWorker(workers, &sweepWorker{s: s})
	river.AddWorker(workers, &advanceWorker{s: s})
}

// SweepPeriodically recovers stuck answers and deletes stale recordings
// every interval, and at start.
func SweepPeriodically(interval time.Duration) *river.PeriodicJob {
	return river.NewPeriodicJob(river.PeriodicInterval(interval),
		func() (river.JobArgs, *river.InsertOpts) { return SweepArgs{}, nil },
		&river.PeriodicJobOpts{RunOnStart: true})
}

// transcribeItem is the first pipeline step. It is safe to run twice: an
// item that has moved on is left alone.
func (s *Service) transcribeItem(ctx context.Context, itemID string, lastAttempt bool) error {
	it, err := loadItem(ctx, s.db.SQL, itemID)
	if errors.Is(err, errNotFound) {
		return nil // the session was deleted
	}
	if err != nil {
		return err
	}
	if it.Status != StatusQueued && it.Status != StatusTranscribing {
		return nil
	}
	if _, err := s.moveItem(ctx, move{itemID: itemID, sessionID: it.sessionID, event: answer.EventTranscriptionStarted}); err != nil {
		return err
	}
	// Whichever copy received it, the database has it.
	local, err := s.localAudio(ctx, it.audioPath, -1)
	if errors.Is(err, os.ErrNotExist) {
		return s.failItem(ctx, it, MsgRecordingGone, false)
	}
	if err != nil {
		return err
	}
	s.steps.stop(itemID)
	res, err := s.alignOrRecognise(ctx, it, local)
	switch {
	case errors.Is(err, transcribe.ErrBadAudio):
		return s.failItem(ctx, it, transcribe.UserMessage(err), false)
	case err != nil && lastAttempt:
		s.logger.Error("transcription failed for good", "item", itemID, "err", err)
		return s.failItem(ctx, it, MsgSpeechUnavailable, true)
	case err != nil:
		// Back to queued so the summary shows it waiting, then River retries.
		if _, serr := s.moveItem(ctx, move{itemID: itemID, sessionID: it.sessionID, event: answer.EventTranscriptionDeferred}); serr != nil {
			return serr
		}
		return fmt.Errorf("practice: transcribe %s: %w", itemID, err)
	}

	heard := answer.Heard(res, it.answerLimit())
	// An answer with no real content gets no feedback: it is done.
	m := move{itemID: itemID, sessionID: it.sessionID, event: answer.EventTranscribedEmpty,
		update: func(tx *sql.Tx, now time.Time) error {
			if err := saveTranscript(ctx, tx, itemID, heard); err != nil {
				return err
			}
			// Transcribed: the recording is kept nowhere.
			if err := deleteStoredAudio(ctx, tx, it.audioPath); err != nil {
				return err
			}
			return rememberVoice(ctx, tx, it.sessionID, res, heard.Meaningful, now)
		}}
	if heard.Meaningful {
		m.event = answer.EventTranscribed
	}
	if _, err := s.moveItem(ctx, m); err != nil {
		return err
	}
	removeAudio(s.logger, local)
	return nil
}

// recognise runs the speech engine on the item's recording, continuing
// from what was recognised while it arrived when there is such progress,
// and at the student's remembered voice factor when the engine has not
// chosen one yet.
func (s *Service) recognise(ctx context.Context, it Item, local string) (transcribe.Result, error) {
	in := transcribe.Audio{Path: local, MIMEType: it.audioMIME, Limit: it.answerLimit()}
	if s.incremental == nil {
		return s.speech.Transcribe(ctx, in)
	}
	var p transcribe.Progress
	if it.progress != nil {
		p = *it.progress
	}
	if p.Warp == 0 {
		p.Warp = s.startingWarp(ctx, it.sessionID)
	}
	return s.incremental.Finish(ctx, in, p)
}

// failItem records why an answer could not be transcribed: its status says
// it failed and its error why; it has no transcript. The recording is kept
// when a retry could still succeed.
func (s *Service) failItem(ctx context.Context, it Item, msg string, keepAudio bool) error {
	path := it.audioPath
	if !keepAudio {
		path = ""
	}
	_, err := s.moveItem(ctx, move{itemID: it.ID, sessionID: it.sessionID, event: answer.EventTranscriptionFailed,
		update: func(tx *sql.Tx, _ time.Time) error {
			if err := recordFailure(ctx, tx, it.ID, msg, path); err != nil {
				return err
			}
			if keepAudio {
				return nil
			}
			return deleteStoredAudio(ctx, tx, it.audioPath)
		}})
	if err == nil && !keepAudio {
		removeAudio(s.logger, s.scratch(it.audioPath))
	}
	return err
}

// scoreItem is the second pipeline step.
func (s *Service) scoreItem(ctx context.Context, itemID string, lastAttempt bool) error {
	it, err := loadItem(ctx, s.db.SQL, itemID)
	if errors.Is(err, errNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if it.Status != StatusScoring || it.Transcript == nil {
		return nil
	}
	as, err := sessionOfAnswer(ctx, s.db.SQL, it.sessionID)
	if err != nil {
		return err
	}
	in, err := s.scoringInput(ctx, as, it, *it.Transcript)
	if err != nil {
		return fmt.Errorf("practice: score %s: %w", itemID, err)
	}
	fb, err := s.scorer.Score(ctx, in)
	if err != nil {
		if !lastAttempt {
			return fmt.Errorf("practice: score %s: %w", itemID, err)
		}
		s.logger.Error("scoring failed for good", "item", itemID, "err", err)
		// The transcript stays: only the feedback is missing. The
		// recording went when the answer was transcribed.
		_, err := s.moveItem(ctx, move{itemID: itemID, sessionID: it.sessionID, event: answer.EventScoringFailed,
			update: func(tx *sql.Tx, _ time.Time) error { return recordFailure(ctx, tx, itemID, MsgFeedbackError, "") }})
		return err
	}
	_, err = s.moveItem(ctx, move{itemID: itemID, sessionID: it.sessionID, event: answer.EventScored,
		update: func(tx *sql.Tx, _ time.Time) error { return saveFeedback(ctx, tx, itemID, fb) }})
	return err
}

// Finalize applies a completed session's stats to its user once every
// answer is settled — exactly once, however often it runs and however
// many run at the same time: the processed_sessions primary key admits one.
func (s *Service) Finalize(ctx context.Context, sessionID string) error {
	sess, err := loadSession(ctx, s.db.SQL, sessionID)
	if errors.Is(err, errNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if sess.Status != SessionCompleted {
		return nil
	}
	for _, it := range sess.Items {
		if !it.Settled() {
			return nil // the last answer's job will call again
		}
	}
	var average *float64
	if avg, scored := AverageScore(sess.Items); scored {
		average = &avg
	}
	err = s.db.WithTx(ctx, func(tx *sql.Tx) error {
		now := s.clock()
		if err := markSessionProcessed(ctx, tx, sess.userID, sessionID, now); err != nil {
			return err
		}
		// A session with no scored answer (every answer silent, failed
		// or skipped, or a session replaced before it began) is no
		// practice: it uses no free session and stays out of the
		// counts and the averages (see scoredSession, countUsedSessions).
		return recordSessionAverage(ctx, tx, sessionID, average, now)
	})
	if store.IsUniqueViolation(err) {
		return nil
	}
	return err
}

// RecoverStuck queues again every answer that has been in progress for
// longer than olderThan: the work of a process that died mid-answer. The
// pipeline's steps are idempotent, so an answer that was in fact still
// being worked on is not processed twice.
func (s *Service) RecoverStuck(ctx context.Context, olderThan time.Duration) (int, error) {
	items, err := stuckItems(ctx, s.db.SQL, s.clock().Add(-olderThan))
	if err != nil {
		return 0, err
	}
	for _, it := range items {
		m := move{itemID: it.id, event: answer.EventTranscriptionRecovered}
		if it.status == StatusScoring {
			m.event = answer.EventScoringRecovered
		}
		if _, err := s.moveItem(ctx, m); err != nil {
			return 0, err
		}
	}
	if len(items) > 0 {
		s.logger.Info("re-queued answers left in progress", "count", len(items))
	}
	return len(items), nil
}

// SweepAudio empties the temporary directory of what no answer needs:
// recordings no item refers to (after a minute, so an upload still being
// written is spared) and recordings kept for a retry once they are older
// than AudioMaxAge. Directories are the speech engine's: it sweeps the
// per-answer ones a crashed process left behind, older than StuckAfter,
// and keeps what it still uses (the local engine's dictionary lives
// there for as long as the process runs).
func (s *Service) SweepAudio(ctx context.Context) (int, error) {
	entries, err := os.ReadDir(s.cfg.AudioDir)
	if err != nil {
		return 0, fmt.Errorf("practice: sweep: %w", err)
	}
	inUse, err := recordingsInUse(ctx, s.db.SQL)
	if err != nil {
		return 0, err
	}
	// The database names a recording by the receiving copy's path; this
	// copy's scratch copy has the same file name.
	inUseHere := make(map[string]bool, len(inUse))
	for p := range inUse {
		inUseHere[filepath.Base(p)] = true
	}
	stored, err := sweepStoredAudio(ctx, s.db.SQL, time.Now().Add(-s.cfg.AudioMaxAge))
	if err != nil {
		return 0, err
	}
	if stored > 0 {
		s.logger.Info("deleted stored recordings no answer needs", "pieces", stored)
	}
	now := time.Now()
	n := 0
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			continue
		}
		path := filepath.Join(s.cfg.AudioDir, e.Name())
		age := now.Sub(info.ModTime())
		var stale bool
		switch {
		case e.IsDir():
			continue
		case inUseHere[e.Name()]:
			stale = age > s.cfg.AudioMaxAge
		default:
			stale = age > time.Minute
		}
		if !stale {
			continue
		}
		if err := os.RemoveAll(path); err == nil {
			n++
		}
	}
	if n > 0 {
		s.logger.Info("swept stale recordings", "count", n)
	}
	dirs, err := s.speech.SweepTemp(s.cfg.StuckAfter)
	return n + dirs, err
}
