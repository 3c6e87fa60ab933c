package transcribe

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/whitecoat/whitecoat/internal/transcribe/rlimit"
	"golang.org/x/sys/unix"
)

// A recording that arrives in pieces is decoded by one ffmpeg run, fed its
// bytes as each step of Advance finds them, instead of a run over the whole
// file at every step: starting ffmpeg costs more CPU than decoding a minute
// of speech, and every step decoded all the steps before it again. The run
// writes, byte for byte, what a run over the finished file writes (a test
// keeps it so), and Finish ends it and uses what it wrote. A recording
// whose run is on another copy of the server, ended, or failed is decoded
// whole, as before.

const (
	// liveLimit caps the recordings this process decodes live at once
	// (an ffmpeg process each, about 10 MB of its own); beyond it, steps
	// decode the whole recording.
	liveLimit = 128
	// liveIdle is how long a live run may go unfed before it is ended:
	// its answer was abandoned, or finished on another copy.
	liveIdle = 2 * time.Minute
	// A step reads a run's output once the run has caught up: it has read
	// all it was fed and ffmpeg sleeps, waiting for more (ffmpeg decodes a
	// few seconds of speech in milliseconds, but on a busy box may wait
	// longer than that for a core). Where the system cannot say whether
	// ffmpeg sleeps, output that stopped growing for liveSettle must do.
	// liveCatchUp bounds the wait: a step that reads early recognises a
	// little less, which the next one takes up, and measures nothing.
	liveSettle  = 15 * time.Millisecond
	liveCatchUp = time.Second
)

// liveDecoder is one ffmpeg run decoding a recording that is still growing.
type liveDecoder struct {
	mu         sync.Mutex // one step, or the finish, at a time
	path       string     // the recording
	format     Format     // its container, as Sniff found it
	dir        string     // the run's outputs: rawName and the scaled copies
	warps      []float64  // the scaled copies it writes
	maxSeconds float64
	cmd        *exec.Cmd
	stdin      *os.File
	stderr     bytes.Buffer // ffmpeg's messages, read once it has exited
	exited     chan struct{}
	err        error     // the run's end, once exited is closed
	fed        int64     // bytes of the recording written to the run
	sum        hash.Hash // of those bytes: the recording must still begin with them
	// used is when a step last fed the run (Unix nanoseconds), read
	// without mu, which a step in progress holds.
	used atomic.Int64
	// started is when the run began, at the recording's first step: its
	// decoder requests wait their turn by it (sphinx.Request.Since).
	started time.Time
}

// liveRuns are the live decoders of one engine, by recording path.
type liveRuns struct {
	mu   sync.Mutex
	runs map[string]*liveDecoder
}

// forStep returns the live run decoding the recording in, started with
// the scaled copies warps if there is none; nil when there cannot be one
// (too many at once, or ffmpeg would not start), and the step then
// decodes the whole recording. Runs left unfed for liveIdle are ended.
func (l *liveRuns) forStep(cfg Config, logger *slog.Logger, in Audio, warps []float64) *liveDecoder {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.endIdle(logger)
	if run, ok := l.runs[in.Path]; ok {
		return run
	}
	if in.Path == "" || len(l.runs) >= liveLimit {
		return nil
	}
	run, err := startLive(cfg, in, warps)
	if err != nil {
		logger.Info("transcribe: the recording in progress will be decoded at every step", "err", err)
		return nil
	}
	if l.runs == nil {
		l.runs = map[string]*liveDecoder{}
	}
	l.runs[in.Path] = run
	return run
}

// endIdle ends the runs left unfed for liveIdle, in the background; l.mu
// is held.
func (l *liveRuns) endIdle(logger *slog.Logger) {
	now := time.Now()
	for path, run := range l.runs {
		if now.Sub(time.Unix(0, run.used.Load())) > liveIdle {
			delete(l.runs, path)
			go run.discard(logger)
		}
	}
}

// sweep ends the runs left unfed for liveIdle, for the periodic clean-up:
// on a quiet server no step comes to end them.
func (l *liveRuns) sweep(logger *slog.Logger) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.endIdle(logger)
}

// take removes and returns the live run decoding the recording at path,
// or nil.
func (l *liveRuns) take(path string) *liveDecoder {
	l.mu.Lock()
	defer l.mu.Unlock()
	run := l.runs[path]
	delete(l.runs, path)
	return run
}

// endAll ends every live run.
func (l *liveRuns) endAll(logger *slog.Logger) {
	l.mu.Lock()
	runs := l.runs
	l.runs = nil
	l.mu.Unlock()
	for _, run := range runs {
		run.discard(logger)
	}
}

// decodeSoFar decodes what has arrived of a growing recording: through
// its live run (live.go), or whole when it cannot have one. since is
// when the live run began (zero without one); release cleans up what is
// the step's own.
func (e *textAligner) decodeSoFar(ctx context.Context, in Audio, warps []float64) (pc *pcm, since time.Time, release func(), err error) {
	if run := e.live.forStep(e.cfg, e.logger, in, warps); run != nil {
		pc, err := run.step(ctx, e.cfg)
		if err == nil {
			return pc, run.started, func() {}, nil
		}
		e.logger.Info("transcribe: the live decode failed; this step decodes the recording whole", "err", err)
		if e.live.take(in.Path) == run {
			run.discard(e.logger)
		}
	}
	pc, err = decode(ctx, e.cfg, e.logger, in, decodeOptions{filter: e.cfg.Local.AudioFilter, growing: true, warps: warps})
	if err != nil {
		return nil, time.Time{}, nil, err
	}
	return pc, time.Time{}, func() { e.cleanup(pc) }, nil
}

// decodeFinished decodes a finished recording: by ending its live run
// when it has one that can stand for it, or whole. since is when the
// recording's live run began (zero without one).
func (e *textAligner) decodeFinished(ctx context.Context, in Audio, warps []float64) (pc *pcm, since time.Time, err error) {
	if run := e.live.take(in.Path); run != nil {
		since = run.started
		pc, err := run.finish(ctx, e.cfg, e.logger)
		if err == nil {
			return pc, since, nil
		}
		if ctx.Err() != nil {
			return nil, since, fmt.Errorf("transcribe: decode: %w", ctx.Err())
		}
		e.logger.Info("transcribe: the live decode cannot stand for the recording; decoding it whole", "err", err)
	}
	pc, err = decode(ctx, e.cfg, e.logger, in, decodeOptions{filter: e.cfg.Local.AudioFilter, warps: warps})
	return pc, since, err
}

// startLive starts ffmpeg on the recording in, reading it from a pipe, with
// the same command line decode gives a finished file but for the input and
// the flushing of every packet.
func startLive(cfg Config, in Audio, warps []float64) (run *liveDecoder, err error) {
	if err := checkClaim(in); err != nil {
		return nil, err
	}
	format, err := sniffFile(in.Path)
	if err != nil {
		return nil, err
	}
	dir, err := makeAnswerDir(cfg)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(dir)
		}
	}()
	run = &liveDecoder{path: in.Path, format: format, dir: dir, warps: scaledCopies(warps), maxSeconds: cfg.maxSeconds(in),
		exited: make(chan struct{}), sum: sha256.New(), started: time.Now()}
	run.used.Store(run.started.UnixNano())
	// The run lives as long as the recording, past any one request: it
	// is ended by finish or discard, not a context, and keeps the
	// decoder's memory and CPU limits.
	cmd, err := ffmpegCommand(context.Background(), cfg, cfg.decoderLimits(false), dir,
		decodeArgs(format, "pipe:0", run.rawPath(), run.maxSeconds, cfg.Local.AudioFilter, run.warps, true, false))
	if err != nil {
		return nil, err
	}
	stdin, pipeIn, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdin, cmd.Stderr = stdin, &limitedWriter{w: &run.stderr, n: 16 << 10}
	err = cmd.Start()
	stdin.Close()
	if err != nil {
		pipeIn.Close()
		return nil, err
	}
	run.cmd, run.stdin = cmd, pipeIn
	go func() {
		run.err = cmd.Wait()
		rlimit.Account(rlimit.PurposeDecode, cmd.ProcessState)
		close(run.exited)
	}()
	return run, nil
}

func (r *liveDecoder) rawPath() string { return filepath.Join(r.dir, rawName) }

// step feeds the run what has been added to the recording, waits for it
// to catch up, and returns what it has written so far: every scaled copy
// as long as the samples, marked behind when the run had not caught up
// (on a busy box ffmpeg may still be starting, or waiting for a core, when
// the step stops waiting) and so wrote less than it was fed, perhaps
// nothing. The pcm is the run's, still being written: the caller must not
// clean it up. An error means the run failed.
func (r *liveDecoder) step(ctx context.Context, cfg Config) (*pcm, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := time.Now()
	r.used.Store(now.UnixNano())
	// The periodic sweep removes answer directories by age: this one is
	// in use.
	if err := os.Chtimes(r.dir, now, now); err != nil {
		return nil, fmt.Errorf("transcribe: live decode: %w", err)
	}
	if err := r.feed(cfg); err != nil {
		return nil, err
	}
	caughtUp := r.settle(ctx)
	if r.hasExited() && r.err != nil {
		return nil, fmt.Errorf("transcribe: live decode: %w: %s", r.err, r.stderr.String())
	}
	n := -1
	for _, path := range append([]string{r.rawPath()}, r.copies()...) {
		size, err := sizeOf(path)
		if err != nil {
			return nil, fmt.Errorf("transcribe: live decode: %w", err)
		}
		if samples := int(size / 2); n < 0 || samples < n {
			n = samples
		}
	}
	var samples []int16
	if n > 0 {
		raw, err := os.ReadFile(r.rawPath())
		if err != nil {
			return nil, fmt.Errorf("transcribe: live decode: %w", err)
		}
		samples = samplesOf(raw[:2*min(n, len(raw)/2)])
	}
	pc := newPCM(r.dir, samples, r.warps, r.maxSeconds)
	pc.behind = !caughtUp
	return pc, nil
}

// sizeOf is the size of the file at path, 0 when there is none yet.
func sizeOf(path string) (int64, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

// copies are the paths of the run's scaled copies.
func (r *liveDecoder) copies() []string {
	paths := make([]string, len(r.warps))
	for i, w := range r.warps {
		paths[i] = warpedRaw(r.rawPath(), w)
	}
	return paths
}

// feed writes the bytes of the recording past those already fed. A run
// that has stopped (at the duration cap, or failing) takes no more; that
// is for finish to judge.
func (r *liveDecoder) feed(cfg Config) error {
	f, err := os.Open(r.path)
	if err != nil {
		return fmt.Errorf("transcribe: live decode: %w", err)
	}
	defer f.Close()
	if _, err := f.Seek(r.fed, io.SeekStart); err != nil {
		return fmt.Errorf("transcribe: live decode: %w", err)
	}
	// A run that stops reading must not hold the step for ever.
	if err := r.stdin.SetWriteDeadline(time.Now().Add(cfg.DecodeTimeout)); err != nil {
		return fmt.Errorf("transcribe: live decode: %w", err)
	}
	n, err := io.Copy(io.MultiWriter(r.stdin, r.sum), f)
	r.fed += n
	if err != nil && !r.hasExited() {
		return fmt.Errorf("transcribe: live decode: feed ffmpeg: %w", err)
	}
	return nil
}

// settle waits until the run has caught up with what it was fed, or has
// ended, and reports whether it did; it gives up when ctx ends or after
// liveCatchUp.
func (r *liveDecoder) settle(ctx context.Context) (caughtUp bool) {
	deadline := time.Now().Add(liveCatchUp)
	last, still := int64(-1), time.Duration(0)
	const poll = 5 * time.Millisecond
	for time.Now().Before(deadline) {
		select {
		case <-r.exited:
			return true
		case <-ctx.Done():
			return false
		case <-time.After(poll):
		}
		size, _ := sizeOf(r.rawPath())
		if size != last || r.unread() != 0 {
			last, still = size, 0
			continue
		}
		if still += poll; still < liveSettle {
			continue
		}
		if idle, known := r.idle(); idle || !known {
			return true
		}
	}
	return false
}

// idle reports whether every thread of the run's ffmpeg sleeps: with
// nothing left in its pipe, it then waits for input, having done all it
// can with what it read (a wrapper script that does not exec ffmpeg would
// be seen asleep, and leave only the stillness of the output to go by).
// known is false where /proc cannot say.
func (r *liveDecoder) idle() (idle, known bool) {
	stats, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/stat", r.cmd.Process.Pid))
	if err != nil || len(stats) == 0 {
		return false, false
	}
	for _, path := range stats {
		b, err := os.ReadFile(path)
		if err != nil {
			return false, true // a thread ended: look again
		}
		// The state follows the command's name, in parentheses.
		i := bytes.LastIndexByte(b, ')')
		if i < 0 || i+2 >= len(b) {
			return false, false
		}
		if b[i+2] != 'S' {
			return false, true
		}
	}
	return true, true
}

// unread is how many bytes fed to the run are still in the pipe (-1 when
// the pipe cannot say).
func (r *liveDecoder) unread() int {
	n := -1
	conn, err := r.stdin.SyscallConn()
	if err != nil {
		return n
	}
	_ = conn.Control(func(fd uintptr) {
		// TIOCINQ is FIONREAD: the bytes in the pipe, from either end.
		if v, err := unix.IoctlGetInt(int(fd), unix.TIOCINQ); err == nil {
			n = v
		}
	})
	return n
}

func (r *liveDecoder) hasExited() bool {
	select {
	case <-r.exited:
		return true
	default:
		return false
	}
}

// finish feeds the rest of the finished recording, ends the run and
// returns its output as decode would return the whole file's, for the
// caller to clean up. An error means the run cannot stand for the
// recording (it failed or complained, or the recording no longer begins
// with the bytes it was fed); the run is then discarded and the caller
// decodes the file, which tells the student what is wrong with it.
func (r *liveDecoder) finish(ctx context.Context, cfg Config, logger *slog.Logger) (p *pcm, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	defer func() {
		if err != nil {
			r.end(logger)
		}
	}()
	fed := r.sum.Sum(nil)
	if err := fedBytesMatch(r.path, r.fed, fed); err != nil {
		return nil, err
	}
	if err := r.feed(cfg); err != nil {
		return nil, err
	}
	r.stdin.Close()
	wait, cancel := context.WithTimeout(ctx, cfg.DecodeTimeout)
	defer cancel()
	select {
	case <-r.exited:
	case <-wait.Done():
		return nil, fmt.Errorf("transcribe: live decode did not end: %w", wait.Err())
	}
	if r.err != nil {
		return nil, fmt.Errorf("transcribe: live decode: %w: %s", r.err, r.stderr.String())
	}
	if err := checkComplaints(logger, r.format, r.stderr.String(), false); err != nil {
		return nil, err
	}
	samples, err := readSamples(r.rawPath())
	if err != nil {
		return nil, err
	}
	return newPCM(r.dir, samples, r.warps, r.maxSeconds), nil
}

// fedBytesMatch checks that the recording at path still begins with the
// n bytes whose SHA-256 is sum: a recording's bytes never change once
// written, so a mismatch means the run decoded something else.
func fedBytesMatch(path string, n int64, sum []byte) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("transcribe: live decode: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.CopyN(h, f, n); err != nil {
		return fmt.Errorf("transcribe: live decode: the recording is shorter than what was fed: %w", err)
	}
	if !bytes.Equal(h.Sum(nil), sum) {
		return errors.New("transcribe: live decode: the recording is not the one that was fed")
	}
	return nil
}

// discard ends a run whose output nobody will read.
func (r *liveDecoder) discard(logger *slog.Logger) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.end(logger)
}

// end stops the run and removes its output; r.mu is held.
func (r *liveDecoder) end(logger *slog.Logger) {
	r.stdin.Close()
	if err := r.cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		logger.Warn("transcribe: stop a live decode", "err", err)
	}
	<-r.exited
	if err := os.RemoveAll(r.dir); err != nil {
		logger.Error("transcribe: remove temp dir", "dir", r.dir, "err", err)
	}
}
