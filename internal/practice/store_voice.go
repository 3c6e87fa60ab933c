package practice

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/whitecoat/whitecoat/internal/store"
)

// Voices (see voice.go).

// sessionVoice reads the factor remembered for the session's student; nil
// when there is none.
func sessionVoice(ctx context.Context, q store.Queryer, sessionID string) (*VoiceFactor, error) {
	var v VoiceFactor
	err := q.QueryRowContext(ctx, `SELECT v.warp, v.chosen_at, v.answers FROM practice_voices v
		JOIN practice_sessions s ON s.user_id = v.user_id WHERE s.id = $1`, sessionID).Scan(&v.Warp, &v.ChosenAt, &v.Answers)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("practice: read voice factor: %w", err)
	}
	return &v, nil
}

// userVoice reads the factor remembered for the user; nil when there is none.
func userVoice(ctx context.Context, q store.Queryer, userID string) (*VoiceFactor, error) {
	var v VoiceFactor
	err := q.QueryRowContext(ctx, `SELECT warp, chosen_at, answers FROM practice_voices WHERE user_id = $1`, userID).
		Scan(&v.Warp, &v.ChosenAt, &v.Answers)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("practice: read voice factor: %w", err)
	}
	return &v, nil
}

// saveVoice remembers warp, just chosen on an answer, for the session's
// student.
func saveVoice(ctx context.Context, q store.Queryer, sessionID string, warp float64, now time.Time) error {
	_, err := exec(ctx, q, "save voice factor", `INSERT INTO practice_voices (user_id, warp, answers, chosen_at, updated_at)
		SELECT user_id, $1, 0, $2, $2 FROM practice_sessions WHERE id = $3
		ON CONFLICT (user_id) DO UPDATE SET warp = excluded.warp, answers = 0, chosen_at = excluded.chosen_at, updated_at = excluded.updated_at`,
		warp, now, sessionID)
	return err
}

// countVoiceAnswer counts an answer recognised at the session's student's
// remembered factor warp (unless it has changed since).
func countVoiceAnswer(ctx context.Context, q store.Queryer, sessionID string, warp float64, now time.Time) error {
	_, err := exec(ctx, q, "count voice answer", `UPDATE practice_voices SET answers = answers + 1, updated_at = $1
		WHERE user_id = (SELECT user_id FROM practice_sessions WHERE id = $2) AND warp = $3`, now, sessionID, warp)
	return err
}

// forgetVoice forgets the session's student's factor if it is still warp.
func forgetVoice(ctx context.Context, q store.Queryer, sessionID string, warp float64) error {
	_, err := exec(ctx, q, "forget voice factor", `DELETE FROM practice_voices
		WHERE user_id = (SELECT user_id FROM practice_sessions WHERE id = $1) AND warp = $2`, sessionID, warp)
	return err
}
