package transcribe

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/whitecoat/whitecoat/internal/transcribe/whispertest"
)

func TestRunCLI(t *testing.T) {
	requireSpeechStack(t)
	webm := encode(t, synth(t, shortAnswer), "webm")
	notAudio := filepath.Join(t.TempDir(), "notes.webm")
	if err := os.WriteFile(notAudio, []byte("just text\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.TempDir = t.TempDir()

	t.Run("json", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		if err := RunCLI(context.Background(), cfg, []string{"--json", webm}, &stdout, &stderr); err != nil {
			t.Fatalf("%v\n%s", err, stderr.String())
		}
		var out map[string]any
		if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, stdout.String())
		}
		for _, key := range []string{"text", "words", "durationSeconds", "engine", "meaningful", "metrics"} {
			if _, ok := out[key]; !ok {
				t.Errorf("missing %q in %s", key, stdout.String())
			}
		}
		words, _ := out["words"].([]any)
		first, _ := words[0].(map[string]any)
		metrics, _ := out["metrics"].(map[string]any)
		if len(words) < 20 || first["word"] == nil || first["start"] == nil || first["end"] == nil {
			t.Errorf("words: %v", words)
		}
		for _, key := range []string{"wordsPerMinute", "fillerCount", "fillersPerMinute", "fillersPer100Words",
			"longestPauseSeconds", "pausesOver2s", "limitShare", "fillersSource"} {
			if _, ok := metrics[key]; !ok {
				t.Errorf("metrics lack %q", key)
			}
		}
		if wpm, _ := metrics["wordsPerMinute"].(float64); wpm < 100 || wpm > 250 {
			t.Errorf("wordsPerMinute %v for festival's speaking rate", wpm)
		}
		for _, w := range words {
			c, ok := w.(map[string]any)["confidence"].(float64)
			if !ok || c < 0 || c > 1 {
				t.Errorf("word %v: want a confidence in [0, 1]", w)
			}
		}
		if out["wordConfidence"] != ConfidenceLattice {
			t.Errorf("wordConfidence %v, want %q", out["wordConfidence"], ConfidenceLattice)
		}
		if out["engine"] != "local" || out["meaningful"] != true || metrics["fillersSource"] != "estimated" {
			t.Errorf("engine %v meaningful %v source %v", out["engine"], out["meaningful"], metrics["fillersSource"])
		}
	})
	t.Run("text", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		if err := RunCLI(context.Background(), cfg, []string{webm}, &stdout, &stderr); err != nil {
			t.Fatal(err)
		}
		if wer := wordErrorRate(shortAnswer, stdout.String()); wer > 0.25 {
			t.Errorf("WER %.2f: %q", wer, stdout.String())
		}
	})
	t.Run("a relative path is read and left in place", func(t *testing.T) {
		t.Chdir(filepath.Dir(webm))
		var stdout, stderr bytes.Buffer
		if err := RunCLI(context.Background(), cfg, []string{filepath.Base(webm)}, &stdout, &stderr); err != nil || stdout.Len() < 20 {
			t.Fatalf("%v: %q %s", err, stdout.String(), stderr.String())
		}
		if _, err := os.Stat(webm); err != nil {
			t.Fatalf("the operator's file is gone: %v", err)
		}
	})
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no file", nil, "exactly one FILE"},
		{"two files", []string{webm, webm}, "exactly one FILE"},
		{"unknown flag", []string{"--fast", webm}, "flag provided but not defined"},
		{"unknown engine", []string{"--engine", "vosk", webm}, "engine"},
		{"not audio", []string{notAudio}, "not an audio or video recording"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := RunCLI(context.Background(), cfg, tc.args, &stdout, &stderr)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want mention of %q", err, tc.want)
			}
			if tc.name == "not audio" && !errors.Is(err, ErrBadAudio) {
				t.Errorf("not audio: %v is not ErrBadAudio", err)
			}
		})
	}
}

// `transcribe --json` with an OpenAI-compatible engine prints the
// server's word probabilities as the words' confidences, or its
// segment's where it gives none per word.
func TestRunCLIPrintsTheServersConfidences(t *testing.T) {
	requireTools(t, "ffmpeg")
	wav := toneWAV(t)
	srv := whispertest.Start(t, "I shadowed a dentist.")
	cfg := openaiConfig(srv.URL)
	cfg.TempDir = t.TempDir()
	cliWords := func() (confidences []any, source any) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if err := RunCLI(t.Context(), cfg, []string{"--engine", "openai", "--json", wav}, &stdout, &stderr); err != nil {
			t.Fatalf("%v\n%s", err, stderr.String())
		}
		var out struct {
			Words  []map[string]any `json:"words"`
			Source any              `json:"wordConfidence"`
		}
		if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
			t.Fatal(err)
		}
		for _, w := range out.Words {
			c, ok := w["confidence"]
			if !ok {
				t.Fatalf("word %v has no confidence key", w)
			}
			confidences = append(confidences, c)
		}
		return confidences, out.Source
	}
	srv.SetWordProbabilities(0.9, 0.35)
	if got, source := cliWords(); !reflect.DeepEqual(got, []any{0.9, 0.35, 0.35, 0.35}) || source != ConfidenceWord {
		t.Errorf("with word probabilities: %v from %v", got, source)
	}
	srv.SetWordProbabilities()
	srv.SetSegment(-0.2, 0.5)
	want := math.Round(math.Exp(-0.2)*0.5*1000) / 1000
	if got, source := cliWords(); !reflect.DeepEqual(got, []any{want, want, want, want}) || source != ConfidenceSegment {
		t.Errorf("with the segment's probabilities: %v from %v", got, source)
	}
}
