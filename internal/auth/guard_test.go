package auth

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/humatest"

	"github.com/whitecoat/whitecoat/internal/route"
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
// when u is nil) with session sess, behind the guard admitting with Admit.
func newWhoAPI(t *testing.T, level route.Access, u *User, sess Session) humatest.TestAPI {
	_, api := humatest.New(t)
	if u != nil {
		api.UseMiddleware(func(hctx huma.Context, next func(huma.Context)) {
			next(huma.WithContext(hctx, WithUser(hctx.Context(), *u, sess)))
		})
	}
	api.UseMiddleware(route.Guard(api, Admit))
	route.Register(api, route.Endpoint{ID: "who", Method: http.MethodGet, Path: "/who", Access: level}, who)
	return api
}

// Admit is the guard's one access check: it refuses callers below the
// endpoint's level, and the guard hands the caller it admits to the handler.
func TestGuardHandsTheAdmittedUserToTheHandler(t *testing.T) {
	verified := &User{Email: "ana@example.com", EmailVerified: true}
	admin := &User{Email: "ada@example.com", EmailVerified: true, Role: RoleAdmin}
	passed := time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name   string
		level  route.Access
		caller *User
		// secondFactor says whether the caller's session passed a second factor.
		secondFactor bool
		status       int
		body         string
	}{
		{"anonymous on a verified route", route.AccessVerified, nil, false, http.StatusUnauthorized, MsgSignInRequired},
		{"unverified on a verified route", route.AccessVerified, &User{Email: "una@example.com"}, false, http.StatusForbidden, MsgVerifyFirst},
		{"verified on a verified route", route.AccessVerified, verified, false, http.StatusOK, verified.Email},
		{"verified on an admin route", route.AccessAdmin, verified, false, http.StatusForbidden, MsgAdminsOnly},
		{"anonymous on a public route", route.AccessPublic, nil, false, http.StatusOK, `"email":""`},
		{"signed in on a public route", route.AccessPublic, verified, false, http.StatusOK, verified.Email},
		// An admin's password alone signs nothing in, not even as a user.
		{"admin before the second factor on an admin route", route.AccessAdmin, admin, false, http.StatusUnauthorized, MsgSignInRequired},
		{"admin before the second factor on a user route", route.AccessUser, admin, false, http.StatusUnauthorized, MsgSignInRequired},
		{"admin before the second factor on a public route", route.AccessPublic, admin, false, http.StatusOK, `"email":""`},
		{"admin before the second factor on the second-factor route", route.AccessSecondFactor, admin, false, http.StatusOK, admin.Email},
		{"admin after the second factor on an admin route", route.AccessAdmin, admin, true, http.StatusOK, admin.Email},
		{"admin after the second factor on the second-factor route", route.AccessSecondFactor, admin, true, http.StatusForbidden, MsgSignedInAlready},
		{"anonymous on the second-factor route", route.AccessSecondFactor, nil, false, http.StatusUnauthorized, MsgSignInRequired},
		{"user on the second-factor route", route.AccessSecondFactor, verified, false, http.StatusForbidden, MsgSignedInAlready},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var sess Session
			if tc.secondFactor {
				sess.SecondFactorAt = &passed
			}
			resp := newWhoAPI(t, tc.level, tc.caller, sess).Get("/who")
			if resp.Code != tc.status || !strings.Contains(resp.Body.String(), tc.body) {
				t.Fatalf("%d %s; want %d with %q", resp.Code, resp.Body, tc.status, tc.body)
			}
		})
	}
}
