// Package httpx holds Whitecoat's HTTP plumbing: middleware, the mapping
// from domain errors to problem responses, and the SPA file server.
package httpx

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strings"
	"time"
)

type ctxKey int

const (
	loggerKey ctxKey = iota
	clientIPKey
)

// Middleware wraps a handler.
type Middleware func(http.Handler) http.Handler

// Chain applies middleware so that the first listed runs first.
func Chain(h http.Handler, mw ...Middleware) http.Handler {
	for i := len(mw) - 1; i >= 0; i-- {
		h = mw[i](h)
	}
	return h
}

// Logger returns the request-scoped logger (with the request id), or the
// default logger outside a request.
func Logger(ctx context.Context) *slog.Logger {
	if l, ok := ctx.Value(loggerKey).(*slog.Logger); ok {
		return l
	}
	return slog.Default()
}

// ClientIP returns the client address resolved by the ClientIP middleware.
func ClientIP(ctx context.Context) string {
	ip, _ := ctx.Value(clientIPKey).(string)
	return ip
}

type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (r *statusRecorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *statusRecorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	n, err := r.ResponseWriter.Write(b)
	r.bytes += n
	return n, err
}

// Flush lets server-sent events through the recorder.
func (r *statusRecorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// RequestLog gives each request an id (echoed in X-Request-Id), a logger
// carrying it, and one access-log line. Query strings are never logged:
// they can carry one-time tokens. Nor are the parts of a path a route's
// wildcard matched: a path can carry a capability too (a try's token is
// the only key to it), so a request to a route with wildcards is logged
// by its pattern ("/api/tryout/tries/{token}"), as patternOf (the mux's
// Handler) gives it; any other by its path.
func RequestLog(base *slog.Logger, patternOf func(*http.Request) string) Middleware {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			id := newRequestID()
			w.Header().Set("X-Request-Id", id)
			logger := base.With("request_id", id)
			ctx := context.WithValue(r.Context(), loggerKey, logger)
			rec := &statusRecorder{ResponseWriter: w}
			next.ServeHTTP(rec, r.WithContext(ctx))
			if rec.status == 0 {
				rec.status = http.StatusOK
			}
			level := slog.LevelInfo
			if rec.status >= 500 {
				level = slog.LevelError
			}
			logger.Log(ctx, level, "request", "method", r.Method, "path", loggedPath(r, patternOf(r)), "status", rec.status,
				"bytes", rec.bytes, "duration_ms", time.Since(start).Milliseconds(), "ip", ClientIP(ctx))
		})
	}
}

// loggedPath is what the access log says of r's path, whose route has
// pattern ("METHOD /path" or "/path"): the pattern's path where it has
// wildcards, else r's path.
func loggedPath(r *http.Request, pattern string) string {
	if i := strings.IndexByte(pattern, ' '); i >= 0 {
		pattern = pattern[i+1:]
	}
	if strings.Contains(pattern, "{") {
		return pattern
	}
	return r.URL.Path
}

func newRequestID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Recover turns a panic into a logged 500 so one bad request cannot take
// the server down.
func Recover(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				Logger(r.Context()).Error("panic", "value", fmt.Sprint(v), "stack", string(debug.Stack()))
				WriteProblem(w, http.StatusInternalServerError, MsgInternal)
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// SecurityHeaders sets the browser protections on every response,
// including the SPA's index.html and error pages.
func SecurityHeaders(https bool) Middleware {
	const csp = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
		"media-src 'self' blob:; connect-src 'self'; font-src 'self' data:; object-src 'none'; base-uri 'self'; " +
		"frame-ancestors 'none'; form-action 'self'"
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h := w.Header()
			h.Set("Content-Security-Policy", csp)
			h.Set("X-Content-Type-Options", "nosniff")
			h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
			h.Set("Permissions-Policy", "camera=(self), microphone=(self), geolocation=(), payment=(), usb=()")
			h.Set("X-Frame-Options", "DENY")
			h.Set("Cross-Origin-Opener-Policy", "same-origin")
			if https {
				h.Set("Strict-Transport-Security", "max-age=63072000; includeSubDomains")
			}
			next.ServeHTTP(w, r)
		})
	}
}

// BodyLimit caps every request body at limit bytes, or at a larger limit for
// paths under one of the given prefixes (uploads). A declared length over
// the cap is refused before any of it is read.
func BodyLimit(limit int64, larger map[string]int64) Middleware {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			max := limit
			for prefix, l := range larger {
				if strings.HasPrefix(r.URL.Path, prefix) {
					max = l
				}
			}
			if r.ContentLength > max {
				WriteProblem(w, http.StatusRequestEntityTooLarge, tooLarge(max))
				return
			}
			r.Body = http.MaxBytesReader(w, r.Body, max)
			next.ServeHTTP(w, r)
		})
	}
}

func tooLarge(max int64) string {
	return fmt.Sprintf("The request body is too large: the limit is %s.", humanBytes(max))
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// CrossOrigin refuses cross-site unsafe requests (POST, PUT, PATCH,
// DELETE) using the browser's Sec-Fetch-Site and Origin headers.
func CrossOrigin(next http.Handler) http.Handler {
	p := http.NewCrossOriginProtection()
	p.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		WriteProblem(w, http.StatusForbidden, "Cross-site request refused: this action must come from the Whitecoat site itself.")
	}))
	return p.Handler(next)
}

// NoStoreAPI marks every API response as not to be stored by browsers or
// proxies: they carry one account's data (a shared computer's back button,
// a caching proxy), and none is worth caching. A handler may still set
// its own Cache-Control.
func NoStoreAPI(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/api/") {
			w.Header().Set("Cache-Control", "no-store")
		}
		next.ServeHTTP(w, r)
	})
}
