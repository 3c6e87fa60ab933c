-- +goose Up
-- A student may correct what the speech engine heard (issue 16): the
-- transcript becomes their text and is scored again; what the engine wrote
-- is kept in original_transcript, and transcript_corrected_at marks the
-- edit. Both NULL for an answer never corrected.
ALTER TABLE practice_items ADD COLUMN original_transcript TEXT;
ALTER TABLE practice_items ADD COLUMN transcript_corrected_at DATETIME;

-- +goose Down
ALTER TABLE practice_items DROP COLUMN transcript_corrected_at;
ALTER TABLE practice_items DROP COLUMN original_transcript;
