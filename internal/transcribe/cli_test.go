package transcribe

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
		if out["engine"] != "local" || out["meaningful"] != true || metrics["fillersSource"] != "engine" {
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
