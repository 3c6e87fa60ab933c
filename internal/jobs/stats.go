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
// queue lag; a job scheduled for later does not wait until then). It is one
// statement, so one snapshot: workers take jobs all the time, and a job
// counted as waiting must not be gone when its wait is read.
func Stats(ctx context.Context, db *store.DB, now time.Time) ([]Count, map[string]time.Duration, error) {
	// Each kind and state's earliest job carries the group's count; its
	// scheduled_at is the column itself, which each driver reads as a time.
	rows, err := db.SQL.QueryContext(ctx, `SELECT kind, state, jobs, scheduled_at FROM (
		SELECT kind, state, scheduled_at,
			COUNT(*) OVER (PARTITION BY kind, state) AS jobs,
			ROW_NUMBER() OVER (PARTITION BY kind, state ORDER BY scheduled_at) AS nth
		FROM `+jobTable(db)+`) AS earliest WHERE nth = 1 ORDER BY kind, state`)
	if err != nil {
		return nil, nil, fmt.Errorf("jobs: stats: %w", err)
	}
	defer rows.Close()
	var counts []Count
	lag := map[string]time.Duration{}
	for rows.Next() {
		var (
			c      Count
			oldest time.Time
		)
		if err := rows.Scan(&c.Kind, &c.State, &c.Jobs, &oldest); err != nil {
			return nil, nil, fmt.Errorf("jobs: stats: %w", err)
		}
		counts = append(counts, c)
		if c.State == rivertype.JobStateAvailable {
			lag[c.Kind] = max(0, now.Sub(oldest))
		}
	}
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("jobs: stats: %w", err)
	}
	return counts, lag, nil
}
