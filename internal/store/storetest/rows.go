package storetest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/whitecoat/whitecoat/internal/store"
)

// Users inserts bare accounts, each named and addressed after its id,
// for tests of one domain's statements on their rows.
func Users(t testing.TB, db *store.DB, ids ...string) {
	t.Helper()
	now := store.Now()
	for _, id := range ids {
		if _, err := db.SQL.ExecContext(context.Background(), `INSERT INTO users (id, name, email, password_hash, created_at, trial_expires_at)
			VALUES ($1, $1, $2, 'x', $3, $3)`, id, id+"@example.com", now); err != nil {
			t.Fatal(err)
		}
	}
}

// Rows is every row the queries return, as text, one a line under its
// query: what a test compares before and after a request that must
// change nothing.
func Rows(t testing.TB, db *store.DB, queries ...string) string {
	t.Helper()
	var out strings.Builder
	for _, query := range queries {
		fmt.Fprintln(&out, query)
		rows, err := db.SQL.QueryContext(context.Background(), query)
		if err != nil {
			t.Fatal(err)
		}
		cols, err := rows.Columns()
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			values := make([]any, len(cols))
			dest := make([]any, len(cols))
			for i := range values {
				dest[i] = &values[i]
			}
			if err := rows.Scan(dest...); err != nil {
				t.Fatal(err)
			}
			for i, v := range values {
				if b, ok := v.([]byte); ok {
					values[i] = string(b)
				}
			}
			fmt.Fprintln(&out, values...)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		_ = rows.Close()
	}
	return out.String()
}
