package transcribe

import (
	"bytes"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// A live run fed a recording piece by piece writes, byte for byte, what a
// run over the finished file writes (the samples and the scaled copy), and
// every step reads a beginning of it.
func TestALiveDecodeWritesWhatAWholeDecodeWrites(t *testing.T) {
	requireSpeechStack(t)
	cfg := localConfig(t)
	logger := slog.New(slog.DiscardHandler)
	wav := synth(t, shortAnswer)
	for _, kind := range []string{"webm", "fragmented-mp4"} {
		t.Run(kind, func(t *testing.T) {
			full, err := os.ReadFile(encode(t, wav, kind))
			if err != nil {
				t.Fatal(err)
			}
			whole, err := decode(t.Context(), cfg, logger, Audio{Reader: bytes.NewReader(full)}, decodeOptions{warps: warpSteps})
			if err != nil {
				t.Fatal(err)
			}
			defer whole.cleanup()

			growing := filepath.Join(t.TempDir(), "growing")
			in := Audio{Path: growing}
			var runs liveRuns
			defer runs.endAll(logger)
			var steps [][]int16
			for _, share := range []float64{0.1, 0.3, 0.6, 0.9} {
				if err := os.WriteFile(growing, full[:int(share*float64(len(full)))], 0o600); err != nil {
					t.Fatal(err)
				}
				run := runs.forStep(cfg, logger, in, warpSteps)
				if run == nil {
					t.Fatal("no live run for a recording in progress")
				}
				// A step that gave up waiting for ffmpeg (still starting, or
				// waiting for a core on a busy box) says so; the next one
				// reads what it could not.
				var pc *pcm
				for deadline := time.Now().Add(30 * time.Second); pc == nil || pc.behind; {
					if time.Now().After(deadline) {
						t.Fatalf("the run had not caught up with %.0f%% of the recording after 30 s", share*100)
					}
					if pc, err = run.step(t.Context(), cfg); err != nil {
						t.Fatalf("step at %.0f%%: %v", share*100, err)
					}
				}
				steps = append(steps, pc.samples)
			}
			if err := os.WriteFile(growing, full, 0o600); err != nil {
				t.Fatal(err)
			}
			run := runs.take(growing)
			if run == nil || runs.take(growing) != nil {
				t.Fatal("the recording's one live run was not handed over once")
			}
			live, err := run.finish(t.Context(), cfg, logger)
			if err != nil {
				t.Fatal(err)
			}
			defer live.cleanup()
			if !slices.Equal(live.samples, whole.samples) || live.truncated != whole.truncated {
				t.Fatalf("the live run wrote %d samples, the whole decode %d: not the same", len(live.samples), len(whole.samples))
			}
			_, liveCopy := readWarped(t, live, cfg, 1.1)
			_, wholeCopy := readWarped(t, whole, cfg, 1.1)
			if !bytes.Equal(liveCopy, wholeCopy) {
				t.Fatalf("the live run's scaled copy (%d bytes) differs from the whole decode's (%d bytes)", len(liveCopy), len(wholeCopy))
			}
			for i, s := range steps {
				if len(s) == 0 || !slices.Equal(s, whole.samples[:len(s)]) || (i > 0 && len(s) <= len(steps[i-1])) {
					t.Fatalf("step %d read %d samples: not a growing beginning of the recording's", i, len(s))
				}
			}
			// 90% of the file was fed before the last step: most of the
			// recording was there to read.
			if last := len(steps[len(steps)-1]); last < len(whole.samples)*3/4 {
				t.Errorf("the last step read %d of %d samples: it did not wait for the run to catch up", last, len(whole.samples))
			}
		})
	}
}

// An answer recognised while it is recorded, in three steps and a finish,
// is decoded by one ffmpeg run: before, every step ran ffmpeg over all of
// the recording so far, and starting ffmpeg costs more CPU than decoding a
// minute of speech. What it recognises is what the steps recognised.
func TestARecordingInProgressIsDecodedByOneRun(t *testing.T) {
	requireSpeechStack(t)
	cfg := localConfig(t)
	program, counter := countingFFmpeg(t)
	cfg.FFmpeg = program
	e := startLocal(t, cfg)
	full, err := os.ReadFile(encode(t, synth(t, shortAnswer), "webm"))
	if err != nil {
		t.Fatal(err)
	}
	growing := filepath.Join(t.TempDir(), "growing")
	in := Audio{Path: growing, MIMEType: "audio/webm"}
	var p Progress
	for _, share := range []float64{0.5, 0.7, 0.9} {
		if err := os.WriteFile(growing, full[:int(share*float64(len(full)))], 0o600); err != nil {
			t.Fatal(err)
		}
		p = stepUntilSettled(t, e, in, p)
	}
	if err := os.WriteFile(growing, full, 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := e.Finish(t.Context(), in, p)
	if err != nil {
		t.Fatal(err)
	}
	if n := runsOf(t, counter); n != 1 {
		t.Errorf("three steps and a finish took %d ffmpeg runs, want 1", n)
	}
	if p.Until == 0 || !slices.Equal(res.Words[:len(p.Words)], p.Words) {
		t.Errorf("the steps recognised to %.1f s, and the transcript does not continue them", p.Until)
	}
	if wer := wordErrorRate(shortAnswer, res.Text); wer > 0.25 {
		t.Errorf("WER %.2f: %q", wer, res.Text)
	}
	assertNoTempFiles(t, cfg.TempDir)
}

// A live run cannot stand for a recording that no longer begins with what
// it was fed, nor outlive an abandoned answer, nor the engine.
func TestALiveRunIsDroppedWhenItCannotBeUsed(t *testing.T) {
	requireSpeechStack(t)
	cfg := localConfig(t)
	e := startLocal(t, cfg)
	full, err := os.ReadFile(encode(t, synth(t, shortAnswer), "webm"))
	if err != nil {
		t.Fatal(err)
	}
	half := full[:len(full)/2]
	start := func(e *localEngine, path string) *liveDecoder {
		t.Helper()
		if err := os.WriteFile(path, half, 0o600); err != nil {
			t.Fatal(err)
		}
		run := e.live.forStep(cfg, e.logger, Audio{Path: path}, []float64{1})
		if run == nil {
			t.Fatal("no live run")
		}
		if _, err := run.step(t.Context(), cfg); err != nil {
			t.Fatal(err)
		}
		return run
	}

	t.Run("the recording changed", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "replaced")
		start(e, path)
		// Other bytes where the fed ones were: a different recording.
		other, err := os.ReadFile(encode(t, synth(t, "A different answer about teamwork and patience."), "webm"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, other, 0o600); err != nil {
			t.Fatal(err)
		}
		res, err := e.Finish(t.Context(), Audio{Path: path, MIMEType: "audio/webm"}, Progress{})
		if err != nil {
			t.Fatal(err)
		}
		if wer := wordErrorRate("A different answer about teamwork and patience.", res.Text); wer > 0.4 {
			t.Errorf("transcribed %q: not the recording as it now is", res.Text)
		}
		assertNoTempFiles(t, cfg.TempDir)
	})

	t.Run("an abandoned answer", func(t *testing.T) {
		abandoned := start(e, filepath.Join(t.TempDir(), "abandoned"))
		active := start(e, filepath.Join(t.TempDir(), "active"))
		abandon := func(run *liveDecoder) {
			run.used.Store(time.Now().Add(-liveIdle - time.Second).UnixNano())
		}
		ended := func(run *liveDecoder) {
			t.Helper()
			select {
			case <-run.exited:
			case <-time.After(10 * time.Second):
				t.Fatal("an abandoned answer's run is still running")
			}
			waitGone(t, run.dir)
		}
		// The next step of any recording ends runs left unfed,
		abandon(abandoned)
		start(e, filepath.Join(t.TempDir(), "next"))
		ended(abandoned)
		// and so does the periodic sweep, on a server where none comes.
		abandon(active)
		if _, err := e.SweepTemp(time.Hour); err != nil {
			t.Fatal(err)
		}
		ended(active)
	})

	t.Run("the engine closes", func(t *testing.T) {
		other := startLocal(t, cfg)
		run := start(other, filepath.Join(t.TempDir(), "open"))
		other.Close()
		if !run.hasExited() {
			t.Fatal("a live run outlived its engine")
		}
		waitGone(t, run.dir)
	})
}

// waitGone waits for a directory removed in the background.
func waitGone(t *testing.T, dir string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(dir); os.IsNotExist(err) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s is still there", dir)
		}
	}
}

// On a busy box ffmpeg can take longer to start than a step waits: the
// step then reads nothing, and the run goes on, rather than failing and
// leaving every step to decode the whole recording again.
func TestALiveRunStillStartingIsNoFailure(t *testing.T) {
	requireSpeechStack(t)
	cfg := localConfig(t)
	real, err := exec.LookPath("ffmpeg")
	if err != nil {
		t.Fatal(err)
	}
	slow := filepath.Join(t.TempDir(), "ffmpeg")
	script := fmt.Sprintf("#!/bin/sh\nsleep %.1f\nexec %q \"$@\"\n", (liveCatchUp + time.Second).Seconds(), real)
	if err := os.WriteFile(slow, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	cfg.FFmpeg = slow
	logger := slog.New(slog.DiscardHandler)
	full, err := os.ReadFile(encode(t, synth(t, shortAnswer), "webm"))
	if err != nil {
		t.Fatal(err)
	}
	growing := filepath.Join(t.TempDir(), "growing")
	if err := os.WriteFile(growing, full[:len(full)/2], 0o600); err != nil {
		t.Fatal(err)
	}
	var runs liveRuns
	defer runs.endAll(logger)
	run := runs.forStep(cfg, logger, Audio{Path: growing}, []float64{1})
	pc, err := run.step(t.Context(), cfg)
	if err != nil || len(pc.samples) != 0 || !pc.behind {
		t.Fatalf("a step while ffmpeg starts: %v, %d samples, behind %v; want none, behind, and no error", err, len(pc.samples), pc.behind)
	}
	// The next steps, once ffmpeg has started, read what it decoded.
	for deadline := time.Now().Add(30 * time.Second); pc.behind; {
		if again := runs.forStep(cfg, logger, Audio{Path: growing}, []float64{1}); again != run {
			t.Fatal("the run was replaced")
		}
		if time.Now().After(deadline) {
			t.Fatal("the run had not caught up 30 s after it started")
		}
		if pc, err = run.step(t.Context(), cfg); err != nil {
			t.Fatal(err)
		}
	}
	if pc.seconds() < 5 {
		t.Fatalf("once started, the run read %.1f s", pc.seconds())
	}
}
