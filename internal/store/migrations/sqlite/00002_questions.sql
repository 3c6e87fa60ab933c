-- +goose Up
-- seed_key is set only on questions from the built-in bank; it is unique so
-- seeding can never insert one twice.
CREATE TABLE questions (
    id         TEXT PRIMARY KEY,
    seed_key   TEXT UNIQUE,
    text       TEXT NOT NULL,
    subtag     TEXT NOT NULL DEFAULT '' CHECK (subtag IN ('', 'Ethical', 'Behavioral', 'Teamwork', 'Leadership', 'Communication')),
    tip        TEXT NOT NULL DEFAULT '',
    big3       BOOLEAN NOT NULL DEFAULT 0,
    big3_order INTEGER NOT NULL DEFAULT 0,
    created_at DATETIME NOT NULL,
    updated_at DATETIME NOT NULL,
    created_by TEXT NOT NULL DEFAULT '',
    updated_by TEXT NOT NULL DEFAULT ''
);
CREATE INDEX questions_created ON questions (created_at);
CREATE INDEX questions_subtag ON questions (subtag);

-- The spec's mainTags list; position keeps the order an admin gave.
CREATE TABLE question_tags (
    question_id TEXT NOT NULL REFERENCES questions (id) ON DELETE CASCADE,
    profession  TEXT NOT NULL,
    position    INTEGER NOT NULL,
    PRIMARY KEY (question_id, profession)
);
CREATE INDEX question_tags_profession ON question_tags (profession, question_id);

-- Every seed key ever inserted, kept after an admin deletes the question so
-- the next seed does not bring it back.
CREATE TABLE question_seeds_applied (
    seed_key   TEXT PRIMARY KEY,
    applied_at DATETIME NOT NULL
);

-- The admin users table sorts by each of these and pages through the
-- result in index order (id breaks ties). Name and email ride along so a
-- search (a LIKE '%q%' no index can seek) is checked against the narrow
-- index instead of fetching every row: with 50,000 users that is the
-- difference between a few and a few hundred milliseconds on SQLite.
CREATE INDEX users_by_name ON users (lower(name), id, name, email);
CREATE INDEX users_by_email ON users (email, name);
CREATE INDEX users_by_created ON users (created_at, id, name, email);
CREATE INDEX users_by_trial ON users (trial_expires_at, id, name, email);
CREATE INDEX users_by_usage ON users (usage_count, id, name, email);
CREATE INDEX users_by_role ON users (role, id, name, email);

-- +goose Down
DROP INDEX users_by_role;
DROP INDEX users_by_usage;
DROP INDEX users_by_trial;
DROP INDEX users_by_created;
DROP INDEX users_by_email;
DROP INDEX users_by_name;
DROP TABLE question_seeds_applied;
DROP TABLE question_tags;
DROP TABLE questions;
