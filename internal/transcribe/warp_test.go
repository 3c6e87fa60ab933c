package transcribe

import (
	"context"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
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
	base, err := pc.warped(ctx, cfg, 1.1)
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.ReadFile(base + ".raw")
	if err != nil {
		t.Fatal(err)
	}
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
			p, err := e.Advance(ctx, in, Progress{})
			if err != nil {
				t.Fatal(err)
			}
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
			streamed, err := e.Advance(ctx, in, Progress{Warp: tc.want})
			if err != nil {
				t.Fatal(err)
			}
			if streamed.Warp != tc.want || streamed.Probed || len(streamed.Words) == 0 {
				t.Errorf("recording in progress started with factor %.2f: %+v; want it kept, not probed", tc.want, streamed)
			}
		})
	}

	t.Run("chosen on the first speech after a silence", func(t *testing.T) {
		dir := t.TempDir()
		padded := filepath.Join(dir, "padded.wav")
		run(t, "sox", synth(t, shortAnswer), padded, "pad", "9", "0")
		silence := filepath.Join(dir, "silence.wav")
		run(t, "sox", padded, silence, "trim", "0", "8")
		p, err := e.Advance(ctx, Audio{Path: encode(t, silence, "webm")}, Progress{})
		if err != nil {
			t.Fatal(err)
		}
		if p.Until < 6 || p.Warp != 0 || len(p.Words) != 0 {
			t.Fatalf("8 s of silence gave %+v; want progress past 6 s with no words and no factor yet", p)
		}
		next, err := e.Advance(ctx, Audio{Path: encode(t, padded, "webm")}, p)
		if err != nil {
			t.Fatal(err)
		}
		if next.Warp != 1.1 || len(next.Words) == 0 || next.Words[0].Start < p.Until {
			t.Fatalf("after the silence: %+v; want words from %.2f s on, at factor 1.1", next, p.Until)
		}
	})

	t.Run("progress with a factor not offered is ignored", func(t *testing.T) {
		in := Audio{Path: encode(t, synth(t, shortAnswer), "webm"), MIMEType: "audio/webm"}
		res, err := e.Finish(ctx, in, Progress{Words: []Word{{"stale", 0, 1}}, Until: 1, Warp: 1.3})
		if err != nil {
			t.Fatal(err)
		}
		if res.Words[0].Word == "stale" {
			t.Fatalf("kept the words of a progress with an unknown factor: %q", res.Text)
		}
	})
}
