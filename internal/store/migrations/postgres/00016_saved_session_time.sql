-- +goose Up
-- A saved session's time is when it was practised, the time the progress
-- and the summary show (issue 30): saves before this one stored when the
-- student pressed Save, which could be hours later.
UPDATE saved_sessions SET created_at = (
    SELECT p.created_at FROM practice_sessions p WHERE p.id = saved_sessions.practice_session_id)
WHERE EXISTS (SELECT 1 FROM practice_sessions p WHERE p.id = saved_sessions.practice_session_id);

-- +goose Down
-- The times the saves were pressed are not kept; the practice times stay.
SELECT 1;
