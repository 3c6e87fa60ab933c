package route

import (
	"context"
	"errors"

	"github.com/danielgtaylor/huma/v2"

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

func (a Access) declared() bool {
	switch a {
	case AccessPublic, AccessUser, AccessVerified, AccessAdmin, AccessSecondFactor:
		return true
	}
	return false
}

// accessKey is the operation metadata key holding the access level.
const accessKey = "access"

// AccessOf returns the access level op declares, if any.
func AccessOf(op *huma.Operation) (Access, bool) {
	a, ok := op.Metadata[accessKey].(Access)
	return a, ok
}

// Admit decides whether the caller of a request may use an operation at
// level, and returns them: on a public operation whoever is signed in (or
// nobody). Its error is the refusal the client receives.
type Admit[C any] func(ctx context.Context, level Access) (C, error)

// admittedKey holds the caller the guard let through.
type admittedKey struct{}

// Caller returns the caller Guard admitted to this request.
func Caller[C any](ctx context.Context) (C, bool) {
	c, ok := ctx.Value(admittedKey{}).(C)
	return c, ok
}

// Guard enforces each operation's declared access level with admit before
// its input is read, so a caller who may not use a route learns that first
// (401 or 403) rather than how to shape a valid request. It is the only
// access check: the caller it admits is handed to the handler by Register.
// An operation without a level is refused outright: a forgotten
// declaration fails closed.
func Guard[C any](api huma.API, admit Admit[C]) func(huma.Context, func(huma.Context)) {
	return func(hctx huma.Context, next func(huma.Context)) {
		ctx := hctx.Context()
		level, _ := AccessOf(hctx.Operation())
		if !level.declared() {
			httpx.WriteError(api, hctx, errors.New("route: operation declares no access level"))
			return
		}
		caller, err := admit(ctx, level)
		if err != nil {
			httpx.WriteError(api, hctx, err)
			return
		}
		next(huma.WithContext(hctx, context.WithValue(ctx, admittedKey{}, caller)))
	}
}
