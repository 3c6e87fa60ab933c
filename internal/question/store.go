package question

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/whitecoat/whitecoat/internal/store"
)

// errNotFound is the store's "no such question"; the service turns it into
// the answer that fits the call.
var errNotFound = errors.New("question: not found")

// questionColumns are those a save writes; the store counts the version
// itself, so a read (readColumns) has it last.
const (
	questionColumns = `id, seed_key, text, subtag, tip, big3, big3_order, created_at, updated_at, created_by, updated_by, scenario, follow_ups, points, traps`
	readColumns     = questionColumns + `, version`
)

// questionOrder puts the newest questions first; COALESCE keeps the order of
// seeded questions (which share a createdAt) the same in both dialects,
// which sort NULLs at opposite ends.
const questionOrder = ` ORDER BY created_at DESC, COALESCE(seed_key, ''), id`

// tagBatch bounds the placeholders in one tag query, far below either
// dialect's limit.
const tagBatch = 500

// filter selects questions; empty fields select everything.
type filter struct {
	profession string
	subtag     Subtag
	text       string
}

func (f filter) where() (string, []any) {
	var (
		conds []string
		args  []any
	)
	arg := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args))
	}
	if f.profession != "" {
		conds = append(conds, `EXISTS (SELECT 1 FROM question_tags t WHERE t.question_id = questions.id AND t.profession = `+arg(f.profession)+`)`)
	}
	if f.subtag != "" {
		conds = append(conds, `subtag = `+arg(string(f.subtag)))
	}
	if f.text != "" {
		conds = append(conds, `lower(text) LIKE `+arg(store.ContainsPattern(f.text))+` ESCAPE '\'`)
	}
	if len(conds) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

func countQuestions(ctx context.Context, q store.Queryer, f filter) (int, error) {
	where, args := f.where()
	var n int
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM questions`+where, args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("question: count: %w", err)
	}
	return n, nil
}

// listQuestions returns the questions f selects with their tags, newest
// first; a limit of 0 means all of them.
func listQuestions(ctx context.Context, q store.Queryer, f filter, limit, offset int) ([]Question, error) {
	where, args := f.where()
	query := `SELECT ` + readColumns + ` FROM questions` + where + questionOrder
	if limit > 0 {
		query += fmt.Sprintf(" LIMIT %d OFFSET %d", limit, offset)
	}
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("question: list: %w", err)
	}
	defer rows.Close()
	var qs []Question
	for rows.Next() {
		qq, err := scanQuestion(rows)
		if err != nil {
			return nil, err
		}
		qs = append(qs, qq)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("question: list: %w", err)
	}
	if err := rows.Close(); err != nil {
		return nil, fmt.Errorf("question: list: %w", err)
	}
	return qs, attachTags(ctx, q, qs)
}

func questionByID(ctx context.Context, q store.Queryer, id string) (Question, error) {
	qq, err := scanQuestion(q.QueryRowContext(ctx, `SELECT `+readColumns+` FROM questions WHERE id = $1`, id))
	if err != nil {
		return Question{}, err
	}
	qs := []Question{qq}
	if err := attachTags(ctx, q, qs); err != nil {
		return Question{}, err
	}
	return qs[0], nil
}

func scanQuestion(r interface{ Scan(dest ...any) error }) (Question, error) {
	var (
		q         Question
		seedKey   sql.NullString
		subtag    string
		followUps string
		points    string
		traps     string
	)
	err := r.Scan(&q.ID, &seedKey, &q.Text, &subtag, &q.Tip, &q.Big3, &q.Big3Order, &q.CreatedAt, &q.UpdatedAt, &q.CreatedBy, &q.UpdatedBy,
		&q.Scenario, &followUps, &points, &traps, &q.Version)
	if errors.Is(err, sql.ErrNoRows) {
		return Question{}, errNotFound
	}
	if err != nil {
		return Question{}, fmt.Errorf("question: scan: %w", err)
	}
	q.SeedKey, q.Subtag = seedKey.String, Subtag(subtag)
	if err := json.Unmarshal([]byte(followUps), &q.FollowUps); err != nil {
		return Question{}, fmt.Errorf("question: scan %s follow-ups: %w", q.ID, err)
	}
	if len(q.FollowUps) == 0 {
		q.FollowUps = nil // as Normalize leaves a question without any
	}
	for _, c := range []struct {
		raw  string
		into *[]Point
	}{{points, &q.Points}, {traps, &q.Traps}} {
		if err := json.Unmarshal([]byte(c.raw), c.into); err != nil {
			return Question{}, fmt.Errorf("question: scan %s points: %w", q.ID, err)
		}
		if len(*c.into) == 0 {
			*c.into = nil
		}
	}
	q.CreatedAt, q.UpdatedAt = q.CreatedAt.UTC(), q.UpdatedAt.UTC()
	return q, nil
}

// attachTags fills in each question's mainTags in the order they were given.
func attachTags(ctx context.Context, q store.Queryer, qs []Question) error {
	at := make(map[string]int, len(qs))
	for i := range qs {
		at[qs[i].ID] = i
		qs[i].MainTags = []string{}
	}
	for start := 0; start < len(qs); start += tagBatch {
		batch := qs[start:min(start+tagBatch, len(qs))]
		marks := make([]string, len(batch))
		args := make([]any, len(batch))
		for i, qq := range batch {
			marks[i], args[i] = "$"+strconv.Itoa(i+1), qq.ID
		}
		rows, err := q.QueryContext(ctx, `SELECT question_id, profession FROM question_tags
			WHERE question_id IN (`+strings.Join(marks, ", ")+`) ORDER BY question_id, position`, args...)
		if err != nil {
			return fmt.Errorf("question: load tags: %w", err)
		}
		for rows.Next() {
			var id, tag string
			if err := rows.Scan(&id, &tag); err != nil {
				rows.Close()
				return fmt.Errorf("question: load tags: %w", err)
			}
			qs[at[id]].MainTags = append(qs[at[id]].MainTags, tag)
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return fmt.Errorf("question: load tags: %w", err)
		}
	}
	return nil
}

// saving is how saveQuestion writes a question.
type saving int

const (
	// inserting adds a new question, at version 1.
	inserting saving = iota
	// replacing writes over the stored question whatever its version: an
	// import, whose file says what the bank holds.
	replacing
	// editing writes over the stored question only while it is still at
	// qq.Version, the version an admin's edit was made on.
	editing
)

// errStale is an edit saveQuestion did not write: the stored question is
// no longer at the version the edit was made on, or is gone.
var errStale = errors.New("question: edited meanwhile")

// saveQuestion writes every column of q and replaces its tags, inserting
// the row or writing over it (and counting one more version) as how says.
// A seed key it stores is recorded as applied, so seeding never adds that
// bank question again.
func saveQuestion(ctx context.Context, q store.Queryer, qq Question, how saving) error {
	seedKey := sql.NullString{String: qq.SeedKey, Valid: qq.SeedKey != ""}
	prompts := qq.FollowUps
	if prompts == nil {
		prompts = []string{}
	}
	followUps, err := json.Marshal(prompts)
	if err != nil {
		return fmt.Errorf("question: save %s: %w", qq.ID, err)
	}
	points, traps := pointsJSON(qq.Points), pointsJSON(qq.Traps)
	args := []any{qq.ID, seedKey, qq.Text, string(qq.Subtag), qq.Tip, qq.Big3, qq.Big3Order, qq.CreatedAt, qq.UpdatedAt, qq.CreatedBy, qq.UpdatedBy,
		qq.Scenario, string(followUps), points, traps}
	stmt := `INSERT INTO questions (` + questionColumns + `) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`
	if how != inserting {
		stmt = `UPDATE questions SET seed_key = $2, text = $3, subtag = $4, tip = $5, big3 = $6, big3_order = $7,
			created_at = $8, updated_at = $9, created_by = $10, updated_by = $11, scenario = $12, follow_ups = $13,
			points = $14, traps = $15, version = version + 1 WHERE id = $1`
	}
	if how == editing {
		// In the statement, so that of two edits made on one version the
		// second finds the first's version, on PostgreSQL too, where it
		// waits for the first's row lock and then reads the row again.
		stmt += ` AND version = $16`
		args = append(args, qq.Version)
	}
	res, err := q.ExecContext(ctx, stmt, args...)
	if err != nil {
		return fmt.Errorf("question: save %s: %w", qq.ID, err)
	}
	if how == editing {
		n, err := res.RowsAffected()
		if err != nil {
			return fmt.Errorf("question: save %s: %w", qq.ID, err)
		}
		if n == 0 {
			return errStale
		}
	}
	if _, err := q.ExecContext(ctx, `DELETE FROM question_tags WHERE question_id = $1`, qq.ID); err != nil {
		return fmt.Errorf("question: save %s tags: %w", qq.ID, err)
	}
	for i, tag := range qq.MainTags {
		if _, err := q.ExecContext(ctx, `INSERT INTO question_tags (question_id, profession, position) VALUES ($1, $2, $3)`, qq.ID, tag, i); err != nil {
			return fmt.Errorf("question: save %s tags: %w", qq.ID, err)
		}
	}
	if qq.SeedKey != "" {
		if _, err := markSeedApplied(ctx, q, qq.SeedKey, qq.CreatedAt); err != nil {
			return err
		}
	}
	return nil
}

// markSeedApplied records a seed key and reports whether it was new. Under
// concurrent seeding (several instances starting at once) exactly one
// transaction sees true for each key.
func markSeedApplied(ctx context.Context, q store.Queryer, seedKey string, at time.Time) (bool, error) {
	res, err := q.ExecContext(ctx, `INSERT INTO question_seeds_applied (seed_key, applied_at) VALUES ($1, $2) ON CONFLICT (seed_key) DO NOTHING`, seedKey, at)
	if err != nil {
		return false, fmt.Errorf("question: record seed %s: %w", seedKey, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("question: record seed %s: %w", seedKey, err)
	}
	return n == 1, nil
}

func appliedSeeds(ctx context.Context, q store.Queryer) (map[string]bool, error) {
	return seedKeys(ctx, q, "applied seeds", `SELECT seed_key FROM question_seeds_applied`)
}

// seededWithoutPoints are the seed keys of stored questions with neither
// points nor traps: on a database seeded before issue 40, all of them;
// afterwards, none, so a start updates nothing.
func seededWithoutPoints(ctx context.Context, q store.Queryer) (map[string]bool, error) {
	return seedKeys(ctx, q, "seeded without points",
		`SELECT seed_key FROM questions WHERE seed_key IS NOT NULL AND points = '[]' AND traps = '[]'`)
}

// seedKeys runs query, which selects seed keys, into a set.
func seedKeys(ctx context.Context, q store.Queryer, what, query string) (map[string]bool, error) {
	rows, err := q.QueryContext(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("question: %s: %w", what, err)
	}
	defer rows.Close()
	keys := map[string]bool{}
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return nil, fmt.Errorf("question: %s: %w", what, err)
		}
		keys[k] = true
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("question: %s: %w", what, err)
	}
	return keys, nil
}

func deleteQuestion(ctx context.Context, q store.Queryer, id string) (bool, error) {
	res, err := q.ExecContext(ctx, `DELETE FROM questions WHERE id = $1`, id)
	if err != nil {
		return false, fmt.Errorf("question: delete %s: %w", id, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("question: delete %s: %w", id, err)
	}
	return n == 1, nil
}

// fillPoints gives the question seeded from bank question b its points and
// traps when it has neither, as in a database seeded before questions had
// them (issue 40); a question given any since is left as it is.
func fillPoints(ctx context.Context, q store.Queryer, b Question) error {
	if len(b.Points) == 0 && len(b.Traps) == 0 {
		return nil
	}
	_, err := q.ExecContext(ctx, `UPDATE questions SET points = $2, traps = $3 WHERE seed_key = $1 AND points = '[]' AND traps = '[]'`,
		b.SeedKey, pointsJSON(b.Points), pointsJSON(b.Traps))
	if err != nil {
		return fmt.Errorf("question: fill points of %s: %w", b.SeedKey, err)
	}
	return nil
}

// pointsJSON is ps as stored: "[]" for none.
func pointsJSON(ps []Point) string {
	if len(ps) == 0 {
		return "[]"
	}
	b, _ := json.Marshal(ps) // strings only: cannot fail
	return string(b)
}
