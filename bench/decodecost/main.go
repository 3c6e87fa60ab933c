// Command decodecost counts the instructions the local engine's decoders
// execute per second of speech, for each search (issue 43): the engine
// recognises a fixed set of recordings with pocketsphinx_batch run under
// valgrind's callgrind, which counts instructions rather than seconds. The
// count is the same from run to run whatever else the machine is doing,
// where CPU seconds on this 2-core box varied by more than the options it
// was meant to compare (a plain loop by ±8 %, a 25-student capacity run
// from 5.2 to 6.8 CPU s per answer-minute on the same code).
//
// The recordings are what the capacity bench's students say (festival's
// voice reading two corpus answers, as WebM/Opus) and the real people of
// bench/transcribe's real set that the engine hears worst (LibriVox and
// JFK). The model's loading, paid once per decoder process and not per
// answer, is counted apart and left out of the per-second figure.
//
// Usage: go run ./bench/decodecost [-search thorough,quick] [-args "…"]
//
// It takes about 10 minutes: callgrind runs the decoder some 50 times slower.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/whitecoat/whitecoat/bench/internal/synth"
	"github.com/whitecoat/whitecoat/internal/transcribe"
)

// spoken are the corpus answers the capacity bench's students say.
var spoken = []string{"01-tell-me-about-yourself", "03-teamwork"}

// librivox holds Debian's pocketsphinx-testdata recordings of a LibriVox reader.
const librivox = "/usr/share/pocketsphinx/test/data/librivox"

// workers is the decoder count of the 2-core box the targets are set on:
// the engine cuts an answer into a multiple of it, so it is fixed here for
// counts that do not depend on the machine the bench runs on.
const workers = 2

func main() {
	searches := flag.String("search", "thorough,quick", "the searches to count: thorough (the engine's Args), quick (its QuickArgs)")
	args := flag.String("args", "", "pocketsphinx options replacing the searched ones, to count an option before it is taken")
	flag.Parse()
	if err := run(context.Background(), strings.Split(*searches, ","), strings.Fields(*args), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "decodecost:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, searches []string, args []string, out io.Writer) error {
	for _, tool := range []string{"valgrind", "pocketsphinx_batch", "text2wave", "ffmpeg"} {
		if _, err := exec.LookPath(tool); err != nil {
			return fmt.Errorf("%s missing (make test-system-deps installs it; valgrind: apt-get install valgrind): %w", tool, err)
		}
	}
	work, err := os.MkdirTemp("", "decodecost-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	clips, err := recordings(ctx, work)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "search\taudio s\tdecoder processes\tmodel load (M instr. each)\tM instr. per audio s\tG instr. per answer-minute\toptions\t\n")
	for _, search := range searches {
		cfg := transcribe.DefaultConfig()
		switch search {
		case "thorough":
		case "quick":
			cfg.Local.Args = cfg.Local.QuickArgs
		default:
			return fmt.Errorf("-search %q: want thorough or quick", search)
		}
		if len(args) > 0 {
			cfg.Local.Args = args
		}
		// One search for every clip: the engine would turn to the quick
		// one as its decoders stay busy, and under callgrind they always are.
		cfg.Local.QuickArgs = nil
		c, err := count(ctx, cfg, filepath.Join(work, search), clips)
		if err != nil {
			return fmt.Errorf("%s: %w", search, err)
		}
		perSecond := float64(c.total-int64(c.processes)*c.load) / c.audio
		fmt.Fprintf(tw, "%s\t%.1f\t%d\t%d\t%.0f\t%.2f\t%s\t\n", search, c.audio, c.processes, c.load/1e6, perSecond/1e6, perSecond*60/1e9,
			strings.Join(cfg.Local.Args, " "))
	}
	return tw.Flush()
}

// recordings are the clips the engine recognises: the festival answers
// made here, then the real recordings.
func recordings(ctx context.Context, work string) ([]string, error) {
	var clips []string
	for _, name := range spoken {
		wav, webm := filepath.Join(work, name+".wav"), filepath.Join(work, name+".webm")
		if err := synth.Speak(ctx, synth.Voice, filepath.Join("bench", "transcribe", "corpus", name+".txt"), wav); err != nil {
			return nil, err
		}
		if err := synth.Encode(ctx, wav, webm, "webm"); err != nil {
			return nil, err
		}
		clips = append(clips, webm)
	}
	real, err := filepath.Glob(filepath.Join(librivox, "*.wav"))
	if err != nil || len(real) == 0 {
		return nil, fmt.Errorf("no LibriVox recordings in %s (make test-system-deps installs pocketsphinx-testdata)", librivox)
	}
	slices.Sort(real)
	return append(append(clips, real...), filepath.Join("bench", "transcribe", "real", "jfk.wav")), nil
}

// counted is what one search's decoders executed.
type counted struct {
	total     int64   // instructions of every decoder process, loading included
	processes int     // decoder processes started
	load      int64   // instructions one process spends loading the model
	audio     float64 // seconds of audio recognised
}

// count recognises clips with cfg, each decoder under callgrind, and sums
// what callgrind counted once every decoder has ended.
func count(ctx context.Context, cfg transcribe.Config, dir string, clips []string) (counted, error) {
	if err := os.MkdirAll(filepath.Join(dir, "tmp"), 0o700); err != nil {
		return counted{}, err
	}
	batch, err := exec.LookPath(cfg.Local.Batch)
	if err != nil {
		return counted{}, err
	}
	// The script starts the decoder as its child rather than in its place:
	// the engine stops a worker by closing its input and killing the
	// process it started, and callgrind writes its counts only when the
	// decoder it runs ends by itself, at the end of its input.
	wrapper := filepath.Join(dir, "batch")
	// Each start is written down: callgrind writes its file only as its
	// decoder ends, so the files alone cannot say how many are still to come.
	script := fmt.Sprintf("#!/bin/sh\necho \"$@\" > %q\necho started >> %q\nvalgrind --tool=callgrind --callgrind-out-file=%q %q \"$@\"\n",
		filepath.Join(dir, "args"), filepath.Join(dir, "started"), filepath.Join(dir, "callgrind.%p"), batch)
	if err := os.WriteFile(wrapper, []byte(script), 0o700); err != nil {
		return counted{}, err
	}
	cfg.Local.Batch = wrapper
	cfg.Local.Workers = workers
	cfg.TempDir = filepath.Join(dir, "tmp")
	// Under callgrind the decoder runs some 50 times slower, and valgrind
	// itself needs memory beyond what a decoder does.
	cfg.Local.RecognizeTimeout = time.Hour
	cfg.Local.WorkerMemory = 8 << 30
	eng, err := transcribe.New(cfg, slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	if err != nil {
		return counted{}, err
	}
	var c counted
	for _, clip := range clips {
		res, err := eng.Transcribe(ctx, transcribe.Audio{Path: clip})
		if err != nil {
			eng.Close()
			return counted{}, fmt.Errorf("%s: %w", clip, err)
		}
		c.audio += res.DurationSeconds
	}
	// The dictionary the decoders load is the engine's, removed when it closes.
	c.load, err = loadCount(ctx, batch, dir)
	if cerr := eng.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return counted{}, err
	}
	started, err := os.ReadFile(filepath.Join(dir, "started"))
	if err != nil {
		return counted{}, err
	}
	files, err := finishedCounts(filepath.Join(dir, "callgrind.*"), strings.Count(string(started), "\n"), 10*time.Minute)
	if err != nil {
		return counted{}, err
	}
	for _, f := range files {
		n, err := totalOf(f)
		if err != nil {
			return counted{}, err
		}
		c.total += n
	}
	c.processes = len(files)
	return c, nil
}

// finishedCounts waits until n callgrind outputs matching pattern are
// complete (their decoders have ended) and returns their paths.
func finishedCounts(pattern string, n int, limit time.Duration) ([]string, error) {
	deadline := time.Now().Add(limit)
	for {
		files, err := filepath.Glob(pattern)
		if err != nil {
			return nil, err
		}
		done := len(files) == n
		for _, f := range files {
			if _, err := totalOf(f); err != nil {
				done = false
			}
		}
		if done {
			return files, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("callgrind's counts: %d of %d decoders ended after %v", len(files), n, limit)
		}
		time.Sleep(time.Second)
	}
}

// errIncomplete is a callgrind output whose process has not ended yet.
var errIncomplete = errors.New("no totals line yet")

// totalOf reads the instruction total callgrind writes last ("totals: N").
func totalOf(path string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "totals: "); ok {
			return strconv.ParseInt(strings.Fields(v)[0], 10, 64)
		}
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	return 0, fmt.Errorf("%s: %w", path, errIncomplete)
}

// loadCount is what a decoder started as the engine's were spends with
// nothing to decode: loading its model and dictionary, and ending.
func loadCount(ctx context.Context, batch, dir string) (int64, error) {
	line, err := os.ReadFile(filepath.Join(dir, "args"))
	if err != nil {
		return 0, err
	}
	// The arguments hold paths without spaces (the engine refuses others).
	args := append([]string{"--tool=callgrind", "--callgrind-out-file=" + filepath.Join(dir, "load.out"), batch}, strings.Fields(string(line))...)
	cmd := exec.CommandContext(ctx, "valgrind", args...)
	cmd.Stdin = nil // the decoder reads its control lines from an empty input
	if out, err := cmd.CombinedOutput(); err != nil {
		return 0, fmt.Errorf("decoder with no input: %w: %s", err, lastLines(string(out), 5))
	}
	return totalOf(filepath.Join(dir, "load.out"))
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
