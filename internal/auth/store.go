package auth

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/whitecoat/whitecoat/internal/store"
)

// errNotFound is the store's "no such row"; the service turns it into the
// answer that fits the call.
var errNotFound = errors.New("auth: not found")

// userColumns are the account's.
const userColumns = `id, name, email, password_hash, created_at, trial_expires_at, promo_code_used,
	email_verified, role, usage_count`

type row interface{ Scan(dest ...any) error }

func scanUser(r row) (User, error) { return scanUserAfter(r) }

// scanUserAfter scans leading columns into before, then the user's columns.
func scanUserAfter(r row, before ...any) (User, error) {
	var u User
	var role string
	dest := append(before, &u.ID, &u.Name, &u.Email, &u.passwordHash, &u.CreatedAt, &u.TrialExpiresAt, &u.PromoCodeUsed,
		&u.EmailVerified, &role, &u.UsageCount)
	err := r.Scan(dest...)
	if errors.Is(err, sql.ErrNoRows) {
		return User{}, errNotFound
	}
	if err != nil {
		return User{}, fmt.Errorf("auth: scan user: %w", err)
	}
	u.Role = Role(role)
	u.CreatedAt, u.TrialExpiresAt = u.CreatedAt.UTC(), u.TrialExpiresAt.UTC()
	return u, nil
}

func userByEmail(ctx context.Context, q store.Queryer, email string) (User, error) {
	return scanUser(q.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users WHERE email = $1`, email))
}

func userByID(ctx context.Context, q store.Queryer, id string) (User, error) {
	return scanUser(q.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users WHERE id = $1`, id))
}

func trialEndOf(ctx context.Context, q store.Queryer, id string) (time.Time, error) {
	var end time.Time
	err := q.QueryRowContext(ctx, `SELECT trial_expires_at FROM users WHERE id = $1`, id).Scan(&end)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, errNotFound
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("auth: read trial end: %w", err)
	}
	return end.UTC(), nil
}

func setPasswordHash(ctx context.Context, q store.Queryer, userID, hash string) error {
	if _, err := q.ExecContext(ctx, `UPDATE users SET password_hash = $1 WHERE id = $2`, hash, userID); err != nil {
		return fmt.Errorf("auth: update password: %w", err)
	}
	return nil
}

func markEmailVerified(ctx context.Context, q store.Queryer, userID string) error {
	if _, err := q.ExecContext(ctx, `UPDATE users SET email_verified = $1 WHERE id = $2`, true, userID); err != nil {
		return fmt.Errorf("auth: mark verified: %w", err)
	}
	return nil
}

func setRole(ctx context.Context, q store.Queryer, email string, role Role) (bool, error) {
	res, err := q.ExecContext(ctx, `UPDATE users SET role = $1 WHERE email = $2`, string(role), email)
	if err != nil {
		return false, fmt.Errorf("auth: set role: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// countAnswer adds one answer to the user's usage count.
func countAnswer(ctx context.Context, q store.Queryer, userID string) error {
	if _, err := q.ExecContext(ctx, `UPDATE users SET usage_count = usage_count + 1 WHERE id = $1`, userID); err != nil {
		return fmt.Errorf("auth: count answer: %w", err)
	}
	return nil
}

func insertSession(ctx context.Context, q store.Queryer, s Session, userAgent, ip string) error {
	_, err := q.ExecContext(ctx, `INSERT INTO auth_sessions (token_hash, user_id, created_at, last_seen_at, expires_at, user_agent, ip, second_factor_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, s.TokenHash, s.UserID, s.CreatedAt, s.LastSeenAt, s.ExpiresAt, userAgent, ip, s.SecondFactorAt)
	if err != nil {
		return fmt.Errorf("auth: insert session: %w", err)
	}
	return nil
}

// sessionWithUser loads a session and its user in one query, since every
// authenticated request needs both.
func sessionWithUser(ctx context.Context, q store.Queryer, tokenHash string) (Session, User, error) {
	var s Session
	r := q.QueryRowContext(ctx, `SELECT s.token_hash, s.user_id, s.created_at, s.last_seen_at, s.expires_at, s.second_factor_at, `+prefixed("u.", userColumns)+`
		FROM auth_sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = $1`, tokenHash)
	u, err := scanUserAfter(r, &s.TokenHash, &s.UserID, &s.CreatedAt, &s.LastSeenAt, &s.ExpiresAt, &s.SecondFactorAt)
	if err != nil {
		return Session{}, User{}, err
	}
	return s, u, nil
}

func touchSession(ctx context.Context, q store.Queryer, tokenHash string, at time.Time) error {
	if _, err := q.ExecContext(ctx, `UPDATE auth_sessions SET last_seen_at = $1 WHERE token_hash = $2`, at, tokenHash); err != nil {
		return fmt.Errorf("auth: touch session: %w", err)
	}
	return nil
}

func deleteSession(ctx context.Context, q store.Queryer, tokenHash string) error {
	if _, err := q.ExecContext(ctx, `DELETE FROM auth_sessions WHERE token_hash = $1`, tokenHash); err != nil {
		return fmt.Errorf("auth: delete session: %w", err)
	}
	return nil
}

func deleteUserSessions(ctx context.Context, q store.Queryer, userID string) error {
	if _, err := q.ExecContext(ctx, `DELETE FROM auth_sessions WHERE user_id = $1`, userID); err != nil {
		return fmt.Errorf("auth: delete sessions: %w", err)
	}
	return nil
}

func insertToken(ctx context.Context, q store.Queryer, hash, userID, purpose string, created, expires time.Time) error {
	_, err := q.ExecContext(ctx, `INSERT INTO one_time_tokens (token_hash, user_id, purpose, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)`,
		hash, userID, purpose, created, expires)
	if err != nil {
		return fmt.Errorf("auth: insert token: %w", err)
	}
	return nil
}

// consumeToken marks an unused, unexpired token used and returns its user.
// The single conditional UPDATE is what makes a token single-use even when
// two requests race: only one of them can flip used_at.
func consumeToken(ctx context.Context, q store.Queryer, hash, purpose string, now time.Time) (string, error) {
	var userID string
	err := q.QueryRowContext(ctx, `UPDATE one_time_tokens SET used_at = $1
		WHERE token_hash = $2 AND purpose = $3 AND used_at IS NULL AND expires_at > $1
		RETURNING user_id`, now, hash, purpose).Scan(&userID)
	if errors.Is(err, sql.ErrNoRows) {
		return "", errNotFound
	}
	if err != nil {
		return "", fmt.Errorf("auth: consume token: %w", err)
	}
	return userID, nil
}

// tokenUsable reports whether a token would be accepted now, without
// using it, so that a password reset can refuse a made-up token before
// paying for the new password's hash.
func tokenUsable(ctx context.Context, q store.Queryer, hash, purpose string, now time.Time) (bool, error) {
	var n int
	err := q.QueryRowContext(ctx, `SELECT count(*) FROM one_time_tokens
		WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3`, hash, purpose, now).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("auth: check token: %w", err)
	}
	return n == 1, nil
}

// revokeTokens makes a user's outstanding tokens of one purpose unusable,
// so only the newest link works.
func revokeTokens(ctx context.Context, q store.Queryer, userID, purpose string, now time.Time) error {
	_, err := q.ExecContext(ctx, `UPDATE one_time_tokens SET used_at = $1 WHERE user_id = $2 AND purpose = $3 AND used_at IS NULL`, now, userID, purpose)
	if err != nil {
		return fmt.Errorf("auth: revoke tokens: %w", err)
	}
	return nil
}

// pruneExpired deletes expired sessions and tokens.
func pruneExpired(ctx context.Context, q store.Queryer, now, idleCutoff time.Time) (int64, error) {
	var total int64
	for _, stmt := range []struct {
		sql  string
		args []any
	}{
		{`DELETE FROM auth_sessions WHERE expires_at <= $1 OR last_seen_at <= $2`, []any{now, idleCutoff}},
		{`DELETE FROM one_time_tokens WHERE expires_at <= $1`, []any{now}},
		{`DELETE FROM trusted_devices WHERE expires_at <= $1`, []any{now}},
	} {
		res, err := q.ExecContext(ctx, stmt.sql, stmt.args...)
		if err != nil {
			return total, fmt.Errorf("auth: prune: %w", err)
		}
		n, _ := res.RowsAffected()
		total += n
	}
	return total, nil
}

// insertUserIfNew adds u unless its email is taken, and reports whether it
// did: a sign-up with a registered address is not an error the caller may
// reveal.
func insertUserIfNew(ctx context.Context, q store.Queryer, u User) (bool, error) {
	res, err := q.ExecContext(ctx, `INSERT INTO users (id, name, email, password_hash, created_at, trial_expires_at, email_verified, role)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (email) DO NOTHING`,
		u.ID, u.Name, u.Email, u.passwordHash, u.CreatedAt, u.TrialExpiresAt, u.EmailVerified, string(u.Role))
	if err != nil {
		return false, fmt.Errorf("auth: insert user: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// secondFactor is an account's TOTP enrolment.
type secondFactor struct {
	secret    string
	confirmed bool
}

func secondFactorOf(ctx context.Context, q store.Queryer, userID string) (secondFactor, error) {
	var f secondFactor
	err := q.QueryRowContext(ctx, `SELECT totp_secret, confirmed_at IS NOT NULL FROM second_factors WHERE user_id = $1`, userID).
		Scan(&f.secret, &f.confirmed)
	if errors.Is(err, sql.ErrNoRows) {
		return secondFactor{}, errNotFound
	}
	if err != nil {
		return secondFactor{}, fmt.Errorf("auth: read second factor: %w", err)
	}
	return f, nil
}

// startSecondFactor stores a new, unconfirmed secret for userID, replacing
// an earlier unconfirmed one; it reports false when the account already has
// a confirmed second factor, which only an operator may replace.
func startSecondFactor(ctx context.Context, q store.Queryer, userID, secret string, now time.Time) (bool, error) {
	res, err := q.ExecContext(ctx, `INSERT INTO second_factors (user_id, totp_secret, created_at) VALUES ($1, $2, $3)
		ON CONFLICT (user_id) DO UPDATE SET totp_secret = excluded.totp_secret, created_at = excluded.created_at
		WHERE second_factors.confirmed_at IS NULL`, userID, secret, now)
	if err != nil {
		return false, fmt.Errorf("auth: start second factor: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// confirmSecondFactor turns a pending enrolment on, recording step as used.
func confirmSecondFactor(ctx context.Context, q store.Queryer, userID string, step int64, now time.Time) (bool, error) {
	res, err := q.ExecContext(ctx, `UPDATE second_factors SET confirmed_at = $1, last_step = $2 WHERE user_id = $3 AND confirmed_at IS NULL`,
		now, step, userID)
	if err != nil {
		return false, fmt.Errorf("auth: confirm second factor: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// useTOTPStep records that a code for step was accepted. It reports false
// when a code for that step or a later one was already used: one
// conditional UPDATE, so two requests racing with the same code cannot
// both win.
func useTOTPStep(ctx context.Context, q store.Queryer, userID string, step int64) (bool, error) {
	res, err := q.ExecContext(ctx, `UPDATE second_factors SET last_step = $1
		WHERE user_id = $2 AND confirmed_at IS NOT NULL AND last_step < $1`, step, userID)
	if err != nil {
		return false, fmt.Errorf("auth: use totp step: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// deleteSecondFactor removes an account's second factor and recovery codes,
// so that it enrols again at its next login.
func deleteSecondFactor(ctx context.Context, q store.Queryer, userID string) error {
	for _, stmt := range []string{`DELETE FROM recovery_codes WHERE user_id = $1`, `DELETE FROM second_factors WHERE user_id = $1`} {
		if _, err := q.ExecContext(ctx, stmt, userID); err != nil {
			return fmt.Errorf("auth: delete second factor: %w", err)
		}
	}
	return nil
}

// replaceRecoveryCodes stores hashes as the account's only recovery codes.
func replaceRecoveryCodes(ctx context.Context, q store.Queryer, userID string, hashes []string) error {
	if _, err := q.ExecContext(ctx, `DELETE FROM recovery_codes WHERE user_id = $1`, userID); err != nil {
		return fmt.Errorf("auth: replace recovery codes: %w", err)
	}
	for _, h := range hashes {
		if _, err := q.ExecContext(ctx, `INSERT INTO recovery_codes (code_hash, user_id) VALUES ($1, $2)`, h, userID); err != nil {
			return fmt.Errorf("auth: insert recovery code: %w", err)
		}
	}
	return nil
}

// useRecoveryCode marks one of userID's unused codes used; false when hash
// is not one of them.
func useRecoveryCode(ctx context.Context, q store.Queryer, userID, hash string, now time.Time) (bool, error) {
	res, err := q.ExecContext(ctx, `UPDATE recovery_codes SET used_at = $1 WHERE code_hash = $2 AND user_id = $3 AND used_at IS NULL`,
		now, hash, userID)
	if err != nil {
		return false, fmt.Errorf("auth: use recovery code: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

func insertTrustedDevice(ctx context.Context, q store.Queryer, hash, userID string, created, expires time.Time) error {
	_, err := q.ExecContext(ctx, `INSERT INTO trusted_devices (token_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
		hash, userID, created, expires)
	if err != nil {
		return fmt.Errorf("auth: insert trusted device: %w", err)
	}
	return nil
}

// trustedDeviceEmail returns the email of the account a device token was
// issued to, or errNotFound when the token is unknown or expired.
func trustedDeviceEmail(ctx context.Context, q store.Queryer, hash string, now time.Time) (string, error) {
	var email string
	err := q.QueryRowContext(ctx, `SELECT u.email FROM trusted_devices d JOIN users u ON u.id = d.user_id
		WHERE d.token_hash = $1 AND d.expires_at > $2`, hash, now).Scan(&email)
	if errors.Is(err, sql.ErrNoRows) {
		return "", errNotFound
	}
	if err != nil {
		return "", fmt.Errorf("auth: read trusted device: %w", err)
	}
	return email, nil
}

func prefixed(prefix, columns string) string {
	parts := strings.Split(columns, ",")
	for i, p := range parts {
		parts[i] = prefix + strings.TrimSpace(p)
	}
	return strings.Join(parts, ", ")
}

// deleteUser removes the account and, first, each table's rows about it.
func deleteUser(ctx context.Context, q store.Queryer, userID string) error {
	if err := deleteUserSessions(ctx, q, userID); err != nil {
		return err
	}
	if err := deleteSecondFactor(ctx, q, userID); err != nil {
		return err
	}
	// The user row goes last: the rows above refer to it.
	for _, stmt := range []string{
		`DELETE FROM one_time_tokens WHERE user_id = $1`,
		`DELETE FROM trusted_devices WHERE user_id = $1`,
		`DELETE FROM users WHERE id = $1`,
	} {
		if _, err := q.ExecContext(ctx, stmt, userID); err != nil {
			return fmt.Errorf("auth: delete user: %w", err)
		}
	}
	return nil
}

// installationSecret returns the value stored under name, storing the one
// make returns when there is none yet (the first caller's wins a race).
func installationSecret(ctx context.Context, q store.Queryer, name string, make func() string) (string, error) {
	var value string
	err := q.QueryRowContext(ctx, `SELECT value FROM auth_secrets WHERE name = $1`, name).Scan(&value)
	if err == nil {
		return value, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("auth: read %s: %w", name, err)
	}
	if _, err := q.ExecContext(ctx, `INSERT INTO auth_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, name, make()); err != nil {
		return "", fmt.Errorf("auth: store %s: %w", name, err)
	}
	if err := q.QueryRowContext(ctx, `SELECT value FROM auth_secrets WHERE name = $1`, name).Scan(&value); err != nil {
		return "", fmt.Errorf("auth: read %s: %w", name, err)
	}
	return value, nil
}

// upsertSpentTrial keeps t under hash; an address deleted before keeps the
// earlier trial end and the most sessions used.
func upsertSpentTrial(ctx context.Context, q store.Queryer, hash string, t spentTrial) error {
	_, err := q.ExecContext(ctx, `INSERT INTO spent_trials (email_hash, trial_expires_at, sessions_used, deleted_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (email_hash) DO UPDATE SET
			trial_expires_at = CASE WHEN excluded.trial_expires_at < spent_trials.trial_expires_at THEN excluded.trial_expires_at ELSE spent_trials.trial_expires_at END,
			sessions_used = CASE WHEN excluded.sessions_used > spent_trials.sessions_used THEN excluded.sessions_used ELSE spent_trials.sessions_used END,
			deleted_at = excluded.deleted_at`, hash, t.trialExpiresAt, t.sessionsUsed, t.deletedAt)
	if err != nil {
		return fmt.Errorf("auth: record spent trial: %w", err)
	}
	return nil
}

func spentTrialOf(ctx context.Context, q store.Queryer, hash string) (spentTrial, error) {
	var t spentTrial
	err := q.QueryRowContext(ctx, `SELECT trial_expires_at, sessions_used, deleted_at FROM spent_trials WHERE email_hash = $1`, hash).
		Scan(&t.trialExpiresAt, &t.sessionsUsed, &t.deletedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return spentTrial{}, errNotFound
	}
	if err != nil {
		return spentTrial{}, fmt.Errorf("auth: read spent trial: %w", err)
	}
	return t, nil
}

// trustedDeviceHashes returns the hashes of userID's device cookies.
func trustedDeviceHashes(ctx context.Context, q store.Queryer, userID string) ([]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT token_hash FROM trusted_devices WHERE user_id = $1`, userID)
	if err != nil {
		return nil, fmt.Errorf("auth: read trusted devices: %w", err)
	}
	defer rows.Close()
	var hashes []string
	for rows.Next() {
		var h string
		if err := rows.Scan(&h); err != nil {
			return nil, fmt.Errorf("auth: read trusted devices: %w", err)
		}
		hashes = append(hashes, h)
	}
	return hashes, rows.Err()
}

// markDeviceSecondFactor records that the browser with device cookie hash
// passed userID's second factor at now.
func markDeviceSecondFactor(ctx context.Context, q store.Queryer, hash, userID string, now time.Time) error {
	if _, err := q.ExecContext(ctx, `UPDATE trusted_devices SET second_factor_at = $1 WHERE token_hash = $2 AND user_id = $3`, now, hash, userID); err != nil {
		return fmt.Errorf("auth: mark device: %w", err)
	}
	return nil
}

// devicePassedSecondFactor reports whether the device cookie hash is
// userID's, unexpired, and has passed userID's second factor.
func devicePassedSecondFactor(ctx context.Context, q store.Queryer, hash, userID string, now time.Time) (bool, error) {
	var n int
	err := q.QueryRowContext(ctx, `SELECT count(*) FROM trusted_devices
		WHERE token_hash = $1 AND user_id = $2 AND expires_at > $3 AND second_factor_at IS NOT NULL`, hash, userID, now).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("auth: read device: %w", err)
	}
	return n == 1, nil
}
