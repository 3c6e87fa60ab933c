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

// Killing the server in the middle of processing loses nothing: after a
// restart every answer reaches a result, the stats count the session once,
// and no recording is left in the temporary directory.
func TestNothingLostWhenTheServerIsKilled(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		whisper := whispertest.Start(t, "I want to help people keep their smiles for life, which I learned while shadowing.")
		whisper.SetDelay(1500 * time.Millisecond)
		dir := t.TempDir()
		addr := freeAddr(t)
		env := map[string]string{
			"ADDR": addr, "BASE_URL": "http://" + addr, "DATABASE_URL": db.DSN, "DATA_DIR": dir, "LOG_LEVEL": "info",
			"SPEECH_ENGINE": "openai", "SPEECH_OPENAI_BASE_URL": whisper.URL, "SPEECH_OPENAI_API_KEY": "test-key",
			"JOB_TIMEOUT": "3s",
		}
		create := exec.Command(binary(t), "user", "create", "--email", "ana@example.com", "--name", "Ana", "--password-stdin")
		create.Env = []string{"DATABASE_URL=" + db.DSN, "DATA_DIR=" + dir, "LOG_LEVEL=error", "PATH=" + os.Getenv("PATH")}
		create.Stdin = strings.NewReader(pw + "\n")
		if out, err := create.CombinedOutput(); err != nil {
			t.Fatalf("user create: %v\n%s", err, out)
		}

		first := startProcess(t, env)
		jar, _ := cookiejar.New(nil)
		c := &client{t: t, base: first.url, http: &http.Client{Jar: jar, Timeout: 30 * time.Second}}
		if s := c.json(http.MethodPost, "/api/auth/login", map[string]string{"email": "ana@example.com", "password": pw}, nil); s != http.StatusOK {
			t.Fatalf("login: %d", s)
		}
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

		time.Sleep(3 * time.Second) // past JOB_TIMEOUT, so PostgreSQL treats the work as abandoned
		second := startProcess(t, env)
		c.base = second.url
		deadline = time.Now().Add(60 * time.Second)
		for {
			if s := c.json(http.MethodGet, "/api/practice/sessions/"+id, nil, &sv); s != http.StatusOK {
				t.Fatalf("get session after restart: %d", s)
			}
			if !sv.Session.Processing {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("answers never finished after the restart: %+v\n%s", sv.Session.Items, second.log.String())
			}
			time.Sleep(100 * time.Millisecond)
		}
		for _, it := range sv.Session.Items {
			if it.Status != "done" {
				t.Fatalf("answer %s ended %s (%q), want done\nfirst process:\n%s\nsecond process:\n%s",
					it.ID, it.Status, it.Error, first.log.String(), second.log.String())
			}
		}
		var dash struct {
			Stats struct {
				SessionsCompleted  int `json:"sessionsCompleted"`
				QuestionsPracticed int `json:"questionsPracticed"`
			} `json:"stats"`
		}
		deadline = time.Now().Add(20 * time.Second)
		for dash.Stats.SessionsCompleted == 0 && time.Now().Before(deadline) {
			c.json(http.MethodGet, "/api/dashboard", nil, &dash)
			time.Sleep(100 * time.Millisecond)
		}
		time.Sleep(time.Second) // let any duplicate job run too
		c.json(http.MethodGet, "/api/dashboard", nil, &dash)
		if dash.Stats.SessionsCompleted != 1 || dash.Stats.QuestionsPracticed != 3 {
			t.Fatalf("stats after the crash: %+v", dash.Stats)
		}
		audioDir := filepath.Join(dir, "audio-tmp")
		deadline = time.Now().Add(20 * time.Second)
		for {
			entries, err := os.ReadDir(audioDir)
			if err != nil {
				t.Fatal(err)
			}
			if len(entries) == 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("temp directory not empty: %v", entries)
			}
			time.Sleep(200 * time.Millisecond)
		}
	})
}
