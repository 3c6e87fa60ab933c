package httpx

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/whitecoat/whitecoat/internal/apperr"
)

// WriteProblem writes an RFC 9457 problem document outside Huma (middleware,
// the SPA server) in the same shape Huma uses for API errors.
func WriteProblem(w http.ResponseWriter, status int, detail string, errs ...*huma.ErrorDetail) {
	w.Header().Set("Content-Type", "application/problem+json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(huma.ErrorModel{Title: http.StatusText(status), Status: status, Detail: detail, Errors: errs})
}

// MsgInternal is all a client learns of a failure that is not its own:
// the cause goes to the log.
const MsgInternal = "Something went wrong on our side. Please try again."

// ProblemType is the problem type URI of the failure the domain names
// failure (apperr.Error.Failure): a client tells that failure apart by it.
func ProblemType(failure string) string { return "urn:whitecoat:problem:" + failure }

// statusOf is where each kind of domain failure gets its HTTP status.
var statusOf = map[apperr.Kind]int{
	apperr.KindInvalid:         http.StatusBadRequest,
	apperr.KindUnauthenticated: http.StatusUnauthorized,
	apperr.KindForbidden:       http.StatusForbidden,
	apperr.KindNotFound:        http.StatusNotFound,
	apperr.KindConflict:        http.StatusConflict,
	apperr.KindRateLimited:     http.StatusTooManyRequests,
	apperr.KindTooLarge:        http.StatusRequestEntityTooLarge,
	apperr.KindUnavailable:     http.StatusServiceUnavailable,
}

// ToHTTP maps a domain error to the problem response the API sends. Errors
// that are not ours are logged and answered with a generic 500, so nothing
// internal leaks to the client.
func ToHTTP(ctx context.Context, err error) error {
	var se huma.StatusError
	if errors.As(err, &se) {
		return err
	}
	e, ok := apperr.As(err)
	if !ok || e.Kind == apperr.KindInternal {
		if errors.Is(err, context.Canceled) {
			return huma.NewError(499, "The request was canceled.")
		}
		Logger(ctx).Error("internal error", "err", err)
		return huma.Error500InternalServerError(MsgInternal)
	}
	status := statusOf[e.Kind]
	var details []error
	if e.Field != "" {
		details = append(details, &huma.ErrorDetail{Location: "body." + e.Field, Message: e.Message})
	}
	out := huma.NewError(status, e.Message, details...)
	if model, ok := out.(*huma.ErrorModel); ok && e.Failure != "" {
		model.Type = ProblemType(e.Failure)
	}
	if e.Kind == apperr.KindUnavailable {
		Logger(ctx).Warn("request refused: server unavailable", "reason", e.Message, "err", e.Err)
	}
	if e.Kind == apperr.KindRateLimited {
		holdRefusal(ctx)
	}
	if e.Kind == apperr.KindRateLimited || e.Kind == apperr.KindUnavailable {
		secs := int(e.RetryAfter.Seconds() + 0.999)
		if secs < 1 {
			secs = 1
		}
		return huma.ErrorWithHeaders(out, http.Header{"Retry-After": {strconv.Itoa(secs)}})
	}
	return out
}

// WriteError answers with the problem err maps to (as ToHTTP maps a
// handler's error) from a middleware of the API, before any handler runs.
func WriteError(api huma.API, hctx huma.Context, err error) {
	answer := ToHTTP(hctx.Context(), err)
	if he, ok := errors.AsType[huma.HeadersError](answer); ok {
		for name, values := range he.GetHeaders() {
			for _, v := range values {
				hctx.AppendHeader(name, v)
			}
		}
	}
	model, ok := errors.AsType[*huma.ErrorModel](answer)
	if !ok {
		model = &huma.ErrorModel{Title: http.StatusText(http.StatusInternalServerError), Status: http.StatusInternalServerError, Detail: MsgInternal}
	}
	ct, err := api.Negotiate(hctx.Header("Accept"))
	if err != nil {
		ct = "application/json"
	}
	hctx.SetHeader("Content-Type", model.ContentType(ct))
	body, err := api.Transform(hctx, strconv.Itoa(model.Status), model)
	if err != nil {
		body = model
	}
	hctx.SetStatus(model.Status)
	if err := api.Marshal(hctx.BodyWriter(), ct, body); err != nil {
		Logger(hctx.Context()).Warn("problem not written", "err", err)
	}
}

// MsgBodyCutOff answers a request whose client stopped sending its body.
const MsgBodyCutOff = "The request was cut off before all of it arrived. Please send it again."

// A client over its rate limit gets its refusal only after refusalDelay:
// a flood on a few connections is then a few hundred requests a second
// instead of thousands, leaving the CPU to students. Waiting costs a
// goroutine and no CPU; past maxHeldRefusals waiting at once, refusals go
// out at once, so many connections cannot turn the wait into memory.
const (
	refusalDelay    = 250 * time.Millisecond
	maxHeldRefusals = 1000
)

var heldRefusals = make(chan struct{}, maxHeldRefusals)

func holdRefusal(ctx context.Context) {
	select {
	case heldRefusals <- struct{}{}:
	default:
		return
	}
	defer func() { <-heldRefusals }()
	timer := time.NewTimer(refusalDelay)
	defer timer.Stop()
	select {
	case <-timer.C:
	case <-ctx.Done():
	}
}

// NewProblem replaces Huma's error constructor (huma.NewError) so that
// validation failures say what is wrong in the detail a client shows, and
// never echo the submitted values (which can be passwords) back.
func NewProblem(status int, msg string, errs ...error) huma.StatusError {
	// Huma answers any failure to read a body with 500; a client that hung
	// up or reset the connection mid-body is not the server's fault.
	if status == http.StatusInternalServerError && slices.ContainsFunc(errs, clientHungUp) {
		status, msg, errs = http.StatusBadRequest, MsgBodyCutOff, nil
	}
	details := make([]*huma.ErrorDetail, 0, len(errs))
	messages := make([]string, 0, len(errs))
	for _, err := range errs {
		if err == nil {
			continue
		}
		d := &huma.ErrorDetail{Message: err.Error()}
		var ed *huma.ErrorDetail
		if errors.As(err, &ed) {
			d = &huma.ErrorDetail{Message: ed.Message, Location: ed.Location}
		}
		details = append(details, d)
		messages = append(messages, describeDetail(d))
	}
	if msg == "validation failed" && len(messages) > 0 {
		msg = "The request is not valid: " + strings.Join(messages, "; ") + "."
	}
	return &huma.ErrorModel{Title: http.StatusText(status), Status: status, Detail: msg, Errors: details}
}

func describeDetail(d *huma.ErrorDetail) string {
	m := strings.TrimSuffix(d.Message, ".")
	switch {
	case strings.HasPrefix(m, "unknown content type"):
		return "send it as application/json (" + m + ")"
	case d.Location == "body" && (strings.Contains(m, "JSON") || strings.Contains(m, "invalid character")):
		return "the body is not valid JSON (" + m + ")"
	case d.Location != "" && d.Location != "body":
		return strings.TrimPrefix(d.Location, "body.") + ": " + m
	}
	return m
}

// clientHungUp reports whether a body read failed because the client went
// away: the connection ended before the declared length, or was reset.
func clientHungUp(err error) bool {
	return errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, net.ErrClosed)
}
