-- +goose Up
-- The history's search matches question_text instead of decoding every
-- saved session's items (issue 27: a student with 1,000 saved sessions
-- made each search read 30 MB of answers). It holds the session's
-- questions, lower-cased, one a line; the application writes it on save.
--
-- SQLite stores a row's columns in order, and items (tens of kilobytes)
-- spill over a chain of overflow pages that must be walked to reach any
-- column after them: format, added by ALTER TABLE, and a question_text
-- added the same way would cost a search 30 ms over such a history. The
-- table is rebuilt with items last (nothing refers to saved_sessions).
CREATE TABLE saved_sessions_new (
    id                  TEXT PRIMARY KEY,
    user_id             TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    practice_session_id TEXT UNIQUE,
    title               TEXT NOT NULL,
    profession          TEXT NOT NULL,
    created_at          DATETIME NOT NULL,
    overall_avg         REAL NOT NULL,
    total_session_time  INTEGER NOT NULL,
    total_questions     INTEGER NOT NULL,
    answered            INTEGER NOT NULL,
    skipped             INTEGER NOT NULL,
    format              TEXT NOT NULL DEFAULT 'traditional' CHECK (format IN ('traditional', 'mmi', 'kira', 'casper')),
    question_text       TEXT NOT NULL DEFAULT '',
    items               TEXT NOT NULL
);
INSERT INTO saved_sessions_new (id, user_id, practice_session_id, title, profession, created_at, overall_avg, total_session_time,
    total_questions, answered, skipped, format, items)
SELECT id, user_id, practice_session_id, title, profession, created_at, overall_avg, total_session_time,
    total_questions, answered, skipped, format, items FROM saved_sessions;
DROP TABLE saved_sessions;
ALTER TABLE saved_sessions_new RENAME TO saved_sessions;
-- SQLite's lower() folds ASCII only: a question saved before this migration
-- with an upper-case letter outside ASCII keeps that letter.
UPDATE saved_sessions SET question_text = COALESCE((
    SELECT lower(group_concat(json_extract(q.value, '$.question'), char(10) ORDER BY q.key))
    FROM json_each(CASE WHEN json_valid(saved_sessions.items) THEN saved_sessions.items ELSE '[]' END) AS q), '');
-- A page of the history is read newest first, id breaking ties.
CREATE INDEX saved_sessions_user ON saved_sessions (user_id, created_at, id);

-- +goose Down
DROP INDEX saved_sessions_user;
CREATE INDEX saved_sessions_user ON saved_sessions (user_id, created_at);
ALTER TABLE saved_sessions DROP COLUMN question_text;
