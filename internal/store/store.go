// Package store opens Whitecoat's database — SQLite by default, PostgreSQL
// when DATABASE_URL says so — and applies the embedded migrations. Domain
// packages own their SQL; this package hides where the dialects differ.
package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" database/sql driver
	"github.com/pressly/goose/v3"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Dialect names the SQL flavour behind a DB.
type Dialect string

const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
)

//go:embed migrations
var migrations embed.FS

// DB is an open database with its dialect. Every query uses $N placeholders,
// which both drivers accept, so SQL texts are shared.
type DB struct {
	SQL     *sql.DB
	Dialect Dialect
	// Schema is the PostgreSQL schema in use ("" means the server default);
	// tests isolate themselves in one schema each.
	Schema string
	// DSN is what Open was given, so tests can start commands on the same
	// database.
	DSN string
	// tables are those Migrate left, for CheckSchema.
	tables []string
}

// Open connects to dsn: a postgres:// URL, or an SQLite file path (optionally
// prefixed with "sqlite:"). It does not migrate; call Migrate.
func Open(ctx context.Context, dsn string) (*DB, error) {
	var (
		db  *DB
		err error
	)
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		db, err = openPostgres(ctx, dsn)
	} else {
		db, err = openSQLite(ctx, strings.TrimPrefix(dsn, "sqlite:"))
	}
	if err != nil {
		return nil, err
	}
	db.DSN = dsn
	return db, nil
}

func openSQLite(ctx context.Context, path string) (*DB, error) {
	if path == "" {
		return nil, errors.New("store: empty SQLite path")
	}
	if dir := filepath.Dir(path); dir != "." {
		if err := os.MkdirAll(dir, 0o750); err != nil {
			return nil, fmt.Errorf("store: create directory for %s: %w", path, err)
		}
	}
	q := url.Values{}
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "synchronous(NORMAL)")
	// Writers take the lock at BEGIN, so two transactions never deadlock
	// trying to upgrade read locks.
	q.Set("_txlock", "immediate")
	q.Set("_time_format", "sqlite")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("store: open sqlite %s: %w", path, err)
	}
	// SQLite allows one writer; River's SQLite driver and our own
	// transactions stay correct with a single shared connection.
	db.SetMaxOpenConns(1)
	db.SetConnMaxIdleTime(0)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open sqlite %s: %w", path, err)
	}
	return &DB{SQL: db, Dialect: SQLite}, nil
}

func openPostgres(ctx context.Context, dsn string) (*DB, error) {
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, fmt.Errorf("store: open postgres: %w", err)
	}
	db.SetMaxOpenConns(20)
	db.SetMaxIdleConns(5)
	db.SetConnMaxIdleTime(5 * time.Minute)
	pingCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := db.PingContext(pingCtx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: connect to postgres: %w", err)
	}
	schema := ""
	if u, err := url.Parse(dsn); err == nil {
		schema = u.Query().Get("search_path")
	}
	return &DB{SQL: db, Dialect: Postgres, Schema: schema}, nil
}

// Close closes the connection pool.
func (db *DB) Close() error { return db.SQL.Close() }

// Ping checks that the database answers, for readiness probes.
func (db *DB) Ping(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	return db.SQL.PingContext(ctx)
}

// Migrate applies every pending embedded migration for the DB's dialect.
func (db *DB) Migrate(ctx context.Context, logger *slog.Logger) error {
	p, err := db.migrationProvider()
	if err != nil {
		return err
	}
	results, err := p.Up(ctx)
	if err != nil {
		return fmt.Errorf("store: migrate: %w", err)
	}
	for _, r := range results {
		logger.Info("applied migration", "version", r.Source.Version, "path", r.Source.Path, "duration", r.Duration)
	}
	if err := db.migrateRiver(ctx, logger); err != nil {
		return err
	}
	db.tables, err = db.tableNames(ctx)
	return err
}

// migrationProvider is goose on the embedded migrations of the DB's dialect.
func (db *DB) migrationProvider() (*goose.Provider, error) {
	dir, err := fs.Sub(migrations, "migrations/"+string(db.Dialect))
	if err != nil {
		return nil, fmt.Errorf("store: migrations: %w", err)
	}
	dialect := goose.DialectSQLite3
	if db.Dialect == Postgres {
		dialect = goose.DialectPostgres
	}
	p, err := goose.NewProvider(dialect, db.SQL, dir)
	if err != nil {
		return nil, fmt.Errorf("store: migrations: %w", err)
	}
	return p, nil
}

// migrateRiver applies the job queue's own schema, which River versions
// and ships; it lives beside ours in the same database.
func (db *DB) migrateRiver(ctx context.Context, logger *slog.Logger) error {
	var err error
	if db.Dialect == Postgres {
		err = runRiverMigrations(ctx, riverdatabasesql.New(db.SQL), db.Schema, logger)
	} else {
		err = runRiverMigrations(ctx, riversqlite.New(db.SQL), "", logger)
	}
	if err != nil {
		return fmt.Errorf("store: migrate job queue: %w", err)
	}
	return nil
}

func runRiverMigrations[TTx any](ctx context.Context, driver riverdriver.Driver[TTx], schema string, logger *slog.Logger) error {
	m, err := rivermigrate.New(driver, &rivermigrate.Config{Logger: logger, Schema: schema})
	if err != nil {
		return err
	}
	_, err = m.Migrate(ctx, rivermigrate.DirectionUp, nil)
	return err
}

// Queryer is what both *sql.DB and *sql.Tx offer, so store functions run
// inside or outside a transaction.
type Queryer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// WithTx runs fn in a transaction, committing when fn returns nil.
func (db *DB) WithTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := db.SQL.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: begin: %w", err)
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: commit: %w", err)
	}
	return nil
}

// IsUniqueViolation reports whether err is a unique-constraint failure in
// either dialect.
func IsUniqueViolation(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code == "23505"
	}
	var liteErr *sqlite.Error
	if errors.As(err, &liteErr) {
		code := liteErr.Code()
		return code == sqlite3.SQLITE_CONSTRAINT_UNIQUE || code == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
	}
	return false
}

// Now is the time as stored: UTC with microsecond precision, the finest both
// dialects keep, so values round-trip exactly.
func Now() time.Time { return Truncate(time.Now()) }

// Truncate normalises t the way the database will store it.
func Truncate(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }

// InList appends values to args as query parameters and returns them as
// the inside of an SQL IN list ("$2, $3"), numbered after the args
// already there.
func InList(args []any, values []string) (string, []any) {
	marks := make([]string, len(values))
	for i, v := range values {
		args = append(args, v)
		marks[i] = fmt.Sprintf("$%d", len(args))
	}
	return strings.Join(marks, ", "), args
}

// ScanAll reads every row of a query with scan, and always closes the
// rows. An empty result is an empty slice, never nil. An error names the
// query by what ("practice: earlier answers").
func ScanAll[T any](ctx context.Context, q Queryer, what string, scan func(*sql.Rows) (T, error), query string, args ...any) ([]T, error) {
	out, err := scanAll(ctx, q, scan, query, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return out, nil
}

func scanAll[T any](ctx context.Context, q Queryer, scan func(*sql.Rows) (T, error), query string, args ...any) ([]T, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []T{}
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// Exec runs one statement and reports how many rows it changed. An error
// names the statement by what ("practice: save feedback").
func Exec(ctx context.Context, q Queryer, what, query string, args ...any) (int64, error) {
	res, err := q.ExecContext(ctx, query, args...)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", what, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("%s: %w", what, err)
	}
	return n, nil
}

// NewID returns a random 128-bit row id as 32 hex characters.
func NewID() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		// crypto/rand does not fail on supported platforms.
		panic("store: crypto/rand: " + err.Error())
	}
	return hex.EncodeToString(b)
}
