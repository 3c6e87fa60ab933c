package app

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2"

	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/route"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

// caller is one kind of client the authorisation matrix tries every route as.
type caller struct {
	name string
	b    *browser
	// level is the highest access level the caller holds.
	level route.Access
}

// accessRank orders the levels: a caller reaches every level up to its own.
// AccessSecondFactor is outside the order: only a half-signed-in admin
// holds it, and that caller holds nothing else but public.
var accessRank = map[route.Access]int{route.AccessPublic: 0, route.AccessUser: 1, route.AccessVerified: 2, route.AccessAdmin: 3, route.AccessSecondFactor: 4}

// holds reports whether a caller at level may call an operation at access.
func holds(level, access route.Access) bool {
	if level == route.AccessSecondFactor {
		return access == route.AccessPublic || access == route.AccessSecondFactor
	}
	return access != route.AccessSecondFactor && accessRank[level] >= accessRank[access]
}

// bodies are minimal valid request bodies, so an allowed caller gets past
// validation and the route's real work runs; routes not listed get {}.
var bodies = map[string]any{
	"admin-create-question": map[string]any{"text": "Matrix question?", "mainTags": []string{"dental"}},
	"admin-update-question": map[string]any{"text": "Matrix question, edited?", "mainTags": []string{"medical"}},
}

var pathParam = regexp.MustCompile(`\{([^}]+)\}`)

// TestAuthorisationMatrix walks every operation the API registers and calls
// it as anonymous, unverified, verified user, another user and admin. The
// expected status comes from the operation's access level, so a new route
// is covered the moment it exists, and one without a level fails.
func TestAuthorisationMatrix(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		// Payments on (the development checkout), so that an allowed caller
		// of checkout gets its real answer, not "not set up".
		app := newTestApp(t, db, devCheckout)
		if _, err := app.questions.Seed(ctx); err != nil {
			t.Fatal(err)
		}
		bank, err := app.questions.Questions(ctx, "dental")
		if err != nil || len(bank) == 0 {
			t.Fatalf("no questions to address: %v", err)
		}
		params := map[string]string{"id": bank[0].ID, "slug": "dental"}

		account := func(name, email, ip string, role auth.Role) *browser {
			if _, err := app.auth.CreateUser(ctx, name, email, pw, role); err != nil {
				t.Fatal(err)
			}
			b := app.browser(t, ip)
			if role == auth.RoleAdmin {
				b.enrolAdmin(email, pw)
			} else {
				wantStatus(t, b.login(email, pw), http.StatusOK)
			}
			return b
		}
		unverified := app.browser(t, "10.2.0.1")
		unverified.signupAndLogin("Una Verified", "unverified@example.com", pw)
		if _, err := app.auth.CreateUser(ctx, "Pat Pending", "pending@example.com", pw, auth.RoleAdmin); err != nil {
			t.Fatal(err)
		}
		halfSignedIn := app.browser(t, "10.1.0.4")
		wantStatus(t, halfSignedIn.login("pending@example.com", pw), http.StatusOK)
		user := account("Uma User", "user@example.com", "10.1.0.1", auth.RoleUser)
		callers := []caller{
			{"anonymous", app.browser(t, "10.3.0.1"), route.AccessPublic},
			{"unverified", unverified, route.AccessUser},
			{"user", user, route.AccessVerified},
			// Routes must answer another user without the first user's data.
			{"other user", account("Otto Other", "other@example.com", "10.1.0.2", auth.RoleUser), route.AccessVerified},
			// Admin goes last: its writes (delete) must not hide what the
			// others would have been refused.
			{"admin", account("Ada Admin", "admin@example.com", "10.1.0.3", auth.RoleAdmin), route.AccessAdmin},
			// An admin who gave the password but not yet the second factor
			// is signed in to nothing but the second-factor step.
			{"admin before the second factor", halfSignedIn, route.AccessSecondFactor},
		}

		ops := operations(app.api)
		if len(ops) < 15 {
			t.Fatalf("found only %d operations; the walk is not reading the router", len(ops))
		}
		for _, op := range ops {
			t.Run(op.OperationID, func(t *testing.T) {
				access, _ := route.AccessOf(op)
				if _, known := accessRank[access]; !known {
					t.Fatalf("%s %s has no known access level (%q); declare it with route.Endpoint and route.Register",
						op.Method, op.Path, access)
				}
				path := pathParam.ReplaceAllStringFunc(op.Path, func(m string) string {
					if v, ok := params[m[1:len(m)-1]]; ok {
						return v
					}
					return "0123456789abcdef0123456789abcdef"
				})
				for _, c := range callers {
					r := call(t, c.b, op, path)
					allowed := holds(c.level, access)
					signedIn := c.level != route.AccessPublic && c.level != route.AccessSecondFactor
					switch {
					case r.Status >= 500:
						t.Errorf("%s: %s %s answered %d: %s", c.name, op.Method, path, r.Status, r.Body)
					case !allowed && !signedIn && r.Status != http.StatusUnauthorized:
						t.Errorf("%s: %s %s (%s) answered %d, want 401", c.name, op.Method, path, access, r.Status)
					case !allowed && signedIn && r.Status != http.StatusForbidden:
						t.Errorf("%s: %s %s (%s) answered %d, want 403", c.name, op.Method, path, access, r.Status)
					case allowed && access != route.AccessPublic && (r.Status == http.StatusUnauthorized || r.Status == http.StatusForbidden):
						t.Errorf("%s: %s %s (%s) answered %d, want access", c.name, op.Method, path, access, r.Status)
					case c.name == "other user" && bytes.Contains(r.Body, []byte(`"user@example.com"`)):
						t.Errorf("%s: %s %s leaked the first user's data: %s", c.name, op.Method, path, r.Body)
					}
				}
			})
		}
	})
}

// operations lists every operation in the API's OpenAPI document, sorted
// so failures read the same on every run.
func operations(api huma.API) []*huma.Operation {
	var ops []*huma.Operation
	for _, item := range api.OpenAPI().Paths {
		for _, op := range []*huma.Operation{item.Get, item.Put, item.Post, item.Delete, item.Options, item.Head, item.Patch, item.Trace} {
			if op != nil {
				ops = append(ops, op)
			}
		}
	}
	// Logging out ends the callers' sessions, so it goes last.
	slices.SortFunc(ops, func(a, b *huma.Operation) int {
		if (a.OperationID == "logout") != (b.OperationID == "logout") {
			if a.OperationID == "logout" {
				return 1
			}
			return -1
		}
		return strings.Compare(a.OperationID, b.OperationID)
	})
	return ops
}

func call(t *testing.T, b *browser, op *huma.Operation, path string) response {
	t.Helper()
	if op.RequestBody == nil {
		return b.do(op.Method, path, nil, nil)
	}
	body, ok := bodies[op.OperationID]
	if !ok {
		body = map[string]any{}
	}
	data, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	return b.do(op.Method, path, bytes.NewReader(data), map[string]string{"Content-Type": "application/json"})
}
