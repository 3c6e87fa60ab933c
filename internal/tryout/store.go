package tryout

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/whitecoat/whitecoat/internal/answer"
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
	createdAt time.Time
}

func insertTry(ctx context.Context, q store.Queryer, t stored, addressHash string, now time.Time) error {
	var audio any
	if t.audio != nil {
		audio = t.audio
	}
	_, err := q.ExecContext(ctx, `INSERT INTO tryout_answers (id, profession, kind, status, address_hash, audio, audio_mime, transcript, meaningful, created_at, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
		t.ID, t.Profession, t.Kind, string(t.Status), addressHash, audio, t.audioMIME, t.Transcript, t.Meaningful, now, t.ExpiresAt)
	if err != nil {
		return fmt.Errorf("tryout: insert try: %w", err)
	}
	return nil
}

// countInProgress counts the tries waiting for or in recognition or
// scoring: everyone's, and those from addressHash.
func countInProgress(ctx context.Context, q store.Queryer, addressHash string) (overall, fromAddress int, err error) {
	cond, args := store.In("status", inProgress, addressHash)
	err = q.QueryRowContext(ctx, `SELECT COUNT(*), COUNT(CASE WHEN address_hash = $1 THEN 1 END) FROM tryout_answers WHERE `+cond, args...).
		Scan(&overall, &fromAddress)
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
		status                      string
		transcript, metrics, fbJSON sql.NullString
		meaningful                  sql.NullBool
	)
	err := q.QueryRowContext(ctx, `SELECT profession, kind, status, audio_mime, transcript, metrics, meaningful, feedback, expires_at, created_at
		FROM tryout_answers WHERE id = $1 AND expires_at > $2`, id, now).
		Scan(&t.Profession, &t.Kind, &status, &t.audioMIME, &transcript, &metrics, &meaningful, &fbJSON, &t.ExpiresAt, &t.createdAt)
	if errors.Is(err, sql.ErrNoRows) {
		return stored{}, errNotFound
	}
	if err != nil {
		return stored{}, fmt.Errorf("tryout: load try: %w", err)
	}
	t.Status = answer.Status(status)
	if t.Status == statusKeeping {
		t.Status = answer.StatusDone // to its visitor it is the scored try it was
	}
	p, _ := profession.Lookup(t.Profession)
	t.Question, t.FollowUps = p.DefaultQuestion, []string{}
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
	t.Derive()
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

// setStatus moves the try with id to status to from one of the from
// statuses, reporting false, changing nothing, when it was in none of them
// (a second delivery of the same job got there first). A try that
// settles forgets its recording and its address: nothing of them is
// needed any more.
func setStatus(ctx context.Context, q store.Queryer, id string, to answer.Status, from []answer.Status) (bool, error) {
	forget := ""
	if to == answer.StatusDone || to == answer.StatusFailed {
		forget = ", audio = NULL, address_hash = ''"
	}
	cond, args := store.In("status", from, id, string(to))
	res, err := q.ExecContext(ctx, `UPDATE tryout_answers SET status = $2`+forget+` WHERE id = $1 AND `+cond, args...)
	if err != nil {
		return false, fmt.Errorf("tryout: move try to %s: %w", to, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// saveHeard records what recognition heard in the try with id, and
// forgets its recording: the transcript is kept for the scoring step,
// whether it succeeds at once or on a retry.
func saveHeard(ctx context.Context, q store.Queryer, id string, heard answer.Hearing) error {
	metrics, err := json.Marshal(heard.Metrics)
	if err != nil {
		return fmt.Errorf("tryout: write metrics: %w", err)
	}
	if _, err := q.ExecContext(ctx, `UPDATE tryout_answers SET transcript = $2, metrics = $3, meaningful = $4, audio = NULL WHERE id = $1`,
		id, heard.Transcript, string(metrics), heard.Meaningful); err != nil {
		return fmt.Errorf("tryout: save transcript: %w", err)
	}
	return nil
}

// saveFeedback records the try's feedback.
func saveFeedback(ctx context.Context, q store.Queryer, id string, fb feedback.Feedback) error {
	b, err := json.Marshal(fb)
	if err != nil {
		return fmt.Errorf("tryout: write feedback: %w", err)
	}
	if _, err := q.ExecContext(ctx, `UPDATE tryout_answers SET feedback = $2 WHERE id = $1`, id, string(b)); err != nil {
		return fmt.Errorf("tryout: save feedback: %w", err)
	}
	return nil
}

// setKeeping marks the scored try with id as being kept (keeping true),
// or gives it back (false); false when it was not in the state to change.
func setKeeping(ctx context.Context, q store.Queryer, id string, keeping bool) (bool, error) {
	from, to := answer.StatusDone, statusKeeping
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
