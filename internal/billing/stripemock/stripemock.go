// Package stripemock runs stripe-mock, Stripe's official mock of its API,
// for tests and benchmarks: the Makefile installs it at a pinned version
// (mk/billing.mk).
package stripemock

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// errNotInstalled: no stripe-mock binary was found.
var errNotInstalled = errors.New("stripe-mock is not installed: run `make test-go` (or go install github.com/stripe/stripe-mock@" + Version + ")")

// Start runs stripe-mock on a free loopback port until the test ends and
// returns its base URL. Without the binary the test is skipped, loudly,
// except under CI=true, where that is a failure.
func Start(t testing.TB) string {
	t.Helper()
	url, stop, err := Run()
	if errors.Is(err, errNotInstalled) && os.Getenv("CI") != "true" {
		t.Skip("SKIPPED: " + err.Error())
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return url
}

// Run starts stripe-mock on a free loopback port and returns its base URL
// once it answers; stop ends it.
func Run() (url string, stop func(), err error) {
	bin := find()
	if bin == "" {
		return "", nil, errNotInstalled
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "-http-addr", "127.0.0.1:"+strconv.Itoa(port))
	if err := cmd.Start(); err != nil {
		cancel()
		return "", nil, fmt.Errorf("start stripe-mock: %w", err)
	}
	stop = func() {
		cancel()
		_ = cmd.Wait()
	}
	url = fmt.Sprintf("http://127.0.0.1:%d", port)
	// It reads Stripe's whole OpenAPI document before it listens: seconds
	// of CPU, and more than 15 s on a loaded 2-core machine running tests
	// in parallel, where it failed tests that way.
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		resp, err := http.Get(url + "/v1/charges")
		if err == nil {
			resp.Body.Close()
			return url, stop, nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	stop()
	return "", nil, fmt.Errorf("stripe-mock did not answer on %s", url)
}

// Version is the stripe-mock release the Makefile installs.
const Version = "v0.203.0"

// find prefers the pinned build go install left in GOPATH/bin, then PATH.
func find() string {
	gopath := os.Getenv("GOPATH")
	if gopath == "" {
		home, _ := os.UserHomeDir()
		gopath = filepath.Join(home, "go")
	}
	p := filepath.Join(gopath, "bin", "stripe-mock")
	if _, err := os.Stat(p); err == nil {
		return p
	}
	if p, err := exec.LookPath("stripe-mock"); err == nil {
		return p
	}
	return ""
}
