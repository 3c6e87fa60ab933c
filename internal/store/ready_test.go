package store_test

import (
	"testing"

	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

func TestCheckSchema(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := t.Context()
		if err := db.CheckSchema(ctx); err != nil {
			t.Fatalf("freshly migrated: %v", err)
		}
		// A newer copy's migration, during a rolling deploy, keeps this one ready.
		if _, err := db.SQL.ExecContext(ctx, `INSERT INTO goose_db_version (version_id, is_applied) VALUES (999999, true)`); err != nil {
			t.Fatal(err)
		}
		if err := db.CheckSchema(ctx); err != nil {
			t.Fatalf("with a newer migration applied: %v", err)
		}
		// A database restored from before this binary's last migration is not.
		if _, err := db.SQL.ExecContext(ctx, `DELETE FROM goose_db_version WHERE version_id = (SELECT MAX(version_id) FROM goose_db_version WHERE version_id < 999999)`); err != nil {
			t.Fatal(err)
		}
		if err := db.CheckSchema(ctx); err == nil {
			t.Fatal("ready without this binary's last migration")
		}
	})
}
