-- +goose Up
-- The voice scaling factor the local speech engine chose for a student
-- (internal/transcribe/warp.go), so that their later answers are recognised
-- at it without probing again. answers counts the answers recognised at the
-- remembered factor since it was chosen: after a few the engine probes
-- again, in case someone else now speaks on the account. A characteristic
-- of the student's voice: exported with their data, deleted with them.
CREATE TABLE practice_voices (
    user_id    TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    warp       REAL NOT NULL CHECK (warp > 0),
    answers    INTEGER NOT NULL DEFAULT 0,
    chosen_at  DATETIME NOT NULL,
    updated_at DATETIME NOT NULL
);

-- +goose Down
DROP TABLE practice_voices;
