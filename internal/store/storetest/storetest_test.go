package storetest

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
)

// A test can end with its schema still in use, though it closed all it
// opened: a statement whose client went away runs on in PostgreSQL,
// holding its locks: until the cancel request pgx sends in the background
// arrives (its context was cancelled, as River's Stop cancels its loops'),
// or, its server process killed, until it next writes to that client. DROP SCHEMA ... CASCADE waited for such a statement and, as it
// takes the schema's objects one at a time, deadlocked with one that
// wanted an object it had already taken (an INSERT holds river_job and
// then wants river_job_id_seq, which the DROP takes first). Here the
// statement never ends by itself: the schema is dropped all the same.
func TestASchemaIsDroppedPastWhatItsTestLeftRunning(t *testing.T) {
	var schema string
	t.Run("leaves a statement running", func(t *testing.T) {
		db := Postgres(t)
		schema = db.Schema
		// A client killed in the middle of a statement: its socket closes
		// with no cancel request sent, and the statement runs on.
		conn, err := pgconn.Connect(context.Background(), db.DSN)
		if err != nil {
			t.Fatal(err)
		}
		killed, err := conn.Hijack()
		if err != nil {
			t.Fatal(err)
		}
		// The schema's name marks the statement in pg_stat_activity.
		killed.Frontend.Send(&pgproto3.Query{String: `LOCK TABLE river_job IN ROW EXCLUSIVE MODE; SELECT pg_sleep(86400) AS ` + schema})
		if err := killed.Frontend.Flush(); err != nil {
			t.Fatal(err)
		}
		sleeping(t, schema)
		killed.Conn.Close()
	})
	admin, err := sql.Open("pgx", PostgresURL())
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	var left int
	if err := admin.QueryRow(`SELECT count(*) FROM pg_namespace WHERE nspname = $1`, schema).Scan(&left); err != nil || left != 0 {
		t.Fatalf("schema %s is still there (%d, %v)", schema, left, err)
	}
}

// sleeping waits until the statement marked with schema sleeps.
func sleeping(t *testing.T, schema string) {
	t.Helper()
	admin, err := sql.Open("pgx", PostgresURL())
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	deadline := time.Now().Add(30 * time.Second)
	for {
		var n int
		if err := admin.QueryRow(`SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'PgSleep' AND query LIKE '%' || $1`, schema).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 1 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the statement did not start in 30 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
