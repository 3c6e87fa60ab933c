package transcribe

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/whitecoat/whitecoat/internal/transcribe/whispertest"
)

// toneWAV writes two seconds of a loud tone: enough for the speech detector,
// so the engine makes its request.
func toneWAV(t *testing.T) string {
	t.Helper()
	samples := make([]int16, 2*sampleRate)
	for i := range samples {
		samples[i] = int16(8000 * math.Sin(2*math.Pi*220*float64(i)/sampleRate))
	}
	path := filepath.Join(t.TempDir(), "tone.wav")
	if err := os.WriteFile(path, wavFile(samples), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

type reply struct {
	status int
	body   string
	delay  time.Duration
}

type seenRequest struct {
	auth, model, format, granularity, language, fileName, fileType string
	fileHead                                                       []byte
}

// fakeWhisper speaks the /audio/transcriptions protocol: it parses the real
// multipart request and answers with the scripted replies in order (the last
// one repeats).
func fakeWhisper(t *testing.T, replies ...reply) (*httptest.Server, func() []seenRequest) {
	t.Helper()
	var mu sync.Mutex
	var seen []seenRequest
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/audio/transcriptions" {
			http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
			return
		}
		if err := r.ParseMultipartForm(32 << 20); err != nil {
			http.Error(w, `{"error":{"message":"bad multipart"}}`, http.StatusBadRequest)
			return
		}
		s := seenRequest{
			auth: r.Header.Get("Authorization"), model: r.FormValue("model"),
			format: r.FormValue("response_format"), granularity: r.FormValue("timestamp_granularities[]"),
			language: r.FormValue("language"),
		}
		if f, h, err := r.FormFile("file"); err == nil {
			s.fileName, s.fileType = h.Filename, h.Header.Get("Content-Type")
			s.fileHead, _ = io.ReadAll(io.LimitReader(f, 12))
			f.Close()
		}
		mu.Lock()
		seen = append(seen, s)
		rep := replies[min(len(seen), len(replies))-1]
		mu.Unlock()
		if rep.delay > 0 {
			select {
			case <-time.After(rep.delay):
			case <-r.Context().Done():
				return
			}
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(rep.status)
		io.WriteString(w, rep.body)
	}))
	t.Cleanup(srv.Close)
	return srv, func() []seenRequest {
		mu.Lock()
		defer mu.Unlock()
		return append([]seenRequest(nil), seen...)
	}
}

const verboseOK = `{"task":"transcribe","language":"english","duration":2.0,"text":" I want to help people.",
 "words":[{"word":"I","start":0.1,"end":0.2},{"word":"want","start":0.2,"end":0.5},{"word":"to","start":0.5,"end":0.6},
 {"word":"help","start":0.6,"end":0.9},{"word":"people.","start":0.9,"end":1.4}]}`

func openaiConfig(base string) Config {
	cfg := DefaultConfig()
	cfg.Engine = EngineOpenAI
	cfg.OpenAI.BaseURL = base + "/v1"
	cfg.OpenAI.APIKey = "sk-test-key"
	cfg.OpenAI.Timeout = 2 * time.Second
	cfg.OpenAI.MaxRetries = 3
	cfg.OpenAI.RetryBackoff = time.Millisecond
	return cfg
}

func TestOpenAIEngine(t *testing.T) {
	requireTools(t, "ffmpeg")
	wav := toneWAV(t)
	tests := []struct {
		name     string
		replies  []reply
		tweak    func(*Config)
		attempts int
		wantText string
		wantErr  func(error) bool
	}{
		{name: "success", replies: []reply{{200, verboseOK, 0}}, attempts: 1, wantText: "I want to help people."},
		{name: "429 and 503 are retried", replies: []reply{{429, `{"error":{"message":"rate limited"}}`, 0},
			{503, `{"error":{"message":"overloaded"}}`, 0}, {200, verboseOK, 0}}, attempts: 3, wantText: "I want to help people."},
		{name: "400 is not retried", replies: []reply{{400, `{"error":{"message":"Invalid file format."}}`, 0}}, attempts: 1,
			wantErr: func(err error) bool {
				var ae *APIError
				return errors.As(err, &ae) && ae.StatusCode == 400 && !errors.Is(err, ErrUnavailable) &&
					strings.Contains(err.Error(), "Invalid file format.")
			}},
		{name: "401 names the key setting", replies: []reply{{401, `{"error":{"message":"Incorrect API key"}}`, 0}}, attempts: 1,
			wantErr: func(err error) bool {
				return !errors.Is(err, ErrUnavailable) && strings.Contains(err.Error(), "SPEECH_OPENAI_API_KEY")
			}},
		{name: "persistent 500 becomes unavailable", replies: []reply{{500, `oops`, 0}}, attempts: 3,
			tweak: func(c *Config) { c.OpenAI.MaxRetries = 2 },
			wantErr: func(err error) bool {
				var ae *APIError
				return errors.Is(err, ErrUnavailable) && errors.As(err, &ae) && ae.StatusCode == 500
			}},
		{name: "timeout is retryable", replies: []reply{{200, verboseOK, 5 * time.Second}}, attempts: 2,
			tweak: func(c *Config) { c.OpenAI.Timeout = 150 * time.Millisecond; c.OpenAI.MaxRetries = 1 },
			wantErr: func(err error) bool {
				return errors.Is(err, ErrUnavailable) && errors.Is(err, context.DeadlineExceeded)
			}},
		{name: "server without verbose_json", replies: []reply{
			{400, `{"error":{"message":"response_format 'verbose_json' is not compatible with this model"}}`, 0},
			{200, `{"text":"I want to help people."}`, 0}}, attempts: 2, wantText: "I want to help people."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv, seen := fakeWhisper(t, tc.replies...)
			cfg := openaiConfig(srv.URL)
			cfg.TempDir = t.TempDir()
			if tc.tweak != nil {
				tc.tweak(&cfg)
			}
			eng, err := New(cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer eng.Close()
			res, err := eng.Transcribe(context.Background(), Audio{Path: wav, MIMEType: "audio/wav"})
			reqs := seen()
			if len(reqs) != tc.attempts {
				t.Errorf("server saw %d requests, want %d", len(reqs), tc.attempts)
			}
			for i, r := range reqs {
				if r.auth != "Bearer sk-test-key" || r.model != "whisper-1" || r.language != "en" ||
					r.fileName != "answer.wav" || r.fileType != "audio/wav" || !bytes.HasPrefix(r.fileHead, []byte("RIFF")) {
					t.Errorf("request %d: %+v", i, r)
				}
				if i == 0 && (r.format != "verbose_json" || r.granularity != "word") {
					t.Errorf("first request asks for %q/%q, want verbose_json/word", r.format, r.granularity)
				}
			}
			if tc.wantErr != nil {
				if err == nil || !tc.wantErr(err) {
					t.Fatalf("err = %v, not the expected kind", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.Text != tc.wantText || res.Engine != "openai:whisper-1" || res.VerbatimFillers {
				t.Errorf("result %+v", res)
			}
			if math.Abs(res.DurationSeconds-2) > 0.01 {
				t.Errorf("duration %v, want 2 (from the decoded audio)", res.DurationSeconds)
			}
			if tc.name == "success" && (len(res.Words) != 5 || res.Words[4] != (Word{Word: "people.", Start: 0.9, End: 1.4})) {
				t.Errorf("words %+v", res.Words)
			}
			if tc.name == "success" && res.WordConfidence != ConfidenceNone {
				t.Errorf("word confidence %q from an answer that has no probabilities", res.WordConfidence)
			}
			if entries, _ := os.ReadDir(cfg.TempDir); len(entries) != 0 {
				t.Errorf("temp files left: %v", entries)
			}
		})
	}
}

func TestOpenAISkipsSilence(t *testing.T) {
	requireTools(t, "ffmpeg")
	srv, seen := fakeWhisper(t, reply{200, `{"text":"Thank you."}`, 0})
	path := filepath.Join(t.TempDir(), "silence.wav")
	if err := os.WriteFile(path, wavFile(make([]int16, 3*sampleRate)), 0o600); err != nil {
		t.Fatal(err)
	}
	eng, err := New(openaiConfig(srv.URL), nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := eng.Transcribe(context.Background(), Audio{Path: path})
	if err != nil || res.Text != "" || len(seen()) != 0 {
		t.Errorf("silence: text %q, err %v, %d requests; want empty, nil, 0", res.Text, err, len(seen()))
	}
}

func TestCheckOpenAI(t *testing.T) {
	tests := []struct {
		status int
		ok     bool
	}{{200, true}, {404, true}, {401, false}, {500, false}}
	for _, tc := range tests {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/v1/models" || r.Header.Get("Authorization") != "Bearer sk-test-key" {
				t.Errorf("check sent %s with auth %q", r.URL.Path, r.Header.Get("Authorization"))
			}
			w.WriteHeader(tc.status)
		}))
		err := checkOpenAI(context.Background(), openaiConfig(srv.URL))
		if (err == nil) != tc.ok {
			t.Errorf("status %d: err = %v", tc.status, err)
		}
		srv.Close()
	}
	cfg := openaiConfig("http://127.0.0.1:1")
	if err := checkOpenAI(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "unreachable") {
		t.Errorf("closed port: err = %v", err)
	}
}

// A word's confidence is what the server says of it: its own probability
// where the server gives one (faster-whisper's servers), else its
// segment's mean token probability times the probability that the
// segment holds speech (OpenAI's), else none, stated as none.
func TestOpenAIWordConfidence(t *testing.T) {
	requireTools(t, "ffmpeg")
	wav := toneWAV(t)
	srv := whispertest.Start(t, "I shadowed a dentist.")
	eng, err := New(openaiConfig(srv.URL), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	confidences := func() ([]float64, string) {
		t.Helper()
		res, err := eng.Transcribe(t.Context(), Audio{Path: wav})
		if err != nil {
			t.Fatal(err)
		}
		var got []float64
		for _, w := range res.Words {
			if w.Confidence == nil {
				got = append(got, -1)
				continue
			}
			got = append(got, *w.Confidence)
		}
		return got, res.WordConfidence
	}

	srv.SetWordProbabilities(0.97, 0.41, 0.88, 0.12)
	if got, source := confidences(); source != ConfidenceWord || !slices.Equal(got, []float64{0.97, 0.41, 0.88, 0.12}) {
		t.Errorf("with word probabilities: %v from %q, want them from %q", got, source, ConfidenceWord)
	}

	srv.SetWordProbabilities()
	srv.SetSegment(-0.5, 0.1)
	want := math.Round(math.Exp(-0.5)*0.9*1000) / 1000
	if got, source := confidences(); source != ConfidenceSegment || !slices.Equal(got, []float64{want, want, want, want}) {
		t.Errorf("with segment log-probabilities only: %v from %q, want %v from %q", got, source, want, ConfidenceSegment)
	}
}

// A server without verbose_json gives text alone: without an aligner, no
// words, and no confidence is made up for them.
func TestOpenAIWithoutVerboseJSONHasNoConfidence(t *testing.T) {
	requireTools(t, "ffmpeg")
	srv, _ := fakeWhisper(t, reply{400, `{"error":{"message":"response_format 'verbose_json' is not supported"}}`, 0},
		reply{200, `{"text":"I shadowed a dentist."}`, 0})
	cfg := openaiConfig(srv.URL)
	cfg.OpenAI.Align = false
	eng, err := New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	res, err := eng.Transcribe(t.Context(), Audio{Path: toneWAV(t)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "I shadowed a dentist." || len(res.Words) != 0 || res.WordConfidence != ConfidenceNone {
		t.Errorf("result %+v", res)
	}
}
