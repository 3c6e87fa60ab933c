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

	"github.com/whitecoat/whitecoat/internal/feedback"
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

// insertOpts sets how often engine work is attempted.
func (s *Service) insertOpts() *river.InsertOpts {
	return &river.InsertOpts{MaxAttempts: s.cfg.MaxAttempts}
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
	if _, err := setItemStatus(ctx, s.db.SQL, itemID, StatusTranscribing, s.clock(), StatusQueued, StatusTranscribing); err != nil {
		return err
	}
	if _, err := os.Stat(it.audioPath); it.audioPath == "" || err != nil {
		return s.failItem(ctx, it, MsgRecordingGone, false)
	}
	res, err := s.transcribe(ctx, it)
	switch {
	case errors.Is(err, transcribe.ErrBadAudio):
		return s.failItem(ctx, it, transcribe.UserMessage(err), false)
	case err != nil && lastAttempt:
		s.logger.Error("transcription failed for good", "item", itemID, "err", err)
		return s.failItem(ctx, it, MsgSpeechUnavailable, true)
	case err != nil:
		// Back to queued so the summary shows it waiting, then River retries.
		if _, serr := setItemStatus(ctx, s.db.SQL, itemID, StatusQueued, s.clock(), StatusTranscribing); serr != nil {
			return serr
		}
		return fmt.Errorf("practice: transcribe %s: %w", itemID, err)
	}

	metrics := transcribe.ComputeMetrics(res, s.cfg.AnswerLimit)
	meaningful := transcribe.Meaningful(res.Text)
	metricsJSON, err := nullableJSON(metrics)
	if err != nil {
		return err
	}
	next := StatusDone
	if meaningful {
		next = StatusScoring
	}
	err = s.db.WithTx(ctx, func(tx *sql.Tx) error {
		ok, err := setItemStatus(ctx, tx, itemID, next, s.clock(), StatusTranscribing)
		if err != nil || !ok {
			return err
		}
		if err := execOne(ctx, tx, "save transcript", `UPDATE practice_items SET transcript = $1, metrics = $2, meaningful = $3,
			audio_path = '', progress = NULL WHERE id = $4`,
			res.Text, metricsJSON, meaningful, itemID); err != nil {
			return err
		}
		if meaningful {
			_, err = s.jobs.InsertTx(ctx, tx, ScoreArgs{ItemID: itemID}, s.insertOpts())
		} else {
			_, err = s.jobs.InsertTx(ctx, tx, FinalizeArgs{SessionID: it.sessionID}, nil)
		}
		return err
	})
	if err != nil {
		return err
	}
	removeAudio(s.logger, it.audioPath)
	return nil
}

// transcribe runs the speech engine on the item's recording, continuing from what
// was recognised while it arrived when there is such progress.
func (s *Service) transcribe(ctx context.Context, it Item) (transcribe.Result, error) {
	in := transcribe.Audio{Path: it.audioPath, MIMEType: it.audioMIME}
	if s.incremental != nil && it.progress != nil {
		return s.incremental.Finish(ctx, in, *it.progress)
	}
	return s.speech.Transcribe(ctx, in)
}

// failItem records why an answer could not be processed. The recording is
// kept when a retry could still succeed.
func (s *Service) failItem(ctx context.Context, it Item, msg string, keepAudio bool) error {
	err := s.db.WithTx(ctx, func(tx *sql.Tx) error {
		ok, err := setItemStatus(ctx, tx, it.ID, StatusFailed, s.clock(), StatusQueued, StatusTranscribing)
		if err != nil || !ok {
			return err // another delivery already settled it
		}
		path := it.audioPath
		if !keepAudio {
			path = ""
		}
		if err := execOne(ctx, tx, "record failure", `UPDATE practice_items SET error = $1, transcript = COALESCE(transcript, $2), audio_path = $3 WHERE id = $4`,
			msg, MsgTranscriptError, path, it.ID); err != nil {
			return err
		}
		_, err = s.jobs.InsertTx(ctx, tx, FinalizeArgs{SessionID: it.sessionID}, nil)
		return err
	})
	if err == nil && !keepAudio {
		removeAudio(s.logger, it.audioPath)
	}
	return err
}

func big3Name(order int) string {
	switch order {
	case 1:
		return feedback.Big3TellMeAboutYourself
	case 2:
		return feedback.Big3WhyProfession
	case 3:
		return feedback.Big3WhySchool
	}
	return ""
}

func delivery(m *transcribe.Metrics) *feedback.Delivery {
	if m == nil || m.DurationSeconds == 0 {
		return nil
	}
	return &feedback.Delivery{
		DurationSeconds: m.DurationSeconds, WordsPerMinute: m.WordsPerMinute, FillerCount: m.FillerCount,
		FillersPer100Words: m.FillersPer100Words, LongestPauseSeconds: m.LongestPauseSeconds, PausesOver2s: m.PausesOver2s,
		FillersEstimated: m.FillersSource == transcribe.FillersEstimated,
	}
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
	var prof string
	if err := s.db.SQL.QueryRowContext(ctx, `SELECT profession FROM practice_sessions WHERE id = $1`, it.sessionID).Scan(&prof); err != nil {
		return fmt.Errorf("practice: score %s: %w", itemID, err)
	}
	fb, err := s.scorer.Score(ctx, feedback.Input{Profession: prof, Question: it.Question, Subtag: it.Subtag,
		Big3: big3Name(it.Big3Order), Transcript: *it.Transcript, Delivery: delivery(it.Metrics)})
	if err != nil {
		if !lastAttempt {
			return fmt.Errorf("practice: score %s: %w", itemID, err)
		}
		s.logger.Error("scoring failed for good", "item", itemID, "err", err)
		return s.db.WithTx(ctx, func(tx *sql.Tx) error {
			if _, err := setItemStatus(ctx, tx, itemID, StatusFailed, s.clock(), StatusScoring); err != nil {
				return err
			}
			if err := execOne(ctx, tx, "record failure", `UPDATE practice_items SET error = $1 WHERE id = $2`, MsgFeedbackError, itemID); err != nil {
				return err
			}
			_, err := s.jobs.InsertTx(ctx, tx, FinalizeArgs{SessionID: it.sessionID}, nil)
			return err
		})
	}
	fbJSON, err := nullableJSON(fb)
	if err != nil {
		return err
	}
	return s.db.WithTx(ctx, func(tx *sql.Tx) error {
		ok, err := setItemStatus(ctx, tx, itemID, StatusDone, s.clock(), StatusScoring)
		if err != nil || !ok {
			return err
		}
		if err := execOne(ctx, tx, "save feedback", `UPDATE practice_items SET feedback = $1, score = $2 WHERE id = $3`, fbJSON, fb.OverallScore, itemID); err != nil {
			return err
		}
		_, err = s.jobs.InsertTx(ctx, tx, FinalizeArgs{SessionID: it.sessionID}, nil)
		return err
	})
}

// Finalize applies a completed session's stats to its user once every
// answer is processed — exactly once, however often it runs and however
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
	answered := 0
	for _, it := range sess.Items {
		if !it.Final() {
			return nil // the last answer's job will call again
		}
		if it.Status == StatusDone || it.Status == StatusFailed {
			answered++
		}
	}
	avg, scored := averageScore(sess.Items)
	err = s.db.WithTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO processed_sessions (user_id, session_id, processed_at) VALUES ($1, $2, $3)`,
			sess.userID, sessionID, s.clock()); err != nil {
			return err
		}
		var completed int
		var rolling, last float64
		if err := tx.QueryRowContext(ctx, `SELECT sessions_completed, rolling_average_score, last_average_score FROM users WHERE id = $1`, sess.userID).
			Scan(&completed, &rolling, &last); err != nil {
			return fmt.Errorf("practice: read stats: %w", err)
		}
		var sessionAvg, previous *float64
		if scored {
			sessionAvg = &avg
			if completed > 0 {
				previous = &last
			}
			rolling = (rolling*float64(completed) + avg) / float64(completed+1)
			last = avg
		}
		if err := execOne(ctx, tx, "update stats", `UPDATE users SET sessions_completed = sessions_completed + 1,
			questions_practiced = questions_practiced + $1, rolling_average_score = $2, last_average_score = $3 WHERE id = $4`,
			answered, rolling, last, sess.userID); err != nil {
			return err
		}
		return execOne(ctx, tx, "record session average", `UPDATE practice_sessions SET average_score = $1, previous_average = $2, stats_applied_at = $3 WHERE id = $4`,
			sessionAvg, previous, s.clock(), sessionID)
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
	rows, err := s.db.SQL.QueryContext(ctx, `SELECT id, status FROM practice_items WHERE status IN ($1, $2, $3) AND updated_at <= $4`,
		StatusQueued, StatusTranscribing, StatusScoring, s.clock().Add(-olderThan))
	if err != nil {
		return 0, fmt.Errorf("practice: find stuck answers: %w", err)
	}
	type stuck struct{ id, status string }
	var items []stuck
	for rows.Next() {
		var it stuck
		if err := rows.Scan(&it.id, &it.status); err != nil {
			rows.Close()
			return 0, err
		}
		items = append(items, it)
	}
	rows.Close()
	for _, it := range items {
		err := s.db.WithTx(ctx, func(tx *sql.Tx) error {
			if it.status == StatusScoring {
				_, err := s.jobs.InsertTx(ctx, tx, ScoreArgs{ItemID: it.id}, s.insertOpts())
				return err
			}
			if _, err := setItemStatus(ctx, tx, it.id, StatusQueued, s.clock(), StatusQueued, StatusTranscribing); err != nil {
				return err
			}
			_, err := s.jobs.InsertTx(ctx, tx, TranscribeArgs{ItemID: it.id}, s.insertOpts())
			return err
		})
		if err != nil {
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
// written is spared), recordings kept for a retry once they are older than
// AudioMaxAge, and working directories (the speech engine's) older than
// StuckAfter, which only a crashed process leaves behind.
func (s *Service) SweepAudio(ctx context.Context) (int, error) {
	entries, err := os.ReadDir(s.cfg.AudioDir)
	if err != nil {
		return 0, fmt.Errorf("practice: sweep: %w", err)
	}
	inUse, err := s.recordingsInUse(ctx)
	if err != nil {
		return 0, err
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
			stale = age > s.cfg.StuckAfter
		case inUse[path]:
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
	return n, nil
}

func (s *Service) recordingsInUse(ctx context.Context) (map[string]bool, error) {
	rows, err := s.db.SQL.QueryContext(ctx, `SELECT audio_path FROM practice_items WHERE audio_path <> ''
		UNION SELECT stream_path FROM practice_items WHERE stream_path <> ''`)
	if err != nil {
		return nil, fmt.Errorf("practice: sweep: %w", err)
	}
	defer rows.Close()
	inUse := map[string]bool{}
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, err
		}
		inUse[p] = true
	}
	return inUse, rows.Err()
}
