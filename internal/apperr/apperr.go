// Package apperr defines the kinds of failure the domain reports and the
// user-safe message each carries. HTTP status mapping lives in httpx only.
package apperr

import (
	"errors"
	"fmt"
	"time"
)

// Kind classifies an error by what the caller can do about it.
type Kind int

const (
	KindInternal Kind = iota
	KindInvalid
	KindUnauthenticated
	KindForbidden
	KindNotFound
	KindConflict
	KindRateLimited
	KindTooLarge
	// KindUnavailable is the server's own shortage (busy, out of disk):
	// nothing is wrong with the request, and the same one may succeed later.
	KindUnavailable
)

// Error is a failure with a message that is safe to show to a user.
type Error struct {
	Kind    Kind
	Message string
	// Field names the input field at fault, when there is one.
	Field string
	// Failure names this failure among others of its kind, for a client
	// that acts on it (it becomes the problem's type); usually empty.
	Failure string
	// RetryAfter is set for KindRateLimited and KindUnavailable.
	RetryAfter time.Duration
	// Err is the underlying cause, for logs only.
	Err error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return e.Message + ": " + e.Err.Error()
	}
	return e.Message
}

func (e *Error) Unwrap() error { return e.Err }

// Failure is one failure a client tells apart from others of its kind,
// with the words the spec gives it. Its name reaches the client as the
// problem's type; the API contract publishes both (route.PublishFailures),
// so the web neither copies the words nor compares messages.
type Failure struct {
	// Name is stable and unique: the web's generated failures are keyed by it.
	Name    string
	Message string
}

// Invalid reports the failure as bad input.
func (f Failure) Invalid() *Error {
	return &Error{Kind: KindInvalid, Message: f.Message, Failure: f.Name}
}

// NotFound reports the failure as something the caller cannot reach
// (any more): told apart from a plain "missing" by its name.
func (f Failure) NotFound() *Error {
	return &Error{Kind: KindNotFound, Message: f.Message, Failure: f.Name}
}

// Invalid reports bad input; field may be empty.
func Invalid(field, format string, args ...any) *Error {
	return &Error{Kind: KindInvalid, Field: field, Message: fmt.Sprintf(format, args...)}
}

func Unauthenticated(msg string) *Error { return &Error{Kind: KindUnauthenticated, Message: msg} }
func Forbidden(msg string) *Error       { return &Error{Kind: KindForbidden, Message: msg} }
func NotFound(msg string) *Error        { return &Error{Kind: KindNotFound, Message: msg} }
func Conflict(msg string) *Error        { return &Error{Kind: KindConflict, Message: msg} }

// RateLimited tells the caller to wait retryAfter before trying again.
func RateLimited(retryAfter time.Duration) *Error {
	return &Error{Kind: KindRateLimited, RetryAfter: retryAfter,
		Message: fmt.Sprintf("Too many attempts. Please wait %s and try again.", HumanDuration(retryAfter))}
}

// Unavailable reports that the server cannot do the work right now; the
// client may send the same request again after retryAfter.
func Unavailable(msg string, retryAfter time.Duration, cause error) *Error {
	return &Error{Kind: KindUnavailable, Message: msg, RetryAfter: retryAfter, Err: cause}
}

// As returns the *Error in err's chain, if any.
func As(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// KindOf returns the kind of err, KindInternal for errors that are not ours.
func KindOf(err error) Kind {
	if e, ok := As(err); ok {
		return e.Kind
	}
	return KindInternal
}

// HumanDuration says how long a wait is, as a person would: "a second",
// "40 seconds", "a minute", "12 minutes" (rounded up).
func HumanDuration(d time.Duration) string {
	switch {
	case d <= time.Minute:
		s := int(d.Round(time.Second).Seconds())
		if s <= 1 {
			return "a second"
		}
		return fmt.Sprintf("%d seconds", s)
	default:
		m := int((d + time.Minute - 1) / time.Minute)
		if m == 1 {
			return "a minute"
		}
		return fmt.Sprintf("%d minutes", m)
	}
}
