-- +goose Up
-- Interview formats (issue 15). A question with a scenario is a station:
-- the candidate reads the scenario, answers the question, and is asked the
-- follow-ups (a JSON array of strings).
ALTER TABLE questions ADD COLUMN scenario TEXT NOT NULL DEFAULT '';
ALTER TABLE questions ADD COLUMN follow_ups TEXT NOT NULL DEFAULT '[]';

-- A session's format and the student's timing adjustment: 1, 1.25, 1.5 or
-- 2 times every limit, or off (untimed practice).
ALTER TABLE practice_sessions ADD COLUMN format TEXT NOT NULL DEFAULT 'traditional'
    CHECK (format IN ('traditional', 'mmi', 'kira', 'casper'));
ALTER TABLE practice_sessions ADD COLUMN extension TEXT NOT NULL DEFAULT '1'
    CHECK (extension IN ('1', '1.25', '1.5', '2', 'off'));
-- The format's timings as chosen, before the adjustment: the feedback
-- judges an answer's length by the time the format gives, not the extra
-- time a student took.
ALTER TABLE practice_sessions ADD COLUMN prep_seconds INTEGER NOT NULL DEFAULT 0;
ALTER TABLE practice_sessions ADD COLUMN answer_seconds INTEGER NOT NULL DEFAULT 180;
ALTER TABLE practice_sessions ADD COLUMN typed_seconds INTEGER NOT NULL DEFAULT 0;
-- A saved session keeps its format, for the history's filter.
ALTER TABLE saved_sessions ADD COLUMN format TEXT NOT NULL DEFAULT 'traditional'
    CHECK (format IN ('traditional', 'mmi', 'kira', 'casper'));

-- Each question's own timings, after the adjustment: reading or preparation
-- time first, then the answer's limit. A typed answer is text, scored like
-- a transcript, with no recording and no speech figures.
ALTER TABLE practice_items ADD COLUMN kind TEXT NOT NULL DEFAULT 'spoken' CHECK (kind IN ('spoken', 'typed'));
ALTER TABLE practice_items ADD COLUMN scenario TEXT NOT NULL DEFAULT '';
ALTER TABLE practice_items ADD COLUMN follow_ups TEXT NOT NULL DEFAULT '[]';
ALTER TABLE practice_items ADD COLUMN prep_seconds INTEGER NOT NULL DEFAULT 0;
ALTER TABLE practice_items ADD COLUMN answer_seconds INTEGER NOT NULL DEFAULT 180;

-- +goose Down
ALTER TABLE practice_items DROP COLUMN answer_seconds;
ALTER TABLE practice_items DROP COLUMN prep_seconds;
ALTER TABLE practice_items DROP COLUMN follow_ups;
ALTER TABLE practice_items DROP COLUMN scenario;
ALTER TABLE practice_items DROP COLUMN kind;
ALTER TABLE saved_sessions DROP COLUMN format;
ALTER TABLE practice_sessions DROP COLUMN typed_seconds;
ALTER TABLE practice_sessions DROP COLUMN answer_seconds;
ALTER TABLE practice_sessions DROP COLUMN prep_seconds;
ALTER TABLE practice_sessions DROP COLUMN extension;
ALTER TABLE practice_sessions DROP COLUMN format;
ALTER TABLE questions DROP COLUMN follow_ups;
ALTER TABLE questions DROP COLUMN scenario;
