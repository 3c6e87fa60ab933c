package auth

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

// adminTestUsers stores accounts directly: hashing real passwords would
// only slow the test down.
func adminTestUsers(t *testing.T, db *store.DB) []User {
	t.Helper()
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	names := []string{"Ana Smith", "bob jones", "Carla Smithers", "Dan O'Neil", "Eve 100% Real", "Fay Under_Score", "Gus smith"}
	var users []User
	for i, name := range names {
		u := User{
			ID: fmt.Sprintf("u%02d", i), Name: name, Email: fmt.Sprintf("user%d@%s.example", i, strings.ToLower(strings.Fields(name)[0])),
			CreatedAt: base.Add(time.Duration(i) * time.Hour), TrialExpiresAt: base.Add(time.Duration(len(names)-i) * 24 * time.Hour),
			Role: RoleUser, EmailVerified: i%2 == 0, passwordHash: "x",
		}
		if i == 3 {
			u.Role = RoleAdmin
		}
		if created, err := insertUserIfNew(context.Background(), db.SQL, u); err != nil || !created {
			t.Fatal(created, err)
		}
		if _, err := db.SQL.Exec(`UPDATE users SET usage_count = $1 WHERE id = $2`, (i*3)%5, u.ID); err != nil {
			t.Fatal(err)
		}
		users = append(users, u)
	}
	return users
}

func ids(list UserList) string {
	out := make([]string, len(list.Users))
	for i, u := range list.Users {
		out[i] = u.ID
	}
	return strings.Join(out, ",")
}

func TestListUsersSearchSortAndPage(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		svc := newTestService(db, DefaultArgon2)
		adminTestUsers(t, db)
		tests := []struct {
			name      string
			query     UserQuery
			wantIDs   string
			wantTotal int
		}{
			{"default is newest first", UserQuery{PageSize: 3}, "u06,u05,u04", 7},
			{"name search ignores case", UserQuery{Q: "SMITH", Sort: "name", Order: "asc", PageSize: 10}, "u00,u02,u06", 3},
			{"email search", UserQuery{Q: "@bob.", PageSize: 10}, "u01", 1},
			{"percent matches literally", UserQuery{Q: "%", PageSize: 10}, "u04", 1},
			{"underscore matches literally", UserQuery{Q: "_", PageSize: 10}, "u05", 1},
			{"no match", UserQuery{Q: "zzz", PageSize: 10}, "", 0},
			{"name sort ignores case", UserQuery{Sort: "name", Order: "asc", PageSize: 3}, "u00,u01,u02", 7},
			{"email descending", UserQuery{Sort: "email", Order: "desc", PageSize: 2}, "u06,u05", 7},
			{"trial end ascending", UserQuery{Sort: "trialExpiresAt", Order: "asc", PageSize: 2}, "u06,u05", 7},
			{"usage then id", UserQuery{Sort: "usageCount", Order: "desc", PageSize: 3}, "u03,u06,u01", 7},
			{"role", UserQuery{Sort: "role", Order: "asc", PageSize: 1}, "u03", 7},
			{"second page", UserQuery{Sort: "createdAt", Order: "asc", Page: 2, PageSize: 3}, "u03,u04,u05", 7},
			{"past the end", UserQuery{Page: 9, PageSize: 3}, "", 7},
			{"page size capped", UserQuery{PageSize: 1000}, "u06,u05,u04,u03,u02,u01,u00", 7},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				list, err := svc.ListUsers(context.Background(), tt.query)
				if err != nil {
					t.Fatal(err)
				}
				if got := ids(list); got != tt.wantIDs || list.Total != tt.wantTotal {
					t.Fatalf("got [%s] of %d, want [%s] of %d", got, list.Total, tt.wantIDs, tt.wantTotal)
				}
				if list.PageSize > 100 {
					t.Fatalf("page size %d above the cap", list.PageSize)
				}
			})
		}
	})
}

func TestListUsersRowShape(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		svc := newTestService(db, DefaultArgon2)
		users := adminTestUsers(t, db)
		list, err := svc.ListUsers(context.Background(), UserQuery{Q: "o'neil"})
		if err != nil || len(list.Users) != 1 {
			t.Fatalf("%v, %+v", err, list)
		}
		got, want := list.Users[0], users[3]
		if got.Name != want.Name || got.Email != want.Email || got.Role != RoleAdmin || got.EmailVerified != want.EmailVerified ||
			got.UsageCount != 4 || !got.TrialExpiresAt.Equal(want.TrialExpiresAt) || !got.CreatedAt.Equal(want.CreatedAt) || got.HasPaid {
			t.Fatalf("row %+v does not match stored user %+v", got, want)
		}
		if got.CreatedAt.Location() != time.UTC || got.TrialExpiresAt.Location() != time.UTC {
			t.Fatalf("times not in UTC: %v", got.CreatedAt)
		}
	})
}
