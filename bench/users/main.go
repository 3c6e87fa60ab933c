// Command users measures the admin users table on SQLite at scale: it fills a
// temporary database with 50,000 accounts and times the queries the admin
// console sends (search, sort, page). Run it with `make bench-users`. The
// target is a search answered in under 50 ms.
package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/billing"
	"github.com/whitecoat/whitecoat/internal/store"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "bench-users:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, out io.Writer) error {
	fset := flag.NewFlagSet("bench-users", flag.ContinueOnError)
	users := fset.Int("users", 50_000, "accounts to create")
	runs := fset.Int("runs", 200, "timed runs per query")
	keep := fset.String("db", "", "create the database at this path and keep it, to inspect query plans (default: a temporary file)")
	if err := fset.Parse(args); err != nil {
		return err
	}
	path := *keep
	if path == "" {
		dir, err := os.MkdirTemp("", "bench-users-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		path = filepath.Join(dir, "bench.db")
	}
	db, err := store.Open(ctx, path)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := db.Migrate(ctx, slog.New(slog.NewTextHandler(io.Discard, nil))); err != nil {
		return err
	}
	start := time.Now()
	if err := fill(ctx, db, *users); err != nil {
		return err
	}
	fmt.Fprintf(out, "SQLite, %d users (created in %s), %d runs per query, load average %s\n\n", *users, time.Since(start).Round(time.Millisecond), *runs, loadAverage())

	svc := auth.NewService(db, nil, nil, slog.New(slog.NewTextHandler(io.Discard, nil)), time.Now, auth.Config{})
	queries := []struct {
		name string
		q    auth.UserQuery
	}{
		{`search "smith", by name, page 1`, auth.UserQuery{Q: "smith", Sort: "name", Order: "asc", Page: 1, PageSize: 25}},
		{`search "smith", newest, page 40`, auth.UserQuery{Q: "smith", Sort: "createdAt", Order: "desc", Page: 40, PageSize: 25}},
		{`search "@example.org", by usage`, auth.UserQuery{Q: "@example.org", Sort: "usageCount", Order: "desc", Page: 1, PageSize: 100}},
		{`search with no match`, auth.UserQuery{Q: "zzzz", Sort: "name", Order: "asc", Page: 1, PageSize: 25}},
		{`no search, newest, page 1`, auth.UserQuery{Sort: "createdAt", Order: "desc", Page: 1, PageSize: 25}},
		{`no search, by name, page 1000`, auth.UserQuery{Sort: "name", Order: "asc", Page: 1000, PageSize: 25}},
		{`no search, by trial end, page 1`, auth.UserQuery{Sort: "trialExpiresAt", Order: "asc", Page: 1, PageSize: 25}},
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "query\tmatches\tp50 ms\tp95 ms\tmean ms\tmax ms\tCPU ms/query\t")
	for _, qq := range queries {
		var total int
		times := make([]time.Duration, *runs)
		cpu0 := cpuTime()
		for i := range times {
			t0 := time.Now()
			list, err := svc.ListUsers(ctx, qq.q)
			times[i] = time.Since(t0)
			if err != nil {
				return err
			}
			total = list.Total
		}
		cpu := (cpuTime() - cpu0) / time.Duration(len(times))
		slices.Sort(times)
		var sum time.Duration
		for _, d := range times {
			sum += d
		}
		fmt.Fprintf(tw, "%s\t%d\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t\n", qq.name, total,
			ms(times[len(times)/2]), ms(times[len(times)*95/100]), ms(sum/time.Duration(len(times))), ms(times[len(times)-1]), ms(cpu))
	}
	return tw.Flush()
}

// cpuTime is the process's user and system CPU time. On a busy machine wall
// times mostly measure waiting for a core; CPU time per query shows the
// work itself.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// loadAverage tells the reader how busy the machine was.
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(data))[:3], " ")
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

var (
	firstNames = []string{"Ana", "Ben", "Carla", "Dev", "Eli", "Fatima", "Grace", "Hiro", "Ines", "Jamal", "Kira", "Liam", "Mei", "Noah", "Olu", "Priya"}
	lastNames  = []string{"Smith", "Jones", "Garcia", "Nguyen", "Okafor", "Kowalski", "Patel", "Brown", "Smithson", "Lee", "Haddad", "Silva", "Novak", "Kim", "Ortiz", "Rossi"}
	domains    = []string{"example.com", "example.org", "mail.example", "school.example"}
)

// fill inserts n accounts in one transaction: the benchmark measures
// reads, and bypassing password hashing keeps set-up to seconds.
func fill(ctx context.Context, db *store.DB, n int) error {
	rng := rand.New(rand.NewPCG(1, 2))
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	return db.WithTx(ctx, func(tx *sql.Tx) error {
		stmt, err := tx.PrepareContext(ctx, `INSERT INTO users (id, name, email, password_hash, created_at, trial_expires_at,
			email_verified, role, usage_count) VALUES ($1, $2, $3, 'x', $4, $5, $6, $7, $8)`)
		if err != nil {
			return err
		}
		defer stmt.Close()
		// A quarter of the accounts bought a pass when they signed up.
		passStmt, err := tx.PrepareContext(ctx, `INSERT INTO premium_passes (user_id, paid_at, ends_at) VALUES ($1, $2, $3)`)
		if err != nil {
			return err
		}
		defer passStmt.Close()
		for i := range n {
			first, last := firstNames[rng.IntN(len(firstNames))], lastNames[rng.IntN(len(lastNames))]
			created := base.Add(time.Duration(rng.Int64N(int64(365 * 24 * time.Hour))))
			role := "user"
			if i%1000 == 0 {
				role = "admin"
			}
			id := fmt.Sprintf("u%07d", i)
			email := strings.ToLower(fmt.Sprintf("%s.%s.%d@%s", first, last, i, domains[rng.IntN(len(domains))]))
			paid := rng.IntN(4) == 0
			_, err := stmt.ExecContext(ctx, id, first+" "+last, email, created, created.Add(auth.TrialLength), rng.IntN(5) != 0, role, rng.IntN(40))
			if err != nil {
				return err
			}
			if paid {
				if _, err := passStmt.ExecContext(ctx, id, created, created.Add(billing.SubscriptionLength)); err != nil {
					return err
				}
			}
		}
		return nil
	})
}
