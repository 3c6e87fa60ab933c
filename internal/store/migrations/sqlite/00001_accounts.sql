-- +goose Up
CREATE TABLE users (
    id                    TEXT PRIMARY KEY,
    name                  TEXT NOT NULL,
    email                 TEXT NOT NULL UNIQUE,
    password_hash         TEXT NOT NULL,
    created_at            DATETIME NOT NULL,
    trial_expires_at      DATETIME NOT NULL,
    has_paid              BOOLEAN NOT NULL DEFAULT 0,
    promo_code_used       TEXT,
    email_verified        BOOLEAN NOT NULL DEFAULT 0,
    role                  TEXT NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'admin')),
    paid_at               DATETIME,
    subscription_ends_at  DATETIME,
    usage_count           INTEGER NOT NULL DEFAULT 0,
    sessions_completed    INTEGER NOT NULL DEFAULT 0,
    questions_practiced   INTEGER NOT NULL DEFAULT 0,
    rolling_average_score REAL NOT NULL DEFAULT 0,
    last_average_score    REAL NOT NULL DEFAULT 0
);

CREATE TABLE auth_sessions (
    token_hash   TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at   DATETIME NOT NULL,
    last_seen_at DATETIME NOT NULL,
    expires_at   DATETIME NOT NULL,
    user_agent   TEXT NOT NULL DEFAULT '',
    ip           TEXT NOT NULL DEFAULT ''
);
CREATE INDEX auth_sessions_user ON auth_sessions (user_id);
CREATE INDEX auth_sessions_expires ON auth_sessions (expires_at);

CREATE TABLE one_time_tokens (
    token_hash TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    purpose    TEXT NOT NULL CHECK (purpose IN ('verify_email', 'reset_password')),
    created_at DATETIME NOT NULL,
    expires_at DATETIME NOT NULL,
    used_at    DATETIME
);
CREATE INDEX one_time_tokens_user ON one_time_tokens (user_id, purpose);
CREATE INDEX one_time_tokens_expires ON one_time_tokens (expires_at);

CREATE TABLE rate_limits (
    key          TEXT PRIMARY KEY,
    window_start DATETIME NOT NULL,
    hits         INTEGER NOT NULL
);
CREATE INDEX rate_limits_window ON rate_limits (window_start);

-- +goose Down
DROP TABLE rate_limits;
DROP TABLE one_time_tokens;
DROP TABLE auth_sessions;
DROP TABLE users;
