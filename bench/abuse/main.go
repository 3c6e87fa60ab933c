// Command abuse sends a running whitecoat what an attacker can send for
// free, and measures what each flood costs: the server's peak memory
// (VmHWM, reset before each flood), how many requests it answered with 500
// (counted in its own log, so that answers to clients that have already
// gone count too), and how long a signed-in student waits for the
// dashboard meanwhile.
//
// Floods, each for -duration with -conns connections, all to loopback:
//   - password reset with made-up tokens, from one address;
//   - login with wrong passwords from rotating 127.x addresses (a new
//     source address per request), for the bench account and unknown ones;
//   - stalled uploads: recordings declared at 24 MB that send one byte
//     every 5 seconds, reconnecting whenever the server hangs up;
//   - history searches by a student who saved 1,000 sessions (or as many
//     as the server keeps).
//
// Then it tries again, one by one, the attacks a probe of the app found
// working (forged X-Forwarded-For entries, the development checkout,
// formulas in CSV exports, rewriting typed answers, webhooks for what was
// never sold or signed at a skewed time), and prints whether each held.
//
// Targets: peak RSS <= 300 MB, no 500s, dashboard p99 <= 100 ms during
// every flood; every attack held. The command exits 1 when one is missed.
//
// Usage: go run ./bench/abuse [-bin bin/whitecoat] [-duration 20s] [-conns 50]
package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/whitecoat/whitecoat/bench/internal/benchserver"
)

const (
	targetRSSMB       = 300
	targetDashboardMs = 100
	// stallEvery is how often a stalled upload sends its next byte.
	stallEvery = 5 * time.Second
)

func main() {
	bin := flag.String("bin", "bin/whitecoat", "the whitecoat binary")
	duration := flag.Duration("duration", 20*time.Second, "how long each flood lasts")
	conns := flag.Int("conns", 50, "attacking connections per flood")
	flag.Parse()
	missed, err := run(context.Background(), *bin, *duration, *conns, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "abuse:", err)
		os.Exit(1)
	}
	if missed {
		os.Exit(1)
	}
}

// tally counts a flood's responses by status.
type tally struct {
	mu       sync.Mutex
	byStatus map[int]int
	errors   int
}

func (t *tally) add(status int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.byStatus[status]++
}

func (t *tally) failed() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.errors++
}

func (t *tally) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var codes []int
	for c := range t.byStatus {
		codes = append(codes, c)
	}
	slices.Sort(codes)
	var parts []string
	for _, c := range codes {
		parts = append(parts, fmt.Sprintf("%d×%d", t.byStatus[c], c))
	}
	if t.errors > 0 {
		parts = append(parts, fmt.Sprintf("%d×conn-error", t.errors))
	}
	return strings.Join(parts, " ")
}

type flood struct {
	name string
	// attack runs one attacking connection until ctx ends.
	attack func(ctx context.Context, t *tally)
}

func run(ctx context.Context, bin string, duration time.Duration, conns int, out io.Writer) (missed bool, err error) {
	work, err := os.MkdirTemp("", "whitecoat-abuse-")
	if err != nil {
		return false, err
	}
	defer os.RemoveAll(work)
	srv, err := benchserver.Start(ctx, bin, filepath.Join(work, "proxied"), proxyEnv...)
	if err != nil {
		return false, err
	}
	defer srv.Stop()
	upload, err := answerPath(srv)
	if err != nil {
		return false, err
	}
	hoarding, err := hoard(ctx, srv)
	if err != nil {
		return false, fmt.Errorf("save the hoarder's sessions: %w", err)
	}
	held := &stallTimes{}
	floods := []flood{
		{"password reset, made-up tokens, one address", func(ctx context.Context, t *tally) { resetFlood(ctx, srv.Base, t) }},
		{"login, wrong passwords, rotating 127.x addresses", func(ctx context.Context, t *tally) { loginFlood(ctx, srv.Base, t) }},
		{"stalled 24 MB uploads, 1 byte per 5 s", func(ctx context.Context, t *tally) { stallFlood(ctx, srv, upload, t, held) }},
		{fmt.Sprintf("history searches of a student with %d saved sessions", hoarding.saved), func(ctx context.Context, t *tally) { historyFlood(ctx, hoarding, t) }},
	}

	fmt.Fprintf(out, "%d connections per flood, %s each, against %s (SQLite, behind a trusted proxy on 127.0.0.1)\n", conns, duration, srv.Base)
	fmt.Fprintf(out, "the hoarding student saved %d of %d sessions", hoarding.saved, hoardTarget)
	if hoarding.refused != "" {
		fmt.Fprintf(out, "; the server then refused: %s", hoarding.refused)
	}
	fmt.Fprint(out, "\n\n")
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "flood\tresponses\t500s in the server log\tpeak RSS MB\tdashboard p50 ms\tdashboard p99 ms\tdashboard requests\ttargets\t")
	for _, f := range floods {
		if err := os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", srv.PID()), []byte("5"), 0); err != nil {
			return false, fmt.Errorf("reset the server's peak RSS: %w", err)
		}
		t := &tally{byStatus: map[int]int{}}
		errorsBefore := srv.ServerErrors()
		fctx, cancel := context.WithTimeout(ctx, duration)
		var wg sync.WaitGroup
		for range conns {
			wg.Go(func() { f.attack(fctx, t) })
		}
		latencies := probeDashboard(fctx, srv)
		wg.Wait()
		cancel()
		// Requests cut off when the flood ends are answered a moment later.
		time.Sleep(time.Second)
		serverErrors := srv.ServerErrors() - errorsBefore
		peak, err := peakRSSMB(srv.PID())
		if err != nil {
			return false, err
		}
		p50, p99 := benchserver.Percentile(latencies, 50), benchserver.Percentile(latencies, 99)
		verdict := "met"
		if peak > targetRSSMB || serverErrors > 0 || p99 > targetDashboardMs*time.Millisecond {
			verdict, missed = "MISSED", true
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%.1f\t%.1f\t%d\t%s\t\n", f.name, t, serverErrors, peak, ms(p50), ms(p99), len(latencies), verdict)
	}
	tw.Flush()
	fmt.Fprintf(out, "\nstalled uploads: %d connections were closed by the server, the longest after %.1f s (an attacker reconnects at once)\n",
		held.count(), held.longest().Seconds())
	fmt.Fprintf(out, "targets: peak RSS <= %d MB, no 500s, dashboard p99 <= %d ms during each flood\n\n", targetRSSMB, targetDashboardMs)

	broken, err := runProbes(ctx, bin, work, srv, out)
	return missed || broken, err
}

// runProbes tries again each attack the issue found working, on the
// proxied server and on a second one selling through Stripe, and prints
// whether the server held.
func runProbes(ctx context.Context, bin, work string, srv *benchserver.Server, out io.Writer) (broken bool, err error) {
	typed, err := answerWithFormula(ctx, srv)
	if err != nil {
		return false, err
	}
	stripeSrv, err := startStripeServer(ctx, bin, filepath.Join(work, "stripe"))
	if err != nil {
		return false, err
	}
	defer stripeSrv.Stop()
	probes := []probe{
		forgedForwardedFor(srv),
		devCheckoutOff(srv),
		formulaInExport(srv, &typed),
		rewriteTypedAnswer(srv, &typed),
		cheapCheckouts(stripeSrv),
		skewedWebhooks(stripeSrv),
		unknownRefund(stripeSrv),
	}
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "attack\twhat the server did\tverdict\t")
	for _, p := range probes {
		what, held, err := p.try(ctx)
		if err != nil {
			return false, fmt.Errorf("%s: %w", p.name, err)
		}
		verdict := "held"
		if !held {
			verdict, broken = "BROKEN", true
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t\n", p.name, what, verdict)
	}
	tw.Flush()
	fmt.Fprintln(out, "target: every attack held")
	return broken, nil
}

// answerPath starts a practice session for the bench account and returns
// the upload path of its first question.
func answerPath(srv *benchserver.Server) (string, error) {
	var created struct {
		Session struct {
			ID    string `json:"id"`
			Items []struct {
				ID string `json:"id"`
			} `json:"items"`
		} `json:"session"`
	}
	err := srv.Call(http.MethodPost, "/api/practice/sessions", "application/json",
		benchserver.MustJSON(map[string]any{"profession": "dental", "mode": "audio", "interviewType": "random", "questionCount": 1}),
		http.StatusCreated, &created)
	if err != nil {
		return "", err
	}
	return "/api/practice/sessions/" + created.Session.ID + "/items/" + created.Session.Items[0].ID + "/audio", nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// post sends one JSON request and counts its status.
func post(ctx context.Context, client *http.Client, url string, body []byte, t *tally) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() == nil {
			t.failed()
		}
		return
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	t.add(resp.StatusCode)
}

func resetFlood(ctx context.Context, base string, t *tally) {
	client := &http.Client{Timeout: 30 * time.Second}
	for ctx.Err() == nil {
		post(ctx, client, base+"/api/auth/password/reset",
			benchserver.MustJSON(map[string]string{"token": randomHex(32), "password": "a brand new passphrase " + randomHex(4)}), t)
	}
}

// nextAddress hands out 127.1.0.1, 127.1.0.2, ... so that every login
// comes from an address the server has not seen.
var nextAddress atomic.Uint32

func loginFlood(ctx context.Context, base string, t *tally) {
	for ctx.Err() == nil {
		n := nextAddress.Add(1)
		source := net.IPv4(127, byte(1+n>>16%200), byte(n>>8), byte(n)|1)
		dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: source}, Timeout: 5 * time.Second}
		client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DialContext: dialer.DialContext, DisableKeepAlives: true}}
		email := benchserver.Email
		if n%2 == 0 {
			email = "nobody-" + randomHex(4) + "@example.com"
		}
		post(ctx, client, base+"/api/auth/login", benchserver.MustJSON(map[string]string{"email": email, "password": "wrong " + randomHex(6)}), t)
		client.CloseIdleConnections()
	}
}

// stallTimes records how long the server let stalled uploads stay open.
type stallTimes struct {
	mu   sync.Mutex
	held []time.Duration
}

func (s *stallTimes) add(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.held = append(s.held, d)
}

func (s *stallTimes) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.held)
}

func (s *stallTimes) longest() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.held) == 0 {
		return 0
	}
	return slices.Max(s.held)
}

// stallFlood opens an upload of the bench account's own answer, declares
// 24 MB and sends a byte every stallEvery, until the server hangs up; then
// it does it again.
func stallFlood(ctx context.Context, srv *benchserver.Server, path string, t *tally, held *stallTimes) {
	base, _ := url.Parse(srv.Base)
	var cookies []string
	for _, c := range srv.HTTP.Jar.Cookies(base) {
		cookies = append(cookies, c.Name+"="+c.Value)
	}
	for ctx.Err() == nil {
		conn, err := (&net.Dialer{Timeout: 5 * time.Second}).DialContext(ctx, "tcp", base.Host)
		if err != nil {
			if ctx.Err() == nil {
				t.failed()
			}
			return
		}
		opened := time.Now()
		fmt.Fprintf(conn, "PUT %s HTTP/1.1\r\nHost: %s\r\nCookie: %s\r\nContent-Type: audio/webm\r\nContent-Length: %d\r\n\r\n",
			path, base.Host, strings.Join(cookies, "; "), 24<<20)
		status := make(chan int, 1)
		go func() {
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				status <- 0
				return
			}
			resp.Body.Close()
			status <- resp.StatusCode
		}()
		tick := time.NewTicker(stallEvery)
	stalled:
		for {
			select {
			case code := <-status:
				if code != 0 {
					t.add(code)
				}
				held.add(time.Since(opened))
				break stalled
			case <-tick.C:
				if _, err := conn.Write([]byte{0x1a}); err != nil && !errors.Is(err, net.ErrClosed) {
					held.add(time.Since(opened))
					break stalled
				}
			case <-ctx.Done():
				break stalled
			}
		}
		tick.Stop()
		conn.Close()
	}
}

// probeDashboard asks for the signed-in account's dashboard every 20 ms
// until ctx ends, and returns how long each answer took.
func probeDashboard(ctx context.Context, srv *benchserver.Server) []time.Duration {
	var latencies []time.Duration
	for ctx.Err() == nil {
		start := time.Now()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.Base+"/api/dashboard", nil)
		resp, err := srv.HTTP.Do(req)
		if err != nil {
			continue
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			latencies = append(latencies, time.Since(start))
		}
		time.Sleep(20 * time.Millisecond)
	}
	return latencies
}

// peakRSSMB reads the process's peak resident set since the last reset.
func peakRSSMB(pid int) (int, error) {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for line := range strings.Lines(string(status)) {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			if err != nil {
				return 0, fmt.Errorf("VmHWM %q: %w", rest, err)
			}
			return kb / 1024, nil
		}
	}
	return 0, errors.New("no VmHWM in /proc status")
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
