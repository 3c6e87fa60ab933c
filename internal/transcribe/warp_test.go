package transcribe

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestWarpedScalesFrequenciesNotDuration feeds a pure tone through the
// scaling: its pitch must fall by the factor and its length stay.
func TestWarpedScalesFrequenciesNotDuration(t *testing.T) {
	requireTools(t, "ffmpeg")
	const tone, seconds = 1000.0, 3
	samples := make([]int16, seconds*sampleRate)
	for i := range samples {
		samples[i] = int16(8000 * math.Sin(2*math.Pi*tone*float64(i)/sampleRate))
	}
	dir := t.TempDir()
	pc := &pcm{dir: dir, rawPath: filepath.Join(dir, "audio.raw"), samples: samples}
	raw, err := binary.Append(nil, binary.LittleEndian, samples)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pc.rawPath, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	ctx := context.Background()

	if base, err := pc.warped(ctx, cfg, 1); err != nil || base+".raw" != pc.rawPath {
		t.Fatalf("factor 1 = %q, %v; want the recording itself", base, err)
	}
	base, out := readWarped(t, pc, cfg, 1.1)
	got := make([]int16, len(out)/2)
	if _, err := binary.Decode(out, binary.LittleEndian, got); err != nil {
		t.Fatal(err)
	}
	if d := math.Abs(float64(len(got)-len(samples))) / sampleRate; d > 0.03 {
		t.Errorf("length changed by %.3f s: %d samples from %d", d, len(got), len(samples))
	}
	// Count rising zero crossings in the middle second, away from the edges.
	mid := got[sampleRate : 2*sampleRate]
	crossings := 0
	for i := 1; i < len(mid); i++ {
		if mid[i-1] < 0 && mid[i] >= 0 {
			crossings++
		}
	}
	if want := tone / 1.1; math.Abs(float64(crossings)-want) > want*0.02 {
		t.Errorf("tone at %d Hz after scaling by 1.1, want about %.0f Hz", crossings, want)
	}
	if again, err := pc.warped(ctx, cfg, 1.1); err != nil || again != base {
		t.Errorf("second request = %q, %v; want the same file %q", again, err, base)
	}
}

// TestVoiceScalingFollowsTheSpeaker checks the choice on real voices: the
// female voice is recognised scaled down, the male one as it is, and each
// answer's choice carries through a recording made in pieces.
func TestVoiceScalingFollowsTheSpeaker(t *testing.T) {
	requireSpeechStack(t)
	e := startLocal(t, localConfig(t))
	ctx := context.Background()
	for _, tc := range []struct {
		voice string
		want  float64
	}{{femaleVoice, 1.1}, {maleVoice, 1}} {
		t.Run(tc.voice, func(t *testing.T) {
			in := Audio{Path: encode(t, synthAs(t, tc.voice, shortAnswer), "webm"), MIMEType: "audio/webm"}
			p := stepUntilSettled(t, e, in, Progress{})
			if p.Warp != tc.want || len(p.Words) == 0 {
				t.Fatalf("voice scaling %.2f with %d words, want %.2f", p.Warp, len(p.Words), tc.want)
			}
			res, err := e.Finish(ctx, in, p)
			if err != nil {
				t.Fatal(err)
			}
			if wer := wordErrorRate(shortAnswer, res.Text); wer > 0.3 {
				t.Errorf("WER %.2f: %q", wer, res.Text)
			}
			if res.Warp != tc.want || !res.WarpProbed {
				t.Errorf("result's factor %.2f, probed %v; want %.2f chosen on this recording", res.Warp, res.WarpProbed, tc.want)
			}

			// The speaker's next answer, started with their factor: no probe.
			again, err := e.Finish(ctx, in, Progress{Warp: tc.want})
			if err != nil {
				t.Fatal(err)
			}
			if again.Warp != tc.want || again.WarpProbed {
				t.Errorf("given factor %.2f: result's %.2f, probed %v; want it used without a probe", tc.want, again.Warp, again.WarpProbed)
			}
			if wer := wordErrorRate(shortAnswer, again.Text); wer > 0.3 {
				t.Errorf("at the given factor, WER %.2f: %q", wer, again.Text)
			}
			streamed := stepUntilSettled(t, e, in, Progress{Warp: tc.want})
			if streamed.Warp != tc.want || streamed.Probed || len(streamed.Words) == 0 {
				t.Errorf("recording in progress started with factor %.2f: %+v; want it kept, not probed", tc.want, streamed)
			}
		})
	}

	t.Run("chosen on the first speech after a silence", func(t *testing.T) {
		dir := t.TempDir()
		padded := filepath.Join(dir, "padded.wav")
		run(t, "sox", "-D", synth(t, shortAnswer), padded, "pad", "9", "0")
		silence := filepath.Join(dir, "silence.wav")
		run(t, "sox", "-D", padded, silence, "trim", "0", "8")
		p := stepUntilSettled(t, e, Audio{Path: encode(t, silence, "webm")}, Progress{})
		if p.Until < 6 || p.Warp != 0 || len(p.Words) != 0 {
			t.Fatalf("8 s of silence gave %+v; want progress past 6 s with no words and no factor yet", p)
		}
		next := stepUntilSettled(t, e, Audio{Path: encode(t, padded, "webm")}, p)
		if next.Warp != 1.1 || len(next.Words) == 0 || next.Words[0].Start < p.Until {
			t.Fatalf("after the silence: %+v; want words from %.2f s on, at factor 1.1", next, p.Until)
		}
	})

	t.Run("progress with a factor not offered is ignored", func(t *testing.T) {
		in := Audio{Path: encode(t, synth(t, shortAnswer), "webm"), MIMEType: "audio/webm"}
		res, err := e.Finish(ctx, in, Progress{Words: []Word{{Word: "stale", End: 1}}, Until: 1, Warp: 1.3})
		if err != nil {
			t.Fatal(err)
		}
		if res.Words[0].Word == "stale" {
			t.Fatalf("kept the words of a progress with an unknown factor: %q", res.Text)
		}
	})
}

// readWarped returns pc's copy scaled by w (its decoder input, and the
// samples' bytes), making it if need be.
func readWarped(t *testing.T, pc *pcm, cfg Config, w float64) (base string, raw []byte) {
	t.Helper()
	base, err := pc.warped(context.Background(), cfg, w)
	if err != nil {
		t.Fatal(err)
	}
	raw, err = os.ReadFile(base + ".raw")
	if err != nil {
		t.Fatal(err)
	}
	return base, raw
}

// countingFFmpeg returns an ffmpeg that counts its runs (in the file it
// also returns) before running the real one.
func countingFFmpeg(t *testing.T) (program, counter string) {
	t.Helper()
	real, err := exec.LookPath("ffmpeg")
	if err != nil {
		t.Skip("ffmpeg not installed")
	}
	dir := t.TempDir()
	counter = filepath.Join(dir, "runs")
	program = filepath.Join(dir, "ffmpeg")
	script := fmt.Sprintf("#!/bin/sh\necho run >> %q\nexec %q \"$@\"\n", counter, real)
	if err := os.WriteFile(program, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	return program, counter
}

func runsOf(t *testing.T, counter string) int {
	t.Helper()
	b, err := os.ReadFile(counter)
	if errors.Is(err, os.ErrNotExist) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b), "run\n")
}

// TestAScaledVoiceIsDecodedInOneRun: starting ffmpeg costs more CPU than
// decoding a minute of speech, and running it again for the scaled copy
// made a voice recognised at 1.1 (most women's) cost two runs a step. The
// copy made in the decoding run must be the very samples a run of its own
// makes, and each step of a known voice one run.
func TestAScaledVoiceIsDecodedInOneRun(t *testing.T) {
	requireSpeechStack(t)
	cfg := localConfig(t)
	program, counter := countingFFmpeg(t)
	cfg.FFmpeg = program
	ctx := context.Background()
	in := Audio{Path: encode(t, synth(t, shortAnswer), "webm"), MIMEType: "audio/webm"}

	pc, err := decode(ctx, cfg, slog.New(slog.DiscardHandler), in, decodeOptions{warps: []float64{1.1}})
	if err != nil {
		t.Fatal(err)
	}
	defer pc.cleanup()
	_, inRun := readWarped(t, pc, cfg, 1.1)
	if n := runsOf(t, counter); n != 1 {
		t.Errorf("decoding with the scaled copy took %d ffmpeg runs, want 1", n)
	}
	alone := &pcm{dir: t.TempDir(), samples: pc.samples}
	alone.rawPath = filepath.Join(alone.dir, "audio.raw")
	plain, err := os.ReadFile(pc.rawPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(alone.rawPath, plain, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, want := readWarped(t, alone, cfg, 1.1); !bytes.Equal(inRun, want) {
		t.Errorf("the copy scaled in the decoding run (%d bytes) differs from one scaled on its own (%d bytes)", len(inRun), len(want))
	}

	e := startLocal(t, cfg)
	before := runsOf(t, counter)
	res, err := e.Finish(ctx, in, Progress{Warp: 1.1})
	if err != nil {
		t.Fatal(err)
	}
	if n := runsOf(t, counter) - before; n != 1 || res.Warp != 1.1 || len(res.Words) == 0 {
		t.Errorf("an answer in a voice known to need 1.1: %d ffmpeg runs, factor %.2f, %d words; want 1 run", n, res.Warp, len(res.Words))
	}
	before = runsOf(t, counter)
	if _, err := e.Finish(ctx, in, Progress{}); err != nil {
		t.Fatal(err)
	}
	if n := runsOf(t, counter) - before; n != 1 {
		t.Errorf("an answer whose voice is chosen on it: %d ffmpeg runs, want 1 (every candidate made in it)", n)
	}
}

// TestAClearVoiceIsScaledByItsPitch: a voice clearly high or low is scaled
// by its pitch, with no probe decoded twice; a voice between the bounds is
// still probed.
func TestAClearVoiceIsScaledByItsPitch(t *testing.T) {
	requireSpeechStack(t)
	var logs bytes.Buffer
	e, err := newLocal(localConfig(t), slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	between := filepath.Join(t.TempDir(), "between.wav")
	run(t, "sox", "-D", synthAs(t, maleVoice, shortAnswer), between, "pitch", "600") // about 103 Hz up to 146
	for _, tc := range []struct {
		name, wav string
		by        string
		natural   bool // not distorted by the pitch shift, so worth a word count
	}{
		{femaleVoice, synth(t, shortAnswer), "pitch", true},
		{maleVoice, synthAs(t, maleVoice, shortAnswer), "pitch", true},
		{maleVoice + " raised to between the bounds", between, "probe", false},
	} {
		logs.Reset()
		res, err := e.Finish(context.Background(), Audio{Path: encode(t, tc.wav, "webm")}, Progress{})
		if err != nil {
			t.Fatal(err)
		}
		var chosen struct {
			Warp float64 `json:"warp"`
			By   string  `json:"by"`
			Hz   float64 `json:"hz"`
		}
		for line := range strings.Lines(logs.String()) {
			if strings.Contains(line, "voice scaling chosen") {
				if err := json.Unmarshal([]byte(line), &chosen); err != nil {
					t.Fatal(err)
				}
			}
		}
		t.Logf("%s: %+v", tc.name, chosen)
		if chosen.By != tc.by || chosen.Warp != res.Warp || !res.WarpProbed {
			t.Errorf("%s: factor %.2f chosen by %q (log %+v), want chosen by %s on this recording", tc.name, res.Warp, chosen.By, chosen, tc.by)
		}
		if wer := wordErrorRate(shortAnswer, res.Text); tc.natural && wer > 0.3 {
			t.Errorf("%s: WER %.2f: %q", tc.name, wer, res.Text)
		}
	}
}
