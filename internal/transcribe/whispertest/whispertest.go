// Package whispertest is an OpenAI-compatible transcription server for
// tests: it speaks the real HTTP protocol (multipart upload, bearer key,
// verbose_json with word timings) and can be told to fail for a number of requests, the
// way a remote service has outages.
package whispertest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Server answers POST /audio/transcriptions.
type Server struct {
	URL string

	mu          sync.Mutex
	text        string
	failLeft    int
	failStatus  int
	delay       time.Duration
	wordProbs   []float64
	avgLogprob  float64
	noSpeech    float64
	requests    atomic.Int64
	failedCalls atomic.Int64
}

// Start runs a server that transcribes every upload as text, until the
// test ends.
func Start(t testing.TB, text string) *Server {
	t.Helper()
	s := &Server{text: text, avgLogprob: -0.3, noSpeech: 0.02}
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

// FailNext makes the server answer status (503, 429, ...) to the next n
// requests. Counting requests rather than time keeps outage tests
// deterministic on slow machines.
func (s *Server) FailNext(n int, status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failLeft, s.failStatus = n, status
}

// SetText makes every later upload transcribe as text.
func (s *Server) SetText(text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.text = text
}

// SetDelay makes every answer take d, like a busy remote service.
func (s *Server) SetDelay(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.delay = d
}

// SetWordProbabilities makes every word carry a probability, the i-th
// word probs[i] (the last one repeating), as faster-whisper's servers
// give them; none (OpenAI's protocol) is the default.
func (s *Server) SetWordProbabilities(probs ...float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.wordProbs = probs
}

// SetSegment sets the average token log-probability and the no-speech
// probability of the one segment every transcript is (-0.3 and 0.02 by
// default).
func (s *Server) SetSegment(avgLogprob, noSpeechProb float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.avgLogprob, s.noSpeech = avgLogprob, noSpeechProb
}

// Requests counts the transcription requests received.
func (s *Server) Requests() int { return int(s.requests.Load()) }

// Failed counts the requests answered with an error.
func (s *Server) Failed() int { return int(s.failedCalls.Load()) }

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/audio/transcriptions") {
		http.NotFound(w, r)
		return
	}
	s.requests.Add(1)
	s.mu.Lock()
	text, failing, status, delay, probs, avgLogprob, noSpeech := s.text, s.failLeft > 0, s.failStatus, s.delay, s.wordProbs, s.avgLogprob, s.noSpeech
	if failing {
		s.failLeft--
	}
	s.mu.Unlock()
	select {
	case <-time.After(delay):
	case <-r.Context().Done():
		return
	}
	if failing {
		s.failedCalls.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(`{"error":{"message":"the service is temporarily unavailable","type":"server_error"}}`))
		return
	}
	if err := r.ParseMultipartForm(32 << 20); err != nil || r.FormValue("model") == "" {
		http.Error(w, `{"error":{"message":"expected a multipart form with file and model"}}`, http.StatusBadRequest)
		return
	}
	if _, _, err := r.FormFile("file"); err != nil {
		http.Error(w, `{"error":{"message":"missing file"}}`, http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if r.FormValue("response_format") != "verbose_json" {
		_ = json.NewEncoder(w).Encode(map[string]any{"text": text})
		return
	}
	words := []map[string]any{}
	at := 0.2
	for i, wd := range strings.Fields(text) {
		word := map[string]any{"word": strings.Trim(wd, ".,!?"), "start": at, "end": at + 0.3}
		if len(probs) > 0 {
			word["probability"] = probs[min(i, len(probs)-1)]
		}
		words = append(words, word)
		at += 0.4
	}
	answer := map[string]any{"task": "transcribe", "text": text, "language": "english", "duration": at + 0.2}
	// Without timestamp_granularities[] the server gives segments.
	granularities := r.MultipartForm.Value["timestamp_granularities[]"]
	if slices.Contains(granularities, "word") {
		answer["words"] = words
	}
	if len(granularities) == 0 || slices.Contains(granularities, "segment") {
		answer["segments"] = []map[string]any{{"id": 0, "seek": 0, "start": 0.0, "end": at + 0.2, "text": text,
			"avg_logprob": avgLogprob, "no_speech_prob": noSpeech, "compression_ratio": 1.2, "temperature": 0.0}}
	}
	_ = json.NewEncoder(w).Encode(answer)
}

var (
	recordingOnce sync.Once
	recordingData []byte
	recordingErr  error
)

// Recording returns two seconds of tone encoded by ffmpeg as Opus in WebM,
// the way a browser uploads an answer. Without ffmpeg the test is skipped,
// loudly, except under CI=true, where it fails: CI must have ffmpeg.
func Recording(t testing.TB) []byte {
	t.Helper()
	recordingOnce.Do(func() {
		if _, err := exec.LookPath("ffmpeg"); err != nil {
			recordingErr = err
			return
		}
		dir, err := os.MkdirTemp("", "whispertest-")
		if err != nil {
			recordingErr = err
			return
		}
		defer os.RemoveAll(dir)
		out := filepath.Join(dir, "answer.webm")
		cmd := exec.Command("ffmpeg", "-nostdin", "-y", "-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=320:duration=2",
			"-c:a", "libopus", "-f", "webm", out)
		if b, err := cmd.CombinedOutput(); err != nil {
			recordingErr = fmt.Errorf("ffmpeg: %v: %s", err, b)
			return
		}
		recordingData, recordingErr = os.ReadFile(out)
	})
	if recordingErr != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("ffmpeg is required: %v", recordingErr)
		}
		t.Skipf("FFMPEG NOT AVAILABLE (%v) — test skipped", recordingErr)
	}
	return recordingData
}
