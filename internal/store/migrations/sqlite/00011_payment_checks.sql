-- +goose Up
-- Issue 27. A payment is now one of:
--   paid          the pass it bought counts;
--   refunded      fully refunded: its days were taken off the pass;
--   disputed      a chargeback is open: its days are withheld until it closes;
--   dispute_lost  the chargeback went against us: its days are gone;
--   unrecognised  a paid Checkout Session that is not the pass this server
--                 sells (another price, currency, mode or product): recorded
--                 for admins, it granted nothing; note says why.
-- SQLite cannot change a CHECK constraint in place: the table is rebuilt.
CREATE TABLE payments_new (
    id               TEXT PRIMARY KEY,
    user_id          TEXT REFERENCES users (id) ON DELETE SET NULL,
    event_id         TEXT NOT NULL UNIQUE,
    payment_intent   TEXT NOT NULL,
    amount_cents     INTEGER NOT NULL,
    currency         TEXT NOT NULL,
    status           TEXT NOT NULL CHECK (status IN ('paid', 'refunded', 'disputed', 'dispute_lost', 'unrecognised')),
    created_at       DATETIME NOT NULL,
    pass_starts_at   DATETIME NOT NULL,
    pass_ends_at     DATETIME NOT NULL,
    refunded_at      DATETIME,
    disputed_at      DATETIME,
    reminder_sent_at DATETIME,
    note             TEXT NOT NULL DEFAULT ''
);
INSERT INTO payments_new (id, user_id, event_id, payment_intent, amount_cents, currency, status, created_at,
    pass_starts_at, pass_ends_at, refunded_at, disputed_at, reminder_sent_at)
SELECT id, user_id, event_id, payment_intent, amount_cents, currency, status, created_at,
    pass_starts_at, pass_ends_at, refunded_at, disputed_at, reminder_sent_at FROM payments;
DROP TABLE payments;
ALTER TABLE payments_new RENAME TO payments;
CREATE INDEX payments_user ON payments (user_id, created_at);
CREATE INDEX payments_payment_intent ON payments (payment_intent);
CREATE INDEX payments_pass_ends ON payments (pass_ends_at);

-- While one of its payments is disputed the account's pass is on hold:
-- it shows as such and cannot be practised on (billing sets it, auth
-- stores it with the account).
ALTER TABLE users ADD COLUMN pass_on_hold BOOLEAN NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE users DROP COLUMN pass_on_hold;
CREATE TABLE payments_old (
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
INSERT INTO payments_old SELECT id, user_id, event_id, payment_intent, amount_cents, currency,
    CASE status WHEN 'disputed' THEN 'paid' WHEN 'paid' THEN 'paid' ELSE 'refunded' END, created_at,
    pass_starts_at, pass_ends_at, refunded_at, disputed_at, reminder_sent_at FROM payments WHERE status <> 'unrecognised';
DROP TABLE payments;
ALTER TABLE payments_old RENAME TO payments;
CREATE INDEX payments_user ON payments (user_id, created_at);
CREATE INDEX payments_payment_intent ON payments (payment_intent);
CREATE INDEX payments_pass_ends ON payments (pass_ends_at);
