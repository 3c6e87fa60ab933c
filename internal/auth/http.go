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

// accountTags and accountBodyLimit are shared by the account endpoints:
// the longest body, a sign-up, is well under a kilobyte.
var accountTags = []string{"Accounts"}

const accountBodyLimit = 16 << 10

// RegisterRoutes adds the account endpoints to api.
func (h *Handler) RegisterRoutes(api huma.API) {
	Register(api, Endpoint{ID: "signup", Method: http.MethodPost, Path: "/api/auth/signup", Summary: "Create an account",
		Tags: accountTags, Status: http.StatusCreated, Access: AccessPublic, MaxBodyBytes: accountBodyLimit}, h.signup)
	Register(api, Endpoint{ID: "login", Method: http.MethodPost, Path: "/api/auth/login", Summary: "Log in with email and password",
		Tags: accountTags, Access: AccessPublic, MaxBodyBytes: accountBodyLimit}, h.login)
	Register(api, Endpoint{ID: "logout", Method: http.MethodPost, Path: "/api/auth/logout", Summary: "Log out of this browser",
		Tags: accountTags, Status: http.StatusNoContent, Access: AccessPublic, MaxBodyBytes: accountBodyLimit}, h.logout)
	Register(api, Endpoint{ID: "get-me", Method: http.MethodGet, Path: "/api/auth/me", Summary: "The signed-in user",
		Tags: accountTags, Access: AccessUser, MaxBodyBytes: accountBodyLimit}, h.getMe)
	Register(api, Endpoint{ID: "resend-verification", Method: http.MethodPost, Path: "/api/auth/verification/resend", Summary: "Send a new verification email",
		Tags: accountTags, Status: http.StatusAccepted, Access: AccessPublic, MaxBodyBytes: accountBodyLimit}, h.resendVerification)
	Register(api, Endpoint{ID: "confirm-email", Method: http.MethodPost, Path: "/api/auth/verification/confirm", Summary: "Confirm an email address with the emailed token",
		Tags: accountTags, Access: AccessPublic, MaxBodyBytes: accountBodyLimit}, h.confirmEmail)
	Register(api, Endpoint{ID: "forgot-password", Method: http.MethodPost, Path: "/api/auth/password/forgot", Summary: "Email a password reset link",
		Tags: accountTags, Status: http.StatusAccepted, Access: AccessPublic, MaxBodyBytes: accountBodyLimit}, h.forgotPassword)
	Register(api, Endpoint{ID: "reset-password", Method: http.MethodPost, Path: "/api/auth/password/reset", Summary: "Set a new password with the emailed token",
		Tags: accountTags, Access: AccessPublic, MaxBodyBytes: accountBodyLimit}, h.resetPassword)
}

func (h *Handler) signup(ctx context.Context, _ User, in *signupInput) (*sessionOutput, error) {
	u, token, err := h.svc.Signup(ctx, in.Body.Name, in.Body.Email, in.Body.Password, client(ctx, in.UserAgent))
	if err != nil {
		return nil, err
	}
	return &sessionOutput{SetCookie: h.cookie(token, h.svc.cfg.AbsoluteTimeout), Body: UserBody{u}}, nil
}

// login replaces the browser's current sign-in, if any, with a new one.
func (h *Handler) login(ctx context.Context, _ User, in *loginInput) (*sessionOutput, error) {
	prev, _ := SessionFrom(ctx)
	u, token, err := h.svc.Login(ctx, in.Body.Email, in.Body.Password, client(ctx, in.UserAgent), prev.TokenHash)
	if err != nil {
		return nil, err
	}
	return &sessionOutput{SetCookie: h.cookie(token, h.svc.cfg.AbsoluteTimeout), Body: UserBody{u}}, nil
}

// logout clears the cookie even when the browser was not signed in, so a
// stale cookie cannot linger.
func (h *Handler) logout(ctx context.Context, _ User, _ *struct{}) (*logoutOutput, error) {
	if sess, ok := SessionFrom(ctx); ok {
		if err := h.svc.Logout(ctx, sess); err != nil {
			return nil, err
		}
	}
	return &logoutOutput{SetCookie: h.cookie("", 0)}, nil
}

func (h *Handler) getMe(_ context.Context, u User, _ *struct{}) (*userOutput, error) {
	return &userOutput{Body: UserBody{u}}, nil
}

func (h *Handler) resendVerification(ctx context.Context, _ User, in *emailInput) (*messageOutput, error) {
	if err := h.svc.ResendVerification(ctx, in.Body.Email, client(ctx, in.UserAgent)); err != nil {
		return nil, err
	}
	return &messageOutput{Body: MessageBody{MsgResendSent}}, nil
}

func (h *Handler) confirmEmail(ctx context.Context, _ User, in *tokenInput) (*messageOutput, error) {
	if _, err := h.svc.ConfirmEmail(ctx, in.Body.Token); err != nil {
		return nil, err
	}
	return &messageOutput{Body: MessageBody{MsgEmailConfirmed}}, nil
}

func (h *Handler) forgotPassword(ctx context.Context, _ User, in *emailInput) (*messageOutput, error) {
	if err := h.svc.ForgotPassword(ctx, in.Body.Email, client(ctx, in.UserAgent)); err != nil {
		return nil, err
	}
	return &messageOutput{Body: MessageBody{MsgResetSent}}, nil
}

func (h *Handler) resetPassword(ctx context.Context, _ User, in *resetInput) (*messageOutput, error) {
	if err := h.svc.ResetPassword(ctx, in.Body.Token, in.Body.Password, client(ctx, "")); err != nil {
		return nil, err
	}
	return &messageOutput{Body: MessageBody{MsgPasswordReset}}, nil
}
