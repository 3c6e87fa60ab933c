package app

import (
	"bytes"
	"encoding/json"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/danielgtaylor/huma/v2"
)

// contractCheck wraps the app's handler so that every JSON response an API
// test provokes is validated against the OpenAPI document the web client is
// generated from. A response the contract does not allow (a null where it
// promises an array, a missing required field, a status it does not list)
// fails the test that caused it, whichever test that is.
type contractCheck struct {
	t      *testing.T
	oapi   *huma.OpenAPI
	routes []contractRoute
	mu     sync.Mutex
}

type contractRoute struct {
	method  string
	pattern *regexp.Regexp
	op      *huma.Operation
}

var templateParam = regexp.MustCompile(`\\\{[^/]+\\\}`)

func newContractCheck(t *testing.T, oapi *huma.OpenAPI) *contractCheck {
	c := &contractCheck{t: t, oapi: oapi}
	for path, item := range oapi.Paths {
		pattern := regexp.MustCompile("^" + templateParam.ReplaceAllString(regexp.QuoteMeta(path), `[^/]+`) + "$")
		for method, op := range map[string]*huma.Operation{
			http.MethodGet: item.Get, http.MethodPost: item.Post, http.MethodPut: item.Put,
			http.MethodPatch: item.Patch, http.MethodDelete: item.Delete,
		} {
			if op != nil {
				c.routes = append(c.routes, contractRoute{method: method, pattern: pattern, op: op})
			}
		}
	}
	return c
}

func (c *contractCheck) operation(r *http.Request) *huma.Operation {
	for _, rt := range c.routes {
		if rt.method == r.Method && rt.pattern.MatchString(r.URL.Path) {
			return rt.op
		}
	}
	return nil
}

// recorder keeps a copy of what the handler writes.
type recorder struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (r *recorder) WriteHeader(status int) {
	r.status = status
	r.ResponseWriter.WriteHeader(status)
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	r.body.Write(b)
	return r.ResponseWriter.Write(b)
}

// Unwrap lets handlers reach the connection (an upload's read deadline).
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

func (r *recorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (c *contractCheck) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		op := c.operation(r)
		if op == nil {
			next.ServeHTTP(w, r)
			return
		}
		rec := &recorder{ResponseWriter: w}
		next.ServeHTTP(rec, r)
		c.check(r, op, rec)
	})
}

func (c *contractCheck) check(r *http.Request, op *huma.Operation, rec *recorder) {
	status := strconv.Itoa(rec.status)
	resp := op.Responses[status]
	if resp == nil {
		resp = op.Responses["default"]
	}
	what := r.Method + " " + r.URL.Path + " → " + status
	if resp == nil {
		c.fail("%s: the contract lists no such response for %s", what, op.OperationID)
		return
	}
	ctype := rec.Header().Get("Content-Type")
	if rec.body.Len() == 0 || !strings.Contains(ctype, "json") {
		return
	}
	media := resp.Content[strings.TrimSpace(strings.Split(ctype, ";")[0])]
	if media == nil || media.Schema == nil {
		c.fail("%s: the contract lists no %s body", what, ctype)
		return
	}
	var v any
	if err := json.Unmarshal(rec.body.Bytes(), &v); err != nil {
		c.fail("%s: body is not JSON: %v", what, err)
		return
	}
	var res huma.ValidateResult
	huma.Validate(c.oapi.Components.Schemas, media.Schema, huma.NewPathBuffer(nil, 0), huma.ModeReadFromServer, v, &res)
	for _, e := range res.Errors {
		c.fail("%s: response breaks the contract: %v", what, e)
	}
}

func (c *contractCheck) fail(format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t.Errorf(format, args...)
}
