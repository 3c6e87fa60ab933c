package transcribe

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// lowRateWAV is an 8 MiB WAV that declares one sample a second: 4 million
// seconds of "audio" that a decode resampling to 16 kHz for each voice
// scaling spent about 12 s of CPU on (issue 38).
func lowRateWAV(t *testing.T) string {
	t.Helper()
	const size = 8 << 20
	data := make([]byte, size-44)
	for i := range data {
		data[i] = byte(i * 7)
	}
	var b bytes.Buffer
	b.WriteString("RIFF")
	_ = binary.Write(&b, binary.LittleEndian, uint32(36+len(data)))
	b.WriteString("WAVEfmt ")
	// PCM, mono, 1 sample a second, 2 bytes a second, 2-byte frames, 16 bits.
	for _, v := range []any{uint32(16), uint16(1), uint16(1), uint32(1), uint32(2), uint16(2), uint16(16)} {
		_ = binary.Write(&b, binary.LittleEndian, v)
	}
	b.WriteString("data")
	_ = binary.Write(&b, binary.LittleEndian, uint32(len(data)))
	b.Write(data)
	path := filepath.Join(t.TempDir(), "one-hertz.wav")
	if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// ffmpegRuns reads the decodes a debug log recorded.
func ffmpegRuns(t *testing.T, logs *bytes.Buffer) []struct {
	CPUMillis int64 `json:"cpu_ms"`
	Nice      int   `json:"nice"`
} {
	t.Helper()
	var runs []struct {
		CPUMillis int64 `json:"cpu_ms"`
		Nice      int   `json:"nice"`
	}
	for line := range bytes.Lines(logs.Bytes()) {
		var rec struct {
			Msg       string `json:"msg"`
			CPUMillis int64  `json:"cpu_ms"`
			Nice      int    `json:"nice"`
		}
		if err := json.Unmarshal(line, &rec); err != nil {
			t.Fatal(err)
		}
		if rec.Msg == "transcribe: ffmpeg finished" {
			runs = append(runs, struct {
				CPUMillis int64 `json:"cpu_ms"`
				Nice      int   `json:"nice"`
			}{rec.CPUMillis, rec.Nice})
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
	if runs[0].Nice != 19 || runs[0].CPUMillis > 2000 {
		t.Fatalf("the try's decode ran at nice %d and used %d ms of CPU (decode: %v)", runs[0].Nice, runs[0].CPUMillis, err)
	}
}
