-- +goose Up
-- Issue 40. What a strong answer to each question makes (its points, most
-- valuable first) and the traps it must avoid, each a text with the cues a
-- student making it would say, as JSON (question.Point). Seeding fills them
-- in for bank questions that have none; an admin's edit is kept.
ALTER TABLE questions ADD COLUMN points TEXT NOT NULL DEFAULT '[]';
ALTER TABLE questions ADD COLUMN traps TEXT NOT NULL DEFAULT '[]';

-- +goose Down
ALTER TABLE questions DROP COLUMN traps;
ALTER TABLE questions DROP COLUMN points;
