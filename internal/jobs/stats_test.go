package jobs

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"log/slog"
	"testing"
	"time"

	"github.com/riverqueue/river/rivertype"

	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

// betweenStatements is a connector to db's database whose connections
// call between before every statement but the first they are given: what
// another process does there happens while a reader that needs several
// statements is half done.
type betweenStatements struct {
	drv     driver.Driver
	dsn     string
	between func()
	started bool
}

func (c *betweenStatements) Connect(context.Context) (driver.Conn, error) {
	conn, err := c.drv.Open(c.dsn)
	if err != nil {
		return nil, err
	}
	return hookedConn{Conn: conn, c: c}, nil
}

func (c *betweenStatements) Driver() driver.Driver { return c.drv }

type hookedConn struct {
	driver.Conn
	c *betweenStatements
}

func (h hookedConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	if h.c.started {
		h.c.between()
	}
	h.c.started = true
	return h.Conn.(driver.QueryerContext).QueryContext(ctx, query, args)
}

// readingWith returns db as seen through a connection that runs between
// before each statement after the first.
func readingWith(t *testing.T, db *store.DB, between func()) *store.DB {
	t.Helper()
	pool := sql.OpenDB(&betweenStatements{drv: db.SQL.Driver(), dsn: db.DSN, between: between})
	pool.SetMaxOpenConns(1)
	t.Cleanup(func() { pool.Close() })
	return &store.DB{SQL: pool, Dialect: db.Dialect, Schema: db.Schema, DSN: db.DSN}
}

// A worker may take the oldest waiting job at any moment of a metrics
// scrape. Stats read the counts, then the oldest waiting job of each kind
// in a second query, which failed the whole scrape when that job had been
// taken in between. Here it is taken as soon as Stats' first statement has
// run: the scrape succeeds and its figures agree with each other.
func TestStatsIsOneReadOfTheQueue(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		client, err := New(db, slog.New(slog.DiscardHandler), DefaultOptions(time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		inserted, err := client.Insert(ctx, noopArgs{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		reader := readingWith(t, db, func() {
			if _, err := db.SQL.ExecContext(ctx, `DELETE FROM `+jobTable(db)+` WHERE id = $1`, inserted.Job.ID); err != nil {
				t.Fatal(err)
			}
		})
		now := inserted.Job.ScheduledAt.Add(time.Minute)
		counts, lag, err := Stats(ctx, reader, now)
		if err != nil {
			t.Fatalf("a job taken while the queue was read failed the read: %v", err)
		}
		waiting := 0
		for _, c := range counts {
			if c.Kind == (noopArgs{}).Kind() && c.State == rivertype.JobStateAvailable {
				waiting = c.Jobs
			}
		}
		if waiting != 1 || lag["noop"] != time.Minute {
			t.Fatalf("read %d jobs waiting and a queue lag of %v; want the queue as the read began: 1 job, 1m0s", waiting, lag["noop"])
		}
	})
}
