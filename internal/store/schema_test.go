package store_test

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

// TestSchemasAgree fails when the SQLite and PostgreSQL migrations drift
// apart. Every query is written once for both dialects, so a column, a NOT
// NULL, an index or a foreign key present in one dialect only is a bug that
// shows on one database alone, usually in production. The test migrates
// both and compares what the databases themselves report: tables, columns
// with their type family and nullability, primary keys, unique
// constraints, indexes (by name and columns) and foreign keys.
func TestSchemasAgree(t *testing.T) {
	t.Parallel()
	lite := describeSQLite(t, storetest.SQLite(t))
	pg := describePostgres(t, storetest.Postgres(t))
	var diff []string
	for _, f := range lite {
		if !slices.Contains(pg, f) {
			diff = append(diff, "  only in SQLite:     "+f)
		}
	}
	for _, f := range pg {
		if !slices.Contains(lite, f) {
			diff = append(diff, "  only in PostgreSQL: "+f)
		}
	}
	if len(diff) > 0 {
		t.Errorf("the SQLite and PostgreSQL migrations disagree; change internal/store/migrations/sqlite and postgres together:\n%s",
			strings.Join(diff, "\n"))
	}
}

// ownTable reports whether a table is ours to compare. River's tables
// (river_job, river_queue, river_leader, river_client, ...) come from the
// migrations River ships for each driver and differ by design: PostgreSQL
// has jsonb, an enum of job states, text arrays, a bit(8) and GIN indexes
// on river_job's args and metadata where SQLite has blobs, text and
// timestamps. goose_db_version is goose's own bookkeeping (a serial id on
// PostgreSQL, AUTOINCREMENT on SQLite, hence also sqlite_sequence).
func ownTable(name string) bool {
	return !strings.HasPrefix(name, "river_") && !strings.HasPrefix(name, "sqlite_") && name != "goose_db_version"
}

// typeFamily maps a declared column type to what the application relies on.
// The dialects spell types differently (DATETIME and TIMESTAMPTZ, INTEGER
// and BIGINT, REAL and DOUBLE PRECISION) and the drivers convert both
// spellings to the same Go values, so only the family must agree.
func typeFamily(t *testing.T, declared string) string {
	t.Helper()
	switch strings.ToLower(declared) {
	case "text", "character varying":
		return "text"
	case "integer", "bigint", "smallint":
		return "integer"
	case "real", "double precision":
		return "float"
	case "boolean":
		return "boolean"
	case "datetime", "timestamp with time zone":
		return "time"
	case "blob", "bytea":
		return "bytes"
	}
	t.Errorf("column type %q has no family: add it to typeFamily", declared)
	return declared
}

func nullability(notNull bool) string {
	if notNull {
		return "NOT NULL"
	}
	return "NULL"
}

// describeSQLite lists the schema's facts as SQLite reports them in
// sqlite_master and its table-valued pragmas.
func describeSQLite(t *testing.T, db *store.DB) []string {
	t.Helper()
	var facts []string
	for _, table := range queryStrings(t, db.SQL, `SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`) {
		if !ownTable(table) {
			continue
		}
		facts = append(facts, "table "+table)

		forEachRow(t, db.SQL, `SELECT name, type, "notnull", pk > 0 FROM pragma_table_info($1)`, []any{table}, func(rows *sql.Rows) error {
			var (
				name, declared string
				notNull, inKey bool
			)
			if err := rows.Scan(&name, &declared, &notNull, &inKey); err != nil {
				return err
			}
			// A primary key column is NOT NULL on PostgreSQL by definition;
			// SQLite's legacy rule lets it hold NULL unless it says NOT NULL.
			// No id is ever inserted as NULL, so both count as NOT NULL.
			facts = append(facts, fmt.Sprintf("column %s.%s %s %s", table, name, typeFamily(t, declared), nullability(notNull || inKey)))
			return nil
		})
		if pk := primaryKeySQLite(t, db.SQL, table); len(pk) > 0 {
			facts = append(facts, fmt.Sprintf("primary key %s (%s)", table, strings.Join(pk, ", ")))
		}

		// Buffered: the single SQLite connection cannot run the nested
		// pragma_index_info query while this one is open.
		type index struct {
			name, origin    string
			unique, partial bool
		}
		var indexes []index
		forEachRow(t, db.SQL, `SELECT name, "unique", origin, partial FROM pragma_index_list($1)`, []any{table}, func(rows *sql.Rows) error {
			var ix index
			if err := rows.Scan(&ix.name, &ix.unique, &ix.origin, &ix.partial); err != nil {
				return err
			}
			indexes = append(indexes, ix)
			return nil
		})
		for _, ix := range indexes {
			var cols []string
			forEachRow(t, db.SQL, `SELECT name FROM pragma_index_info($1) ORDER BY seqno`, []any{ix.name}, func(rows *sql.Rows) error {
				var name sql.NullString
				if err := rows.Scan(&name); err != nil {
					return err
				}
				cols = append(cols, columnOrExpression(name))
				return nil
			})
			switch ix.origin {
			case "pk": // described by the primary key above
			case "u":
				facts = append(facts, fmt.Sprintf("unique %s (%s)", table, strings.Join(cols, ", ")))
			default:
				facts = append(facts, indexFact(table, ix.name, ix.unique, ix.partial, cols))
			}
		}

		// One row per column of each foreign key, its columns in order.
		type foreignKey struct {
			from, to         []string
			parent, onDelete string
		}
		var fks []*foreignKey
		forEachRow(t, db.SQL, `SELECT id, "from", "table", "to", on_delete FROM pragma_foreign_key_list($1) ORDER BY id, seq`, []any{table}, func(rows *sql.Rows) error {
			var (
				id                     int
				from, parent, onDelete string
				to                     sql.NullString // NULL when the parent's primary key is meant
			)
			if err := rows.Scan(&id, &from, &parent, &to, &onDelete); err != nil {
				return err
			}
			if id >= len(fks) {
				fks = append(fks, &foreignKey{parent: parent, onDelete: onDelete})
			}
			fk := fks[id]
			fk.from = append(fk.from, from)
			if to.Valid {
				fk.to = append(fk.to, to.String)
			}
			return nil
		})
		for _, fk := range fks {
			if len(fk.to) == 0 {
				fk.to = primaryKeySQLite(t, db.SQL, fk.parent)
			}
			facts = append(facts, foreignKeyFact(table, fk.from, fk.parent, fk.to, fk.onDelete))
		}
	}
	slices.Sort(facts)
	return facts
}

// describePostgres lists the schema's facts as PostgreSQL reports them for
// the test's own schema, in information_schema and the pg_index and
// pg_constraint catalogs.
func describePostgres(t *testing.T, db *store.DB) []string {
	t.Helper()
	var facts []string
	tables := queryStrings(t, db.SQL, `SELECT table_name FROM information_schema.tables
		WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`)
	for _, table := range tables {
		if !ownTable(table) {
			continue
		}
		facts = append(facts, "table "+table)

		forEachRow(t, db.SQL, `SELECT column_name, data_type, is_nullable = 'NO' FROM information_schema.columns
			WHERE table_schema = current_schema() AND table_name = $1`, []any{table}, func(rows *sql.Rows) error {
			var name, declared string
			var notNull bool
			if err := rows.Scan(&name, &declared, &notNull); err != nil {
				return err
			}
			facts = append(facts, fmt.Sprintf("column %s.%s %s %s", table, name, typeFamily(t, declared), nullability(notNull)))
			return nil
		})

		// An index's key columns in order; an expression has no attribute
		// (indkey 0), and is reported the way SQLite reports one.
		forEachRow(t, db.SQL, `SELECT i.relname, ix.indisprimary, ix.indisunique, ix.indpred IS NOT NULL,
				EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = ix.indexrelid AND c.contype = 'u'),
				array_to_string(ARRAY(
					SELECT COALESCE(a.attname, '') FROM generate_series(0, ix.indnkeyatts - 1) AS k
					LEFT JOIN pg_attribute a ON a.attrelid = ix.indrelid AND a.attnum = ix.indkey[k]
					ORDER BY k), ',')
			FROM pg_index ix
			JOIN pg_class i ON i.oid = ix.indexrelid
			WHERE ix.indrelid = (quote_ident(current_schema()) || '.' || quote_ident($1))::regclass`, []any{table}, func(rows *sql.Rows) error {
			var name, columns string
			var primary, unique, partial, constraint bool
			if err := rows.Scan(&name, &primary, &unique, &partial, &constraint, &columns); err != nil {
				return err
			}
			var cols []string
			for _, c := range strings.Split(columns, ",") {
				cols = append(cols, columnOrExpression(sql.NullString{String: c, Valid: c != ""}))
			}
			switch {
			case primary:
				facts = append(facts, fmt.Sprintf("primary key %s (%s)", table, strings.Join(cols, ", ")))
			case constraint:
				facts = append(facts, fmt.Sprintf("unique %s (%s)", table, strings.Join(cols, ", ")))
			default:
				facts = append(facts, indexFact(table, name, unique, partial, cols))
			}
			return nil
		})

		forEachRow(t, db.SQL, `SELECT parent.relname,
				array_to_string(ARRAY(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY AS k(attnum, n)
					JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum ORDER BY k.n), ','),
				array_to_string(ARRAY(SELECT a.attname FROM unnest(c.confkey) WITH ORDINALITY AS k(attnum, n)
					JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum ORDER BY k.n), ','),
				c.confdeltype
			FROM pg_constraint c
			JOIN pg_class parent ON parent.oid = c.confrelid
			WHERE c.contype = 'f' AND c.conrelid = (quote_ident(current_schema()) || '.' || quote_ident($1))::regclass`, []any{table}, func(rows *sql.Rows) error {
			var parent, from, to, action string
			if err := rows.Scan(&parent, &from, &to, &action); err != nil {
				return err
			}
			facts = append(facts, foreignKeyFact(table, strings.Split(from, ","), parent, strings.Split(to, ","), postgresDeleteAction[action]))
			return nil
		})
	}
	slices.Sort(facts)
	return facts
}

// primaryKeySQLite lists a table's primary key columns in key order.
func primaryKeySQLite(t *testing.T, db *sql.DB, table string) []string {
	t.Helper()
	return queryStrings(t, db, `SELECT name FROM pragma_table_info($1) WHERE pk > 0 ORDER BY pk`, table)
}

// postgresDeleteAction spells pg_constraint.confdeltype the way SQLite's
// pragma_foreign_key_list does.
var postgresDeleteAction = map[string]string{
	"a": "NO ACTION", "r": "RESTRICT", "c": "CASCADE", "n": "SET NULL", "d": "SET DEFAULT",
}

// columnOrExpression names an index key. Neither database reports an
// expression key in a form the other would spell the same way, so only
// its place among the columns is compared.
func columnOrExpression(name sql.NullString) string {
	if !name.Valid {
		return "<expression>"
	}
	return name.String
}

func indexFact(table, name string, unique, partial bool, cols []string) string {
	kind := "index"
	if unique {
		kind = "unique index"
	}
	if partial {
		kind = "partial " + kind
	}
	return fmt.Sprintf("%s %s on %s (%s)", kind, name, table, strings.Join(cols, ", "))
}

func foreignKeyFact(table string, from []string, parent string, to []string, onDelete string) string {
	return fmt.Sprintf("foreign key %s (%s) references %s (%s) on delete %s",
		table, strings.Join(from, ", "), parent, strings.Join(to, ", "), onDelete)
}

func queryStrings(t *testing.T, db *sql.DB, query string, args ...any) []string {
	t.Helper()
	var out []string
	forEachRow(t, db, query, args, func(rows *sql.Rows) error {
		var s string
		if err := rows.Scan(&s); err != nil {
			return err
		}
		out = append(out, s)
		return nil
	})
	return out
}

func forEachRow(t *testing.T, db *sql.DB, query string, args []any, fn func(*sql.Rows) error) {
	t.Helper()
	rows, err := db.QueryContext(context.Background(), query, args...)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			t.Fatalf("%s: %v", query, err)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}
