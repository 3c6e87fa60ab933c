package history

import (
	"context"
	"database/sql"
	"errors"

	"github.com/whitecoat/whitecoat/internal/store"
)

// Every SQL statement of the history domain is in the store*.go files, as
// a named function, one file per entity (the saved sessions:
// store_saved.go); the service only orchestrates them. Functions take a
// store.Queryer so they run inside the caller's transaction or on their
// own. This file holds what they share.

var errNotFound = errors.New("history: not found")

// exec runs one statement (store.Exec), naming it in the error, and
// reports how many rows it changed.
func exec(ctx context.Context, q store.Queryer, what, query string, args ...any) (int64, error) {
	return store.Exec(ctx, q, "history: "+what, query, args...)
}

// scanAll reads every row of a query with scan (store.ScanAll), naming
// the query in its error.
func scanAll[T any](ctx context.Context, q store.Queryer, what string, scan func(*sql.Rows) (T, error), query string, args ...any) ([]T, error) {
	return store.ScanAll(ctx, q, "history: "+what, scan, query, args...)
}
