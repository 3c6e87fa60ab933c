package auth

import (
	"context"
	"fmt"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/route"
)

// Admit is the admission route.Guard runs for every operation: it returns
// the caller if they hold level, or the error that fits (401 for nobody
// signed in, 403 for someone without the level).
func Admit(ctx context.Context, level route.Access) (User, error) {
	check, ok := admit[level]
	if !ok {
		return User{}, fmt.Errorf("auth: no admission for access level %q", level)
	}
	return check(ctx)
}

// admit holds, for each access level, the check that admits a caller to
// it and returns them: on a public operation whoever is signed in, or the
// zero User when nobody is.
var admit = map[route.Access]func(context.Context) (User, error){
	route.AccessPublic: func(ctx context.Context) (User, error) {
		u, _ := UserFrom(ctx)
		return u, nil
	},
	route.AccessUser:     RequireUser,
	route.AccessVerified: RequireVerified,
	route.AccessAdmin:    RequireAdmin,

	route.AccessSecondFactor: requireHalfSignedIn,
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

// TakeReadTurns is the middleware, after route.Guard, by which a signed-in
// user's reads take turns, MaxReadsInFlight at a time, so that no one user
// can occupy the server.
func TakeReadTurns() func(huma.Context, func(huma.Context)) {
	reads := newTurns(MaxReadsInFlight)
	return func(hctx huma.Context, next func(huma.Context)) {
		if u, _ := route.Caller[User](hctx.Context()); u.ID != "" && hctx.Method() == http.MethodGet {
			release, err := reads.take(hctx.Context(), u.ID)
			if err != nil {
				return // the client went away while it waited
			}
			defer release()
		}
		next(hctx)
	}
}
