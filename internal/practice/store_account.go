package practice

import (
	"context"

	"github.com/whitecoat/whitecoat/internal/store"
)

// Data rights: what a user's export and deletion read and remove across the practice tables.

// userSessionIDs lists the user's practice sessions, oldest first.
func userSessionIDs(ctx context.Context, q store.Queryer, userID string) ([]string, error) {
	return scanAll(ctx, q, "user sessions", scanString,
		`SELECT id FROM practice_sessions WHERE user_id = $1 ORDER BY created_at, id`, userID)
}

// userRecordings lists the recordings and streamed pieces still on disk
// for the user's answers.
func userRecordings(ctx context.Context, q store.Queryer, userID string) ([]string, error) {
	return scanAll(ctx, q, "user recordings", scanString,
		`SELECT path FROM (
			SELECT i.audio_path AS path FROM practice_items i JOIN practice_sessions s ON s.id = i.session_id WHERE s.user_id = $1
			UNION SELECT i.stream_path FROM practice_items i JOIN practice_sessions s ON s.id = i.session_id WHERE s.user_id = $1
		) paths WHERE path <> ''`, userID)
}

// deleteUserRows removes every practice row of the user: sessions with
// their items, the stats markers and the voice factor.
func deleteUserRows(ctx context.Context, q store.Queryer, userID string) error {
	for _, stmt := range []string{
		`DELETE FROM practice_voices WHERE user_id = $1`,
		`DELETE FROM practice_preferences WHERE user_id = $1`,
		`DELETE FROM practice_items WHERE session_id IN (SELECT id FROM practice_sessions WHERE user_id = $1)`,
		`DELETE FROM practice_sessions WHERE user_id = $1`,
		`DELETE FROM processed_sessions WHERE user_id = $1`,
	} {
		if _, err := exec(ctx, q, "delete user data", stmt, userID); err != nil {
			return err
		}
	}
	return nil
}
