package jobs

import (
	"context"
	"fmt"
	"time"

	"github.com/riverqueue/river/rivertype"

	"github.com/whitecoat/whitecoat/internal/store"
)

// Count is how many jobs of one kind are in one state.
type Count struct {
	Kind  string
	State rivertype.JobState
	Jobs  int
}

// jobTable names River's jobs table in the schema River was given.
func jobTable(db *store.DB) string {
	if db.Schema != "" {
		return db.Schema + ".river_job"
	}
	return "river_job"
}

// Stats reads the queue as it stands: the jobs by kind and state, and for
// each kind with jobs waiting to run, how long the oldest has waited (its
// queue lag; a job scheduled for later does not wait until then).
func Stats(ctx context.Context, db *store.DB, now time.Time) ([]Count, map[string]time.Duration, error) {
	rows, err := db.SQL.QueryContext(ctx, `SELECT kind, state, COUNT(*) FROM `+jobTable(db)+` GROUP BY kind, state ORDER BY kind, state`)
	if err != nil {
		return nil, nil, fmt.Errorf("jobs: stats: %w", err)
	}
	defer rows.Close()
	var counts []Count
	for rows.Next() {
		var c Count
		if err := rows.Scan(&c.Kind, &c.State, &c.Jobs); err != nil {
			return nil, nil, fmt.Errorf("jobs: stats: %w", err)
		}
		counts = append(counts, c)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("jobs: stats: %w", err)
	}
	lag := map[string]time.Duration{}
	for _, c := range counts {
		if c.State != rivertype.JobStateAvailable {
			continue
		}
		var oldest time.Time
		err := db.SQL.QueryRowContext(ctx, `SELECT scheduled_at FROM `+jobTable(db)+` WHERE kind = $1 AND state = $2 ORDER BY scheduled_at LIMIT 1`,
			c.Kind, string(rivertype.JobStateAvailable)).Scan(&oldest)
		if err != nil {
			return nil, nil, fmt.Errorf("jobs: queue lag: %w", err)
		}
		lag[c.Kind] = max(0, now.Sub(oldest))
	}
	return counts, lag, nil
}
