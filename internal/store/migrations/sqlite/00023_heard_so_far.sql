-- +goose Up
-- Issue 39. What the student's browser has heard so far of an answer still
-- being recorded, sent with its pieces, so that the server can line it up
-- with the recording while it arrives (transcribe.Aligner.AdvanceAlign).
-- Emptied when the recording starts afresh and when it is finished, where
-- the browser's final transcript takes its place.
ALTER TABLE practice_items ADD COLUMN heard_so_far TEXT;

-- +goose Down
ALTER TABLE practice_items DROP COLUMN heard_so_far;
