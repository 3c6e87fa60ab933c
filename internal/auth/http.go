package auth

import (
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/httpx"
)

// Handler serves the account API and resolves the session cookie on every
// request.
type Handler struct {
	svc    *Service
	secure bool
}

// NewHandler returns the HTTP side of svc. secure marks cookies Secure and
// gives them the __Host- prefix (https deployments).
func NewHandler(svc *Service, secure bool) *Handler {
	return &Handler{svc: svc, secure: secure}
}

// CookieName is the session cookie's name; the __Host- prefix pins it to
// this exact origin when served over https.
func (h *Handler) CookieName() string {
	if h.secure {
		return "__Host-whitecoat_session"
	}
	return "whitecoat_session"
}

func (h *Handler) cookie(token string, maxAge time.Duration) http.Cookie {
	c := http.Cookie{Name: h.CookieName(), Value: token, Path: "/", HttpOnly: true, Secure: h.secure, SameSite: http.SameSiteLaxMode}
	if maxAge > 0 {
		c.MaxAge = int(maxAge.Seconds())
	} else {
		c.MaxAge = -1
	}
	return c
}

// Middleware attaches the signed-in user to the request context. A missing,
// unknown or expired cookie leaves the request anonymous; endpoints decide
// whether that is allowed.
func (h *Handler) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := r.Cookie(h.CookieName())
		if err != nil || c.Value == "" {
			next.ServeHTTP(w, r)
			return
		}
		u, sess, err := h.svc.Authenticate(r.Context(), c.Value)
		if err != nil {
			if apperr.KindOf(err) != apperr.KindUnauthenticated {
				httpx.Logger(r.Context()).Error("session lookup failed", "err", err)
			}
			next.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(w, r.WithContext(WithUser(r.Context(), u, sess)))
	})
}

// Access levels recorded on each operation, read by the authorisation
// matrix test so no route can be forgotten.
//
// AccessUser admits any signed-in account; AccessVerified also requires a
// confirmed email, the gate the spec puts in front of the app itself
// (dashboard, question bank, practice); AccessAdmin requires the admin role.
const (
	AccessPublic   = "public"
	AccessUser     = "user"
	AccessVerified = "verified"
	AccessAdmin    = "admin"
)

// AccessKey is the operation metadata key holding the access level.
const AccessKey = "access"

// UserBody wraps the user for responses.
type UserBody struct {
	User User `json:"user"`
}

// MessageBody is a response that only informs.
type MessageBody struct {
	Message string `json:"message"`
}

type userOutput struct{ Body UserBody }

type sessionOutput struct {
	SetCookie http.Cookie `header:"Set-Cookie"`
	Body      UserBody
}

type messageOutput struct{ Body MessageBody }

type signupInput struct {
	UserAgent string `header:"User-Agent"`
	Body      struct {
		Name     string `json:"name" maxLength:"200" doc:"Full name."`
		Email    string `json:"email" maxLength:"320" doc:"Email address."`
		Password string `json:"password" maxLength:"1024" doc:"8 to 256 characters."`
	}
}

type loginInput struct {
	UserAgent string `header:"User-Agent"`
	Body      struct {
		Email    string `json:"email" maxLength:"320"`
		Password string `json:"password" maxLength:"1024"`
	}
}

type emailInput struct {
	UserAgent string `header:"User-Agent"`
	Body      struct {
		Email string `json:"email" maxLength:"320"`
	}
}

type tokenInput struct {
	Body struct {
		Token string `json:"token" maxLength:"200"`
	}
}

type resetInput struct {
	Body struct {
		Token    string `json:"token" maxLength:"200"`
		Password string `json:"password" maxLength:"1024"`
	}
}

type logoutOutput struct {
	SetCookie http.Cookie `header:"Set-Cookie"`
}

func client(ctx context.Context, userAgent string) Client {
	return Client{IP: httpx.ClientIP(ctx), UserAgent: userAgent}
}

func op(id, method, path, summary string, status int, access string) huma.Operation {
	return Operation(access, huma.Operation{
		OperationID: id, Method: method, Path: path, Summary: summary, Tags: []string{"Accounts"},
		DefaultStatus: status, MaxBodyBytes: 16 << 10,
	})
}

// RegisterRoutes adds the account endpoints to api.
func (h *Handler) RegisterRoutes(api huma.API) {
	httpx.Register(api, op("signup", http.MethodPost, "/api/auth/signup", "Create an account", http.StatusCreated, AccessPublic),
		func(ctx context.Context, in *signupInput) (*sessionOutput, error) {
			u, token, err := h.svc.Signup(ctx, in.Body.Name, in.Body.Email, in.Body.Password, client(ctx, in.UserAgent))
			if err != nil {
				return nil, err
			}
			return &sessionOutput{SetCookie: h.cookie(token, h.svc.cfg.AbsoluteTimeout), Body: UserBody{u}}, nil
		})

	httpx.Register(api, op("login", http.MethodPost, "/api/auth/login", "Log in with email and password", http.StatusOK, AccessPublic),
		func(ctx context.Context, in *loginInput) (*sessionOutput, error) {
			prev, _ := SessionFrom(ctx)
			u, token, err := h.svc.Login(ctx, in.Body.Email, in.Body.Password, client(ctx, in.UserAgent), prev.TokenHash)
			if err != nil {
				return nil, err
			}
			return &sessionOutput{SetCookie: h.cookie(token, h.svc.cfg.AbsoluteTimeout), Body: UserBody{u}}, nil
		})

	httpx.Register(api, op("logout", http.MethodPost, "/api/auth/logout", "Log out of this browser", http.StatusNoContent, AccessPublic),
		func(ctx context.Context, _ *struct{}) (*logoutOutput, error) {
			if sess, ok := SessionFrom(ctx); ok {
				if err := h.svc.Logout(ctx, sess); err != nil {
					return nil, err
				}
			}
			return &logoutOutput{SetCookie: h.cookie("", 0)}, nil
		})

	httpx.Register(api, op("get-me", http.MethodGet, "/api/auth/me", "The signed-in user", http.StatusOK, AccessUser),
		func(ctx context.Context, _ *struct{}) (*userOutput, error) {
			u, err := RequireUser(ctx)
			if err != nil {
				return nil, err
			}
			return &userOutput{Body: UserBody{u}}, nil
		})

	httpx.Register(api, op("resend-verification", http.MethodPost, "/api/auth/verification/resend", "Send a new verification email", http.StatusAccepted, AccessPublic),
		func(ctx context.Context, in *emailInput) (*messageOutput, error) {
			if err := h.svc.ResendVerification(ctx, in.Body.Email, client(ctx, in.UserAgent)); err != nil {
				return nil, err
			}
			return &messageOutput{Body: MessageBody{MsgResendSent}}, nil
		})

	httpx.Register(api, op("confirm-email", http.MethodPost, "/api/auth/verification/confirm", "Confirm an email address with the emailed token", http.StatusOK, AccessPublic),
		func(ctx context.Context, in *tokenInput) (*messageOutput, error) {
			if _, err := h.svc.ConfirmEmail(ctx, in.Body.Token); err != nil {
				return nil, err
			}
			return &messageOutput{Body: MessageBody{MsgEmailConfirmed}}, nil
		})

	httpx.Register(api, op("forgot-password", http.MethodPost, "/api/auth/password/forgot", "Email a password reset link", http.StatusAccepted, AccessPublic),
		func(ctx context.Context, in *emailInput) (*messageOutput, error) {
			if err := h.svc.ForgotPassword(ctx, in.Body.Email, client(ctx, in.UserAgent)); err != nil {
				return nil, err
			}
			return &messageOutput{Body: MessageBody{MsgResetSent}}, nil
		})

	httpx.Register(api, op("reset-password", http.MethodPost, "/api/auth/password/reset", "Set a new password with the emailed token", http.StatusOK, AccessPublic),
		func(ctx context.Context, in *resetInput) (*messageOutput, error) {
			if err := h.svc.ResetPassword(ctx, in.Body.Token, in.Body.Password, client(ctx, "")); err != nil {
				return nil, err
			}
			return &messageOutput{Body: MessageBody{MsgPasswordReset}}, nil
		})
}
