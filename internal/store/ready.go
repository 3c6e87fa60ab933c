package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"
)

// CheckSchema tells a readiness probe whether the database still holds the
// schema this binary works on: every migration it carries is applied (a
// newer binary's further migrations are fine: copies of the old one keep
// serving during a rolling deploy), and every table Migrate left is still
// there. A reachable server whose schema was dropped or restored from an
// older backup fails here.
func (db *DB) CheckSchema(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	p, err := db.migrationProvider()
	if err != nil {
		return err
	}
	pending, err := p.HasPending(ctx)
	if err != nil {
		return fmt.Errorf("store: schema: applied migrations: %w", err)
	}
	if pending {
		return errors.New("store: schema: migrations this binary carries are not applied")
	}
	present, err := db.tableNames(ctx)
	if err != nil {
		return err
	}
	for _, t := range db.tables {
		if !slices.Contains(present, t) {
			return fmt.Errorf("store: schema: table %s is missing", t)
		}
	}
	return nil
}

// AdoptCopy is Migrate for a DB opened on a copy of a database Migrate
// left, which tests make instead of migrating each of theirs: nothing is
// pending, so it only notes the tables CheckSchema expects.
func (db *DB) AdoptCopy(ctx context.Context) error {
	var err error
	db.tables, err = db.tableNames(ctx)
	return err
}

// tableNames lists the tables in the database, or in its PostgreSQL schema.
func (db *DB) tableNames(ctx context.Context) ([]string, error) {
	query := `SELECT name FROM sqlite_master WHERE type = 'table'`
	if db.Dialect == Postgres {
		query = `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()`
	}
	rows, err := db.SQL.QueryContext(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("store: list tables: %w", err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, fmt.Errorf("store: list tables: %w", err)
		}
		names = append(names, name)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list tables: %w", err)
	}
	return names, nil
}
