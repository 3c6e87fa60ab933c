package tryout

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/profession"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/transcribe"
)

// All of tryout's SQL: the tryout_answers table (00018_tryout.sql).

var errNotFound = errors.New("tryout: not found")

// stored is a try's row; loadTry leaves audio out (see loadRecording).
type stored struct {
	Try
	audio     []byte
	audioMIME string
	typedText string
	createdAt time.Time
}

func insertTry(ctx context.Context, q store.Queryer, t stored, addressHash string, now time.Time) error {
	var audio any
	if t.audio != nil {
		audio = t.audio
	}
	_, err := q.ExecContext(ctx, `INSERT INTO tryout_answers (id, profession, kind, status, address_hash, audio, audio_mime, typed_text, created_at, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
		t.ID, t.Profession, string(t.Kind), string(t.Status), addressHash, audio, t.audioMIME, t.typedText, now, t.ExpiresAt)
	if err != nil {
		return fmt.Errorf("tryout: insert try: %w", err)
	}
	return nil
}

// inProgress counts the tries waiting for or in recognition: everyone's,
// and those from addressHash.
func inProgress(ctx context.Context, q store.Queryer, addressHash string) (overall, fromAddress int, err error) {
	err = q.QueryRowContext(ctx, `SELECT COUNT(*), COUNT(CASE WHEN address_hash = $2 THEN 1 END) FROM tryout_answers WHERE status = $1`,
		string(StatusQueued), addressHash).Scan(&overall, &fromAddress)
	if err != nil {
		return 0, 0, fmt.Errorf("tryout: count tries in progress: %w", err)
	}
	return overall, fromAddress, nil
}

// loadTry reads the try with id (the token's hash) that has not expired,
// without its recording: the browser polls it every second while it is
// scored, and only the job that transcribes it needs the recording.
func loadTry(ctx context.Context, q store.Queryer, id string, now time.Time) (stored, error) {
	var (
		t                           stored
		kind, status                string
		transcript, metrics, fbJSON sql.NullString
		meaningful                  sql.NullBool
	)
	err := q.QueryRowContext(ctx, `SELECT profession, kind, status, audio_mime, typed_text, transcript, metrics, meaningful, feedback, expires_at, created_at
		FROM tryout_answers WHERE id = $1 AND expires_at > $2`, id, now).
		Scan(&t.Profession, &kind, &status, &t.audioMIME, &t.typedText, &transcript, &metrics, &meaningful, &fbJSON, &t.ExpiresAt, &t.createdAt)
	if errors.Is(err, sql.ErrNoRows) {
		return stored{}, errNotFound
	}
	if err != nil {
		return stored{}, fmt.Errorf("tryout: load try: %w", err)
	}
	t.Kind, t.Status = Kind(kind), Status(status)
	if t.Status == statusKeeping {
		t.Status = StatusDone // to its visitor it is the scored try it was
	}
	p, _ := profession.Lookup(t.Profession)
	t.Question = p.DefaultQuestion
	if transcript.Valid {
		t.Transcript = &transcript.String
	}
	if meaningful.Valid {
		t.Meaningful = &meaningful.Bool
	}
	if metrics.Valid {
		t.Metrics = &transcribe.Metrics{}
		if err := json.Unmarshal([]byte(metrics.String), t.Metrics); err != nil {
			return stored{}, fmt.Errorf("tryout: read metrics: %w", err)
		}
	}
	if fbJSON.Valid {
		t.Feedback = &feedback.Feedback{}
		if err := json.Unmarshal([]byte(fbJSON.String), t.Feedback); err != nil {
			return stored{}, fmt.Errorf("tryout: read feedback: %w", err)
		}
	}
	if ranges := t.uncertainRanges(); len(ranges) > 0 {
		t.UncertainWords, t.TranscriptParts = len(ranges), transcribe.Marked(*t.Transcript, ranges)
	}
	t.ExpiresAt = t.ExpiresAt.UTC()
	return t, nil
}

// loadRecording reads the recording of the try with id, for the job that
// transcribes it; nil once the try is finished (finishTry forgets it).
func loadRecording(ctx context.Context, q store.Queryer, id string) ([]byte, error) {
	var audio []byte
	err := q.QueryRowContext(ctx, `SELECT audio FROM tryout_answers WHERE id = $1`, id).Scan(&audio)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("tryout: load recording: %w", err)
	}
	return audio, nil
}

// finishTry records a try's outcome and forgets its recording and its
// address: nothing of them is needed any more.
func finishTry(ctx context.Context, q store.Queryer, id string, status Status, transcript *string, metrics *transcribe.Metrics, meaningful *bool, fb *feedback.Feedback) error {
	var metricsJSON, fbJSON any
	if metrics != nil {
		b, err := json.Marshal(metrics)
		if err != nil {
			return fmt.Errorf("tryout: write metrics: %w", err)
		}
		metricsJSON = string(b)
	}
	if fb != nil {
		b, err := json.Marshal(fb)
		if err != nil {
			return fmt.Errorf("tryout: write feedback: %w", err)
		}
		fbJSON = string(b)
	}
	_, err := q.ExecContext(ctx, `UPDATE tryout_answers SET status = $2, transcript = $3, metrics = $4, meaningful = $5, feedback = $6,
		audio = NULL, typed_text = '', address_hash = '' WHERE id = $1 AND status = $7`,
		id, string(status), transcript, metricsJSON, meaningful, fbJSON, string(StatusQueued))
	if err != nil {
		return fmt.Errorf("tryout: finish try: %w", err)
	}
	return nil
}

// setKeeping marks the scored try with id as being kept (keeping true),
// or gives it back (false); false when it was not in the state to change.
func setKeeping(ctx context.Context, q store.Queryer, id string, keeping bool) (bool, error) {
	from, to := StatusDone, statusKeeping
	if !keeping {
		from, to = to, from
	}
	res, err := q.ExecContext(ctx, `UPDATE tryout_answers SET status = $2 WHERE id = $1 AND status = $3`, id, string(to), string(from))
	if err != nil {
		return false, fmt.Errorf("tryout: claim try: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// deleteTry deletes the try with id; false when it was gone already.
func deleteTry(ctx context.Context, q store.Queryer, id string) (bool, error) {
	res, err := q.ExecContext(ctx, `DELETE FROM tryout_answers WHERE id = $1`, id)
	if err != nil {
		return false, fmt.Errorf("tryout: delete try: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// deleteExpired sweeps the tries whose time is up.
func deleteExpired(ctx context.Context, q store.Queryer, now time.Time) (int64, error) {
	res, err := q.ExecContext(ctx, `DELETE FROM tryout_answers WHERE expires_at <= $1`, now)
	if err != nil {
		return 0, fmt.Errorf("tryout: sweep tries: %w", err)
	}
	return res.RowsAffected()
}
