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
