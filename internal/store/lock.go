package store

import (
	"context"
	"database/sql"
	"fmt"
)

// Lock holds the lock named key until tx ends, so that transactions that
// check a total and then add to it (a user's sessions, their bytes in
// flight) run one after another instead of both reading the old total.
//
// On SQLite every write transaction already runs alone (_txlock=immediate
// takes the database's write lock at BEGIN), so there is nothing to add.
// On PostgreSQL it takes a transaction-scoped advisory lock on a hash of
// key; a collision of two keys only makes unrelated transactions wait.
func (db *DB) Lock(ctx context.Context, tx *sql.Tx, key string) error {
	if db.Dialect != Postgres {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, key); err != nil {
		return fmt.Errorf("store: lock %s: %w", key, err)
	}
	return nil
}
