-- +goose Up
-- A deleted account's payments stay for the accounts (the tax records a
-- sale requires: amount, currency, dates and Stripe's ids), no longer
-- tied to anyone: deleting a user sets user_id to NULL instead of
-- deleting the rows. SQLite cannot alter a column's constraint, so the
-- table is rebuilt; no other table refers to payments.
CREATE TABLE payments_new (
    id               TEXT PRIMARY KEY,
    user_id          TEXT REFERENCES users (id) ON DELETE SET NULL,
    event_id         TEXT NOT NULL UNIQUE,
    payment_intent   TEXT NOT NULL,
    amount_cents     INTEGER NOT NULL,
    currency         TEXT NOT NULL,
    status           TEXT NOT NULL CHECK (status IN ('paid', 'refunded')),
    created_at       DATETIME NOT NULL,
    pass_starts_at   DATETIME NOT NULL,
    pass_ends_at     DATETIME NOT NULL,
    refunded_at      DATETIME,
    disputed_at      DATETIME,
    reminder_sent_at DATETIME
);
INSERT INTO payments_new SELECT id, user_id, event_id, payment_intent, amount_cents, currency, status, created_at,
    pass_starts_at, pass_ends_at, refunded_at, disputed_at, reminder_sent_at FROM payments;
DROP TABLE payments;
ALTER TABLE payments_new RENAME TO payments;
CREATE INDEX payments_user ON payments (user_id, created_at);
CREATE INDEX payments_payment_intent ON payments (payment_intent);
CREATE INDEX payments_pass_ends ON payments (pass_ends_at);

-- +goose Down
DELETE FROM payments WHERE user_id IS NULL;
CREATE TABLE payments_old (
    id               TEXT PRIMARY KEY,
    user_id          TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    event_id         TEXT NOT NULL UNIQUE,
    payment_intent   TEXT NOT NULL,
    amount_cents     INTEGER NOT NULL,
    currency         TEXT NOT NULL,
    status           TEXT NOT NULL CHECK (status IN ('paid', 'refunded')),
    created_at       DATETIME NOT NULL,
    pass_starts_at   DATETIME NOT NULL,
    pass_ends_at     DATETIME NOT NULL,
    refunded_at      DATETIME,
    disputed_at      DATETIME,
    reminder_sent_at DATETIME
);
INSERT INTO payments_old SELECT * FROM payments;
DROP TABLE payments;
ALTER TABLE payments_old RENAME TO payments;
CREATE INDEX payments_user ON payments (user_id, created_at);
CREATE INDEX payments_payment_intent ON payments (payment_intent);
CREATE INDEX payments_pass_ends ON payments (pass_ends_at);
