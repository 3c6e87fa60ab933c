package app

import (
	"net/http"
	"testing"

	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

// /readyz answered ready on PostgreSQL after the schema was gone: it only
// pinged the connection. It now also asks whether the migrations this
// binary carries are the ones applied and whether its tables are there.
func TestReadyzWantsTheSchema(t *testing.T) {
	t.Parallel()
	for name, drop := range map[string]string{
		"the migrations' record": "DROP TABLE goose_db_version",
		"a table":                "DROP TABLE users",
	} {
		t.Run(name, func(t *testing.T) {
			storetest.Each(t, func(t *testing.T, db *store.DB) {
				app := newTestApp(t, db, nil)
				b := app.browser(t, "10.0.0.1")
				wantStatus(t, b.get("/readyz"), http.StatusOK)
				stmt := drop
				if db.Dialect == store.Postgres {
					stmt += " CASCADE"
				}
				if _, err := db.SQL.Exec(stmt); err != nil {
					t.Fatal(err)
				}
				wantStatus(t, b.get("/readyz"), http.StatusServiceUnavailable)
			})
		})
	}
	// What the probe saw: the whole schema dropped and made again, empty.
	t.Run("an emptied schema", func(t *testing.T) {
		db := storetest.Postgres(t)
		app := newTestApp(t, db, nil)
		b := app.browser(t, "10.0.0.1")
		wantStatus(t, b.get("/readyz"), http.StatusOK)
		if _, err := db.SQL.Exec("DROP SCHEMA " + db.Schema + " CASCADE; CREATE SCHEMA " + db.Schema); err != nil {
			t.Fatal(err)
		}
		wantStatus(t, b.get("/readyz"), http.StatusServiceUnavailable)
	})
}
