package practice

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/whitecoat/whitecoat/internal/store"
)

// Every SQL statement of the practice domain is in the store*.go files, as
// a named function, one file per entity; the service only orchestrates
// them. Functions take a store.Queryer so they run inside the caller's
// transaction or on their own. This file holds what they share.

var errNotFound = errors.New("practice: not found")

// exec runs one statement (store.Exec), naming it in the error, and
// reports how many rows it changed.
func exec(ctx context.Context, q store.Queryer, what, query string, args ...any) (int64, error) {
	return store.Exec(ctx, q, "practice: "+what, query, args...)
}

// scanAll reads every row of a query with scan (store.ScanAll), naming
// the query in its error.
func scanAll[T any](ctx context.Context, q store.Queryer, what string, scan func(*sql.Rows) (T, error), query string, args ...any) ([]T, error) {
	return store.ScanAll(ctx, q, "practice: "+what, scan, query, args...)
}

// jsonOrNull is v as the JSON text a column keeps, or NULL for a nil v.
func jsonOrNull[T any](what string, v *T) (any, error) {
	if v == nil {
		return nil, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("practice: %s: %w", what, err)
	}
	return string(b), nil
}

func scanString(rows *sql.Rows) (string, error) {
	var s string
	if err := rows.Scan(&s); err != nil {
		return "", fmt.Errorf("practice: scan: %w", err)
	}
	return s, nil
}
