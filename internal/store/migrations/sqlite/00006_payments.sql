-- +goose Up
-- One row per paid Checkout Session: its id is the session's, so a
-- session grants a pass once however many events announce it. A deleted
-- account's payments stay for the accounts (the tax records a sale
-- requires: amount, currency, dates and Stripe's ids), no longer tied to
-- anyone: deleting the user sets user_id to NULL.
CREATE TABLE payments (
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
CREATE INDEX payments_user ON payments (user_id, created_at);
CREATE INDEX payments_payment_intent ON payments (payment_intent);
CREATE INDEX payments_pass_ends ON payments (pass_ends_at);

-- Every Stripe event acted on, so a redelivered event changes nothing.
CREATE TABLE stripe_events (
    id          TEXT PRIMARY KEY,
    type        TEXT NOT NULL,
    received_at DATETIME NOT NULL
);

-- +goose Down
DROP TABLE stripe_events;
DROP TABLE payments;
