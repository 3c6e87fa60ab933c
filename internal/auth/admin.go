package auth

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/whitecoat/whitecoat/internal/httpx"
	"github.com/whitecoat/whitecoat/internal/route"
	"github.com/whitecoat/whitecoat/internal/store"
)

// UserSummary is one row of the admin users table. Auth fills in the
// account's columns; the Premium pass (hasPaid, subscriptionEndsAt) and
// sharedSessions are other domains', filled in through Across.Listed.
type UserSummary struct {
	ID             string    `json:"id"`
	Name           string    `json:"name"`
	Email          string    `json:"email"`
	EmailVerified  bool      `json:"emailVerified"`
	TrialExpiresAt time.Time `json:"trialExpiresAt"`
	HasPaid        bool      `json:"hasPaid"`
	// SubscriptionEndsAt is when the Premium pass ends ("Premium until");
	// null for an account that never paid.
	SubscriptionEndsAt *time.Time `json:"subscriptionEndsAt"`
	UsageCount         int        `json:"usageCount"`
	Role               Role       `json:"role" enum:"user,admin"`
	CreatedAt          time.Time  `json:"createdAt"`
	// SharedSessions is how many saved sessions the account shows through
	// a working link: that it shares, never what reviewers wrote.
	SharedSessions int `json:"sharedSessions"`
}

// UserQuery is a search, sort and page of the admin users table.
type UserQuery struct {
	Q        string           `query:"q" maxLength:"200" doc:"Matches name or email, case-insensitively, anywhere in the text."`
	Sort     string           `query:"sort" enum:"name,email,createdAt,trialExpiresAt,usageCount,role" default:"createdAt"`
	Order    string           `query:"order" enum:"asc,desc" default:"desc"`
	Page     httpx.PageNumber `query:"page"`
	PageSize UsersPageSize    `query:"pageSize" minimum:"1"`
}

// Page sizes of the admin users table.
const (
	DefaultUsersPageSize = 25
	MaxUsersPageSize     = 100
)

// UsersPageSize is a named type so that its schema can publish the page
// sizes ListUsers applies (Huma transforms the schemas of named types only).
type UsersPageSize int

// TransformSchema implements huma.SchemaTransformer.
func (UsersPageSize) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	most := float64(MaxUsersPageSize)
	s.Maximum, s.Default = &most, DefaultUsersPageSize
	return s
}

// UserList is one page of the admin users table.
type UserList struct {
	Users    []UserSummary `json:"users"`
	Total    int           `json:"total"`
	Page     int           `json:"page"`
	PageSize int           `json:"pageSize"`
}

// userSortColumns maps the API's sort names to expressions the users
// indexes cover; name sorts case-insensitively, as people read names.
var userSortColumns = map[string]string{
	"name":           "lower(name)",
	"email":          "email",
	"createdAt":      "created_at",
	"trialExpiresAt": "trial_expires_at",
	"usageCount":     "usage_count",
	"role":           "role",
}

// ListUsers returns one page of accounts for the admin users table.
func (s *Service) ListUsers(ctx context.Context, uq UserQuery) (UserList, error) {
	col, ok := userSortColumns[uq.Sort]
	if !ok {
		col = userSortColumns["createdAt"]
	}
	dir := "DESC"
	if uq.Order == "asc" {
		dir = "ASC"
	}
	page, size := store.Page(int(uq.Page)), int(uq.PageSize)
	if size < 1 {
		size = DefaultUsersPageSize
	}
	size = min(size, MaxUsersPageSize)
	where, args := "", []any{}
	if q := strings.TrimSpace(uq.Q); q != "" {
		where = ` WHERE ` + s.db.Contains("name", "$1") + ` OR ` + s.db.Contains("email", "$1")
		args = append(args, store.ContainsPattern(q))
	}
	out := UserList{Users: []UserSummary{}, Page: page, PageSize: size}
	if err := s.db.SQL.QueryRowContext(ctx, `SELECT count(*) FROM users`+where, args...).Scan(&out.Total); err != nil {
		return UserList{}, fmt.Errorf("auth: count users: %w", err)
	}
	// id breaks ties so pages neither repeat nor skip rows.
	rows, err := s.db.SQL.QueryContext(ctx, `SELECT id, name, email, email_verified, trial_expires_at, usage_count, role, created_at
		FROM users`+where+` ORDER BY `+col+` `+dir+`, id `+dir+` LIMIT `+strconv.Itoa(size)+` OFFSET `+strconv.Itoa((page-1)*size), args...)
	if err != nil {
		return UserList{}, fmt.Errorf("auth: list users: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var u UserSummary
		if err := rows.Scan(&u.ID, &u.Name, &u.Email, &u.EmailVerified, &u.TrialExpiresAt, &u.UsageCount, &u.Role, &u.CreatedAt); err != nil {
			return UserList{}, fmt.Errorf("auth: list users: %w", err)
		}
		u.TrialExpiresAt, u.CreatedAt = u.TrialExpiresAt.UTC(), u.CreatedAt.UTC()
		out.Users = append(out.Users, u)
	}
	if err := rows.Err(); err != nil {
		return UserList{}, fmt.Errorf("auth: list users: %w", err)
	}
	return out, nil
}

type userListOutput struct{ Body UserList }

// RegisterAdminRoutes adds the admin console's account endpoints to api.
func (h *Handler) RegisterAdminRoutes(api huma.API) {
	route.Register(api, route.Endpoint{ID: "admin-list-users", Method: http.MethodGet, Path: "/api/admin/users",
		Summary: "List, search and sort accounts", Tags: []string{"Admin"}, Access: route.AccessAdmin}, h.listUsers)
}

func (h *Handler) listUsers(ctx context.Context, _ User, in *UserQuery) (*userListOutput, error) {
	list, err := h.svc.ListUsers(ctx, *in)
	if err != nil {
		return nil, err
	}
	if err := h.across.Listed(ctx, list.Users); err != nil {
		return nil, err
	}
	return &userListOutput{Body: list}, nil
}
