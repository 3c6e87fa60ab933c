package practice

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/whitecoat/whitecoat/internal/store"
)

// Hearing (see hearing.go): the student's preferences and the browser's
// transcript of an answer.

func userPreferences(ctx context.Context, q store.Queryer, userID string) (Preferences, error) {
	var p Preferences
	var hearing string
	err := q.QueryRowContext(ctx, `SELECT hearing, captions, watch_video FROM practice_preferences WHERE user_id = $1`, userID).Scan(&hearing, &p.Captions, &p.WatchVideo)
	if errors.Is(err, sql.ErrNoRows) {
		return DefaultPreferences, nil
	}
	if err != nil {
		return Preferences{}, fmt.Errorf("practice: read preferences: %w", err)
	}
	p.Hearing = Hearing(hearing)
	return p, nil
}

func savePreferences(ctx context.Context, q store.Queryer, userID string, p Preferences, now time.Time) error {
	_, err := exec(ctx, q, "save preferences", `INSERT INTO practice_preferences (user_id, hearing, captions, watch_video, updated_at) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (user_id) DO UPDATE SET hearing = excluded.hearing, captions = excluded.captions, watch_video = excluded.watch_video,
		updated_at = excluded.updated_at`,
		userID, string(p.Hearing), p.Captions, p.WatchVideo, now)
	return err
}

func saveBrowserTranscript(ctx context.Context, q store.Queryer, itemID string, bt *BrowserTranscript) error {
	v, err := jsonOrNull("save browser transcript", bt)
	if err != nil {
		return err
	}
	_, err = exec(ctx, q, "save browser transcript", `UPDATE practice_items SET browser_transcript = $2, heard_so_far = NULL WHERE id = $1`, itemID, v)
	return err
}

func browserTranscriptOf(ctx context.Context, q store.Queryer, itemID string) (*BrowserTranscript, error) {
	var raw sql.NullString
	err := q.QueryRowContext(ctx, `SELECT browser_transcript FROM practice_items WHERE id = $1`, itemID).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && !raw.Valid) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("practice: read browser transcript: %w", err)
	}
	var bt BrowserTranscript
	if err := json.Unmarshal([]byte(raw.String), &bt); err != nil {
		return nil, fmt.Errorf("practice: read browser transcript: %w", err)
	}
	return &bt, nil
}
