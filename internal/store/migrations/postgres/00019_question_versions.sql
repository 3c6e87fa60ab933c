-- +goose Up
-- A question's version counts its saves, so that an admin's edit made on
-- an older version is refused instead of undoing a later one (issue 38).
ALTER TABLE questions ADD COLUMN version INTEGER NOT NULL DEFAULT 1;

-- +goose Down
ALTER TABLE questions DROP COLUMN version;
