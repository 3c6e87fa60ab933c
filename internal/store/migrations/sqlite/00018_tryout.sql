-- +goose Up
-- A visitor's try of one question on a landing page, with no account
-- (issue 31): kept only until its expires_at (24 hours), then swept. The
-- id is the SHA-256 of the token the visitor's browser holds; the
-- address is a hash too, kept to bound tries in progress per network.
CREATE TABLE tryout_answers (
    id           TEXT PRIMARY KEY,
    profession   TEXT NOT NULL,
    kind         TEXT NOT NULL,
    status       TEXT NOT NULL,
    address_hash TEXT NOT NULL,
    audio        BLOB,
    audio_mime   TEXT NOT NULL DEFAULT '',
    typed_text   TEXT NOT NULL DEFAULT '',
    transcript   TEXT,
    metrics      TEXT,
    meaningful   BOOLEAN,
    feedback     TEXT,
    created_at   DATETIME NOT NULL,
    expires_at   DATETIME NOT NULL
);
CREATE INDEX tryout_answers_in_progress ON tryout_answers (status, address_hash);
CREATE INDEX tryout_answers_expiry ON tryout_answers (expires_at);

-- +goose Down
DROP TABLE tryout_answers;
