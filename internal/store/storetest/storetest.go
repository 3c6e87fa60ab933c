// Package storetest gives tests real, migrated, isolated databases: a fresh
// SQLite file and, where a server is reachable, a fresh PostgreSQL schema.
// Each test binary migrates one database per dialect and every test gets a
// copy of it: migrating afresh took most of a short test's time.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
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
	image, err := sqliteImage()
	if err != nil {
		t.Fatalf("storetest: migrated SQLite image: %v", err)
	}
	path := filepath.Join(t.TempDir(), "test.db")
	if err := os.WriteFile(path, image, 0o600); err != nil {
		t.Fatalf("storetest: %v", err)
	}
	return open(t, path, copied)
}

var sqliteTemplate struct {
	once  sync.Once
	image []byte
	err   error
}

// sqliteImage is the file of a freshly migrated SQLite database, made once
// per test binary; each test writes it to a file of its own.
func sqliteImage() ([]byte, error) {
	sqliteTemplate.once.Do(func() {
		sqliteTemplate.image, sqliteTemplate.err = migratedSQLiteImage()
	})
	return sqliteTemplate.image, sqliteTemplate.err
}

func migratedSQLiteImage() ([]byte, error) {
	dir, err := os.MkdirTemp("", "storetest-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(dir, "template.db"))
	if err != nil {
		return nil, err
	}
	defer db.Close()
	if err := db.Migrate(ctx, discard); err != nil {
		return nil, err
	}
	// VACUUM INTO writes one self-contained file, with nothing left in a
	// write-ahead log beside it.
	image := filepath.Join(dir, "image.db")
	if _, err := db.SQL.ExecContext(ctx, "VACUUM INTO $1", image); err != nil {
		return nil, err
	}
	return os.ReadFile(image)
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
	// The template's script creates the schema and everything in it;
	// where there is none, open migrates the empty schema.
	create, made := "CREATE SCHEMA "+schema, empty
	if tpl := postgresTemplate(); tpl.script != "" {
		create, made = strings.ReplaceAll(tpl.script, tpl.schema, schema), copied
	}
	if _, err := admin.Exec(create); err != nil {
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
	dsn, err := schemaDSN(schema)
	if err != nil {
		t.Fatalf("storetest: %v", err)
	}
	return open(t, dsn, made)
}

// schemaDSN is the server's URL with schema as the search path. Every
// connection to the schema, the test's own and those of the servers it
// starts on db.DSN, carries its name, for endLeftovers.
func schemaDSN(schema string) (string, error) {
	u, err := url.Parse(PostgresURL())
	if err != nil {
		return "", err
	}
	q := u.Query()
	q.Set("search_path", schema)
	q.Set("application_name", schema)
	u.RawQuery = q.Encode()
	return u.String(), nil
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

var pgTemplate struct {
	once sync.Once
	schemaScript
}

// schemaScript is SQL that creates schema, migrated, with every row the
// migrations left (the applied versions among them).
type schemaScript struct {
	schema, script string
}

// postgresTemplate is the script of a freshly migrated schema, made once
// per test binary with pg_dump; each test runs it with its own schema's
// name. Without a pg_dump that can read the server (none installed, or
// older than the server), the script is empty and every test migrates its
// schema itself, as slowly as before: said once, and not an error.
func postgresTemplate() schemaScript {
	pgTemplate.once.Do(func() {
		var err error
		pgTemplate.schemaScript, err = dumpMigratedSchema()
		if err != nil {
			fmt.Fprintf(os.Stderr, "storetest: every PostgreSQL test migrates its own schema: no template (%v)\n", err)
		}
	})
	return pgTemplate.schemaScript
}

// psqlCommand matches a line of psql meta-commands (pg_dump writes
// \restrict and \unrestrict), which are no SQL.
var psqlCommand = regexp.MustCompile(`(?m)^\\.*$`)

func dumpMigratedSchema() (schemaScript, error) {
	pgDump, err := exec.LookPath("pg_dump")
	if err != nil {
		return schemaScript{}, err
	}
	schema := "wct_template_" + randomHex(8)
	admin, err := sql.Open("pgx", PostgresURL())
	if err != nil {
		return schemaScript{}, err
	}
	defer admin.Close()
	if _, err := admin.Exec("CREATE SCHEMA " + schema); err != nil {
		return schemaScript{}, err
	}
	defer admin.Exec("DROP SCHEMA " + schema + " CASCADE")
	dsn, err := schemaDSN(schema)
	if err != nil {
		return schemaScript{}, err
	}
	ctx := context.Background()
	db, err := store.Open(ctx, dsn)
	if err != nil {
		return schemaScript{}, err
	}
	defer db.Close()
	if err := db.Migrate(ctx, discard); err != nil {
		return schemaScript{}, err
	}
	// --inserts: the rows as INSERT statements, which one Exec runs, where
	// COPY would need its data streamed.
	var stderr strings.Builder
	cmd := exec.Command(pgDump, "--schema="+schema, "--no-owner", "--no-privileges", "--inserts", "--dbname="+PostgresURL())
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return schemaScript{}, fmt.Errorf("%s: %w: %s", pgDump, err, strings.TrimSpace(stderr.String()))
	}
	return schemaScript{schema: schema, script: psqlCommand.ReplaceAllString(string(out), "")}, nil
}

var discard = slog.New(slog.DiscardHandler)

// made says what storetest made a test's database as.
type made int

const (
	empty  made = iota // to be migrated
	copied             // a copy of a migrated template
)

// open opens dsn, made as said, and migrates it if it is empty.
func open(t testing.TB, dsn string, m made) *store.DB {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatalf("storetest: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	migrate := db.AdoptCopy
	if m == empty {
		migrate = func(ctx context.Context) error { return db.Migrate(ctx, discard) }
	}
	if err := migrate(ctx); err != nil {
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
