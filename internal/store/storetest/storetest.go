// Package storetest gives tests real, migrated, isolated databases: a fresh
// SQLite file and, where a server is reachable, a fresh PostgreSQL schema.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/whitecoat/whitecoat/internal/store"
)

// DefaultPostgresURL is the local server this project's machines and CI run.
const DefaultPostgresURL = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

// PostgresURL is the admin connection tests create their schemas through.
func PostgresURL() string {
	if v := os.Getenv("WHITECOAT_TEST_POSTGRES"); v != "" {
		return v
	}
	return DefaultPostgresURL
}

var (
	pgOnce      sync.Once
	pgReachable error
)

func postgresReachable() error {
	pgOnce.Do(func() {
		db, err := sql.Open("pgx", PostgresURL())
		if err != nil {
			pgReachable = err
			return
		}
		defer db.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		pgReachable = db.PingContext(ctx)
		if pgReachable != nil && os.Getenv("CI") != "true" {
			fmt.Fprintf(os.Stderr, "\n"+
				"!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n"+
				"!!! PostgreSQL is not reachable at %s\n"+
				"!!! (%v)\n"+
				"!!! Every PostgreSQL variant of the storage tests is SKIPPED.\n"+
				"!!! Set WHITECOAT_TEST_POSTGRES to a reachable server to run them.\n"+
				"!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n\n",
				redacted(PostgresURL()), pgReachable)
		}
	})
	return pgReachable
}

// Each runs fn once per available dialect as subtests "sqlite" and
// "postgres", each on its own freshly migrated database.
func Each(t *testing.T, fn func(t *testing.T, db *store.DB)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { fn(t, SQLite(t)) })
	t.Run("postgres", func(t *testing.T) { fn(t, Postgres(t)) })
}

// SQLite returns a migrated database in a temporary file.
func SQLite(t testing.TB) *store.DB {
	t.Helper()
	return open(t, filepath.Join(t.TempDir(), "test.db"))
}

// Postgres returns a migrated database in a schema of its own, dropped when
// the test ends. It skips loudly where no server is reachable, and fails
// instead under CI=true, where a missing server is a broken machine.
func Postgres(t testing.TB) *store.DB {
	t.Helper()
	if err := postgresReachable(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("PostgreSQL is required in CI but not reachable at %s: %v", redacted(PostgresURL()), err)
		}
		t.Skipf("POSTGRESQL NOT REACHABLE at %s — PostgreSQL test skipped", redacted(PostgresURL()))
	}
	schema := "wct_" + randomHex(8)
	admin, err := sql.Open("pgx", PostgresURL())
	if err != nil {
		t.Fatalf("storetest: %v", err)
	}
	defer admin.Close()
	if _, err := admin.Exec("CREATE SCHEMA " + schema); err != nil {
		t.Fatalf("storetest: create schema: %v", err)
	}
	// Registered first, so it runs after every clean-up the test adds:
	// its servers, job clients and connections are gone by then.
	t.Cleanup(func() {
		admin, err := sql.Open("pgx", PostgresURL())
		if err != nil {
			t.Errorf("storetest: %v", err)
			return
		}
		defer admin.Close()
		endLeftovers(t, admin, schema)
		if _, err := admin.Exec("DROP SCHEMA " + schema + " CASCADE"); err != nil {
			t.Errorf("storetest: drop schema %s: %v", schema, err)
		}
	})
	u, err := url.Parse(PostgresURL())
	if err != nil {
		t.Fatalf("storetest: %v", err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	// Every connection to the schema, the test's own and those of the
	// servers it starts on db.DSN, carries its name, for endLeftovers.
	q.Set("application_name", schema)
	u.RawQuery = q.Encode()
	return open(t, u.String())
}

// leftoverWait bounds how long endLeftovers waits for one backend to end.
const leftoverWait = 10 * time.Second

// endLeftovers ends the backends still connected to schema once its test
// is over, and waits until they have. A statement whose client has gone
// runs on in the server, holding its locks: until the cancel request pgx
// sends in the background arrives (a cancelled context: River's Stop
// cancels its loops'), or, when the client was killed (a server process
// the test killed), until it next writes to it. DROP SCHEMA ... CASCADE
// takes the schema's objects one at a time and deadlocked with such a
// statement wanting one it had taken (an INSERT holds river_job, then
// wants river_job_id_seq, which the DROP takes first). Nobody needs them:
// everything the test started has been stopped.
func endLeftovers(t testing.TB, admin *sql.DB, schema string) {
	t.Helper()
	// A backend that ended by itself meanwhile (the test's own, closing)
	// is no longer there to end: what counts is who is left.
	if _, err := admin.Exec(`SELECT pg_terminate_backend(pid, $2) FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()`,
		schema, leftoverWait.Milliseconds()); err != nil {
		t.Errorf("storetest: end the backends left on %s: %v", schema, err)
		return
	}
	var left string
	if err := admin.QueryRow(`SELECT COALESCE(string_agg(pid::text, ', '), '') FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()`,
		schema).Scan(&left); err != nil {
		t.Errorf("storetest: end the backends left on %s: %v", schema, err)
		return
	}
	if left != "" {
		t.Errorf("storetest: backends %s, left on %s, did not end within %v", left, schema, leftoverWait)
	}
}

func open(t testing.TB, dsn string) *store.DB {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatalf("storetest: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Migrate(ctx, slog.New(slog.NewTextHandler(io.Discard, nil))); err != nil {
		t.Fatalf("storetest: %v", err)
	}
	return db
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

func redacted(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		return "(unparseable URL)"
	}
	return u.Redacted()
}
