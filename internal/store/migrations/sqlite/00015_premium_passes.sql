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
    paid_at DATETIME,
    ends_at DATETIME,
    on_hold BOOLEAN NOT NULL DEFAULT 0
);
INSERT INTO premium_passes (user_id, paid_at, ends_at, on_hold)
SELECT id, paid_at, subscription_ends_at, pass_on_hold FROM users WHERE has_paid;
ALTER TABLE users DROP COLUMN has_paid;
ALTER TABLE users DROP COLUMN paid_at;
ALTER TABLE users DROP COLUMN subscription_ends_at;
ALTER TABLE users DROP COLUMN pass_on_hold;

-- +goose Down
ALTER TABLE users ADD COLUMN has_paid BOOLEAN NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN paid_at DATETIME;
ALTER TABLE users ADD COLUMN subscription_ends_at DATETIME;
ALTER TABLE users ADD COLUMN pass_on_hold BOOLEAN NOT NULL DEFAULT 0;
UPDATE users SET has_paid = 1,
    paid_at = (SELECT paid_at FROM premium_passes p WHERE p.user_id = users.id),
    subscription_ends_at = (SELECT ends_at FROM premium_passes p WHERE p.user_id = users.id),
    pass_on_hold = (SELECT on_hold FROM premium_passes p WHERE p.user_id = users.id)
WHERE id IN (SELECT user_id FROM premium_passes);
DROP TABLE premium_passes;
