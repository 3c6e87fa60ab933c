package app

import (
	"context"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A shutdown signal lets the request in flight finish with a real answer
// before the server returns.
func TestShutdownFinishesInFlightRequests(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	dir := t.TempDir()
	env := map[string]string{"ADDR": addr, "DATA_DIR": dir, "DATABASE_URL": filepath.Join(dir, "wc.db"), "LOG_LEVEL": "error"}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, []string{"serve"}, IO{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard,
			Getenv: func(k string) string { return env[k] }})
	}()
	base := "http://" + addr
	// Ready when /readyz says so: a start-up that fails ends Run, and one
	// that hangs ends the test's own time-out; no guess at how long a
	// start takes on a busy machine (it once took over 10 s in CI).
	for {
		if resp, err := http.Get(base + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		select {
		case err := <-done:
			t.Fatalf("the server stopped before it was ready: %v", err)
		case <-time.After(50 * time.Millisecond):
		}
	}

	// The body arrives in two halves with the shutdown in between.
	pr, pw := io.Pipe()
	result := make(chan int, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodPost, base+"/api/auth/login", pr)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Errorf("in-flight request failed: %v", err)
			result <- 0
			return
		}
		resp.Body.Close()
		result <- resp.StatusCode
	}()
	_, _ = pw.Write([]byte(`{"email":"ana@example.com",`))
	time.Sleep(200 * time.Millisecond)
	cancel()
	time.Sleep(200 * time.Millisecond)
	_, _ = pw.Write([]byte(`"password":"not the password"}`))
	pw.Close()

	if status := <-result; status != http.StatusUnauthorized {
		t.Fatalf("in-flight request got %d, want its real answer 401", status)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve returned %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not return after shutdown")
	}
	if _, err := http.Get(base + "/healthz"); err == nil {
		t.Fatal("server still accepting connections after shutdown")
	}
}
