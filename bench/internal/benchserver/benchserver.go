// Package benchserver runs the real whitecoat binary for a benchmark: on a
// free loopback port, on a temporary SQLite database, with one account
// signed in.
package benchserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"
)

// Account is the account every benchmark server has, with a Premium pass
// so that practice is never locked.
const (
	Email    = "bench@example.com"
	Password = "benchmark passphrase 42"
)

// Server is a running whitecoat serve process.
type Server struct {
	Base string
	// HTTP is signed in as Account.
	HTTP *http.Client
	cmd  *exec.Cmd
	log  *countingLog
}

// countingLog passes the server's log through and counts the requests it
// answered with 500, including those whose client had already gone.
type countingLog struct {
	out          io.Writer
	serverErrors atomic.Int64
}

func (l *countingLog) Write(p []byte) (int, error) {
	l.serverErrors.Add(int64(bytes.Count(p, []byte(" status=500 "))))
	return l.out.Write(p)
}

// ServerErrors is how many requests the server has logged as answered
// with 500 so far.
func (s *Server) ServerErrors() int { return int(s.log.serverErrors.Load()) }

// Start runs `bin serve` with its data under work and env added to the
// process's environment, and signs HTTP in.
func Start(ctx context.Context, bin, work string, env ...string) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := ln.Addr().String()
	ln.Close()
	env = append(append(os.Environ(), "ADDR="+addr, "BASE_URL=http://"+addr, "DATA_DIR="+filepath.Join(work, "data"),
		"LOG_LEVEL=warn"), env...)
	for _, args := range [][]string{
		{"user", "create", "--email", Email, "--name", "Bench", "--password-stdin"},
		{"user", "grant-pass", Email},
	} {
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Env, cmd.Stdin = env, strings.NewReader(Password+"\n")
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("%s: %w: %s", strings.Join(args, " "), err, out)
		}
	}
	cmd := exec.CommandContext(ctx, bin, "serve")
	log := &countingLog{out: os.Stderr}
	cmd.Env, cmd.Stderr = env, log
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	jar, _ := cookiejar.New(nil)
	s := &Server{cmd: cmd, log: log, Base: "http://" + addr, HTTP: &http.Client{Jar: jar, Timeout: time.Minute}}
	deadline := time.Now().Add(60 * time.Second)
	for {
		if resp, err := http.Get(s.Base + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			s.Stop()
			return nil, fmt.Errorf("server not ready")
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err := s.Call(http.MethodPost, "/api/auth/login", "application/json",
		MustJSON(map[string]string{"email": Email, "password": Password}), http.StatusOK, nil); err != nil {
		s.Stop()
		return nil, err
	}
	return s, nil
}

// PID is the server process's id.
func (s *Server) PID() int { return s.cmd.Process.Pid }

// Stop ends the server as an operator would (SIGINT) and waits for it.
func (s *Server) Stop() {
	if s.cmd.Process != nil {
		_ = s.cmd.Process.Signal(os.Interrupt)
		_ = s.cmd.Wait()
	}
}

// MustJSON encodes v.
func MustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// Call sends one request as the signed-in account and decodes the JSON
// answer into out, failing unless the status is want.
func (s *Server) Call(method, path, contentType string, body []byte, want int, out any) error {
	req, err := http.NewRequest(method, s.Base+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := s.HTTP.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != want {
		return fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, data)
	}
	if out != nil {
		return json.Unmarshal(data, out)
	}
	return nil
}

// Percentile is the p-th percentile of ds (nearest rank), 0 for none.
func Percentile(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100
	return s[max(0, min(len(s)-1, i-1))]
}
