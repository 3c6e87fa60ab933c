-- +goose Up
-- Issue 39. What the student's own browser heard of an answer, when they
-- chose to be heard by it: the recogniser's text, its own confidence and
-- whether it ran on the device, as JSON (practice.BrowserTranscript). It
-- arrives with the recording (the finish call) and the pipeline aligns it
-- to the audio; it is kept with the answer like the server's transcript.
ALTER TABLE practice_items ADD COLUMN browser_transcript TEXT;

-- How the student chose to be heard (practice.Hearing: device, browser or
-- server) and whether live captions are shown while they speak. A choice
-- of theirs: exported with their data, deleted with them.
CREATE TABLE practice_preferences (
    user_id    TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    hearing    TEXT NOT NULL CHECK (hearing IN ('device', 'browser', 'server')),
    captions   BOOLEAN NOT NULL DEFAULT TRUE,
    updated_at TIMESTAMPTZ NOT NULL
);

-- +goose Down
DROP TABLE practice_preferences;
ALTER TABLE practice_items DROP COLUMN browser_transcript;
