package transcribe

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/whitecoat/whitecoat/internal/transcribe/mediatest"
)

// lowRateWAV is an 8 MiB WAV declaring one sample a second (see
// mediatest.LowRateWAV), as a file.
func lowRateWAV(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "one-hertz.wav")
	if err := os.WriteFile(path, mediatest.LowRateWAV(8<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// ffmpegRun is what the debug log says of one ffmpeg run.
type ffmpegRun struct {
	Msg       string `json:"msg"`
	CPUMillis int64  `json:"cpu_ms"`
	Nice      int    `json:"nice"`
}

// ffmpegRuns reads the decodes a debug log recorded.
func ffmpegRuns(t *testing.T, logs *bytes.Buffer) []ffmpegRun {
	t.Helper()
	var runs []ffmpegRun
	for line := range bytes.Lines(logs.Bytes()) {
		var rec ffmpegRun
		if err := json.Unmarshal(line, &rec); err != nil {
			t.Fatal(err)
		}
		if rec.Msg == "transcribe: ffmpeg finished" {
			runs = append(runs, rec)
		}
	}
	return runs
}

// A visitor's try is decoded behind students' answers: its ffmpeg runs at
// the lowest priority, under a CPU limit of its own, and reads no more of
// the recording than the try's two minutes, so a file declaring a sample
// rate of 1 Hz costs a fraction of a second instead of a dozen.
func TestASpareDecodeRunsLowAndBounded(t *testing.T) {
	requireTools(t, "ffmpeg", "prlimit", "nice")
	cfg := DefaultConfig()
	cfg.TempDir = t.TempDir()
	if spare, awaited := cfg.decoderLimits(true), cfg.decoderLimits(false); spare.Nice != 19 || spare.CPU >= awaited.CPU || awaited.Nice != 0 {
		t.Fatalf("spare decode limits %+v, a student's %+v", spare, awaited)
	}
	var logs bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	in := Audio{Path: lowRateWAV(t), MIMEType: "audio/wav", Limit: 2 * time.Minute, Spare: true}
	pc, err := decode(context.Background(), cfg, logger, in, decodeOptions{warps: warpsToMake(0)})
	if err == nil {
		_ = pc.cleanup()
	}
	runs := ffmpegRuns(t, &logs)
	if len(runs) != 1 {
		t.Fatalf("%d ffmpeg runs logged (decode: %v):\n%s", len(runs), err, logs.String())
	}
	t.Logf("the try's decode: nice %d, %d ms of CPU", runs[0].Nice, runs[0].CPUMillis)
	if runs[0].Nice != 19 || runs[0].CPUMillis > 2000 {
		t.Fatalf("the try's decode ran at nice %d and used %d ms of CPU (decode: %v)", runs[0].Nice, runs[0].CPUMillis, err)
	}
}
