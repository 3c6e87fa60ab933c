package transcribe

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/whitecoat/whitecoat/internal/transcribe/mediatest"
	"github.com/whitecoat/whitecoat/internal/transcribe/whispertest"
)

// A 652-byte MP4 whose sample tables declare 50 million samples made one
// ffmpeg decode allocate 1.2 GB. Under the decoder limits it is refused as
// a damaged recording, and ffmpeg stays far below the memory it asked for,
// through either engine's decode.
func TestSampleTableBombIsRefusedWithinTheMemoryLimit(t *testing.T) {
	requireTools(t, "ffmpeg", "prlimit")
	bomb := filepath.Join(t.TempDir(), "bomb.mp4")
	if err := os.WriteFile(bomb, mediatest.SampleTableBomb(), 0o600); err != nil {
		t.Fatal(err)
	}
	whisper := whispertest.Start(t, "never asked")
	cfg := openaiConfig(whisper.URL)
	cfg.TempDir = t.TempDir()
	var logs bytes.Buffer
	eng, err := New(cfg, slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()

	_, err = eng.Transcribe(context.Background(), Audio{Path: bomb, MIMEType: "audio/mp4"})
	if !errors.Is(err, ErrBadAudio) || errors.Is(err, ErrUnavailable) {
		t.Fatalf("err = %v, want ErrBadAudio", err)
	}
	if msg := UserMessage(err); msg != msgDamaged {
		t.Errorf("user message %q, want %q", msg, msgDamaged)
	}
	if n := whisper.Requests(); n != 0 {
		t.Errorf("the remote service was sent %d requests", n)
	}
	assertNoTempFiles(t, cfg.TempDir)

	var ran, refused bool
	for line := range bytes.Lines(logs.Bytes()) {
		var rec struct {
			Msg       string `json:"msg"`
			PeakRSSMB int64  `json:"peak_rss_mb"`
			Err       string `json:"err"`
		}
		if err := json.Unmarshal(line, &rec); err != nil {
			t.Fatal(err)
		}
		switch rec.Msg {
		case "transcribe: ffmpeg finished":
			ran = true
			if rec.PeakRSSMB > 256 {
				t.Errorf("ffmpeg peaked at %d MB", rec.PeakRSSMB)
			}
		case "transcribe: recording refused":
			refused = rec.Err != ""
		}
	}
	if !ran || !refused {
		t.Errorf("the decode and its refusal were not logged:\n%s", logs.String())
	}
}

// A memory limit too small for ffmpeg to start is the server's fault, which
// must not be blamed on the recording.
func TestDecoderLimitTooSmallToStartIsUnavailable(t *testing.T) {
	requireTools(t, "ffmpeg", "prlimit")
	wav := filepath.Join(t.TempDir(), "tone.wav")
	run(t, "ffmpeg", "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "sine=duration=1", wav)
	cfg := DefaultConfig()
	cfg.TempDir = t.TempDir()
	cfg.DecodeMemory = 8 << 20
	_, err := decode(context.Background(), cfg, slog.New(slog.DiscardHandler), Audio{Path: wav}, decodeOptions{})
	if !errors.Is(err, ErrUnavailable) || errors.Is(err, ErrBadAudio) {
		t.Fatalf("err = %v, want ErrUnavailable", err)
	}
	assertNoTempFiles(t, cfg.TempDir)
}
