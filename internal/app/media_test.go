package app

import (
	"bytes"
	"net/http"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
	"github.com/whitecoat/whitecoat/internal/transcribe/mediatest"
	"github.com/whitecoat/whitecoat/internal/transcribe/whispertest"
)

// bombChildEnv marks the test process that TestSampleTableBombUpload
// starts to measure.
const bombChildEnv = "WHITECOAT_TEST_BOMB_CHILD"

// A small MP4 whose sample tables declare 50 million samples made one
// decode allocate 1.2 GB (four at once: 4.5 GB). Uploaded as an answer, it
// now fails as a damaged recording, is never sent to the speech service,
// and the server goes on processing the next answer; no process of the
// tree, server or decoder, grows past peakLimitMB. The upload runs in a
// test process of its own, so that the peak its rusage reports is this
// test's and not that of a child another test started.
func TestSampleTableBombUpload(t *testing.T) {
	t.Parallel()
	if os.Getenv(bombChildEnv) != "" {
		sampleTableBombUpload(t)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestSampleTableBombUpload$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), bombChildEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	peak := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss >> 10
	t.Logf("the server or a decode peaked at %d MB", peak)
	if peak > peakLimitMB {
		t.Errorf("the server or a decode peaked at %d MB", peak)
	}
}

// peakLimitMB is what the largest process of the test may reach: the
// bomb took a decode to 1.2 GB. One decode is held under 256 MB
// (transcribe.Config.DecodeMemory and ffmpeg's libraries) and the test
// process, server and all, measured 112-133 MB alone and up to 324 MB
// within a busy CI run (its garbage collector behind a loaded machine):
// a bound with room over both still catches the bomb four times over.
const peakLimitMB = 400

func sampleTableBombUpload(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, nil)
		if _, err := app.auth.CreateUser(t.Context(), "Student", "ana@example.com", pw, auth.RoleUser); err != nil {
			t.Fatal(err)
		}
		ana := app.browser(t, "10.0.0.1")
		wantStatus(t, ana.login("ana@example.com", pw), http.StatusOK)
		r := ana.post("/api/practice/sessions", map[string]any{"profession": "dental", "mode": "audio", "interviewType": "random", "questionCount": 2})
		wantStatus(t, r, http.StatusCreated)
		sess := r.JSON(t)["session"].(map[string]any)
		id := sess["id"].(string)
		upload := func(i int, contentType string, body []byte) {
			t.Helper()
			item := sess["items"].([]any)[i].(map[string]any)["id"].(string)
			path := "/api/practice/sessions/" + id + "/items/" + item + "/audio"
			wantStatus(t, ana.do(http.MethodPut, path, bytes.NewReader(body), map[string]string{"Content-Type": contentType}), http.StatusAccepted)
		}
		settled := func(i int) map[string]any {
			t.Helper()
			for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
				s := ana.get("/api/practice/sessions/" + id).JSON(t)["session"].(map[string]any)
				it := s["items"].([]any)[i].(map[string]any)
				if st := it["status"]; st == string(practice.StatusFailed) || st == string(practice.StatusDone) {
					return it
				}
				if time.Now().After(deadline) {
					t.Fatalf("answer %d never settled: %v", i, it)
				}
			}
		}

		upload(0, "audio/mp4", mediatest.SampleTableBomb())
		bomb := settled(0)
		if bomb["status"] != string(practice.StatusFailed) || bomb["error"] != "The recording is damaged or in an unsupported format." {
			t.Fatalf("the crafted MP4 ended %v %q", bomb["status"], bomb["error"])
		}
		if n := app.Whisper.Requests(); n != 0 {
			t.Errorf("the speech service was sent %d requests", n)
		}

		upload(1, "audio/webm;codecs=opus", whispertest.Recording(t))
		if next := settled(1); next["status"] != string(practice.StatusDone) {
			t.Fatalf("the next answer ended %v %q", next["status"], next["error"])
		}
		resp, err := http.Get(app.URL + "/readyz")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("/readyz %d after the crafted upload", resp.StatusCode)
		}
	})
}
