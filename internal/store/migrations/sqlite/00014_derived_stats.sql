-- +goose Up
-- An account's averages and a session's improvement are computed when read
-- from the sessions' own averages (issue 28): a stored copy had to be
-- rewritten whenever a transcript correction changed an earlier session,
-- and the running mean gave a session with no scored answer the old mean's
-- weight. The once-per-session counters (sessions_completed,
-- questions_practiced) stay: the spec names them and access counts them.
ALTER TABLE users DROP COLUMN rolling_average_score;
ALTER TABLE users DROP COLUMN last_average_score;
ALTER TABLE practice_sessions DROP COLUMN previous_average;
-- The averages read a student's scored sessions in the order their stats
-- were applied.
CREATE INDEX practice_sessions_scored ON practice_sessions (user_id, stats_applied_at, id)
    WHERE stats_applied_at IS NOT NULL AND average_score IS NOT NULL;

-- +goose Down
DROP INDEX practice_sessions_scored;
ALTER TABLE practice_sessions ADD COLUMN previous_average REAL;
ALTER TABLE users ADD COLUMN last_average_score REAL NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN rolling_average_score REAL NOT NULL DEFAULT 0;
UPDATE practice_sessions SET previous_average = (
    SELECT p.average_score FROM practice_sessions p
    WHERE p.user_id = practice_sessions.user_id AND p.stats_applied_at IS NOT NULL AND p.average_score IS NOT NULL
        AND (p.stats_applied_at < practice_sessions.stats_applied_at
            OR (p.stats_applied_at = practice_sessions.stats_applied_at AND p.id < practice_sessions.id))
    ORDER BY p.stats_applied_at DESC, p.id DESC LIMIT 1)
WHERE stats_applied_at IS NOT NULL AND average_score IS NOT NULL;
UPDATE users SET
    rolling_average_score = COALESCE((SELECT AVG(s.average_score) FROM practice_sessions s
        WHERE s.user_id = users.id AND s.stats_applied_at IS NOT NULL AND s.average_score IS NOT NULL), 0),
    last_average_score = COALESCE((SELECT s.average_score FROM practice_sessions s
        WHERE s.user_id = users.id AND s.stats_applied_at IS NOT NULL AND s.average_score IS NOT NULL
        ORDER BY s.stats_applied_at DESC, s.id DESC LIMIT 1), 0);
