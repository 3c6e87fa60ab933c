package jobs

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

type noopArgs struct{}

func (noopArgs) Kind() string { return "noop" }

type noopWorker struct{ river.WorkerDefaults[noopArgs] }

func (noopWorker) Work(context.Context, *river.Job[noopArgs]) error { return nil }

// syncBuffer is a log destination River's goroutines may share.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// With the database gone, River's loops report the same errors about ten
// times a second; the log gets each once.
func TestRepeatedQueueErrorsAreLoggedOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		var out syncBuffer
		workers := river.NewWorkers()
		river.AddWorker(workers, noopWorker{})
		opts := DefaultOptions(time.Minute)
		opts.Workers = workers
		client, err := New(db, slog.New(slog.NewTextHandler(&out, nil)), opts)
		if err != nil {
			t.Fatal(err)
		}
		if err := client.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			// Nothing is running and the database is gone: do not wait.
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			_ = client.StopAndCancel(ctx)
		})
		time.Sleep(300 * time.Millisecond)
		db.SQL.Close()
		time.Sleep(1500 * time.Millisecond)

		logged := out.String()
		if n := strings.Count(logged, `msg="producer: Error fetching jobs"`); n != 1 {
			t.Fatalf("the job fetch error was logged %d times in 1.5 s, want once:\n%s", n, logged)
		}
	})
}

func TestRiverLoggerCountsWhatItHeldBack(t *testing.T) {
	var out bytes.Buffer
	clock := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	logger := riverLogger(slog.New(slog.NewTextHandler(&out, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	})), func() time.Time { return clock })
	producer := logger.With("queue", "default")

	producer.Info("routine bookkeeping")
	for range 40 {
		producer.Error("producer: Error fetching jobs", "err", "database is closed")
		logger.Warn("elector: slow")
	}
	clock = clock.Add(repeatEvery)
	producer.Error("producer: Error fetching jobs", "err", "database is closed")

	want := `level=ERROR msg="producer: Error fetching jobs" queue=default err="database is closed"
level=WARN msg="elector: slow"
level=ERROR msg="producer: Error fetching jobs" queue=default err="database is closed" repeated_since_last_logged=39
`
	if out.String() != want {
		t.Fatalf("logged:\n%s\nwant:\n%s", out.String(), want)
	}
}

// blockingArgs is a job that holds its worker until its test lets go.
type blockingArgs struct{}

func (blockingArgs) Kind() string { return "blocking" }

type blockingWorker struct {
	river.WorkerDefaults[blockingArgs]
	started chan struct{}
	letGo   chan struct{}
}

func (w blockingWorker) Work(ctx context.Context, _ *river.Job[blockingArgs]) error {
	w.started <- struct{}{}
	select {
	case <-w.letGo:
	case <-ctx.Done():
	}
	return nil
}

type signalArgs struct{}

func (signalArgs) Kind() string { return "signal" }

type signalWorker struct {
	river.WorkerDefaults[signalArgs]
	ran chan struct{}
}

func (w signalWorker) Work(context.Context, *river.Job[signalArgs]) error {
	w.ran <- struct{}{}
	return nil
}

// A queue of Options.Queues has workers of its own: its jobs run while
// every worker of the default queue is held (recognition of recordings in
// progress waiting for a decoder must not keep a finished answer's
// transcription from starting).
func TestQueuesHaveWorkersOfTheirOwn(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		const other = "other"
		blocker := blockingWorker{started: make(chan struct{}, 2), letGo: make(chan struct{})}
		signal := signalWorker{ran: make(chan struct{}, 2)}
		workers := river.NewWorkers()
		river.AddWorker(workers, blocker)
		river.AddWorker(workers, signal)
		opts := DefaultOptions(time.Minute)
		opts.Workers, opts.MaxWorkers, opts.Queues, opts.PollInterval = workers, 1, map[string]int{other: 1}, 50*time.Millisecond
		client, err := New(db, slog.New(slog.DiscardHandler), opts)
		if err != nil {
			t.Fatal(err)
		}
		ctx := t.Context()
		if err := client.Start(ctx); err != nil {
			t.Fatal(err)
		}
		defer func() {
			if err := Stop(context.Background(), client); err != nil {
				t.Error(err)
			}
		}()
		wait := func(what string, c chan struct{}) {
			t.Helper()
			select {
			case <-c:
			case <-time.After(20 * time.Second):
				t.Fatalf("%s did not run", what)
			}
		}
		insert := func(args river.JobArgs, queue string) {
			t.Helper()
			if _, err := client.Insert(ctx, args, &river.InsertOpts{Queue: queue}); err != nil {
				t.Fatal(err)
			}
		}
		insert(blockingArgs{}, river.QueueDefault)
		wait("the job holding the default queue's worker", blocker.started)
		insert(signalArgs{}, other)
		wait("the job of the other queue", signal.ran)
		insert(signalArgs{}, river.QueueDefault)
		select {
		case <-signal.ran:
			t.Fatal("a job of the default queue ran while its only worker was held")
		case <-time.After(500 * time.Millisecond):
		}
		blocker.letGo <- struct{}{}
		wait("the default queue's job once its worker was free", signal.ran)
	})
}

type itemArgs struct {
	ItemID string `json:"itemId"`
}

func (itemArgs) Kind() string { return "item" }

// ForgetArgs deletes the jobs whose arguments carry a forgotten id, and
// empties the arguments of one that is running; other jobs stay.
func TestForgetArgsLeavesNoJobNamingTheIDs(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := t.Context()
		client, err := New(db, slog.New(slog.DiscardHandler), DefaultOptions(time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		ids := map[string]int64{}
		for _, item := range []string{"gone-1", "gone-2", "kept"} {
			res, err := client.Insert(ctx, itemArgs{ItemID: item}, nil)
			if err != nil {
				t.Fatal(err)
			}
			ids[item] = res.Job.ID
		}
		if _, err := db.SQL.ExecContext(ctx, `UPDATE `+jobTable(db)+` SET state = 'running' WHERE id = $1`, ids["gone-2"]); err != nil {
			t.Fatal(err)
		}
		tx, err := db.SQL.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := ForgetArgs(ctx, db, tx, []string{"gone-1", "gone-2", "never-queued"}); err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		rows, err := db.SQL.QueryContext(ctx, `SELECT id, CAST(args AS TEXT) FROM `+jobTable(db)+` ORDER BY id`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var left []string
		for rows.Next() {
			var (
				id   int64
				args string
			)
			if err := rows.Scan(&id, &args); err != nil {
				t.Fatal(err)
			}
			left = append(left, strings.ReplaceAll(args, " ", ""))
		}
		if want := []string{`{}`, `{"itemId":"kept"}`}; strings.Join(left, " ") != strings.Join(want, " ") {
			t.Fatalf("jobs left %v, want %v (the running job emptied, the other kept)", left, want)
		}
	})
}
