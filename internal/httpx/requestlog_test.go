package httpx

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A path can hold a capability (a try's token is the only key to it): the
// access log names the route instead, and keeps other paths as they are.
func TestTheRequestLogHoldsNoCapabilityFromThePath(t *testing.T) {
	const token = "d2hpdGVjb2F0LXRyeS10b2tlbi1uZXZlci1sb2dnZWQtYW55d2hlcmU"
	mux := http.NewServeMux()
	ok := func(http.ResponseWriter, *http.Request) {}
	mux.HandleFunc("GET /api/tryout/tries/{token}", ok)
	mux.HandleFunc("POST /api/tryout/tries/{token}/keep", ok)
	mux.HandleFunc("/", ok)
	var logs bytes.Buffer
	patternOf := func(r *http.Request) string {
		_, pattern := mux.Handler(r)
		return pattern
	}
	handler := Chain(mux, RequestLog(slog.New(slog.NewJSONHandler(&logs, nil)), patternOf))
	for _, req := range []*http.Request{
		httptest.NewRequest(http.MethodGet, "/api/tryout/tries/"+token, nil),
		httptest.NewRequest(http.MethodPost, "/api/tryout/tries/"+token+"/keep", nil),
		httptest.NewRequest(http.MethodGet, "/dental/dashboard", nil),
	} {
		handler.ServeHTTP(httptest.NewRecorder(), req)
	}
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	if len(lines) != 3 || strings.Contains(logs.String(), token) {
		t.Fatalf("the access log:\n%s", logs.String())
	}
	for i, want := range []string{`"path":"/api/tryout/tries/{token}"`, `"path":"/api/tryout/tries/{token}/keep"`, `"path":"/dental/dashboard"`} {
		if !strings.Contains(lines[i], want) {
			t.Errorf("line %d: %s, want %s", i+1, lines[i], want)
		}
	}
}
