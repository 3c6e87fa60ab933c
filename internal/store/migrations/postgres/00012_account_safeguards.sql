-- +goose Up
-- Issue 27. A trusted browser that has passed its admin's second factor
-- gets an allowance of wrong codes of its own, which a guesser holding only
-- the password cannot spend (see auth.Service.PassSecondFactor).
ALTER TABLE trusted_devices ADD COLUMN second_factor_at TIMESTAMPTZ;

-- Values made once per installation, such as the salt of spent_trials.
CREATE TABLE auth_secrets (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- The trial a deleted account had used, under a salted hash of its address
-- (never the address): an account made again with the address continues
-- that trial instead of starting a new one.
CREATE TABLE spent_trials (
    email_hash       TEXT PRIMARY KEY,
    trial_expires_at TIMESTAMPTZ NOT NULL,
    sessions_used    INTEGER NOT NULL,
    deleted_at       TIMESTAMPTZ NOT NULL
);

-- +goose Down
DROP TABLE spent_trials;
DROP TABLE auth_secrets;
ALTER TABLE trusted_devices DROP COLUMN second_factor_at;
