-- +goose Up
-- A student shares a saved session with a named reviewer (issue 31): the
-- link's token is kept only as its SHA-256 hash. The share package owns
-- these tables; it reads the saved session through practice, never here.
CREATE TABLE session_shares (
    id               TEXT PRIMARY KEY,
    user_id          TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    saved_session_id TEXT NOT NULL,
    token_hash       TEXT NOT NULL UNIQUE,
    reviewer_name    TEXT NOT NULL,
    expiry           TEXT NOT NULL,
    created_at       DATETIME NOT NULL,
    expires_at       DATETIME,
    revoked_at       DATETIME
);
CREATE INDEX session_shares_user ON session_shares (user_id, created_at, id);
CREATE INDEX session_shares_saved ON session_shares (saved_session_id);

-- A reviewer's comment on one answer (item_index, in the saved session's
-- order) or on the whole session (item_index NULL). reported_at is set when
-- the student reports it: only then may an admin read it.
CREATE TABLE share_comments (
    id            TEXT PRIMARY KEY,
    share_id      TEXT NOT NULL REFERENCES session_shares (id) ON DELETE CASCADE,
    item_index    INTEGER,
    author_name   TEXT NOT NULL,
    body          TEXT NOT NULL,
    created_at    DATETIME NOT NULL,
    reported_at   DATETIME
);
CREATE INDEX share_comments_share ON share_comments (share_id, created_at, id);
CREATE INDEX share_comments_reported ON share_comments (reported_at) WHERE reported_at IS NOT NULL;

-- +goose Down
DROP TABLE share_comments;
DROP TABLE session_shares;
