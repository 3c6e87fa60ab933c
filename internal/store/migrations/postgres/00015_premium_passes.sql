-- +goose Up
-- Issue 28. The Premium pass is billing's: it moves out of the users table,
-- which auth owns, into a table billing alone writes. An account has a row
-- once it has been given a pass (has_paid before). The rows are deleted
-- with the account, by billing, before auth deletes the account: no
-- cascade, so a deletion that forgot them fails instead of leaving a pass.
--   paid_at  when the latest pass was bought;
--   ends_at  when the pass the account holds ends (NULL: paid_at + 365 days);
--   on_hold  a payment for the pass is disputed.
CREATE TABLE premium_passes (
    user_id TEXT PRIMARY KEY REFERENCES users (id),
    paid_at TIMESTAMPTZ,
    ends_at TIMESTAMPTZ,
    on_hold BOOLEAN NOT NULL DEFAULT FALSE
);
INSERT INTO premium_passes (user_id, paid_at, ends_at, on_hold)
SELECT id, paid_at, subscription_ends_at, pass_on_hold FROM users WHERE has_paid;
ALTER TABLE users DROP COLUMN has_paid, DROP COLUMN paid_at, DROP COLUMN subscription_ends_at, DROP COLUMN pass_on_hold;

-- +goose Down
ALTER TABLE users ADD COLUMN has_paid BOOLEAN NOT NULL DEFAULT FALSE, ADD COLUMN paid_at TIMESTAMPTZ,
    ADD COLUMN subscription_ends_at TIMESTAMPTZ, ADD COLUMN pass_on_hold BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE users SET has_paid = TRUE, paid_at = p.paid_at, subscription_ends_at = p.ends_at, pass_on_hold = p.on_hold
FROM premium_passes p WHERE p.user_id = users.id;
DROP TABLE premium_passes;
