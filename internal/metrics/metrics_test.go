package metrics

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/whitecoat/whitecoat/internal/transcribe"
	"github.com/whitecoat/whitecoat/internal/transcribe/rlimit"
	"github.com/whitecoat/whitecoat/internal/transcribe/whispertest"
)

// Requests are counted by the pattern that served them, with the status
// the handler wrote, and an upload is in flight exactly while it runs.
func TestRequestsByRouteAndUploadsInFlight(t *testing.T) {
	m := New()
	mux := http.NewServeMux()
	inFlight := -1.0
	mux.HandleFunc("PUT /answers/{id}", func(w http.ResponseWriter, r *http.Request) {
		inFlight = gaugeValue(t, m, "whitecoat_uploads_in_flight")
		w.WriteHeader(http.StatusAccepted)
	})
	mux.HandleFunc("GET /answers/{id}", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "gone", http.StatusGone) })
	route := func(r *http.Request) string { _, p := mux.Handler(r); return p }
	h := m.Requests(mux, route, map[string]bool{"PUT /answers/{id}": true})
	for _, r := range []*http.Request{
		httptest.NewRequest(http.MethodPut, "/answers/1", nil),
		httptest.NewRequest(http.MethodPut, "/answers/2", nil),
		httptest.NewRequest(http.MethodGet, "/answers/3", nil),
		httptest.NewRequest(http.MethodGet, "/nowhere", nil),
	} {
		h.ServeHTTP(httptest.NewRecorder(), r)
	}
	if inFlight != 1 {
		t.Errorf("uploads in flight during an upload: %v", inFlight)
	}
	if after := gaugeValue(t, m, "whitecoat_uploads_in_flight"); after != 0 {
		t.Errorf("uploads in flight afterwards: %v", after)
	}
	text := scrape(t, m)
	for _, want := range []string{
		`whitecoat_http_request_duration_seconds_count{method="PUT",route="PUT /answers/{id}",status="202"} 2`,
		`whitecoat_http_request_duration_seconds_count{method="GET",route="GET /answers/{id}",status="410"} 1`,
		`whitecoat_http_request_duration_seconds_count{method="GET",route="unmatched",status="404"} 1`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %s in:\n%s", want, text)
		}
	}
}

func scrape(t *testing.T, m *Metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	return rec.Body.String()
}

func gaugeValue(t *testing.T, m *Metrics, name string) float64 {
	t.Helper()
	for _, line := range strings.Split(scrape(t, m), "\n") {
		if value, ok := strings.CutPrefix(line, name+" "); ok {
			switch value {
			case "0":
				return 0
			case "1":
				return 1
			}
			t.Fatalf("%s = %s", name, value)
		}
	}
	t.Fatalf("no %s", name)
	return 0
}

// The local engine's speech is counted by the search that recognised it:
// on an idle box, all of it thorough.
func TestSpeechBySearch(t *testing.T) {
	if _, err := exec.LookPath("pocketsphinx_batch"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("pocketsphinx is required in CI: %v", err)
		}
		t.Skipf("SKIPPING: pocketsphinx not installed (apt-get install pocketsphinx pocketsphinx-en-us): %v", err)
	}
	cfg := transcribe.DefaultConfig()
	cfg.TempDir = t.TempDir()
	cfg.Local.Workers = 1
	engine, err := transcribe.New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer engine.Close()
	m := New()
	timed := m.Speech(engine)
	decodedBefore := rlimit.Spent(rlimit.PurposeDecode)
	if _, err := timed.Transcribe(t.Context(), transcribe.Audio{Reader: bytes.NewReader(whispertest.Recording(t)), MIMEType: "audio/webm"}); err != nil {
		t.Fatal(err)
	}
	text := scrape(t, m)
	// ffmpeg decoded the recording: its processor time is the decoding's,
	// not lost in the server's children's (issue 43).
	decoded := regexp.MustCompile(`(?m)^whitecoat_helper_cpu_seconds_total\{purpose="decode"\} (\S+)$`).FindStringSubmatch(text)
	if decoded == nil {
		t.Fatalf("no decoding CPU in:\n%s", text)
	}
	if seconds, _ := strconv.ParseFloat(decoded[1], 64); seconds <= decodedBefore.Seconds() {
		t.Errorf("decoding CPU %s s after decoding a recording, %v before", decoded[1], decodedBefore)
	}
	// Its pieces each waited for a decoder, a student waiting for them.
	waits := regexp.MustCompile(`(?m)^whitecoat_speech_decoder_wait_seconds_count\{priority="awaited"\} (\d+)$`).FindStringSubmatch(text)
	if waits == nil || waits[1] == "0" {
		t.Errorf("no awaited recognition's wait for a decoder in:\n%s", text)
	}
	thorough := regexp.MustCompile(`(?m)^whitecoat_speech_searched_seconds_total\{search="thorough"\} (\S+)$`).FindStringSubmatch(text)
	if thorough == nil || !strings.Contains(text, `whitecoat_speech_searched_seconds_total{search="quick"} 0`+"\n") {
		t.Fatalf("no speech by search, or quick speech on an idle box, in:\n%s", text)
	}
	// Timed, the engine keeps what it can do: work while a recording is
	// made, and line a browser's text up with one (issue 39: the timing
	// once hid the aligner from the pipeline).
	if _, ok := timed.(transcribe.Incremental); !ok {
		t.Error("the timed local engine is no longer incremental")
	}
	if _, ok := transcribe.AsAligner(timed); !ok {
		t.Error("the timed local engine can no longer align a given text")
	}
	// The recording is two seconds of tone.
	if seconds, _ := strconv.ParseFloat(thorough[1], 64); seconds < 1.9 || seconds > 2.1 {
		t.Errorf("%v s searched thoroughly, want the recording's 2", seconds)
	}
}
