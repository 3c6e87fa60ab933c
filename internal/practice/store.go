package practice

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/transcribe"
)

var errNotFound = errors.New("practice: not found")

func insertSession(ctx context.Context, q store.Queryer, s Session) error {
	_, err := q.ExecContext(ctx, `INSERT INTO practice_sessions (id, user_id, profession, mode, interview_type, big3, question_count, status, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
		s.ID, s.userID, s.Profession, s.Mode, s.InterviewType, s.Big3, s.QuestionCount, s.Status, s.CreatedAt)
	if err != nil {
		return fmt.Errorf("practice: insert session: %w", err)
	}
	for _, it := range s.Items {
		_, err := q.ExecContext(ctx, `INSERT INTO practice_items (id, session_id, position, question_id, question, tip, subtag, big3_order, status, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
			it.ID, s.ID, it.Position, it.questionID, it.Question, it.Tip, it.Subtag, it.Big3Order, it.Status, s.CreatedAt)
		if err != nil {
			return fmt.Errorf("practice: insert item: %w", err)
		}
	}
	return nil
}

const sessionColumns = `id, user_id, profession, mode, interview_type, big3, question_count, status, created_at, completed_at,
	total_session_time, average_score, previous_average, stats_applied_at IS NOT NULL`

func scanSession(r interface{ Scan(...any) error }) (Session, error) {
	var s Session
	err := r.Scan(&s.ID, &s.userID, &s.Profession, &s.Mode, &s.InterviewType, &s.Big3, &s.QuestionCount, &s.Status, &s.CreatedAt,
		&s.CompletedAt, &s.TotalSessionTime, &s.averageExact, &s.previousAverage, &s.statsApplied)
	if errors.Is(err, sql.ErrNoRows) {
		return Session{}, errNotFound
	}
	if err != nil {
		return Session{}, fmt.Errorf("practice: scan session: %w", err)
	}
	return s, nil
}

// loadSession reads a session with its items. forUpdate is ignored by
// SQLite, whose write transactions already hold the database lock.
func loadSession(ctx context.Context, q store.Queryer, id string) (Session, error) {
	s, err := scanSession(q.QueryRowContext(ctx, `SELECT `+sessionColumns+` FROM practice_sessions WHERE id = $1`, id))
	if err != nil {
		return Session{}, err
	}
	rows, err := q.QueryContext(ctx, `SELECT `+itemColumns+` FROM practice_items WHERE session_id = $1 ORDER BY position`, id)
	if err != nil {
		return Session{}, fmt.Errorf("practice: load items: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		it, err := scanItem(rows)
		if err != nil {
			return Session{}, err
		}
		s.Items = append(s.Items, it)
	}
	return s, rows.Err()
}

const itemColumns = `id, session_id, position, question_id, question, tip, subtag, big3_order, status, audio_path, audio_mime,
	transcript, metrics, feedback, score, meaningful, error, stream_path, stream_mime, stream_bytes, progress, progress_at`

func scanItem(r interface{ Scan(...any) error }) (Item, error) {
	var (
		it                              Item
		metrics, feedbackJSON, progress sql.NullString
	)
	err := r.Scan(&it.ID, &it.sessionID, &it.Position, &it.questionID, &it.Question, &it.Tip, &it.Subtag, &it.Big3Order, &it.Status,
		&it.audioPath, &it.audioMIME, &it.Transcript, &metrics, &feedbackJSON, &it.score, &it.Meaningful, &it.Error,
		&it.streamPath, &it.streamMIME, &it.streamBytes, &progress, &it.progressAt)
	if errors.Is(err, sql.ErrNoRows) {
		return Item{}, errNotFound
	}
	if err != nil {
		return Item{}, fmt.Errorf("practice: scan item: %w", err)
	}
	if metrics.Valid {
		it.Metrics = new(transcribe.Metrics)
		if err := json.Unmarshal([]byte(metrics.String), it.Metrics); err != nil {
			return Item{}, fmt.Errorf("practice: item %s metrics: %w", it.ID, err)
		}
	}
	if feedbackJSON.Valid {
		it.Feedback = new(feedback.Feedback)
		if err := json.Unmarshal([]byte(feedbackJSON.String), it.Feedback); err != nil {
			return Item{}, fmt.Errorf("practice: item %s feedback: %w", it.ID, err)
		}
	}
	if progress.Valid {
		it.progress = new(transcribe.Progress)
		if err := json.Unmarshal([]byte(progress.String), it.progress); err != nil {
			return Item{}, fmt.Errorf("practice: item %s progress: %w", it.ID, err)
		}
	}
	return it, nil
}

func loadItem(ctx context.Context, q store.Queryer, id string) (Item, error) {
	return scanItem(q.QueryRowContext(ctx, `SELECT `+itemColumns+` FROM practice_items WHERE id = $1`, id))
}

// setItemStatus moves an item from one of the from statuses to status,
// reporting whether it did: a second delivery of the same job finds the
// item already moved and leaves it alone.
func setItemStatus(ctx context.Context, q store.Queryer, id, status string, now time.Time, from ...string) (bool, error) {
	query := `UPDATE practice_items SET status = $1, updated_at = $2 WHERE id = $3`
	args := []any{status, now, id}
	if len(from) > 0 {
		query += ` AND status IN (`
		for i, f := range from {
			if i > 0 {
				query += `, `
			}
			args = append(args, f)
			query += fmt.Sprintf("$%d", len(args))
		}
		query += `)`
	}
	res, err := q.ExecContext(ctx, query, args...)
	if err != nil {
		return false, fmt.Errorf("practice: set item %s %s: %w", id, status, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

func execOne(ctx context.Context, q store.Queryer, what, query string, args ...any) error {
	if _, err := q.ExecContext(ctx, query, args...); err != nil {
		return fmt.Errorf("practice: %s: %w", what, err)
	}
	return nil
}

func nullableJSON(v any) (*string, error) {
	if v == nil {
		return nil, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	s := string(b)
	return &s, nil
}
