package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
	"github.com/whitecoat/whitecoat/internal/transcribe/whispertest"
)

var (
	binaryOnce sync.Once
	binaryPath string
	binaryErr  error
)

// binary builds the real whitecoat command once per test run.
func binary(t *testing.T) string {
	t.Helper()
	binaryOnce.Do(func() {
		dir, err := os.MkdirTemp("", "whitecoat-bin-")
		if err != nil {
			binaryErr = err
			return
		}
		binaryPath = filepath.Join(dir, "whitecoat")
		out, err := exec.Command("go", "build", "-o", binaryPath, "github.com/whitecoat/whitecoat/cmd/whitecoat").CombinedOutput()
		if err != nil {
			binaryErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binaryErr != nil {
		t.Fatal(binaryErr)
	}
	return binaryPath
}

// process is the binary running as a server.
type process struct {
	cmd *exec.Cmd
	url string
	log *bytes.Buffer
}

func startProcess(t *testing.T, env map[string]string) *process {
	t.Helper()
	cmd := exec.Command(binary(t), "serve")
	cmd.Env = append(os.Environ()[:0:0], "PATH="+os.Getenv("PATH"), "HOME="+os.Getenv("HOME"))
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &process{cmd: cmd, url: env["BASE_URL"], log: &log}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(p.url + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return p
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("server did not become ready:\n%s", log.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

type client struct {
	t    *testing.T
	base string
	http *http.Client
}

func (c *client) call(method, path, contentType string, body []byte, out any) int {
	c.t.Helper()
	req, _ := http.NewRequest(method, c.base+path, bytes.NewReader(body))
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if out != nil && resp.StatusCode < 300 {
		if err := json.Unmarshal(data, out); err != nil {
			c.t.Fatalf("%s %s: %v: %s", method, path, err, data)
		}
	}
	if resp.StatusCode >= 300 {
		c.t.Logf("%s %s -> %d %s", method, path, resp.StatusCode, data)
	}
	return resp.StatusCode
}

func (c *client) json(method, path string, in, out any) int {
	c.t.Helper()
	b, _ := json.Marshal(in)
	return c.call(method, path, "application/json", b, out)
}

type sessionView struct {
	Session struct {
		ID         string `json:"id"`
		Processing bool   `json:"processing"`
		Items      []struct {
			ID     string `json:"id"`
			Status string `json:"status"`
			Error  string `json:"error"`
		} `json:"items"`
	} `json:"session"`
}

// createStudent makes ana@example.com through the command line.
func createStudent(t *testing.T, env map[string]string) {
	t.Helper()
	create := exec.Command(binary(t), "user", "create", "--email", "ana@example.com", "--name", "Ana", "--password-stdin")
	create.Env = []string{"DATABASE_URL=" + env["DATABASE_URL"], "DATA_DIR=" + env["DATA_DIR"], "LOG_LEVEL=error", "PATH=" + os.Getenv("PATH")}
	create.Stdin = strings.NewReader(pw + "\n")
	if out, err := create.CombinedOutput(); err != nil {
		t.Fatalf("user create: %v\n%s", err, out)
	}
}

// signedIn is ana's browser, signed in on base.
func signedIn(t *testing.T, base string) *client {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &client{t: t, base: base, http: &http.Client{Jar: jar, Timeout: 30 * time.Second}}
	if s := c.json(http.MethodPost, "/api/auth/login", map[string]string{"email": "ana@example.com", "password": pw}, nil); s != http.StatusOK {
		t.Fatalf("login: %d", s)
	}
	return c
}

// waitAllDone waits until the session has no answer in progress and
// requires every answer done; logs are the servers', for the failure.
func waitAllDone(t *testing.T, c *client, id string, logs ...*bytes.Buffer) {
	t.Helper()
	var sv sessionView
	deadline := time.Now().Add(90 * time.Second)
	for {
		if s := c.json(http.MethodGet, "/api/practice/sessions/"+id, nil, &sv); s != http.StatusOK {
			t.Fatalf("get session: %d", s)
		}
		if !sv.Session.Processing {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("answers never finished: %+v\n%s", sv.Session.Items, serverLogs(logs))
		}
		time.Sleep(100 * time.Millisecond)
	}
	for _, it := range sv.Session.Items {
		if it.Status != "done" {
			t.Fatalf("answer %s ended %s (%q), want done\n%s", it.ID, it.Status, it.Error, serverLogs(logs))
		}
	}
}

func serverLogs(logs []*bytes.Buffer) string {
	var b strings.Builder
	for i, l := range logs {
		fmt.Fprintf(&b, "server %d:\n%s\n", i+1, l.String())
	}
	return b.String()
}

// wantCountedOnce requires the dashboard to count one session of n
// answers, also after any duplicate job had time to run.
func wantCountedOnce(t *testing.T, c *client, n int) {
	t.Helper()
	var dash struct {
		Stats struct {
			SessionsCompleted  int `json:"sessionsCompleted"`
			QuestionsPracticed int `json:"questionsPracticed"`
		} `json:"stats"`
	}
	deadline := time.Now().Add(20 * time.Second)
	for dash.Stats.SessionsCompleted == 0 && time.Now().Before(deadline) {
		c.json(http.MethodGet, "/api/dashboard", nil, &dash)
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(time.Second) // let any duplicate job run too
	c.json(http.MethodGet, "/api/dashboard", nil, &dash)
	if dash.Stats.SessionsCompleted != 1 || dash.Stats.QuestionsPracticed != n {
		t.Fatalf("stats: %+v, want 1 session of %d answers", dash.Stats, n)
	}
}

// waitEmpty waits until dir holds nothing.
func waitEmpty(t *testing.T, dir string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		entries, err := os.ReadDir(dir)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if len(entries) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s not empty: %v", dir, entries)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// The crash tests run their servers as processes of their own, on their
// own databases, directories and ports, and spend most of their time
// waiting for them: they run in parallel with the package's other tests.
//
// jobTimeout is the servers' JOB_TIMEOUT: short, so that work a killed
// copy abandoned is taken up again soon, but not so short that a starved
// process misses it. At 3 s, on a loaded machine, a job sometimes could not
// even begin its transaction in time; each such failure is retried later
// and later (River's backoff: 1 s, 16 s, 81 s), and an answer was still
// "transcribing" when waitAllDone gave up.
const jobTimeout = 10 * time.Second

// serverEnv is the environment of a server process on db at addr.
func serverEnv(db *store.DB, dir, addr, whisperURL string) map[string]string {
	return map[string]string{
		"ADDR": addr, "BASE_URL": "http://" + addr, "DATABASE_URL": db.DSN, "DATA_DIR": dir, "LOG_LEVEL": "info",
		"SPEECH_ENGINE": "openai", "SPEECH_OPENAI_BASE_URL": whisperURL, "SPEECH_OPENAI_API_KEY": "test-key",
		"JOB_TIMEOUT": jobTimeout.String(),
	}
}

// Killing the server in the middle of processing loses nothing: after a
// restart every answer reaches a result, the stats count the session once,
// and no recording is left in the temporary directory.
func TestNothingLostWhenTheServerIsKilled(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		whisper := whispertest.Start(t, "I want to help people keep their smiles for life, which I learned while shadowing.")
		whisper.SetDelay(1500 * time.Millisecond)
		dir := t.TempDir()
		env := serverEnv(db, dir, freeAddr(t), whisper.URL)
		createStudent(t, env)

		first := startProcess(t, env)
		c := signedIn(t, first.url)
		var sv sessionView
		if s := c.json(http.MethodPost, "/api/practice/sessions", map[string]any{"profession": "dental", "mode": "audio", "interviewType": "random", "questionCount": 3}, &sv); s != http.StatusCreated {
			t.Fatalf("create session: %d", s)
		}
		id := sv.Session.ID
		for _, it := range sv.Session.Items {
			if s := c.call(http.MethodPut, "/api/practice/sessions/"+id+"/items/"+it.ID+"/audio", "audio/webm;codecs=opus", whispertest.Recording(t), nil); s != http.StatusAccepted {
				t.Fatalf("upload: %d", s)
			}
		}
		if s := c.json(http.MethodPost, "/api/practice/sessions/"+id+"/complete", map[string]int{"totalSessionTime": 200}, nil); s != http.StatusOK {
			t.Fatalf("complete: %d", s)
		}
		// Kill it while the speech service is working on the answers.
		deadline := time.Now().Add(10 * time.Second)
		for whisper.Requests() == 0 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if err := first.cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		_ = first.cmd.Wait()
		t.Logf("killed with %d transcription request(s) in flight", whisper.Requests())

		time.Sleep(jobTimeout) // past JOB_TIMEOUT, so PostgreSQL treats the work as abandoned
		second := startProcess(t, env)
		c.base = second.url
		waitAllDone(t, c, id, first.log, second.log)
		wantCountedOnce(t, c, 3)
		waitEmpty(t, filepath.Join(dir, "audio-tmp"))
	})
}

// Two copies of the server share one PostgreSQL and nothing else, as
// behind a load balancer (issue 17). A student streams answers to copy A,
// which is killed (SIGKILL) in the middle of one; the rest of that answer
// and the next go to copy B, which finishes every answer exactly once:
// the answers A had accepted are read from the database, the stats count
// the session once, and no recording is left anywhere.
func TestTwoCopiesOnePostgresACopyKilledMidAnswer(t *testing.T) {
	t.Parallel()
	db := storetest.Postgres(t)
	whisper := whispertest.Start(t, "I want to help people keep their smiles for life, which I learned while shadowing.")
	// Slow enough that A is still transcribing the first answer when it
	// dies: B must then do it again, from the database.
	whisper.SetDelay(2 * time.Second)
	dirA, dirB := t.TempDir(), t.TempDir()
	envA, envB := serverEnv(db, dirA, freeAddr(t), whisper.URL), serverEnv(db, dirB, freeAddr(t), whisper.URL)
	createStudent(t, envA)
	a, b := startProcess(t, envA), startProcess(t, envB)

	c := signedIn(t, a.url)
	var sv sessionView
	if s := c.json(http.MethodPost, "/api/practice/sessions", map[string]any{"profession": "dental", "mode": "audio", "interviewType": "random", "questionCount": 3}, &sv); s != http.StatusCreated {
		t.Fatalf("create session: %d", s)
	}
	id, items := sv.Session.ID, sv.Session.Items
	rec := whispertest.Recording(t)
	third := len(rec) / 3
	piece := func(item string, from, to int) {
		t.Helper()
		if s := c.call(http.MethodPatch, fmt.Sprintf("/api/practice/sessions/%s/items/%s/audio?offset=%d", id, item, from), "audio/webm;codecs=opus", rec[from:to], nil); s != http.StatusOK {
			t.Fatalf("piece %d-%d of %s to %s: %d", from, to, item, c.base, s)
		}
	}
	finish := func(item string) {
		t.Helper()
		if s := c.json(http.MethodPost, "/api/practice/sessions/"+id+"/items/"+item+"/audio/finish", map[string]int{"size": len(rec)}, nil); s != http.StatusAccepted {
			t.Fatalf("finish %s at %s: %d", item, c.base, s)
		}
	}

	// The first answer, whole, to A; the second's first pieces to A.
	piece(items[0].ID, 0, third)
	piece(items[0].ID, third, len(rec))
	finish(items[0].ID)
	piece(items[1].ID, 0, third)
	piece(items[1].ID, third, 2*third)
	deadline := time.Now().Add(10 * time.Second)
	for whisper.Requests() == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if err := a.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = a.cmd.Wait()
	inFlight := whisper.Requests()
	// A's disk goes with A: on this one machine B could otherwise open
	// A's files by their paths, which another machine could not.
	if err := os.RemoveAll(dirA); err != nil {
		t.Fatal(err)
	}

	// The load balancer sends the rest to B, which never saw A's disk.
	c.base = b.url
	piece(items[1].ID, 2*third, len(rec))
	finish(items[1].ID)
	if s := c.call(http.MethodPut, "/api/practice/sessions/"+id+"/items/"+items[2].ID+"/audio", "audio/webm;codecs=opus", rec, nil); s != http.StatusAccepted {
		t.Fatalf("upload to B: %d", s)
	}
	if s := c.json(http.MethodPost, "/api/practice/sessions/"+id+"/complete", map[string]int{"totalSessionTime": 200}, nil); s != http.StatusOK {
		t.Fatalf("complete at B: %d", s)
	}
	waitAllDone(t, c, id, a.log, b.log)
	wantCountedOnce(t, c, 3)
	t.Logf("%d transcription request(s) sent when A died; %d in all", inFlight, whisper.Requests())
	var stored int
	if err := db.SQL.QueryRow(`SELECT COUNT(*) FROM practice_audio`).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if stored != 0 {
		t.Fatalf("%d pieces of recordings left in the database", stored)
	}
	waitEmpty(t, filepath.Join(dirB, "audio-tmp"))
}
