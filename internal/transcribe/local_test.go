package transcribe

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/whitecoat/whitecoat/internal/transcribe/mediatest"
	"github.com/whitecoat/whitecoat/internal/transcribe/sphinx"
)

// shortAnswer is about 15 s of speech: long enough to be split across two
// workers, short enough to keep the suite quick.
const shortAnswer = "I want to become a dentist because I enjoy working with my hands and helping people " +
	"feel comfortable. When I volunteered at a community clinic, I saw how much a healthy smile " +
	"can change the confidence of a patient."

func localConfig(t *testing.T) Config {
	cfg := DefaultConfig()
	cfg.TempDir = t.TempDir()
	cfg.Local.Workers = 2
	return cfg
}

// startLocal starts a local engine that the test closes at its end.
func startLocal(t *testing.T, cfg Config) *localEngine {
	t.Helper()
	e, err := newLocal(cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// assertNoTempFiles checks that no per-answer directory is left behind (the
// engine's own decoder directory lives until Close).
func assertNoTempFiles(t *testing.T, dir string) {
	t.Helper()
	left, err := filepath.Glob(filepath.Join(dir, tempPrefix+"*"))
	if err != nil || len(left) != 0 {
		t.Errorf("temp dir not clean: %v %v", left, err)
	}
}

func TestLocalTranscribesBrowserFormats(t *testing.T) {
	requireSpeechStack(t)
	wav := synth(t, shortAnswer)
	cfg := localConfig(t)
	eng, err := New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	tests := []struct{ kind, mime string }{
		{"webm", "audio/webm;codecs=opus"},
		{"mp4", "audio/mp4"},
		{"video-webm", "video/webm"},
		{"video-mp4", "video/mp4"},
	}
	for _, tc := range tests {
		t.Run(tc.kind, func(t *testing.T) {
			path := encode(t, wav, tc.kind)
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			res, err := eng.Transcribe(context.Background(), Audio{Reader: f, MIMEType: tc.mime})
			if err != nil {
				t.Fatal(err)
			}
			if wer := wordErrorRate(shortAnswer, res.Text); wer > 0.25 {
				t.Errorf("WER %.2f: %q", wer, res.Text)
			}
			if res.Engine != "local" || res.VerbatimFillers || res.Truncated {
				t.Errorf("result fields %+v", res)
			}
			if res.DurationSeconds < 10 || res.DurationSeconds > 20 {
				t.Errorf("duration %.1f s", res.DurationSeconds)
			}
			if len(res.Words) != len(strings.Fields(res.Text)) {
				t.Fatalf("%d timed words for %d words of text", len(res.Words), len(strings.Fields(res.Text)))
			}
			for i, w := range res.Words {
				if w.End <= w.Start || w.End > res.DurationSeconds+0.1 || (i > 0 && w.Start < res.Words[i-1].End) {
					t.Fatalf("word %d %+v out of order (previous %+v)", i, w, res.Words[max(i-1, 0)])
				}
			}
			assertNoTempFiles(t, cfg.TempDir)
		})
	}
}

func TestLocalRejectsBadAudio(t *testing.T) {
	requireSpeechStack(t)
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	webm := encode(t, synth(t, shortAnswer), "webm")
	full, err := os.ReadFile(webm)
	if err != nil {
		t.Fatal(err)
	}
	noAudio := filepath.Join(dir, "noaudio.webm")
	run(t, "ffmpeg", "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=5", "-t", "2", "-c:v", "libvpx", noAudio)

	tests := []struct {
		name     string
		in       Audio
		noFFmpeg bool // rejected before ffmpeg would run
		message  string
	}{
		{"text renamed .webm", Audio{Path: write("notes.webm", []byte("These are my interview notes, not audio.\n")), MIMEType: "audio/webm"}, true, "not an audio or video recording"},
		{"png claimed as webm", Audio{Path: write("pic.webm", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")), MIMEType: "audio/webm"}, true, "not an audio or video recording"},
		{"claimed text", Audio{Path: webm, MIMEType: "text/plain"}, true, "Only audio or video"},
		{"empty file", Audio{Path: write("empty.webm", nil)}, true, "empty"},
		{"empty reader", Audio{Reader: strings.NewReader("")}, true, "empty"},
		{"header only", Audio{Path: write("head.webm", full[:200])}, false, ""},
		{"truncated webm", Audio{Path: write("cut.webm", full[:len(full)/2])}, false, "cut off"},
		{"video without audio", Audio{Path: noAudio, MIMEType: "video/webm"}, false, "no audio track"},
		{"50 million samples declared", Audio{Path: write("bomb.mp4", mediatest.SampleTableBomb()), MIMEType: "audio/mp4"}, false, "damaged"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := localConfig(t)
			if tc.noFFmpeg {
				cfg.FFmpeg = "/nonexistent/ffmpeg" // running it would be ErrUnavailable
			}
			eng, err := New(cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer eng.Close()
			start := time.Now()
			_, err = eng.Transcribe(context.Background(), tc.in)
			if !errors.Is(err, ErrBadAudio) || errors.Is(err, ErrUnavailable) {
				t.Fatalf("err = %v, want ErrBadAudio", err)
			}
			if msg := UserMessage(err); !strings.Contains(msg, tc.message) {
				t.Errorf("user message %q does not mention %q", msg, tc.message)
			}
			if d := time.Since(start); d > cfg.DecodeTimeout {
				t.Errorf("took %v", d)
			}
			assertNoTempFiles(t, cfg.TempDir)
		})
	}
}

func TestLocalLongSilenceIsEmptyAndCapped(t *testing.T) {
	requireSpeechStack(t)
	silence := filepath.Join(t.TempDir(), "silence.webm")
	run(t, "ffmpeg", "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "anullsrc=r=48000:cl=mono",
		"-t", "600", "-c:a", "libopus", "-b:a", "16k", silence)
	cfg := localConfig(t)
	eng, err := New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	res, err := eng.Transcribe(context.Background(), Audio{Path: silence, MIMEType: "audio/webm"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "" || len(res.Words) != 0 || !res.Truncated {
		t.Errorf("silence gave %+v", res)
	}
	if want := cfg.MaxDuration().Seconds(); res.DurationSeconds < want-0.1 || res.DurationSeconds > want+0.1 {
		t.Errorf("duration %.1f, want the %.0f s cap", res.DurationSeconds, want)
	}
	assertNoTempFiles(t, cfg.TempDir)
}

func TestLocalDeadline(t *testing.T) {
	requireSpeechStack(t)
	webm := encode(t, synth(t, shortAnswer), "webm")
	cfg := localConfig(t)
	eng, err := New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = eng.Transcribe(ctx, Audio{Path: webm})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want deadline exceeded", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("returned %v after a 300 ms deadline", d)
	}
	assertNoTempFiles(t, cfg.TempDir)
	// The pool replaces killed workers: the engine still works.
	res, err := eng.Transcribe(context.Background(), Audio{Path: webm})
	if err != nil || wordErrorRate(shortAnswer, res.Text) > 0.25 {
		t.Errorf("after a timeout: %q, %v", res.Text, err)
	}
}

func TestCheck(t *testing.T) {
	requireSpeechStack(t)
	cfg := localConfig(t)
	if err := Check(context.Background(), cfg); err != nil {
		t.Errorf("Check on a complete install: %v", err)
	}
	tests := []struct {
		name  string
		tweak func(*Config)
		want  string
	}{
		{"no ffmpeg", func(c *Config) { c.FFmpeg = "no-such-ffmpeg" }, "apt-get install ffmpeg"},
		{"no pocketsphinx", func(c *Config) { c.Local.Batch = "no-such-pocketsphinx" }, "apt-get install pocketsphinx"},
		{"no model", func(c *Config) { c.Local.LM = "/nonexistent/en-us.lm.bin" }, "pocketsphinx-en-us"},
		{"bad engine", func(c *Config) { c.Engine = "whisper.cpp" }, "engine"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := cfg
			tc.tweak(&c)
			if err := Check(context.Background(), c); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Check = %v, want mention of %q", err, tc.want)
			}
		})
	}
}

func TestCloseRemovesDecoderDir(t *testing.T) {
	requireSpeechStack(t)
	cfg := localConfig(t)
	eng, err := New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	dicts, _ := filepath.Glob(filepath.Join(cfg.TempDir, "whitecoat-sphinx-*", "vocabulary.dict"))
	if len(dicts) != 1 {
		t.Fatalf("want one restricted dictionary, got %v", dicts)
	}
	if err := eng.Close(); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(cfg.TempDir); len(entries) != 0 {
		t.Errorf("left after Close: %v", entries)
	}
}

func TestSweepTemp(t *testing.T) {
	cfg := DefaultConfig()
	cfg.TempDir = t.TempDir()
	old := filepath.Join(cfg.TempDir, tempPrefix+"crashed")
	fresh := filepath.Join(cfg.TempDir, tempPrefix+"in-use")
	other := filepath.Join(cfg.TempDir, "someone-elses")
	for _, d := range []string{old, fresh, other} {
		if err := os.MkdirAll(filepath.Join(d, "sub"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	past := time.Now().Add(-2 * time.Hour)
	for _, d := range []string{old, other} {
		if err := os.Chtimes(d, past, past); err != nil {
			t.Fatal(err)
		}
	}
	n, err := sweepTemp(cfg, time.Hour)
	if err != nil || n != 1 {
		t.Fatalf("sweepTemp = %d, %v; want 1, nil", n, err)
	}
	for d, want := range map[string]bool{old: false, fresh: true, other: true} {
		if _, err := os.Stat(d); (err == nil) != want {
			t.Errorf("%s exists=%v, want %v", filepath.Base(d), err == nil, want)
		}
	}
}

// TestLocalTimesWordsAcrossSilences checks the word timings that the pause
// metrics come from: a student who thinks for 5 s mid-answer must get a
// 5 s pause, wherever the engine cuts the recording.
func TestLocalTimesWordsAcrossSilences(t *testing.T) {
	requireSpeechStack(t)
	requireTools(t, "sox")
	dir := t.TempDir()
	first, second := filepath.Join(dir, "first.wav"), filepath.Join(dir, "second.wav")
	// Resampled so that sox can join them; padded with 3 s before the first
	// and 5 s between the two.
	run(t, "sox", "-D", synth(t, "I want to become a dentist because I enjoy working with my hands."), "-r", "16000", first, "pad", "3", "5")
	run(t, "sox", "-D", synth(t, "When I volunteered at a community clinic, I saw how much a healthy smile can change a patient."), "-r", "16000", second)
	joined := filepath.Join(dir, "joined.wav")
	run(t, "sox", "-D", first, second, joined)
	e := startLocal(t, localConfig(t))
	res, err := e.Transcribe(context.Background(), Audio{Path: encode(t, joined, "webm")})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Words) < 10 {
		t.Fatalf("too few words: %q", res.Text)
	}
	if start := res.Words[0].Start; start < 2.7 || start > 3.5 {
		t.Errorf("first word at %.2f s, want about 3 s: %+v", start, res.Words[0])
	}
	m := ComputeMetrics(res, AnswerLimit)
	if m.LongestPauseSeconds < 4.5 || m.LongestPauseSeconds > 5.5 || m.PausesOver2s != 1 {
		t.Errorf("longest pause %.2f s, %d over 2 s; want about 5 s, one: %+v", m.LongestPauseSeconds, m.PausesOver2s, res.Words)
	}
}

func TestLocalAudioFilter(t *testing.T) {
	requireSpeechStack(t)
	webm := encode(t, synth(t, shortAnswer), "webm")
	cfg := localConfig(t)
	cfg.Local.AudioFilter = "volume=0" // a filter that must visibly take effect
	eng, err := New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	res, err := eng.Transcribe(context.Background(), Audio{Path: webm})
	if err != nil || res.Text != "" || res.DurationSeconds < 10 {
		t.Errorf("muted by the filter: text %q, %.1f s, err %v; want no words of a full-length recording", res.Text, res.DurationSeconds, err)
	}
}

func TestLocalRecognisesWhileRecording(t *testing.T) {
	requireSpeechStack(t)
	wav := synth(t, shortAnswer)
	cfg := localConfig(t)
	e := startLocal(t, cfg)
	ctx := context.Background()
	for _, tc := range []struct{ kind, mime string }{{"webm", "audio/webm;codecs=opus"}, {"fragmented-mp4", "audio/mp4"}} {
		t.Run(tc.kind, func(t *testing.T) {
			full, err := os.ReadFile(encode(t, wav, tc.kind))
			if err != nil {
				t.Fatal(err)
			}
			growing := filepath.Join(t.TempDir(), "growing")
			in := Audio{Path: growing, MIMEType: tc.mime}
			var p Progress
			for _, share := range []float64{0.2, 0.5, 0.8} {
				if err := os.WriteFile(growing, full[:int(share*float64(len(full)))], 0o600); err != nil {
					t.Fatal(err)
				}
				next := stepUntilSettled(t, e, in, p)
				if next.DecodedBytes <= 0 || next.DecodedBytes > int64(share*float64(len(full))) || next.DecodedSeconds <= 0 {
					t.Fatalf("no decode measured by %.0f%%: %+v", share*100, next)
				}
				p = next
			}
			if p.Until < 5 || len(p.Words) < 5 || p.Warp == 0 {
				t.Fatalf("80%% of a 15 s answer recognised only to %.2f s: %+v", p.Until, p.Words)
			}
			for _, w := range p.Words {
				if w.End > p.Until+0.01 {
					t.Fatalf("word %+v ends after the cut at %.2f s", w, p.Until)
				}
			}

			if err := os.WriteFile(growing, full, 0o600); err != nil {
				t.Fatal(err)
			}
			res, err := e.Finish(ctx, in, p)
			if err != nil {
				t.Fatal(err)
			}
			if wer := wordErrorRate(shortAnswer, res.Text); wer > 0.25 {
				t.Errorf("WER %.2f: %q", wer, res.Text)
			}
			if !slices.Equal(res.Words[:len(p.Words)], p.Words) || len(res.Words) == len(p.Words) {
				t.Fatalf("the final transcript does not continue the progress: %d words, %d before %.2f s", len(res.Words), len(p.Words), p.Until)
			}
			for i := 1; i < len(res.Words); i++ {
				if res.Words[i].Start < res.Words[i-1].End {
					t.Fatalf("words out of order at %d: %+v %+v", i, res.Words[i-1], res.Words[i])
				}
			}
			assertNoTempFiles(t, cfg.TempDir)
		})
	}

	t.Run("progress beyond the recording is ignored", func(t *testing.T) {
		path := encode(t, wav, "webm")
		whole, err := e.Transcribe(ctx, Audio{Path: path, MIMEType: "audio/webm"})
		if err != nil {
			t.Fatal(err)
		}
		res, err := e.Finish(ctx, Audio{Path: path, MIMEType: "audio/webm"}, Progress{Words: []Word{{Word: "stale", End: 1}}, Until: 999})
		if err != nil {
			t.Fatal(err)
		}
		if res.Text != whole.Text {
			t.Fatalf("got %q, want the whole recording's %q", res.Text, whole.Text)
		}
	})
}

// stepUntilSettled advances p on the recording in until the engine would
// not decode it again (mayHoldStep): until nothing new arrives, the next
// step's answer then comes from the file's size alone. A step on a busy
// box can read the live decoder before it has caught up, and learn less,
// perhaps nothing; the next step takes it up, as the next piece's does in
// the service. Every step keeps what the one before recognised.
func stepUntilSettled(t *testing.T, e *localEngine, in Audio, p Progress) Progress {
	t.Helper()
	fi, err := os.Stat(in.Path)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		next, err := e.Advance(t.Context(), in, p)
		if err != nil {
			t.Fatalf("advance on %d bytes: %v", fi.Size(), err)
		}
		if next.Until < p.Until || !slices.Equal(next.Words[:len(p.Words)], p.Words) {
			t.Fatalf("progress went back or rewrote words: %+v -> %+v", p, next)
		}
		if p.Warp != 0 && next.Warp != p.Warp {
			t.Fatalf("voice scaling changed mid-recording: %.2f -> %.2f", p.Warp, next.Warp)
		}
		if p = next; !mayHoldStep(p, fi.Size()) {
			return p
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 30 s of steps on %d bytes the engine would still decode them: %+v", fi.Size(), p)
		}
	}
}

// A step that read the live decoder before it had caught up (ffmpeg
// waiting for a core on a busy box; stopped here) measured the recording
// by what the decoder had written so far: the recording seemed shorter
// than it was, and the steps after it did not decode it again until that
// many more bytes had arrived. It now measures nothing, and the next step,
// once the decoder has caught up, measures and recognises.
func TestAStepBehindTheDecoderMeasuresNothing(t *testing.T) {
	requireSpeechStack(t)
	e := startLocal(t, localConfig(t))
	full, err := os.ReadFile(encode(t, synth(t, shortAnswer), "webm"))
	if err != nil {
		t.Fatal(err)
	}
	in := Audio{Path: filepath.Join(t.TempDir(), "growing"), MIMEType: "audio/webm"}
	grow := func(share float64) {
		t.Helper()
		if err := os.WriteFile(in.Path, full[:int(share*float64(len(full)))], 0o600); err != nil {
			t.Fatal(err)
		}
	}
	grow(0.2)
	measured := stepUntilSettled(t, e, in, Progress{})
	if measured.DecodedSeconds <= 0 || measured.Until != 0 {
		t.Fatalf("the first 3 s: %+v; want them measured, too short for a step", measured)
	}
	e.live.mu.Lock()
	run := e.live.runs[in.Path]
	e.live.mu.Unlock()
	if run == nil {
		t.Fatal("no live run")
	}
	if err := run.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	grow(0.8)
	behind, err := e.Advance(t.Context(), in, measured)
	if err != nil {
		t.Fatal(err)
	}
	if err := run.cmd.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	if behind.DecodedBytes != measured.DecodedBytes || behind.DecodedSeconds != measured.DecodedSeconds {
		t.Fatalf("a step behind the decoder measured the recording: %+v, before %+v", behind, measured)
	}
	caughtUp := stepUntilSettled(t, e, in, behind)
	if caughtUp.Until < 5 {
		t.Fatalf("12 s of a 15 s answer recognised only to %.2f s once the decoder caught up: %+v", caughtUp.Until, caughtUp)
	}
}

func TestAStepIsJudgedByTheBytesArrived(t *testing.T) {
	// 4,000 bytes held 2 s of sound: 2,000 bytes a second.
	measured := Progress{DecodedBytes: 4000, DecodedSeconds: 2}
	for _, tc := range []struct {
		size  int64
		until float64
		want  bool
	}{
		{size: 12000, want: false},            // 6 s: the settling half second leaves less than a step
		{size: 14000, want: true},             // 7 s
		{size: 26000, until: 6.5, want: true}, // 13 s, 6.5 recognised
		{size: 24000, until: 6.5, want: false},
	} {
		p := measured
		p.Until = tc.until
		if got := mayHoldStep(p, tc.size); got != tc.want {
			t.Errorf("%d bytes after %.1f s recognised: %v, want %v", tc.size, tc.until, got, tc.want)
		}
	}
	if !mayHoldStep(Progress{}, 10) {
		t.Error("a recording never decoded must be decoded")
	}
}

// An answer is recognised with the thorough search while the decoders keep
// up, and with the quick one when it starts while another answer's request
// already waits for a decoder; either way its words are heard.
func TestLocalSearchesQuicklyWhileRequestsWait(t *testing.T) {
	requireSpeechStack(t)
	cfg := localConfig(t)
	cfg.Local.Workers = 1
	e := startLocal(t, cfg)
	answer := encode(t, synth(t, shortAnswer), "webm")
	transcribe := func() Result {
		t.Helper()
		res, err := e.Transcribe(t.Context(), Audio{Path: answer, MIMEType: "audio/webm"})
		if err != nil {
			t.Fatal(err)
		}
		if wer := wordErrorRate(shortAnswer, res.Text); wer > 0.25 {
			t.Errorf("WER %.2f: %q", wer, res.Text)
		}
		return res
	}
	idle := transcribe()
	if got := e.SpeechBySearch(); got["quick"] != 0 || got["thorough"].Seconds() < idle.DurationSeconds-0.5 {
		t.Fatalf("on an idle box: %v by search for a %.1f s answer", got, idle.DurationSeconds)
	}

	// Two other answers' requests read named pipes until the test writes
	// them: one holds the one decoder, the other waits behind it.
	dir := t.TempDir()
	held := []string{filepath.Join(dir, "first"), filepath.Join(dir, "second")}
	others := make(chan error, len(held))
	for _, base := range held {
		if err := syscall.Mkfifo(base+".raw", 0o600); err != nil {
			t.Fatal(err)
		}
		go func() {
			_, err := e.pool.Decode(t.Context(), sphinx.Request{Search: sphinx.Thorough}, base, 0, -1)
			others <- err
		}()
	}
	waitForWaiting := func(n int) {
		t.Helper()
		for deadline := time.Now().Add(30 * time.Second); e.pool.Waiting() < n; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%d requests waiting, want %d", e.pool.Waiting(), n)
			}
		}
	}
	waitForWaiting(1)
	busy := make(chan Result, 1)
	go func() { busy <- transcribe() }()
	// The answer's own request queues too before the others are let go.
	waitForWaiting(2)
	// A pipe opens for writing once its reader has a decoder: each is
	// written on its own.
	written := make(chan error, len(held))
	for _, base := range held {
		go func() { written <- os.WriteFile(base+".raw", make([]byte, 32000), 0o600) }()
	}
	res := <-busy
	for range held {
		if err := errors.Join(<-written, <-others); err != nil {
			t.Fatal(err)
		}
	}
	if got := e.SpeechBySearch()["quick"].Seconds(); got < res.DurationSeconds-0.5 {
		t.Errorf("%.1f s searched quickly for a %.1f s answer that started while others waited", got, res.DurationSeconds)
	}
}

// On a busy box a step can outlast the interval between steps, and the
// next is asked for while it still works: that one returns at once
// instead of recognising the same speech a second time.
func TestAStepInProgressIsNotRepeated(t *testing.T) {
	requireSpeechStack(t)
	cfg := localConfig(t)
	cfg.Local.Workers = 1
	e := startLocal(t, cfg)
	recording := encode(t, synth(t, shortAnswer), "webm")
	// Another answer's request holds the one decoder, reading a named pipe
	// until the test writes it.
	held := filepath.Join(t.TempDir(), "held")
	if err := syscall.Mkfifo(held+".raw", 0o600); err != nil {
		t.Fatal(err)
	}
	holding := make(chan error, 1)
	go func() {
		_, err := e.pool.Decode(t.Context(), sphinx.Request{Search: sphinx.Thorough}, held, 0, -1)
		holding <- err
	}()
	in := Audio{Path: recording, MIMEType: "audio/webm"}
	first := make(chan Progress, 1)
	go func() {
		p, err := e.Advance(t.Context(), in, Progress{})
		if err != nil {
			t.Error(err)
		}
		first <- p
	}()
	for deadline := time.Now().Add(30 * time.Second); e.pool.Waiting() == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the first step never asked for a decoder")
		}
	}
	// Without the guard this step would wait for the decoder as well.
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	again, err := e.Advance(ctx, in, Progress{})
	if err != nil || again.Learned(Progress{}) || e.pool.Waiting() != 1 {
		t.Fatalf("a second step while the first waits: %+v (err %v), %d waiting; want nothing learned and no request", again, err, e.pool.Waiting())
	}
	if err := os.WriteFile(held+".raw", make([]byte, 32000), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := <-holding; err != nil {
		t.Fatal(err)
	}
	if p := <-first; p.Until == 0 || len(p.Words) == 0 {
		t.Fatalf("the first step learned nothing: %+v", p)
	}
}

// A word's confidence is its posterior in the decoder's lattice; fillers
// and words heard in silence, which are dropped, have none to give.
func TestWordsFromSegsCarryTheirPosterior(t *testing.T) {
	levels := make([]float64, 100)
	for i := range levels {
		levels[i] = -20 // loud enough for a word
	}
	for i := 60; i < 80; i++ {
		levels[i] = -90
	}
	segs := []sphinx.Seg{{Word: "<s>", End: 10}, {Word: "i", Start: 10, End: 20, Posterior: 0.9876},
		{Word: "[NOISE]", Start: 20, End: 30}, {Word: "read(2)", Start: 30, End: 60, Posterior: 0.004},
		{Word: "the", Start: 60, End: 80, Posterior: 0.5}, {Word: "end", Start: 80, End: 100, Posterior: 1}}
	var got []string
	for _, w := range wordsFromSegs(segs, levels) {
		got = append(got, fmt.Sprintf("%s %v", w.Word, *w.Confidence))
	}
	if want := []string{"i 0.988", "read 0.004", "end 1"}; !slices.Equal(got, want) {
		t.Errorf("words %q, want %q", got, want)
	}
}
