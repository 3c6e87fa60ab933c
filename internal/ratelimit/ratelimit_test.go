package ratelimit

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

// Once a key is over its limit, further attempts are refused without a
// database write: here the database is gone, and the refusal still holds
// until the window ends, when the database is asked again.
func TestRefusedKeysCostNoDatabaseWrite(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		clock := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
		l := New(db, func() time.Time { return clock })
		rule := Rule{Limit: 2, Window: time.Minute}
		for i := range 2 {
			if ok, _, err := l.Hit(ctx, "reset:ip:10.0.0.1", rule); !ok || err != nil {
				t.Fatalf("attempt %d: allowed=%v err=%v", i+1, ok, err)
			}
		}
		if ok, retry, err := l.Hit(ctx, "reset:ip:10.0.0.1", rule); ok || err != nil || retry != time.Minute {
			t.Fatalf("third attempt: allowed=%v retry=%v err=%v, want refused for a minute", ok, retry, err)
		}
		db.SQL.Close()
		clock = clock.Add(20 * time.Second)
		for range 100 {
			if ok, retry, err := l.Hit(ctx, "reset:ip:10.0.0.1", rule); ok || err != nil || retry != 40*time.Second {
				t.Fatalf("refused attempt: allowed=%v retry=%v err=%v, want refused for 40 s without the database", ok, retry, err)
			}
		}
		clock = clock.Add(40 * time.Second)
		if _, _, err := l.Hit(ctx, "reset:ip:10.0.0.1", rule); err == nil {
			t.Fatal("after the window the database must be asked again (it is closed here)")
		}
	})
}

func TestResetForgetsARefusal(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.SQLite(t)
	l := New(db, time.Now)
	rule := Rule{Limit: 1, Window: time.Hour}
	if ok, _, err := l.Hit(ctx, "login:pair:a|b", rule); !ok || err != nil {
		t.Fatalf("first attempt: allowed=%v err=%v", ok, err)
	}
	if ok, _, _ := l.Hit(ctx, "login:pair:a|b", rule); ok {
		t.Fatal("second attempt allowed")
	}
	if err := l.Reset(ctx, "login:pair:a|b"); err != nil {
		t.Fatal(err)
	}
	if ok, _, err := l.Hit(ctx, "login:pair:a|b", rule); !ok || err != nil {
		t.Fatalf("after Reset: allowed=%v err=%v", ok, err)
	}
}

// Forget removes the keys that end with an identity, and only those: a
// refusal remembered in memory goes too.
func TestForgetRemovesEveryKeyOfAnIdentity(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		l := New(db, time.Now)
		rule := Rule{Limit: 1, Window: time.Hour}
		keys := []string{"login:account:ana@example.com", "signup:email:ana@example.com", "second-factor:user:u1",
			"login:account:hana@example.com", "login:ip:10.0.0.1", "second-factor:user:xu1"}
		for _, key := range keys {
			for range 2 {
				if _, _, err := l.Hit(ctx, key, rule); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := l.Forget(ctx, db.SQL, "ana@example.com", "u1", ""); err != nil {
			t.Fatal(err)
		}
		var left []string
		rows, err := db.SQL.QueryContext(ctx, `SELECT key FROM rate_limits ORDER BY key`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var k string
			if err := rows.Scan(&k); err != nil {
				t.Fatal(err)
			}
			left = append(left, k)
		}
		if want := []string{"login:account:hana@example.com", "login:ip:10.0.0.1", "second-factor:user:xu1"}; strings.Join(left, " ") != strings.Join(want, " ") {
			t.Fatalf("left %v, want %v", left, want)
		}
		if ok, _, err := l.Hit(ctx, "login:account:ana@example.com", rule); !ok || err != nil {
			t.Fatalf("a forgotten key is still refused: allowed=%v err=%v", ok, err)
		}
	})
}
