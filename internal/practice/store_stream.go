package practice

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/whitecoat/whitecoat/internal/answer"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/transcribe"
)

// A recording arriving in pieces (see stream.go).

// forgetStream is the SQL assignment that detaches an item from the
// recording that was arriving in pieces: once it is queued whole or
// finished, or the question skipped.
const forgetStream = `stream_path = '', stream_mime = '', stream_bytes = 0`

// startStream points an item that awaits an answer at a new recording
// arriving in pieces, reporting false when the item no longer awaits one.
// Its first recognition is timed from now.
func startStream(ctx context.Context, q store.Queryer, itemID, path, mimeType string, size int64, now time.Time) (bool, error) {
	cond, args := store.In("status", answer.Unanswered, path, mimeType, size, now, itemID)
	n, err := exec(ctx, q, "start recording", `UPDATE practice_items SET stream_path = $1, stream_mime = $2, stream_bytes = $3,
		progress = NULL, progress_at = $4, uploaded_at = $4, heard_so_far = NULL WHERE id = $5 AND `+cond, args...)
	return n == 1, err
}

// streamingBytes sums the bytes of the user's recordings arriving in
// pieces, other than itemID's.
func streamingBytes(ctx context.Context, q store.Queryer, userID, itemID string) (int64, error) {
	var n int64
	err := q.QueryRowContext(ctx, `SELECT CAST(COALESCE(SUM(i.stream_bytes), 0) AS BIGINT) FROM practice_items i JOIN practice_sessions s ON s.id = i.session_id
		WHERE s.user_id = $1 AND i.id <> $2 AND i.stream_path <> ''`, userID, itemID).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("practice: bytes in flight: %w", err)
	}
	return n, nil
}

// recordPiece moves the size of the recording at path from size to
// newSize, reporting false when another request changed it first.
func recordPiece(ctx context.Context, q store.Queryer, itemID, path string, size, newSize int64, heardSoFar string) (bool, error) {
	n, err := exec(ctx, q, "record piece", `UPDATE practice_items SET stream_bytes = $1,
		heard_so_far = CASE WHEN $5 = '' THEN heard_so_far ELSE $5 END WHERE id = $2 AND stream_path = $3 AND stream_bytes = $4`,
		newSize, itemID, path, size, heardSoFar)
	return n == 1, err
}

// heardSoFar is what the student's browser had heard of the recording
// arriving in pieces when its last piece came ("" for nothing).
func heardSoFar(ctx context.Context, q store.Queryer, itemID, streamPath string) (string, error) {
	var heard sql.NullString
	err := q.QueryRowContext(ctx, `SELECT heard_so_far FROM practice_items WHERE id = $1 AND stream_path = $2`, itemID, streamPath).Scan(&heard)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("practice: read what the browser heard so far: %w", err)
	}
	return heard.String, nil
}

// forgetProgress drops what was recognised of a recording that arrived in
// pieces, when a whole recording replaces it.
func forgetProgress(ctx context.Context, q store.Queryer, itemID string) error {
	_, err := exec(ctx, q, "forget progress", `UPDATE practice_items SET progress = NULL WHERE id = $1`, itemID)
	return err
}

// noteRecognition records when recognition of a recording in progress was
// last queued.
func noteRecognition(ctx context.Context, q store.Queryer, itemID string, at time.Time) error {
	_, err := exec(ctx, q, "note recognition", `UPDATE practice_items SET progress_at = $1 WHERE id = $2`, at, itemID)
	return err
}

// saveProgress stores what was recognised of the recording at streamPath,
// only while that recording is still arriving: once finished, its
// transcription has already taken the progress there was.
func saveProgress(ctx context.Context, q store.Queryer, itemID, streamPath string, p transcribe.Progress) error {
	progress, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("practice: save progress: %w", err)
	}
	_, err = exec(ctx, q, "save progress", `UPDATE practice_items SET progress = $1 WHERE id = $2 AND stream_path = $3`,
		string(progress), itemID, streamPath)
	return err
}
