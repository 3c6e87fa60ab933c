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

const userColumns = `id, name, email, password_hash, created_at, trial_expires_at, has_paid, promo_code_used,
	email_verified, role, paid_at, subscription_ends_at, usage_count, sessions_completed, questions_practiced,
	rolling_average_score, last_average_score`

type row interface{ Scan(dest ...any) error }

func scanUser(r row) (User, error) { return scanUserAfter(r) }

// scanUserAfter scans leading columns into before, then the user's columns.
func scanUserAfter(r row, before ...any) (User, error) {
	var u User
	var role string
	dest := append(before, &u.ID, &u.Name, &u.Email, &u.passwordHash, &u.CreatedAt, &u.TrialExpiresAt, &u.HasPaid, &u.PromoCodeUsed,
		&u.EmailVerified, &role, &u.PaidAt, &u.SubscriptionEndsAt, &u.UsageCount, &u.SessionsCompleted, &u.QuestionsPracticed,
		&u.RollingAverageScore, &u.LastAverageScore)
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

func insertUser(ctx context.Context, q store.Queryer, u User) error {
	_, err := q.ExecContext(ctx, `INSERT INTO users (id, name, email, password_hash, created_at, trial_expires_at, email_verified, role)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
		u.ID, u.Name, u.Email, u.passwordHash, u.CreatedAt, u.TrialExpiresAt, u.EmailVerified, string(u.Role))
	if err != nil {
		return fmt.Errorf("auth: insert user: %w", err)
	}
	return nil
}

func userByEmail(ctx context.Context, q store.Queryer, email string) (User, error) {
	return scanUser(q.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users WHERE email = $1`, email))
}

func userByID(ctx context.Context, q store.Queryer, id string) (User, error) {
	return scanUser(q.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users WHERE id = $1`, id))
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

// sessionStats are the user's practice stats that the next session's
// averages are computed from.
type sessionStats struct {
	completed     int
	rolling, last float64
}

func userSessionStats(ctx context.Context, q store.Queryer, userID string) (sessionStats, error) {
	var st sessionStats
	err := q.QueryRowContext(ctx, `SELECT sessions_completed, rolling_average_score, last_average_score FROM users WHERE id = $1`, userID).
		Scan(&st.completed, &st.rolling, &st.last)
	if err != nil {
		return sessionStats{}, fmt.Errorf("auth: read stats: %w", err)
	}
	return st, nil
}

// addSession counts one more completed session with answered answers and
// stores the averages that include it.
func addSession(ctx context.Context, q store.Queryer, userID string, answered int, rolling, last float64) error {
	_, err := q.ExecContext(ctx, `UPDATE users SET sessions_completed = sessions_completed + 1,
		questions_practiced = questions_practiced + $1, rolling_average_score = $2, last_average_score = $3 WHERE id = $4`,
		answered, rolling, last, userID)
	if err != nil {
		return fmt.Errorf("auth: update stats: %w", err)
	}
	return nil
}

func setPass(ctx context.Context, q store.Queryer, userID string, paidAt, endsAt time.Time) error {
	_, err := q.ExecContext(ctx, `UPDATE users SET has_paid = $1, paid_at = $2, subscription_ends_at = $3 WHERE id = $4`, true, paidAt, endsAt, userID)
	if err != nil {
		return fmt.Errorf("auth: set pass: %w", err)
	}
	return nil
}

// lockUser takes the account row's write lock until the transaction ends
// (PostgreSQL; an SQLite transaction already holds the database's).
func lockUser(ctx context.Context, q store.Queryer, userID string) error {
	if _, err := q.ExecContext(ctx, `UPDATE users SET has_paid = has_paid WHERE id = $1`, userID); err != nil {
		return fmt.Errorf("auth: lock user: %w", err)
	}
	return nil
}

func endPass(ctx context.Context, q store.Queryer, userID string, at time.Time) error {
	if _, err := q.ExecContext(ctx, `UPDATE users SET subscription_ends_at = $1 WHERE id = $2 AND has_paid`, at, userID); err != nil {
		return fmt.Errorf("auth: end pass: %w", err)
	}
	return nil
}

func insertSession(ctx context.Context, q store.Queryer, s Session, userAgent, ip string) error {
	_, err := q.ExecContext(ctx, `INSERT INTO auth_sessions (token_hash, user_id, created_at, last_seen_at, expires_at, user_agent, ip)
		VALUES ($1, $2, $3, $4, $5, $6, $7)`, s.TokenHash, s.UserID, s.CreatedAt, s.LastSeenAt, s.ExpiresAt, userAgent, ip)
	if err != nil {
		return fmt.Errorf("auth: insert session: %w", err)
	}
	return nil
}

// sessionWithUser loads a session and its user in one query, since every
// authenticated request needs both.
func sessionWithUser(ctx context.Context, q store.Queryer, tokenHash string) (Session, User, error) {
	var s Session
	r := q.QueryRowContext(ctx, `SELECT s.token_hash, s.user_id, s.created_at, s.last_seen_at, s.expires_at, `+prefixed("u.", userColumns)+`
		FROM auth_sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = $1`, tokenHash)
	u, err := scanUserAfter(r, &s.TokenHash, &s.UserID, &s.CreatedAt, &s.LastSeenAt, &s.ExpiresAt)
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

func prefixed(prefix, columns string) string {
	parts := strings.Split(columns, ",")
	for i, p := range parts {
		parts[i] = prefix + strings.TrimSpace(p)
	}
	return strings.Join(parts, ", ")
}
