-- +goose Up
-- A practice session as the server created it: its configuration and the
-- questions it chose. Recordings are never stored; items keep the path of a
-- temporary audio file only until it is transcribed.
CREATE TABLE practice_sessions (
    id                 TEXT PRIMARY KEY,
    user_id            TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    profession         TEXT NOT NULL,
    mode               TEXT NOT NULL CHECK (mode IN ('video', 'audio')),
    interview_type     TEXT NOT NULL CHECK (interview_type IN ('random', 'custom')),
    big3               BOOLEAN NOT NULL,
    question_count     INTEGER NOT NULL,
    status             TEXT NOT NULL CHECK (status IN ('active', 'completed')),
    created_at         DATETIME NOT NULL,
    completed_at       DATETIME,
    total_session_time INTEGER NOT NULL DEFAULT 0,
    average_score      REAL,
    previous_average   REAL,
    stats_applied_at   DATETIME
);
CREATE INDEX practice_sessions_user ON practice_sessions (user_id, created_at);

CREATE TABLE practice_items (
    id          TEXT PRIMARY KEY,
    session_id  TEXT NOT NULL REFERENCES practice_sessions (id) ON DELETE CASCADE,
    position    INTEGER NOT NULL,
    question_id TEXT,
    question    TEXT NOT NULL,
    tip         TEXT NOT NULL DEFAULT '',
    subtag      TEXT NOT NULL DEFAULT '',
    big3_order  INTEGER NOT NULL DEFAULT 0,
    status      TEXT NOT NULL CHECK (status IN ('pending', 'queued', 'transcribing', 'scoring', 'done', 'failed', 'skipped')),
    audio_path  TEXT NOT NULL DEFAULT '',
    audio_mime  TEXT NOT NULL DEFAULT '',
    uploaded_at DATETIME,
    transcript  TEXT,
    metrics     TEXT,
    feedback    TEXT,
    score       INTEGER,
    meaningful  BOOLEAN,
    error       TEXT NOT NULL DEFAULT '',
    updated_at  DATETIME NOT NULL,
    UNIQUE (session_id, position)
);
CREATE INDEX practice_items_uploaded ON practice_items (uploaded_at);

-- The spec's processedSessionIds: a row here means the session's stats were
-- applied, and the primary key makes that happen at most once.
CREATE TABLE processed_sessions (
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    session_id   TEXT NOT NULL,
    processed_at DATETIME NOT NULL,
    PRIMARY KEY (user_id, session_id)
);

CREATE TABLE saved_sessions (
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
    items               TEXT NOT NULL
);
CREATE INDEX saved_sessions_user ON saved_sessions (user_id, created_at);

-- +goose Down
DROP TABLE saved_sessions;
DROP TABLE processed_sessions;
DROP TABLE practice_items;
DROP TABLE practice_sessions;
