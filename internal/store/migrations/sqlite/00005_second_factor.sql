-- +goose Up
-- A sign-in session counts as an admin's only once its second factor has
-- been passed: second_factor_at is when that happened (NULL: not yet, or
-- not needed).
ALTER TABLE auth_sessions ADD COLUMN second_factor_at DATETIME;

-- One TOTP secret (RFC 6238) per account. An enrolment is pending until its
-- first code is confirmed; last_step is the newest time step a code was
-- accepted for, so a code cannot be used twice.
CREATE TABLE second_factors (
    user_id      TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    totp_secret  TEXT NOT NULL,
    created_at   DATETIME NOT NULL,
    confirmed_at DATETIME,
    last_step    INTEGER NOT NULL DEFAULT 0
);

-- Single-use recovery codes, stored only as hashes.
CREATE TABLE recovery_codes (
    code_hash TEXT PRIMARY KEY,
    user_id   TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    used_at   DATETIME
);
CREATE INDEX recovery_codes_user ON recovery_codes (user_id);

-- Browsers that have signed in to an account (OWASP's device cookies): their
-- login attempts are limited per browser rather than by the account-wide
-- limit an attacker can exhaust.
CREATE TABLE trusted_devices (
    token_hash TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at DATETIME NOT NULL,
    expires_at DATETIME NOT NULL
);
CREATE INDEX trusted_devices_user ON trusted_devices (user_id);
CREATE INDEX trusted_devices_expires ON trusted_devices (expires_at);

-- +goose Down
DROP TABLE trusted_devices;
DROP TABLE recovery_codes;
DROP TABLE second_factors;
ALTER TABLE auth_sessions DROP COLUMN second_factor_at;
