package practice

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"time"

	"github.com/whitecoat/whitecoat/internal/store"
)

// A recording in the database (see 00009_answer_audio.sql).

// storeAudioPiece stores piece as the bytes of the recording at path from
// offset on.
func storeAudioPiece(ctx context.Context, q store.Queryer, itemID, path string, offset int64, piece []byte) error {
	_, err := exec(ctx, q, "store recording", `INSERT INTO practice_audio (path, offset_bytes, item_id, data) VALUES ($1, $2, $3, $4)`,
		path, offset, itemID, piece)
	return err
}

// storedAudioSize is how many bytes of the recording at path the database
// holds (0 for none).
func storedAudioSize(ctx context.Context, q store.Queryer, path string) (int64, error) {
	var n sql.NullInt64
	err := q.QueryRowContext(ctx, `SELECT SUM(LENGTH(data)) FROM practice_audio WHERE path = $1`, path).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("practice: size of stored recording: %w", err)
	}
	return n.Int64, nil
}

// copyStoredAudio writes the recording at path, piece by piece, to w.
func copyStoredAudio(ctx context.Context, q store.Queryer, path string, w io.WriterAt) error {
	rows, err := q.QueryContext(ctx, `SELECT offset_bytes, data FROM practice_audio WHERE path = $1 ORDER BY offset_bytes`, path)
	if err != nil {
		return fmt.Errorf("practice: read stored recording: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			offset int64
			data   []byte
		)
		if err := rows.Scan(&offset, &data); err != nil {
			return fmt.Errorf("practice: read stored recording: %w", err)
		}
		if _, err := w.WriteAt(data, offset); err != nil {
			return err
		}
	}
	return rows.Err()
}

// deleteStoredAudio deletes the recording at path from the database.
func deleteStoredAudio(ctx context.Context, q store.Queryer, path string) error {
	if path == "" {
		return nil
	}
	_, err := exec(ctx, q, "delete stored recording", `DELETE FROM practice_audio WHERE path = $1`, path)
	return err
}

// sweepStoredAudio deletes recordings no answer needs any more: those no
// item refers to (replaced, skipped, transcribed) and those kept for a
// retry that did not come before keptBefore.
func sweepStoredAudio(ctx context.Context, q store.Queryer, keptBefore time.Time) (int64, error) {
	return exec(ctx, q, "sweep stored recordings", `DELETE FROM practice_audio WHERE NOT EXISTS (
			SELECT 1 FROM practice_items i WHERE i.id = practice_audio.item_id
				AND (i.audio_path = practice_audio.path OR i.stream_path = practice_audio.path)
				AND NOT (i.status = $1 AND i.updated_at < $2))`, StatusFailed, keptBefore)
}
