package app

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/httpx"
	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
	"github.com/whitecoat/whitecoat/internal/transcribe/whispertest"
)

// practiceSession signs in a new student and starts a session; it returns
// their browser and the path of the first question's recording.
func practiceSession(t *testing.T, app *testApp, email, ip string) (*browser, string) {
	t.Helper()
	if _, err := app.auth.CreateUser(t.Context(), "Student", email, pw, auth.RoleUser); err != nil {
		t.Fatal(err)
	}
	b := app.browser(t, ip)
	wantStatus(t, b.login(email, pw), http.StatusOK)
	r := b.post("/api/practice/sessions", map[string]any{"profession": "dental", "mode": "audio", "interviewType": "random", "questionCount": 2})
	wantStatus(t, r, http.StatusCreated)
	sess := r.JSON(t)["session"].(map[string]any)
	item := sess["items"].([]any)[0].(map[string]any)["id"].(string)
	return b, "/api/practice/sessions/" + sess["id"].(string) + "/items/" + item + "/audio"
}

// stalledBody sends a recording's first bytes, then nothing for a while,
// then fails: a server that reads it whole answers only with that failure.
type stalledBody struct {
	head    []byte
	release <-chan time.Time
}

func (b *stalledBody) Read(p []byte) (int, error) {
	if len(b.head) > 0 {
		n := copy(p, b.head)
		b.head = b.head[n:]
		return n, nil
	}
	<-b.release
	return 0, io.ErrUnexpectedEOF
}

// Upload bodies were buffered whole before ownership was checked: 12 ×
// 24 MB to a session that did not exist peaked at 579 MB before each got a
// 404. The refusal now comes before the body is read: this body never
// finishes, and the answer arrives anyway.
func TestUploadsAreRefusedBeforeTheirBodyIsRead(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, nil)
		_, audioPath := practiceSession(t, app, "ana@example.com", "10.0.0.1")
		bob, _ := practiceSession(t, app, "bob@example.com", "10.0.0.2")
		for _, tc := range []struct {
			name, method, path string
			status             int
		}{
			{"another user's session", http.MethodPut, audioPath, http.StatusNotFound},
			{"a missing session", http.MethodPut, "/api/practice/sessions/0123456789abcdef/items/x/audio", http.StatusNotFound},
			{"another user's piece", http.MethodPatch, audioPath + "?offset=0", http.StatusNotFound},
		} {
			body := &stalledBody{head: whispertest.Recording(t)[:64], release: time.After(5 * time.Second)}
			req, err := http.NewRequest(tc.method, app.URL+tc.path, body)
			if err != nil {
				t.Fatal(err)
			}
			req.ContentLength = 24 << 20
			req.Header.Set("Content-Type", "audio/webm")
			req.Header.Set("X-Test-Client-IP", bob.ip)
			start := time.Now()
			resp, err := bob.client.Do(req)
			if err != nil || time.Since(start) >= 5*time.Second {
				t.Fatalf("%s: no answer while the body was outstanding: %v", tc.name, err)
			}
			resp.Body.Close()
			if resp.StatusCode != tc.status {
				t.Fatalf("%s: status %d, want %d", tc.name, resp.StatusCode, tc.status)
			}
		}
	})
}

// A valid WebM declared as text/plain was accepted. The declared type must
// agree with the container the bytes show.
func TestAnUploadMustDeclareItsType(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, nil)
		ana, audioPath := practiceSession(t, app, "ana@example.com", "10.0.0.1")
		rec := whispertest.Recording(t)
		for _, tc := range []struct{ method, path, contentType, detail string }{
			{http.MethodPut, audioPath, "text/plain", "not \"text/plain\""},
			{http.MethodPut, audioPath, "audio/mp4", "was sent as audio/mp4"},
			{http.MethodPatch, audioPath + "?offset=0", "video/mp4", "was sent as video/mp4"},
		} {
			r := ana.do(tc.method, tc.path, bytes.NewReader(rec), map[string]string{"Content-Type": tc.contentType})
			wantStatus(t, r, http.StatusUnsupportedMediaType)
			if !strings.Contains(r.Detail(t), tc.detail) {
				t.Fatalf("%s as %s: %q", tc.method, tc.contentType, r.Detail(t))
			}
		}
		wantStatus(t, ana.do(http.MethodPut, audioPath, bytes.NewReader(rec), map[string]string{"Content-Type": "video/webm"}), http.StatusAccepted)
	})
}

// 100 connections sending one byte every 5 s stayed open for a minute. An
// upload that falls behind the minimum rate is cut off.
func TestAStalledUploadIsClosed(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, nil)
		ana, audioPath := practiceSession(t, app, "ana@example.com", "10.0.0.1")
		conn, err := net.Dial("tcp", strings.TrimPrefix(app.URL, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		fmt.Fprintf(conn, "PUT %s HTTP/1.1\r\nHost: x\r\nContent-Type: audio/webm\r\nContent-Length: %d\r\nX-Test-Client-IP: %s\r\nCookie: whitecoat_session=%s\r\n\r\n",
			audioPath, 1<<20, ana.ip, ana.sessionCookie())
		rec := whispertest.Recording(t)
		start := time.Now()
		_ = conn.SetReadDeadline(start.Add(30 * time.Second))
		// A byte a second: far below the minimum rate.
		closed := make(chan string, 1)
		go func() {
			reply, _ := io.ReadAll(conn)
			closed <- string(reply)
		}()
		for i := 0; ; i++ {
			select {
			case reply := <-closed:
				if !strings.Contains(reply, "408") {
					t.Fatalf("closed with %q, want a 408", reply)
				}
				if d := time.Since(start); d > 15*time.Second {
					t.Fatalf("a stalled upload held its connection for %v", d)
				}
				return
			case <-time.After(time.Second):
				if _, err := conn.Write(rec[i : i+1]); err != nil && time.Since(start) > 30*time.Second {
					t.Fatal("the stalled upload was never closed")
				}
			}
		}
	})
}

// A full or read-only audio directory was blamed on the student's
// recording; the answer was lost, counted, nothing was logged, and /readyz
// stayed ready. Now: a 503 to retry, nothing counted, /readyz not ready.
func TestAnUnwritableAudioDirectoryMakesTheServerUnready(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, nil)
		ana, audioPath := practiceSession(t, app, "ana@example.com", "10.0.0.1")
		wantStatus(t, ana.get("/readyz"), http.StatusOK)
		// Tests run as root, which permissions do not stop: a file where
		// the directory should be makes every write fail.
		dir := app.cfg.Speech.AudioTmpDir
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dir, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		wantStatus(t, ana.get("/readyz"), http.StatusServiceUnavailable)
		rec := whispertest.Recording(t)
		for _, req := range []struct{ method, path string }{{http.MethodPut, audioPath}, {http.MethodPatch, audioPath + "?offset=0"}} {
			r := ana.do(req.method, req.path, bytes.NewReader(rec), map[string]string{"Content-Type": "audio/webm"})
			wantStatus(t, r, http.StatusServiceUnavailable)
			if r.Detail(t) != practice.MsgCannotStore || r.Header.Get("Retry-After") == "" {
				t.Fatalf("%s: %q, Retry-After %q", req.method, r.Detail(t), r.Header.Get("Retry-After"))
			}
		}
		if u := ana.get("/api/auth/me").JSON(t); u["user"].(map[string]any)["usageCount"] != 0.0 {
			t.Fatalf("answers that were not stored were counted: %v", u)
		}

		if err := os.Remove(dir); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		wantStatus(t, ana.get("/readyz"), http.StatusOK)
		wantStatus(t, ana.do(http.MethodPut, audioPath, bytes.NewReader(rec), map[string]string{"Content-Type": "audio/webm"}), http.StatusAccepted)
	})
}

// A client that hung up halfway through its upload was answered (and
// logged) as a server error: Huma reports any failed body read as 500.
func TestAnUploadCutOffByItsClientIsTheClientsError(t *testing.T) {
	t.Parallel()
	app := newTestApp(t, storetest.SQLite(t), nil)
	ana, audioPath := practiceSession(t, app, "ana@example.com", "10.0.0.1")
	conn, err := net.Dial("tcp", strings.TrimPrefix(app.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	rec := whispertest.Recording(t)
	fmt.Fprintf(conn, "PUT %s HTTP/1.1\r\nHost: x\r\nContent-Type: audio/webm\r\nContent-Length: %d\r\nX-Test-Client-IP: %s\r\nCookie: whitecoat_session=%s\r\n\r\n",
		audioPath, len(rec)+1000, ana.ip, ana.sessionCookie())
	if _, err := conn.Write(rec); err != nil {
		t.Fatal(err)
	}
	// The client stops sending and waits for the answer.
	if err := conn.(*net.TCPConn).CloseWrite(); err != nil {
		t.Fatal(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), httpx.MsgBodyCutOff) {
		t.Fatalf("%d %s, want 400 saying the request was cut off", resp.StatusCode, body)
	}
}
