package jobs

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/riverqueue/river/rivertype"

	"github.com/whitecoat/whitecoat/internal/store"
)

// ForgetArgs removes, inside the caller's transaction q on db, the jobs
// whose arguments carry one of values (the ids of an account being deleted
// and of its rows), finished or not, so that no job row names the person
// once they are gone. A job that is running keeps its row, which River
// updates when the job ends, but its arguments are emptied; its worker
// finds the rows it was about deleted.
func ForgetArgs(ctx context.Context, db *store.DB, q store.Queryer, values []string) error {
	wanted := make(map[string]bool, len(values))
	for _, v := range values {
		wanted[v] = true
	}
	table := jobTable(db)
	rows, err := q.QueryContext(ctx, `SELECT id, state, CAST(args AS TEXT) FROM `+table)
	if err != nil {
		return fmt.Errorf("jobs: forget args: %w", err)
	}
	var running, other []int64
	for rows.Next() {
		var (
			id    int64
			state rivertype.JobState
			args  string
		)
		if err := rows.Scan(&id, &state, &args); err != nil {
			rows.Close()
			return fmt.Errorf("jobs: forget args: %w", err)
		}
		var decoded any
		if json.Unmarshal([]byte(args), &decoded) != nil || !carries(decoded, wanted) {
			continue
		}
		if state == rivertype.JobStateRunning {
			running = append(running, id)
		} else {
			other = append(other, id)
		}
	}
	// Closed before the writes below: SQLite's transaction has one connection.
	if err := rows.Close(); err != nil {
		return fmt.Errorf("jobs: forget args: %w", err)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("jobs: forget args: %w", err)
	}
	for _, w := range []struct {
		stmt string
		ids  []int64
	}{{`UPDATE ` + table + ` SET args = '{}' WHERE id = $1`, running}, {`DELETE FROM ` + table + ` WHERE id = $1`, other}} {
		for _, id := range w.ids {
			if _, err := q.ExecContext(ctx, w.stmt, id); err != nil {
				return fmt.Errorf("jobs: forget args of job %d: %w", id, err)
			}
		}
	}
	return nil
}

// carries reports whether a decoded JSON value holds one of wanted as a
// string, at any depth.
func carries(v any, wanted map[string]bool) bool {
	switch v := v.(type) {
	case string:
		return wanted[v]
	case map[string]any:
		for _, e := range v {
			if carries(e, wanted) {
				return true
			}
		}
	case []any:
		for _, e := range v {
			if carries(e, wanted) {
				return true
			}
		}
	}
	return false
}
