-- +goose Up
-- The history's search matches this instead of decoding every saved
-- session's items (issue 27: a student with 1,000 saved sessions made each
-- search read 30 MB of answers). It holds the session's questions,
-- lower-cased, one a line; the application writes it on save.
ALTER TABLE saved_sessions ADD COLUMN question_text TEXT NOT NULL DEFAULT '';
UPDATE saved_sessions SET question_text = COALESCE((
    SELECT lower(string_agg(q.value ->> 'question', E'\n' ORDER BY q.n))
    FROM jsonb_array_elements(CASE WHEN jsonb_typeof(saved_sessions.items::jsonb) = 'array' THEN saved_sessions.items::jsonb ELSE '[]'::jsonb END)
        WITH ORDINALITY AS q (value, n)), '');
-- A page of the history is read newest first, id breaking ties.
DROP INDEX saved_sessions_user;
CREATE INDEX saved_sessions_user ON saved_sessions (user_id, created_at, id);

-- +goose Down
DROP INDEX saved_sessions_user;
CREATE INDEX saved_sessions_user ON saved_sessions (user_id, created_at);
ALTER TABLE saved_sessions DROP COLUMN question_text;
