-- +goose Up
-- A deleted account's payments stay for the accounts (the tax records a
-- sale requires: amount, currency, dates and Stripe's ids), no longer
-- tied to anyone: deleting a user sets user_id to NULL instead of
-- deleting the rows.
ALTER TABLE payments ALTER COLUMN user_id DROP NOT NULL;
ALTER TABLE payments DROP CONSTRAINT payments_user_id_fkey;
ALTER TABLE payments ADD CONSTRAINT payments_user_id_fkey FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE SET NULL;

-- +goose Down
DELETE FROM payments WHERE user_id IS NULL;
ALTER TABLE payments DROP CONSTRAINT payments_user_id_fkey;
ALTER TABLE payments ADD CONSTRAINT payments_user_id_fkey FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE;
ALTER TABLE payments ALTER COLUMN user_id SET NOT NULL;
