// Package stripemock runs stripe-mock, Stripe's official mock of its API,
// for tests and benchmarks: the Makefile installs it at a pinned version
// (mk/billing.mk).
package stripemock

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
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

// Run starts stripe-mock and returns its base URL once it listens; stop
// ends it.
//
// Both of its listeners get a port the system chooses and the HTTP address
// is read from what it prints. Left to its defaults, every stripe-mock also
// listens for HTTPS on port 12112, so a second one running at the same time
// (the billing and app packages, and the browser tests, run in parallel)
// exited at once and was waited for in vain.
func Run() (url string, stop func(), err error) {
	bin := find()
	if bin == "" {
		return "", nil, errNotInstalled
	}
	out, err := startedProcess(bin)
	if err != nil {
		return "", nil, err
	}
	select {
	case addr := <-out.listening:
		return "http://" + addr, out.stop, nil
	case <-out.exited:
		out.stop()
		return "", nil, fmt.Errorf("stripe-mock exited before it listened:\n%s", out.printed())
	case <-time.After(startTimeout):
		out.stop()
		return "", nil, fmt.Errorf("stripe-mock did not listen within %s:\n%s", startTimeout, out.printed())
	}
}

// startTimeout bounds the wait for a stripe-mock that neither listens nor
// exits; it reads Stripe's whole OpenAPI document first (about half a
// second on a quiet machine).
const startTimeout = 60 * time.Second

// process is a running stripe-mock whose output is read line by line.
type process struct {
	listening chan string   // its HTTP address, once
	exited    chan struct{} // closed when its output ends
	stop      func()

	mu    sync.Mutex
	lines []string // what it printed before it listened
}

var listeningLine = regexp.MustCompile(`^Listening for HTTP at address: (\S+)$`)

func startedProcess(bin string) (*process, error) {
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "-http-addr", "127.0.0.1:", "-https-addr", "127.0.0.1:")
	r, w, err := os.Pipe()
	if err != nil {
		cancel()
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Start(); err != nil {
		cancel()
		r.Close()
		w.Close()
		return nil, fmt.Errorf("start stripe-mock: %w", err)
	}
	w.Close()
	p := &process{listening: make(chan string, 1), exited: make(chan struct{})}
	p.stop = func() {
		cancel()
		_ = cmd.Wait()
	}
	// It logs every request it serves: the output is read to its end, or
	// a full pipe would stall it.
	go func() {
		defer r.Close()
		defer close(p.exited)
		sc := bufio.NewScanner(r)
		for listened := false; sc.Scan(); {
			if listened {
				continue
			}
			p.mu.Lock()
			p.lines = append(p.lines, sc.Text())
			p.mu.Unlock()
			if m := listeningLine.FindStringSubmatch(sc.Text()); m != nil {
				p.listening <- m[1]
				listened = true
			}
		}
	}()
	return p, nil
}

func (p *process) printed() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(p.lines, "\n")
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
