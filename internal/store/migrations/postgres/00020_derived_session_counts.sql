-- +goose Up
-- Issue 38. Spec §4's sessionsCompleted, which the free sessions are
-- counted by, and questionsPracticed are counted from practice's sessions
-- when read: a stored copy lagged behind the sessions (it was written only
-- when a session's stats were applied) while the trial was decided on the
-- sessions themselves, so the dashboard and Start could disagree. The
-- users table is auth's and keeps the account; the counts are practice's.
ALTER TABLE users DROP COLUMN sessions_completed;
ALTER TABLE users DROP COLUMN questions_practiced;

-- +goose Down
ALTER TABLE users ADD COLUMN sessions_completed BIGINT NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN questions_practiced BIGINT NOT NULL DEFAULT 0;
UPDATE users SET
    sessions_completed = (SELECT count(*) FROM practice_sessions s
        WHERE s.user_id = users.id AND s.stats_applied_at IS NOT NULL AND s.average_score IS NOT NULL),
    questions_practiced = (SELECT count(*) FROM practice_items i JOIN practice_sessions s ON s.id = i.session_id
        WHERE s.user_id = users.id AND s.stats_applied_at IS NOT NULL AND s.average_score IS NOT NULL
            AND i.status NOT IN ('pending', 'skipped'));
