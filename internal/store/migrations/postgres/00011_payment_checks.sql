-- +goose Up
-- Issue 27. A payment is now one of:
--   paid          the pass it bought counts;
--   refunded      fully refunded: its days were taken off the pass;
--   disputed      a chargeback is open: its days are withheld until it closes;
--   dispute_lost  the chargeback went against us: its days are gone;
--   unrecognised  a paid Checkout Session that is not the pass this server
--                 sells (another price, currency, mode or product): recorded
--                 for admins, it granted nothing; note says why.
ALTER TABLE payments DROP CONSTRAINT payments_status_check;
ALTER TABLE payments ADD CONSTRAINT payments_status_check
    CHECK (status IN ('paid', 'refunded', 'disputed', 'dispute_lost', 'unrecognised'));
ALTER TABLE payments ADD COLUMN note TEXT NOT NULL DEFAULT '';

-- While one of its payments is disputed the account's pass is on hold:
-- it shows as such and cannot be practised on (billing sets it, auth
-- stores it with the account).
ALTER TABLE users ADD COLUMN pass_on_hold BOOLEAN NOT NULL DEFAULT FALSE;

-- +goose Down
ALTER TABLE users DROP COLUMN pass_on_hold;
DELETE FROM payments WHERE status = 'unrecognised';
UPDATE payments SET status = 'paid' WHERE status = 'disputed';
UPDATE payments SET status = 'refunded' WHERE status = 'dispute_lost';
ALTER TABLE payments DROP COLUMN note;
ALTER TABLE payments DROP CONSTRAINT payments_status_check;
ALTER TABLE payments ADD CONSTRAINT payments_status_check CHECK (status IN ('paid', 'refunded'));
