package share

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/whitecoat/whitecoat/internal/store"
)

// Every SQL statement of the share domain. Functions take a store.Queryer
// so they run inside the caller's transaction or on their own.

var errNotFound = errors.New("share: not found")

// scanAll reads every row of a query with scan (store.ScanAll), naming
// the query in its error.
func scanAll[T any](ctx context.Context, q store.Queryer, what string, scan func(*sql.Rows) (T, error), query string, args ...any) ([]T, error) {
	return store.ScanAll(ctx, q, "share: "+what, scan, query, args...)
}

// storedLink is a link row: the student's view plus who owns it.
type storedLink struct {
	Link
	UserID string
}

const linkColumns = `l.id, l.user_id, l.saved_session_id, l.reviewer_name, l.expiry, l.created_at, l.expires_at, l.revoked_at,
	(SELECT COUNT(*) FROM share_comments c WHERE c.share_id = l.id)`

func scanLink(r interface{ Scan(...any) error }, now time.Time) (storedLink, error) {
	var l storedLink
	var expires, revoked sql.NullTime
	err := r.Scan(&l.ID, &l.UserID, &l.SavedSessionID, &l.ReviewerName, &l.Expiry, &l.CreatedAt, &expires, &revoked, &l.Comments)
	if errors.Is(err, sql.ErrNoRows) {
		return storedLink{}, errNotFound
	}
	if err != nil {
		return storedLink{}, fmt.Errorf("share: scan link: %w", err)
	}
	l.CreatedAt = l.CreatedAt.UTC()
	if expires.Valid {
		t := expires.Time.UTC()
		l.ExpiresAt = &t
	}
	if revoked.Valid {
		t := revoked.Time.UTC()
		l.RevokedAt = &t
	}
	l.State = stateAt(l.Link, now)
	return l, nil
}

// stateAt is whether l opens at now: revocation outranks expiry, so a
// link turned off and then past its date still says it was turned off.
func stateAt(l Link, now time.Time) State {
	switch {
	case l.RevokedAt != nil:
		return StateRevoked
	case l.ExpiresAt != nil && !now.Before(*l.ExpiresAt):
		return StateExpired
	}
	return StateActive
}

func insertLink(ctx context.Context, q store.Queryer, l storedLink, tokenHash string) error {
	_, err := q.ExecContext(ctx, `INSERT INTO session_shares (id, user_id, saved_session_id, token_hash, reviewer_name, expiry, created_at, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, l.ID, l.UserID, l.SavedSessionID, tokenHash, l.ReviewerName, l.Expiry, l.CreatedAt, l.ExpiresAt)
	if err != nil {
		return fmt.Errorf("share: insert link: %w", err)
	}
	return nil
}

// countLinksOf counts the user's links to one of their saved sessions.
func countLinksOf(ctx context.Context, q store.Queryer, userID, savedID string) (int, error) {
	var n int
	if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM session_shares WHERE saved_session_id = $1 AND user_id = $2`, savedID, userID).Scan(&n); err != nil {
		return 0, fmt.Errorf("share: count links: %w", err)
	}
	return n, nil
}

func linkByTokenHash(ctx context.Context, q store.Queryer, hash string, now time.Time) (storedLink, error) {
	return scanLink(q.QueryRowContext(ctx, `SELECT `+linkColumns+` FROM session_shares l WHERE l.token_hash = $1`, hash), now)
}

func linkOf(ctx context.Context, q store.Queryer, userID, id string, now time.Time) (storedLink, error) {
	return scanLink(q.QueryRowContext(ctx, `SELECT `+linkColumns+` FROM session_shares l WHERE l.id = $1 AND l.user_id = $2`, id, userID), now)
}

// linksOf lists the user's links, newest first; savedID narrows them to
// one saved session when it is not empty.
func linksOf(ctx context.Context, q store.Queryer, userID, savedID string, now time.Time) ([]Link, error) {
	query, args := `SELECT `+linkColumns+` FROM session_shares l WHERE l.user_id = $1`, []any{userID}
	if savedID != "" {
		query, args = query+` AND l.saved_session_id = $2`, append(args, savedID)
	}
	return scanAll(ctx, q, "list links", func(rows *sql.Rows) (Link, error) {
		l, err := scanLink(rows, now)
		return l.Link, err
	}, query+` ORDER BY l.created_at DESC, l.id DESC`, args...)
}

// revokeLink turns one of the user's links off at now, or leaves it as
// it was turned off before; errNotFound when the user has no link id.
func revokeLink(ctx context.Context, q store.Queryer, userID, id string, now time.Time) error {
	res, err := q.ExecContext(ctx, `UPDATE session_shares SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2 AND user_id = $3`, now, id, userID)
	if err != nil {
		return fmt.Errorf("share: revoke link: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("share: revoke link: %w", err)
	}
	if n == 0 {
		return errNotFound
	}
	return nil
}

// commentColumns read a comment with the student who owns its link.
const commentColumns = `c.id, c.share_id, c.item_index, c.author_name, c.body, c.created_at, c.reported_at, l.user_id`

func scanComment(r interface{ Scan(...any) error }) (ReportedComment, error) {
	var c ReportedComment
	var index sql.NullInt64
	var reported sql.NullTime
	err := r.Scan(&c.ID, &c.ShareID, &index, &c.AuthorName, &c.Body, &c.CreatedAt, &reported, &c.StudentID)
	if errors.Is(err, sql.ErrNoRows) {
		return ReportedComment{}, errNotFound
	}
	if err != nil {
		return ReportedComment{}, fmt.Errorf("share: scan comment: %w", err)
	}
	c.CreatedAt = c.CreatedAt.UTC()
	if index.Valid {
		i := int(index.Int64)
		c.ItemIndex = &i
	}
	if reported.Valid {
		t := reported.Time.UTC()
		c.ReportedAt = &t
	}
	return c, nil
}

func queryComments(ctx context.Context, q store.Queryer, where string, args ...any) ([]ReportedComment, error) {
	return scanAll(ctx, q, "list comments", func(rows *sql.Rows) (ReportedComment, error) { return scanComment(rows) },
		`SELECT `+commentColumns+` FROM share_comments c JOIN session_shares l ON l.id = c.share_id WHERE `+where+` ORDER BY c.created_at, c.id`, args...)
}

func commentsOfLink(ctx context.Context, q store.Queryer, shareID string) ([]ReportedComment, error) {
	return queryComments(ctx, q, `c.share_id = $1`, shareID)
}

// commentsOf lists the comments on the user's links, oldest first;
// savedID narrows them to one saved session when it is not empty.
func commentsOf(ctx context.Context, q store.Queryer, userID, savedID string) ([]ReportedComment, error) {
	if savedID == "" {
		return queryComments(ctx, q, `l.user_id = $1`, userID)
	}
	return queryComments(ctx, q, `l.user_id = $1 AND l.saved_session_id = $2`, userID, savedID)
}

func reportedComments(ctx context.Context, q store.Queryer) ([]ReportedComment, error) {
	return queryComments(ctx, q, `c.reported_at IS NOT NULL`)
}

func oneComment(ctx context.Context, q store.Queryer, where string, args ...any) (ReportedComment, error) {
	return scanComment(q.QueryRowContext(ctx, `SELECT `+commentColumns+` FROM share_comments c JOIN session_shares l ON l.id = c.share_id
		WHERE `+where, args...))
}

// commentByID reads a comment for the comment email's job, which acts for
// whoever owns its link.
func commentByID(ctx context.Context, q store.Queryer, id string) (ReportedComment, error) {
	return oneComment(ctx, q, `c.id = $1`, id)
}

// commentOf reads a comment on one of the user's links.
func commentOf(ctx context.Context, q store.Queryer, userID, id string) (ReportedComment, error) {
	return oneComment(ctx, q, `c.id = $1 AND l.user_id = $2`, id, userID)
}

func insertComment(ctx context.Context, q store.Queryer, c Comment) error {
	_, err := q.ExecContext(ctx, `INSERT INTO share_comments (id, share_id, item_index, author_name, body, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
		c.ID, c.ShareID, c.ItemIndex, c.AuthorName, c.Body, c.CreatedAt)
	if err != nil {
		return fmt.Errorf("share: insert comment: %w", err)
	}
	return nil
}

func reportComment(ctx context.Context, q store.Queryer, userID, id string, now time.Time) (bool, error) {
	res, err := q.ExecContext(ctx, `UPDATE share_comments SET reported_at = COALESCE(reported_at, $1)
		WHERE id = $2 AND share_id IN (SELECT id FROM session_shares WHERE user_id = $3)`, now, id, userID)
	if err != nil {
		return false, fmt.Errorf("share: report comment: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("share: report comment: %w", err)
	}
	return n > 0, nil
}

// sharedSessionCounts is, for each of userIDs with a link that still
// opens at now, how many of their saved sessions such links show.
func sharedSessionCounts(ctx context.Context, q store.Queryer, userIDs []string, now time.Time) (map[string]int, error) {
	out := map[string]int{}
	if len(userIDs) == 0 {
		return out, nil
	}
	in, args := store.InList([]any{now}, userIDs)
	type count struct {
		userID string
		n      int
	}
	counts, err := scanAll(ctx, q, "count shared sessions", func(rows *sql.Rows) (count, error) {
		var c count
		return c, rows.Scan(&c.userID, &c.n)
	}, `SELECT user_id, COUNT(DISTINCT saved_session_id) FROM session_shares
		WHERE user_id IN (`+in+`) AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $1) GROUP BY user_id`, args...)
	for _, c := range counts {
		out[c.userID] = c.n
	}
	return out, err
}

// deleteUserRows removes every link of the user and the comments left
// through them.
func deleteUserRows(ctx context.Context, q store.Queryer, userID string) error {
	for _, stmt := range []string{
		`DELETE FROM share_comments WHERE share_id IN (SELECT id FROM session_shares WHERE user_id = $1)`,
		`DELETE FROM session_shares WHERE user_id = $1`,
	} {
		if _, err := q.ExecContext(ctx, stmt, userID); err != nil {
			return fmt.Errorf("share: delete user data: %w", err)
		}
	}
	return nil
}
