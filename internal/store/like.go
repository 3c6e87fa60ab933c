package store

import "strings"

// likeEscaper escapes LIKE's wildcards so user input matches literally;
// pair it with ESCAPE '\', which both dialects read as one backslash.
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// ContainsPattern returns a LIKE pattern matching text that contains s, in
// lower case: bind it to DB.Contains's placeholder, or compare it with
// lower(column).
func ContainsPattern(s string) string {
	return "%" + likeEscaper.Replace(strings.ToLower(s)) + "%"
}

// Contains returns a condition that holds where column contains the text
// of arg, a placeholder bound to a ContainsPattern, ignoring case. SQLite's
// LIKE already ignores ASCII case, and leaving out a lower() call per row
// halves the cost of the full scan a search needs; PostgreSQL needs ILIKE.
func (db *DB) Contains(column, arg string) string {
	op := "LIKE"
	if db.Dialect == Postgres {
		op = "ILIKE"
	}
	return column + " " + op + " " + arg + ` ESCAPE '\'`
}
