package auth

import (
	"context"
	"errors"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/httpx"
)

// Access is who may call an operation, recorded on each one so the guard
// enforces it and the authorisation matrix test reads it back.
//
// AccessUser admits any signed-in account; AccessVerified also requires a
// confirmed email, the gate the spec puts in front of the app itself
// (dashboard, question bank, practice); AccessAdmin requires the admin role
// (and, like every level but AccessSecondFactor, a passed second factor for
// admins). AccessSecondFactor admits only a browser halfway through an
// admin's sign-in: the right password given, the second factor still owed.
// The zero Access admits nobody.
type Access string

const (
	AccessPublic   Access = "public"
	AccessUser     Access = "user"
	AccessVerified Access = "verified"
	AccessAdmin    Access = "admin"

	AccessSecondFactor Access = "second-factor"
)

// accessKey is the operation metadata key holding the access level.
const accessKey = "access"

// AccessOf returns the access level op declares, if any.
func AccessOf(op *huma.Operation) (Access, bool) {
	a, ok := op.Metadata[accessKey].(Access)
	return a, ok
}

// admittedKey holds the caller the guard let through.
type admittedKey struct{}

// Guard enforces each operation's declared access level before its input
// is read, so a caller who may not use a route learns that first (401 or
// 403) rather than how to shape a valid request. It is the only access
// check: the caller it admits is handed to the handler by Register. An
// operation without a level is refused outright: a forgotten declaration
// fails closed. A signed-in user's reads take turns, MaxReadsInFlight at a
// time, so that no one user can occupy the server.
func Guard(api huma.API) func(huma.Context, func(huma.Context)) {
	reads := newTurns(MaxReadsInFlight)
	return func(hctx huma.Context, next func(huma.Context)) {
		ctx := hctx.Context()
		level, _ := AccessOf(hctx.Operation())
		u, err := User{}, errors.New("auth: operation declares no access level")
		if check, ok := admit[level]; ok {
			u, err = check(ctx)
		}
		if err != nil {
			status := http.StatusInternalServerError
			var se huma.StatusError
			if errors.As(httpx.ToHTTP(ctx, err), &se) {
				status = se.GetStatus()
			}
			_ = huma.WriteErr(api, hctx, status, messageOf(err))
			return
		}
		if u.ID != "" && hctx.Method() == http.MethodGet {
			release, err := reads.take(ctx, u.ID)
			if err != nil {
				return // the client went away while it waited
			}
			defer release()
		}
		next(huma.WithContext(hctx, context.WithValue(ctx, admittedKey{}, u)))
	}
}

// admit holds, for each access level, the check that admits a caller to
// it and returns them: on a public operation whoever is signed in, or the
// zero User when nobody is.
var admit = map[Access]func(context.Context) (User, error){
	AccessPublic: func(ctx context.Context) (User, error) {
		u, _ := UserFrom(ctx)
		return u, nil
	},
	AccessUser:     RequireUser,
	AccessVerified: RequireVerified,
	AccessAdmin:    RequireAdmin,

	AccessSecondFactor: requireHalfSignedIn,
}

func requireHalfSignedIn(ctx context.Context) (User, error) {
	if u, ok := HalfSignedInFrom(ctx); ok {
		return u, nil
	}
	if _, ok := UserFrom(ctx); ok {
		return User{}, apperr.Forbidden(MsgSignedInAlready)
	}
	return User{}, apperr.Unauthenticated(MsgSignInRequired)
}

func messageOf(err error) string {
	if e, ok := apperr.As(err); ok && e.Kind != apperr.KindInternal {
		return e.Message
	}
	return "Something went wrong on our side. Please try again."
}
