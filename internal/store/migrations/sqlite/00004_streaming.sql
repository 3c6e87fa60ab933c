-- +goose Up
-- An answer can arrive in pieces while the student is still speaking. Until
-- it is finished, stream_path is the temporary file the pieces are appended
-- to and stream_bytes how much of it has arrived; progress is what the
-- speech engine has recognised of it so far (JSON: words and the second
-- they run to), and progress_at when that recognition was last queued.
ALTER TABLE practice_items ADD COLUMN stream_path TEXT NOT NULL DEFAULT '';
ALTER TABLE practice_items ADD COLUMN stream_mime TEXT NOT NULL DEFAULT '';
ALTER TABLE practice_items ADD COLUMN stream_bytes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE practice_items ADD COLUMN progress TEXT;
ALTER TABLE practice_items ADD COLUMN progress_at DATETIME;

-- +goose Down
ALTER TABLE practice_items DROP COLUMN progress_at;
ALTER TABLE practice_items DROP COLUMN progress;
ALTER TABLE practice_items DROP COLUMN stream_bytes;
ALTER TABLE practice_items DROP COLUMN stream_mime;
ALTER TABLE practice_items DROP COLUMN stream_path;
