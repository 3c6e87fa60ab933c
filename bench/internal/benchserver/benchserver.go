// Package benchserver runs the real whitecoat binary for a benchmark: on a
// free loopback port, on a temporary SQLite database, with one account
// signed in.
package benchserver

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
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

// Client is one browser: a cookie jar talking to a server.
type Client struct {
	Base string
	HTTP *http.Client
}

// Server is a running whitecoat serve process; its Client is signed in as
// Account when Start made it.
type Server struct {
	*Client
	bin     string
	env     []string
	cmd     *exec.Cmd
	log     *countingLog
	metrics string // the metrics listener's /metrics URL
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
// process's environment, makes Account, and signs the Client in.
func Start(ctx context.Context, bin, work string, env ...string) (*Server, error) {
	s, err := Serve(ctx, bin, work, env...)
	if err != nil {
		return nil, err
	}
	if err := s.CreateAccount(ctx, Email, Password); err != nil {
		s.Stop()
		return nil, err
	}
	if err := s.Call(http.MethodPost, "/api/auth/login", "application/json",
		MustJSON(map[string]string{"email": Email, "password": Password}), http.StatusOK, nil); err != nil {
		s.Stop()
		return nil, err
	}
	return s, nil
}

// Serve runs `bin serve` as Start does, without an account, and waits
// until it is ready.
func Serve(ctx context.Context, bin, work string, env ...string) (*Server, error) {
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	metricsAddr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	// Warnings only, unless the bench's own environment asks for more
	// (LOG_LEVEL=info shows where an answer's time goes).
	env = append(append(os.Environ(), "LOG_LEVEL="+cmp.Or(os.Getenv("LOG_LEVEL"), "warn"),
		"ADDR="+addr, "BASE_URL=http://"+addr, "DATA_DIR="+filepath.Join(work, "data"), "METRICS_ADDR="+metricsAddr), env...)
	cmd := exec.CommandContext(ctx, bin, "serve")
	log := &countingLog{out: os.Stderr}
	cmd.Env, cmd.Stderr = env, log
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &Server{Client: NewClient("http://" + addr), bin: bin, env: env, cmd: cmd, log: log, metrics: "http://" + metricsAddr + "/metrics"}
	deadline := time.Now().Add(60 * time.Second)
	for {
		if resp, err := http.Get(s.Base + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return s, nil
			}
		}
		if time.Now().After(deadline) {
			s.Stop()
			return nil, fmt.Errorf("server not ready")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// freeAddr is a loopback address with a port free a moment ago.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// Metrics are the values of the given series (each its name and labels
// as Prometheus prints them) on the server's metrics listener, read in
// one scrape. A scrape fails as a whole when one of its database reads
// does (a busy server can take longer than the scrape allows); it is
// tried again a few times. A series the server does not print is an
// error.
func (s *Server) Metrics(series ...string) (map[string]float64, error) {
	var err error
	for range 5 {
		var text string
		if text, err = s.scrape(); err == nil {
			return seriesIn(text, series, s.metrics)
		}
		time.Sleep(200 * time.Millisecond)
	}
	return nil, err
}

// seriesIn reads the wanted series' values from a scrape of url.
func seriesIn(text string, wanted []string, url string) (map[string]float64, error) {
	want := make(map[string]bool, len(wanted))
	for _, name := range wanted {
		want[name] = true
	}
	values := make(map[string]float64, len(wanted))
	for line := range strings.Lines(text) {
		name, value, ok := strings.Cut(strings.TrimSpace(line), " ")
		if !ok || !want[name] {
			continue
		}
		v, err := strconv.ParseFloat(value, 64)
		if err != nil {
			return nil, fmt.Errorf("series %s at %s: %w", name, url, err)
		}
		values[name] = v
	}
	for _, name := range wanted {
		if _, ok := values[name]; !ok {
			return values, fmt.Errorf("no series %s at %s", name, url)
		}
	}
	return values, nil
}

// scrape reads the server's metrics.
func (s *Server) scrape() (string, error) {
	resp, err := http.Get(s.metrics)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	text, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return "", err
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("%s: %s: %s", s.metrics, resp.Status, strings.TrimSpace(string(text)))
	}
	return string(text), nil
}

// NewClient is a browser with an empty cookie jar.
func NewClient(base string) *Client {
	jar, _ := cookiejar.New(nil)
	return &Client{Base: base, HTTP: &http.Client{Jar: jar, Timeout: time.Minute}}
}

// CreateAccount makes a verified account with a Premium pass, so that
// practice is never locked, through the server's command line.
func (s *Server) CreateAccount(ctx context.Context, email, password string) error {
	if err := s.Command(ctx, password, "user", "create", "--email", email, "--name", "Bench", "--password-stdin"); err != nil {
		return err
	}
	return s.Command(ctx, "", "user", "grant-pass", email)
}

// Command runs one of the binary's operator commands with the server's
// environment, stdin given to it as a line.
func (s *Server) Command(ctx context.Context, stdin string, args ...string) error {
	cmd := exec.CommandContext(ctx, s.bin, args...)
	cmd.Env, cmd.Stdin = s.env, strings.NewReader(stdin+"\n")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s: %w: %s", strings.Join(args, " "), err, out)
	}
	return nil
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

// Call sends one request with the client's cookies and decodes the JSON
// answer into out, failing unless the status is want.
func (s *Client) Call(method, path, contentType string, body []byte, want int, out any) error {
	header := http.Header{}
	if contentType != "" {
		header.Set("Content-Type", contentType)
	}
	return s.CallWithHeader(method, path, header, body, want, out)
}

// CallWithHeader is Call with the request's headers given.
func (s *Client) CallWithHeader(method, path string, header http.Header, body []byte, want int, out any) error {
	req, err := http.NewRequest(method, s.Base+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header = header
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

// StreamAnswer sends a recording to a session's item the way the browser
// does while the student speaks: a piece a second, spread over pace (all
// at once if pace is 0). When heard is not nil, each piece carries what
// the student's browser had heard by then (heard of the share of the
// recording sent), as the Heard-So-Far header.
func (c *Client) StreamAnswer(session, item string, audio []byte, pace time.Duration, heard func(share float64) string) error {
	pieces := max(1, int(pace/time.Second))
	start := time.Now()
	for k := range pieces {
		from, to := len(audio)*k/pieces, len(audio)*(k+1)/pieces
		time.Sleep(time.Until(start.Add(pace * time.Duration(k+1) / time.Duration(pieces))))
		header := http.Header{"Content-Type": {"audio/webm;codecs=opus"}}
		if heard != nil {
			if text := heard(float64(to) / float64(len(audio))); text != "" {
				header.Set("Heard-So-Far", url.PathEscape(text))
			}
		}
		if err := c.CallWithHeader(http.MethodPatch, fmt.Sprintf("/api/practice/sessions/%s/items/%s/audio?offset=%d", session, item, from),
			header, audio[from:to], http.StatusOK, nil); err != nil {
			return err
		}
	}
	return nil
}

// SessionBody is what GET /api/practice/sessions/{id} answers, as far as
// the benchmarks read it.
type SessionBody struct {
	Session struct {
		ID         string `json:"id"`
		Processing bool   `json:"processing"`
		Items      []struct {
			ID         string `json:"id"`
			Kind       string `json:"kind"`
			Status     string `json:"status"`
			Transcript string `json:"transcript"`
		} `json:"items"`
	} `json:"session"`
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
