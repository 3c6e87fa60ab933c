package auth

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/httpx"
	"github.com/whitecoat/whitecoat/internal/route"
)

// Handler serves the account API and resolves the session cookie on every
// request.
type Handler struct {
	svc    *Service
	secure bool
	across Across
}

// Across is what auth's endpoints need done in the domains that build on
// accounts, which auth does not import: app provides it when it builds
// the handler.
type Across struct {
	// Erase deletes an account and everything every domain keeps about
	// it (see FirebaseSignIn).
	Erase AccountEraser
	// Listed fills in the admin users table what the other domains keep
	// about each account listed (see UserSummary).
	Listed func(ctx context.Context, users []UserSummary) error
}

// NewHandler returns the HTTP side of svc. secure marks cookies Secure and
// gives them the __Host- prefix (https deployments).
func NewHandler(svc *Service, secure bool, across Across) *Handler {
	return &Handler{svc: svc, secure: secure, across: across}
}

// CookieName is the session cookie's name; the __Host- prefix pins it to
// this exact origin when served over https.
func (h *Handler) CookieName() string {
	if h.secure {
		return "__Host-whitecoat_session"
	}
	return "whitecoat_session"
}

// MayBeSignedIn reports whether r carries a session cookie, without
// looking the session up: a hint for the pages the server sends, which
// the app corrects once it asks who the visitor is.
func (h *Handler) MayBeSignedIn(r *http.Request) bool {
	c, err := r.Cookie(h.CookieName())
	return err == nil && c.Value != ""
}

// DeviceCookieName is the device cookie's name (see Service.Login).
func (h *Handler) DeviceCookieName() string {
	if h.secure {
		return "__Host-whitecoat_device"
	}
	return "whitecoat_device"
}

func (h *Handler) cookie(token string, maxAge time.Duration) http.Cookie {
	return h.namedCookie(h.CookieName(), token, maxAge)
}

// sessionCookies sets the session cookie of in, and the device cookie when
// the sign-in issued one.
func (h *Handler) sessionCookies(in SignIn) []http.Cookie {
	maxAge := h.svc.cfg.AbsoluteTimeout
	if in.SecondFactor != "" {
		maxAge = PendingSignInTTL
	}
	cookies := []http.Cookie{h.cookie(in.SessionToken, maxAge)}
	if in.DeviceToken != "" {
		cookies = append(cookies, h.namedCookie(h.DeviceCookieName(), in.DeviceToken, DeviceTTL))
	}
	return cookies
}

func (h *Handler) namedCookie(name, token string, maxAge time.Duration) http.Cookie {
	c := http.Cookie{Name: name, Value: token, Path: "/", HttpOnly: true, Secure: h.secure, SameSite: http.SameSiteLaxMode}
	if maxAge > 0 {
		c.MaxAge = int(maxAge.Seconds())
	} else {
		c.MaxAge = -1
	}
	return c
}

// Middleware attaches the signed-in user to the request context. A missing,
// unknown or expired cookie leaves the request anonymous; endpoints decide
// whether that is allowed. The device cookie, if any, travels along for
// the login limits.
func (h *Handler) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if d, err := r.Cookie(h.DeviceCookieName()); err == nil && d.Value != "" {
			r = r.WithContext(context.WithValue(r.Context(), deviceKey{}, d.Value))
		}
		c, err := r.Cookie(h.CookieName())
		if err != nil || c.Value == "" {
			next.ServeHTTP(w, r)
			return
		}
		u, sess, err := h.svc.Authenticate(r.Context(), c.Value)
		switch {
		case err == nil:
		case apperr.KindOf(err) == apperr.KindUnauthenticated:
			next.ServeHTTP(w, r)
			return
		case r.Context().Err() != nil:
			return // the client has gone
		default:
			// The sign-in could not be checked: the server's fault, not the
			// student's, so the API answers 503 rather than "please log
			// in"; the app's pages need no sign-in to load.
			httpx.Logger(r.Context()).Error("session lookup failed", "err", err)
			if strings.HasPrefix(r.URL.Path, "/api/") {
				w.Header().Set("Retry-After", "5")
				httpx.WriteProblem(w, http.StatusServiceUnavailable, MsgSignInUnchecked)
				return
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

// LoginBody is a login's answer: the account, and for an admin the second
// factor step that remains before the browser counts as signed in.
type LoginBody struct {
	User         User             `json:"user"`
	SecondFactor SecondFactorStep `json:"secondFactor,omitempty" enum:"enrol,code" doc:"What the browser must still do before it is signed in: set up a second factor (enrol) or give a code (code). Absent when nothing."`
}

type loginOutput struct {
	SetCookie []http.Cookie `header:"Set-Cookie"`
	Body      LoginBody
}

type sessionOutput struct {
	SetCookie http.Cookie `header:"Set-Cookie"`
	Body      UserBody
}

// EnrolmentBody is a new TOTP secret, as text to type and as an otpauth://
// URI for apps that open links or scan QR codes.
type EnrolmentBody struct {
	Secret string `json:"secret"`
	URI    string `json:"uri"`
}

type enrolmentOutput struct{ Body EnrolmentBody }

// EnrolledBody is the signed-in admin and their recovery codes, which are
// shown this once.
type EnrolledBody struct {
	User          User     `json:"user"`
	RecoveryCodes []string `json:"recoveryCodes"`
}

type enrolledOutput struct {
	SetCookie http.Cookie `header:"Set-Cookie"`
	Body      EnrolledBody
}

type codeInput struct {
	UserAgent string `header:"User-Agent"`
	Body      struct {
		Code string `json:"code" maxLength:"64" doc:"A 6-digit code from the authenticator app, or a recovery code."`
	}
}

type resetOutput struct {
	SetCookie http.Cookie `header:"Set-Cookie"`
	Body      MessageBody
}

type messageOutput struct{ Body MessageBody }

// ConfirmedBody answers a confirmed email address.
type ConfirmedBody struct {
	Message  string `json:"message"`
	SignedIn bool   `json:"signedIn" doc:"The confirmation signed this browser in to the account (its first verification, not an admin's): go on to the dashboard. False: log in."`
}

type confirmedOutput struct {
	SetCookie []http.Cookie `header:"Set-Cookie"`
	Body      ConfirmedBody
}

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

type firebaseInput struct {
	UserAgent string `header:"User-Agent"`
	Body      struct {
		IDToken string `json:"idToken" maxLength:"8192" doc:"A Firebase ID token (a JWT)."`
	}
}

// FirebaseWebConfig is what the web app needs to offer Firebase sign-in.
type FirebaseWebConfig struct {
	Enabled    bool   `json:"enabled"`
	ProjectID  string `json:"projectId"`
	APIKey     string `json:"apiKey"`
	AuthDomain string `json:"authDomain"`
}

type firebaseConfigOutput struct{ Body FirebaseWebConfig }

type emailInput struct {
	UserAgent string `header:"User-Agent"`
	Body      struct {
		Email string `json:"email" maxLength:"320"`
	}
}

type tokenInput struct {
	UserAgent string `header:"User-Agent"`
	Body      struct {
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

// deviceKey holds the request's device cookie.
type deviceKey struct{}

func client(ctx context.Context, userAgent string) Client {
	device, _ := ctx.Value(deviceKey{}).(string)
	return Client{IP: httpx.ClientIP(ctx), UserAgent: userAgent, DeviceToken: device}
}

// accountTags are shared by the account endpoints, which take forms: the
// longest body, a sign-up, is well under a kilobyte.
var accountTags = []string{"Accounts"}

// RegisterRoutes adds the account endpoints to api.
func (h *Handler) RegisterRoutes(api huma.API) {
	route.Register(api, route.Endpoint{ID: "signup", Method: http.MethodPost, Path: "/api/auth/signup", Summary: "Create an account",
		Description: "Answers the same whether or not the email is registered; the address receives either the verification link or a note that someone tried to sign up with it.",
		Tags:        accountTags, Status: http.StatusAccepted, Access: route.AccessPublic, MaxBodyBytes: route.MaxFormBytes}, h.signup)
	route.Register(api, route.Endpoint{ID: "login", Method: http.MethodPost, Path: "/api/auth/login", Summary: "Log in with email and password",
		Tags: accountTags, Access: route.AccessPublic, MaxBodyBytes: route.MaxFormBytes}, h.login)
	route.Register(api, route.Endpoint{ID: "firebase-sign-in", Method: http.MethodPost, Path: "/api/auth/firebase", Summary: "Sign in with a Firebase ID token",
		Description: "With FIREBASE_PROJECT_ID set: the token (from the Firebase web SDK) is verified once and exchanged for this server's session cookie. " +
			"The account is the one with the token's verified email, made on first sign-in; an admin claim makes it an admin, who still owes the second factor.",
		Tags: accountTags, Access: route.AccessPublic, MaxBodyBytes: route.MaxFormBytes}, h.firebaseSignIn)
	route.Register(api, route.Endpoint{ID: "get-firebase-config", Method: http.MethodGet, Path: "/api/auth/firebase/config", Summary: "Whether and how to offer Firebase sign-in",
		Description: "The web SDK's public settings; enabled is false when the server has no Firebase project.",
		Tags:        accountTags, Access: route.AccessPublic, MaxBodyBytes: route.MaxFormBytes}, h.firebaseConfig)
	route.Register(api, route.Endpoint{ID: "logout", Method: http.MethodPost, Path: "/api/auth/logout", Summary: "Log out of this browser",
		Tags: accountTags, Status: http.StatusNoContent, Access: route.AccessPublic, MaxBodyBytes: route.MaxFormBytes}, h.logout)
	route.Register(api, route.Endpoint{ID: "get-me", Method: http.MethodGet, Path: "/api/auth/me", Summary: "The signed-in user, if anyone is",
		Description: "Every page asks it first, signed in or not: a visitor who is not signed in is an answer (no user), not an error.",
		Tags:        accountTags, Access: route.AccessPublic, MaxBodyBytes: route.MaxFormBytes}, h.getMe)
	route.Register(api, route.Endpoint{ID: "resend-verification", Method: http.MethodPost, Path: "/api/auth/verification/resend", Summary: "Send a new verification email",
		Tags: accountTags, Status: http.StatusAccepted, Access: route.AccessPublic, MaxBodyBytes: route.MaxFormBytes}, h.resendVerification)
	route.Register(api, route.Endpoint{ID: "confirm-email", Method: http.MethodPost, Path: "/api/auth/verification/confirm", Summary: "Confirm an email address with the emailed token",
		Description: "A POST from the page the link opens, never the GET of the link (mail scanners open links). The first confirmation of a student's account also signs this browser in to it, with the cookie login sets.",
		Tags:        accountTags, Access: route.AccessPublic, MaxBodyBytes: route.MaxFormBytes}, h.confirmEmail)
	route.Register(api, route.Endpoint{ID: "forgot-password", Method: http.MethodPost, Path: "/api/auth/password/forgot", Summary: "Email a password reset link",
		Tags: accountTags, Status: http.StatusAccepted, Access: route.AccessPublic, MaxBodyBytes: route.MaxFormBytes}, h.forgotPassword)
	route.Register(api, route.Endpoint{ID: "reset-password", Method: http.MethodPost, Path: "/api/auth/password/reset", Summary: "Set a new password with the emailed token",
		Tags: accountTags, Access: route.AccessPublic, MaxBodyBytes: route.MaxFormBytes}, h.resetPassword)
	route.Register(api, route.Endpoint{ID: "start-second-factor-enrolment", Method: http.MethodPost, Path: "/api/auth/second-factor/enrolment",
		Summary: "Get a new authenticator secret (admins without a second factor, after their password)",
		Tags:    accountTags, Access: route.AccessSecondFactor, MaxBodyBytes: route.MaxFormBytes}, h.startEnrolment)
	route.Register(api, route.Endpoint{ID: "confirm-second-factor-enrolment", Method: http.MethodPost, Path: "/api/auth/second-factor/enrolment/confirm",
		Summary: "Turn the authenticator on with its first code and finish signing in",
		Tags:    accountTags, Access: route.AccessSecondFactor, MaxBodyBytes: route.MaxFormBytes}, h.confirmEnrolment)
	route.Register(api, route.Endpoint{ID: "pass-second-factor", Method: http.MethodPost, Path: "/api/auth/second-factor",
		Summary: "Finish an admin's sign-in with an authenticator or recovery code",
		Tags:    accountTags, Access: route.AccessSecondFactor, MaxBodyBytes: route.MaxFormBytes}, h.passSecondFactor)
}

// signup signs nobody in: a session only for new addresses would tell
// who already has an account.
func (h *Handler) signup(ctx context.Context, _ User, in *signupInput) (*messageOutput, error) {
	if err := h.svc.Signup(ctx, in.Body.Name, in.Body.Email, in.Body.Password, client(ctx, in.UserAgent)); err != nil {
		return nil, err
	}
	return &messageOutput{Body: MessageBody{MsgSignupStarted}}, nil
}

// login replaces the browser's current sign-in, if any, with a new one.
func (h *Handler) login(ctx context.Context, _ User, in *loginInput) (*loginOutput, error) {
	prev, _ := SessionFrom(ctx)
	signIn, err := h.svc.Login(ctx, in.Body.Email, in.Body.Password, client(ctx, in.UserAgent), prev.TokenHash)
	if err != nil {
		return nil, err
	}
	return h.loginAnswer(signIn), nil
}

// loginAnswer sets the new sign-in's cookies and says who signed in and
// whether a second factor is owed.
func (h *Handler) loginAnswer(signIn SignIn) *loginOutput {
	return &loginOutput{SetCookie: h.sessionCookies(signIn), Body: LoginBody{User: signIn.User, SecondFactor: signIn.SecondFactor}}
}

// firebaseSignIn replaces the browser's sign-in, like login.
func (h *Handler) firebaseSignIn(ctx context.Context, _ User, in *firebaseInput) (*loginOutput, error) {
	prev, _ := SessionFrom(ctx)
	signIn, err := h.svc.FirebaseSignIn(ctx, in.Body.IDToken, client(ctx, in.UserAgent), prev.TokenHash, h.across.Erase)
	if err != nil {
		return nil, err
	}
	return h.loginAnswer(signIn), nil
}

func (h *Handler) firebaseConfig(context.Context, User, *struct{}) (*firebaseConfigOutput, error) {
	fc := h.svc.cfg.Firebase
	out := &firebaseConfigOutput{Body: FirebaseWebConfig{Enabled: fc.Enabled(), ProjectID: fc.ProjectID, APIKey: fc.APIKey, AuthDomain: fc.AuthDomain}}
	if out.Body.Enabled && out.Body.AuthDomain == "" {
		out.Body.AuthDomain = fc.ProjectID + ".firebaseapp.com"
	}
	return out, nil
}

func (h *Handler) startEnrolment(ctx context.Context, u User, _ *struct{}) (*enrolmentOutput, error) {
	e, err := h.svc.StartEnrolment(ctx, u)
	if err != nil {
		return nil, err
	}
	return &enrolmentOutput{Body: EnrolmentBody{Secret: e.Secret, URI: e.URI}}, nil
}

func (h *Handler) confirmEnrolment(ctx context.Context, u User, in *codeInput) (*enrolledOutput, error) {
	sess, _ := SessionFrom(ctx)
	signIn, codes, err := h.svc.ConfirmEnrolment(ctx, u, sess, in.Body.Code, client(ctx, in.UserAgent))
	if err != nil {
		return nil, err
	}
	return &enrolledOutput{SetCookie: h.cookie(signIn.SessionToken, h.svc.cfg.AbsoluteTimeout), Body: EnrolledBody{User: signIn.User, RecoveryCodes: codes}}, nil
}

func (h *Handler) passSecondFactor(ctx context.Context, u User, in *codeInput) (*sessionOutput, error) {
	sess, _ := SessionFrom(ctx)
	signIn, err := h.svc.PassSecondFactor(ctx, u, sess, in.Body.Code, client(ctx, in.UserAgent))
	if err != nil {
		return nil, err
	}
	return &sessionOutput{SetCookie: h.cookie(signIn.SessionToken, h.svc.cfg.AbsoluteTimeout), Body: UserBody{signIn.User}}, nil
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

// MeBody is who is signed in in this browser: nobody (no user), or the user
// with every step of their sign-in done (an admin who still owes the
// second factor is nobody yet).
type MeBody struct {
	User *User `json:"user,omitempty" doc:"Absent when nobody is signed in."`
}

type meOutput struct{ Body MeBody }

func (h *Handler) getMe(_ context.Context, u User, _ *struct{}) (*meOutput, error) {
	if u.ID == "" {
		return &meOutput{}, nil
	}
	return &meOutput{Body: MeBody{&u}}, nil
}

func (h *Handler) resendVerification(ctx context.Context, _ User, in *emailInput) (*messageOutput, error) {
	if err := h.svc.ResendVerification(ctx, in.Body.Email, client(ctx, in.UserAgent)); err != nil {
		return nil, err
	}
	return &messageOutput{Body: MessageBody{MsgResendSent}}, nil
}

// confirmEmail signs the browser in when the confirmation does (see
// Service.ConfirmEmail), with the session cookie login sets.
func (h *Handler) confirmEmail(ctx context.Context, _ User, in *tokenInput) (*confirmedOutput, error) {
	prev, _ := SessionFrom(ctx)
	signIn, err := h.svc.ConfirmEmail(ctx, in.Body.Token, client(ctx, in.UserAgent), prev.TokenHash)
	if err != nil {
		return nil, err
	}
	if signIn.SessionToken == "" {
		return &confirmedOutput{Body: ConfirmedBody{Message: MsgEmailConfirmedLogIn}}, nil
	}
	return &confirmedOutput{SetCookie: h.sessionCookies(signIn), Body: ConfirmedBody{Message: MsgEmailConfirmed, SignedIn: true}}, nil
}

func (h *Handler) forgotPassword(ctx context.Context, _ User, in *emailInput) (*messageOutput, error) {
	if err := h.svc.ForgotPassword(ctx, in.Body.Email, client(ctx, in.UserAgent)); err != nil {
		return nil, err
	}
	return &messageOutput{Body: MessageBody{MsgResetSent}}, nil
}

// resetPassword also trusts the browser for the account's login limits
// (see Service.ResetPassword).
func (h *Handler) resetPassword(ctx context.Context, _ User, in *resetInput) (*resetOutput, error) {
	device, err := h.svc.ResetPassword(ctx, in.Body.Token, in.Body.Password, client(ctx, ""))
	if err != nil {
		return nil, err
	}
	return &resetOutput{SetCookie: h.namedCookie(h.DeviceCookieName(), device, DeviceTTL), Body: MessageBody{MsgPasswordReset}}, nil
}
