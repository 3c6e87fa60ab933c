package auth

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/humatest"
)

type whoOutput struct {
	Body struct {
		Email string `json:"email"`
	}
}

func who(_ context.Context, u User, _ *struct{}) (*whoOutput, error) {
	out := &whoOutput{}
	out.Body.Email = u.Email
	return out, nil
}

// newWhoAPI serves GET /who at level, for a caller signed in as u (nobody
// when u is nil), behind the guard unless guarded is false.
func newWhoAPI(t *testing.T, level Access, u *User, guarded bool) humatest.TestAPI {
	_, api := humatest.New(t)
	if u != nil {
		api.UseMiddleware(func(hctx huma.Context, next func(huma.Context)) {
			next(huma.WithContext(hctx, WithUser(hctx.Context(), *u, Session{})))
		})
	}
	if guarded {
		api.UseMiddleware(Guard(api))
	}
	Register(api, Endpoint{ID: "who", Method: http.MethodGet, Path: "/who", Access: level}, who)
	return api
}

// The guard is the one access check: it refuses callers below the
// endpoint's level and hands the caller it admits to the handler.
func TestGuardHandsTheAdmittedUserToTheHandler(t *testing.T) {
	verified := &User{Email: "ana@example.com", EmailVerified: true}
	for _, tc := range []struct {
		name   string
		level  Access
		caller *User
		status int
		body   string
	}{
		{"anonymous on a verified route", AccessVerified, nil, http.StatusUnauthorized, MsgSignInRequired},
		{"unverified on a verified route", AccessVerified, &User{Email: "una@example.com"}, http.StatusForbidden, MsgVerifyFirst},
		{"verified on a verified route", AccessVerified, verified, http.StatusOK, verified.Email},
		{"verified on an admin route", AccessAdmin, verified, http.StatusForbidden, MsgAdminsOnly},
		{"anonymous on a public route", AccessPublic, nil, http.StatusOK, `"email":""`},
		{"signed in on a public route", AccessPublic, verified, http.StatusOK, verified.Email},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := newWhoAPI(t, tc.level, tc.caller, true).Get("/who")
			if resp.Code != tc.status || !strings.Contains(resp.Body.String(), tc.body) {
				t.Fatalf("%d %s; want %d with %q", resp.Code, resp.Body, tc.status, tc.body)
			}
		})
	}
}

// Without the guard nobody checked the caller, so the handler never runs.
func TestEndpointFailsClosedWithoutTheGuard(t *testing.T) {
	resp := newWhoAPI(t, AccessPublic, &User{Email: "ana@example.com", EmailVerified: true}, false).Get("/who")
	if resp.Code != http.StatusInternalServerError || strings.Contains(resp.Body.String(), "ana@example.com") {
		t.Fatalf("%d %s; want 500", resp.Code, resp.Body)
	}
}

func TestRegisterRefusesAnEndpointWithoutAnAccessLevel(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("registered an endpoint that declares no access level")
		}
	}()
	newWhoAPI(t, "", nil, true)
}
