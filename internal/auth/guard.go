package auth

import (
	"context"
	"errors"

	"github.com/danielgtaylor/huma/v2"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/httpx"
)

// Guard enforces each operation's declared access level before its input
// is read, so a caller who may not use a route learns that first (401 or
// 403) rather than how to shape a valid request. An operation without a
// level is refused outright: a forgotten declaration fails closed.
func Guard(api huma.API) func(huma.Context, func(huma.Context)) {
	return func(hctx huma.Context, next func(huma.Context)) {
		if err := checkAccess(hctx.Context(), hctx.Operation().Metadata[AccessKey]); err != nil {
			var se huma.StatusError
			if errors.As(httpx.ToHTTP(hctx.Context(), err), &se) {
				_ = huma.WriteErr(api, hctx, se.GetStatus(), messageOf(err))
				return
			}
		}
		next(hctx)
	}
}

func checkAccess(ctx context.Context, level any) error {
	var err error
	switch level {
	case AccessPublic:
	case AccessUser:
		_, err = RequireUser(ctx)
	case AccessVerified:
		_, err = RequireVerified(ctx)
	case AccessAdmin:
		_, err = RequireAdmin(ctx)
	default:
		err = errors.New("auth: operation declares no access level")
	}
	return err
}

func messageOf(err error) string {
	if e, ok := apperr.As(err); ok && e.Kind != apperr.KindInternal {
		return e.Message
	}
	return "Something went wrong on our side. Please try again."
}
