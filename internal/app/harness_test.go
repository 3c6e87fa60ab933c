package app

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/whitecoat/whitecoat/internal/config"
	"github.com/whitecoat/whitecoat/internal/mail/mailtest"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/transcribe/whispertest"
)

// testClock is a clock tests move by hand.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// testApp is the App serve runs, on a real database, with a real SMTP
// server receiving its mail, a fake OpenAI-compatible speech service and a
// clock the test controls.
type testApp struct {
	*App
	URL     string
	Clock   *testClock
	Mail    *mailtest.Server
	Whisper *whispertest.Server
}

const testIndexHTML = `<!doctype html><html><head><meta name="description" content="The app." /><title>Whitecoat</title></head><body><div id="root"></div></body></html>`

// newTestApp starts the App on db. env adds to or overrides the settings
// every test app has, as the environment would.
func newTestApp(t *testing.T, db *store.DB, env map[string]string) *testApp {
	t.Helper()
	return newTestAppServing(t, db, env, fstest.MapFS{"index.html": {Data: []byte(testIndexHTML)}, "assets/app.js": {Data: []byte("console.log(1)")}})
}

// newTestAppServing is newTestApp with spa as the built web app.
func newTestAppServing(t *testing.T, db *store.DB, env map[string]string, spa fs.FS) *testApp {
	t.Helper()
	smtp := mailtest.Start(t)
	whisper := whispertest.Start(t, "I want to become a dentist because of the trust I saw between Dr. Patel and her patients.")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	vars := map[string]string{
		"BASE_URL":               base,
		"DATABASE_URL":           db.DSN,
		"DATA_DIR":               t.TempDir(),
		"SMTP_URL":               smtp.URL.String(),
		"MAIL_FROM":              "Whitecoat <no-reply@whitecoat.test>",
		"RATE_LIMIT_PER_ACCOUNT": "5",
		"RATE_LIMIT_PER_IP":      "50",
		"TRUSTED_PROXY_HEADER":   "X-Test-Client-IP",
		"SPEECH_ENGINE":          "openai",
		"SPEECH_OPENAI_BASE_URL": whisper.URL,
		"SPEECH_OPENAI_API_KEY":  "test-key",
		// A reviewer's comments gather a second before their email: long
		// enough to batch a burst, short enough to wait for.
		"COMMENT_MAIL_DELAY": "1s",
	}
	maps.Copy(vars, env)
	cfg, err := config.Load(func(k string) string { return vars[k] })
	if err != nil {
		t.Fatal(err)
	}
	clock := &testClock{t: time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)}
	ctx := context.Background()
	a, err := New(ctx, cfg, Deps{
		Logger:          slog.New(slog.DiscardHandler),
		Now:             clock.Now,
		SPA:             spa,
		JobPollInterval: 50 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	if err := a.Start(ctx); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(newContractCheck(t, a.api.OpenAPI()).wrap(a.Handler()))
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	t.Cleanup(func() {
		srv.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = a.Shutdown(ctx)
	})
	return &testApp{App: a, URL: base, Clock: clock, Mail: smtp, Whisper: whisper}
}

// browser is one cookie jar talking to the app from one client IP.
type browser struct {
	t      *testing.T
	app    *testApp
	client *http.Client
	ip     string
}

func (a *testApp) browser(t *testing.T, ip string) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: t, app: a, client: &http.Client{Jar: jar, Timeout: 30 * time.Second}, ip: ip}
}

type response struct {
	Status int
	Header http.Header
	Body   []byte
}

func (r response) JSON(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("response is not JSON (%v): %s", err, r.Body)
	}
	return m
}

func (r response) Detail(t *testing.T) string {
	t.Helper()
	d, _ := r.JSON(t)["detail"].(string)
	return d
}

func (b *browser) do(method, path string, body io.Reader, header map[string]string) response {
	b.t.Helper()
	req, err := http.NewRequest(method, b.app.URL+path, body)
	if err != nil {
		b.t.Fatal(err)
	}
	req.Header.Set("X-Test-Client-IP", b.ip)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := b.client.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		b.t.Fatal(err)
	}
	return response{Status: resp.StatusCode, Header: resp.Header, Body: data}
}

func (b *browser) post(path string, v any) response {
	b.t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		b.t.Fatal(err)
	}
	return b.do(http.MethodPost, path, bytes.NewReader(data), map[string]string{"Content-Type": "application/json"})
}

func (b *browser) get(path string) response {
	b.t.Helper()
	return b.do(http.MethodGet, path, nil, nil)
}

// sessionCookie returns the browser's current session token.
func (b *browser) sessionCookie() string {
	u, _ := url.Parse(b.app.URL)
	for _, c := range b.client.Jar.Cookies(u) {
		if c.Name == "whitecoat_session" {
			return c.Value
		}
	}
	return ""
}

func (b *browser) setSessionCookie(token string) {
	u, _ := url.Parse(b.app.URL)
	b.client.Jar.SetCookies(u, []*http.Cookie{{Name: "whitecoat_session", Value: token, Path: "/"}})
}

func wantStatus(t *testing.T, r response, want int) {
	t.Helper()
	if r.Status != want {
		t.Fatalf("status %d, want %d; body: %s", r.Status, want, r.Body)
	}
}

// wantSignedOut fails unless b's browser is signed in as nobody: the
// question every page asks first is answered with no user.
func wantSignedOut(t *testing.T, b *browser) {
	t.Helper()
	r := b.get("/api/auth/me")
	wantStatus(t, r, http.StatusOK)
	if user := r.JSON(t)["user"]; user != nil {
		t.Fatalf("signed in as %v, want nobody", user)
	}
}

// wantSignedIn fails unless b's browser is signed in as someone.
func wantSignedIn(t *testing.T, b *browser) {
	t.Helper()
	r := b.get("/api/auth/me")
	wantStatus(t, r, http.StatusOK)
	if user, _ := r.JSON(t)["user"].(map[string]any); user["id"] == nil {
		t.Fatalf("signed in as nobody: %s", r.Body)
	}
}

func (b *browser) signup(name, email, password string) response {
	b.t.Helper()
	return b.post("/api/auth/signup", map[string]string{"name": name, "email": email, "password": password})
}

func (b *browser) login(email, password string) response {
	b.t.Helper()
	return b.post("/api/auth/login", map[string]string{"email": email, "password": password})
}
