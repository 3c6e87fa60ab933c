package transcribe

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/whitecoat/whitecoat/internal/transcribe/rlimit"
)

// sampleRate is what both engines receive: 16 kHz mono is pocketsphinx's
// acoustic model rate and what Whisper resamples to anyway.
const sampleRate = 16000

// pcm is one answer decoded to signed 16-bit little-endian mono samples, kept
// in a private directory until cleanup.
type pcm struct {
	dir       string
	rawPath   string
	samples   []int16
	truncated bool
	// behind marks the output of a live run read before the run had
	// caught up with the recording it was fed: it holds less.
	behind bool
	// spare marks spare work's samples (Audio.Spare): their scaled copies
	// are made under its limits too.
	spare bool

	warpMu sync.Mutex
	warps  map[float64]bool // factors whose scaled copy is in dir (see warped)
}

func (p *pcm) seconds() float64 { return float64(len(p.samples)) / sampleRate }

func (p *pcm) cleanup() error {
	if err := os.RemoveAll(p.dir); err != nil {
		return fmt.Errorf("transcribe: remove temp dir: %w", err)
	}
	return nil
}

// tempPrefix names every per-answer directory, so sweepTemp can find them.
const tempPrefix = "whitecoat-stt-"

// sweepTemp removes per-answer directories older than age that a crashed
// process left in cfg.TempDir; run it at start-up and periodically.
func sweepTemp(cfg Config, age time.Duration) (removed int, err error) {
	root := cfg.TempDir
	if root == "" {
		root = os.TempDir()
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return 0, fmt.Errorf("transcribe: sweep %s: %w", root, err)
	}
	var errs []error
	for _, e := range entries {
		info, ierr := e.Info()
		if !e.IsDir() || !strings.HasPrefix(e.Name(), tempPrefix) || ierr != nil || time.Since(info.ModTime()) < age {
			continue
		}
		if rerr := os.RemoveAll(filepath.Join(root, e.Name())); rerr != nil {
			errs = append(errs, rerr)
			continue
		}
		removed++
	}
	if err := errors.Join(errs...); err != nil {
		return removed, fmt.Errorf("transcribe: sweep: %w", err)
	}
	return removed, nil
}

// truncationMarkers are what ffmpeg's demuxers print, while still exiting 0,
// when a file stops mid-stream: the upload was cut off.
var truncationMarkers = []string{"File ended prematurely", "Truncating packet", "moov atom not found", "Invalid data found"}

// ffmpegSafeArgs start every ffmpeg run on an answer: no terminal input, no
// chatter, no protocol but local files and pipes, whatever the input refers
// to, and one filter thread: filters would otherwise start a thread per core,
// each with a stack counted against the memory limit, for audio that one
// thread filters many times faster than real time.
func ffmpegSafeArgs() []string {
	return []string{"-nostdin", "-hide_banner", "-nostats", "-loglevel", "error", "-protocol_whitelist", "file,pipe",
		"-filter_threads", "1"}
}

// ffmpegCommand is ffmpeg run on an answer in dir: with ffmpegSafeArgs,
// under limits (Config.decoderLimits: the decoder's, spare work's for
// spare work), and killed when ctx ends.
func ffmpegCommand(ctx context.Context, cfg Config, limits rlimit.Limits, dir string, args []string) (*exec.Cmd, error) {
	cmd, err := rlimit.Command(ctx, limits, cfg.FFmpeg, append(ffmpegSafeArgs(), args...)...)
	if err != nil {
		return nil, err
	}
	cmd.Dir = dir
	return cmd, nil
}

type decodeOptions struct {
	filter string // an ffmpeg audio filter chain, "" for none
	// growing accepts a recording still being written, whose end is by
	// nature cut off mid-packet.
	growing bool
	// warps are voice scalings (see warp.go) whose copies the same ffmpeg
	// run writes besides the samples: starting ffmpeg costs more CPU than
	// decoding a minute of speech, so a second run per copy doubled the
	// decoder's cost for every answer in a scaled voice.
	warps []float64
}

// decode checks the upload and converts it with ffmpeg. The caller must call
// cleanup on the result; on error nothing is left on disk.
func decode(ctx context.Context, cfg Config, logger *slog.Logger, in Audio, opts decodeOptions) (p *pcm, err error) {
	if err := checkClaim(in); err != nil {
		return nil, err
	}
	dir, err := makeAnswerDir(cfg)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err == nil {
			return
		}
		if errors.Is(err, ErrBadAudio) {
			// The student sees only the message; the cause is for the operator.
			logger.Info("transcribe: recording refused", "err", err)
		}
		if rmErr := os.RemoveAll(dir); rmErr != nil {
			logger.Error("transcribe: remove temp dir", "dir", dir, "err", rmErr)
		}
	}()

	input, err := stageInput(cfg, dir, in)
	if err != nil {
		return nil, err
	}
	format, err := sniffFile(input)
	if err != nil {
		return nil, err
	}

	rawPath := filepath.Join(dir, rawName)
	warps := scaledCopies(opts.warps)
	msg, err := runDecoder(ctx, cfg, logger, dir, decodeArgs(format, "file:"+input, rawPath, cfg.maxSeconds(in), opts.filter, warps, false, in.Spare), in.Spare)
	if err != nil {
		return nil, err
	}
	if err := checkComplaints(logger, format, msg, opts.growing); err != nil {
		return nil, err
	}
	samples, err := readSamples(rawPath)
	if err != nil {
		return nil, err
	}
	if in.Path == "" {
		// The upload copy is no longer needed; free the space early. (A
		// caller's file is never removed, also when given by a relative path.)
		if err := os.Remove(input); err != nil {
			logger.Warn("transcribe: remove staged upload", "err", err)
		}
	}
	pc := newPCM(dir, samples, warps, cfg.maxSeconds(in))
	pc.spare = in.Spare
	return pc, nil
}

// rawName is the decoded samples' file in an answer's directory.
const rawName = "audio.raw"

// newPCM is the samples decoded into dir, with the scaled copies warps
// beside them, by a run that stopped at maxSeconds.
func newPCM(dir string, samples []int16, warps []float64, maxSeconds float64) *pcm {
	p := &pcm{dir: dir, rawPath: filepath.Join(dir, rawName), samples: samples, warps: make(map[float64]bool, len(warps))}
	for _, w := range warps {
		p.warps[w] = true
	}
	// ffmpeg stops exactly at -t, so reaching it (to within one frame) means more audio followed.
	p.truncated = p.seconds() >= maxSeconds-0.02
	return p
}

// scaledCopies are the factors of warps that need a copy of their own
// (factor 1 is the samples themselves).
func scaledCopies(warps []float64) []float64 {
	return slices.DeleteFunc(slices.Clone(warps), func(w float64) bool { return w == 1 })
}

// maxSeconds is how much of in is decoded: its answer's limit, or the
// longest answer's, and the margin.
func (c Config) maxSeconds(in Audio) float64 {
	if in.Limit > 0 {
		return (in.Limit + c.DurationMargin).Seconds()
	}
	return c.MaxDuration().Seconds()
}

// checkClaim refuses what is not worth staging: an Audio that names both or
// neither of its sources is a programming error, and a client that itself
// calls the upload something other than audio or video is believed.
func checkClaim(in Audio) error {
	if (in.Path == "") == (in.Reader == nil) {
		return fmt.Errorf("transcribe: audio needs exactly one of Path and Reader")
	}
	if !claimAcceptable(in.MIMEType) {
		return badAudio("Only audio or video recordings can be transcribed.", fmt.Errorf("claimed type %q", in.MIMEType))
	}
	return nil
}

// makeAnswerDir makes the answer's private directory. Its path is absolute
// because ffmpeg runs inside it and is given "file:" paths, and it is named
// with tempPrefix so that sweepTemp can find it after a crash.
func makeAnswerDir(cfg Config) (string, error) {
	root := cfg.TempDir
	if root == "" {
		root = os.TempDir()
	}
	root, err := filepath.Abs(root)
	if err != nil {
		return "", fmt.Errorf("transcribe: temp dir: %w", err)
	}
	dir, err := os.MkdirTemp(root, tempPrefix)
	if err != nil {
		return "", unavailable("cannot create a temporary directory", err)
	}
	return dir, nil
}

// decodeArgs is the ffmpeg command line that turns source ("file:" and a
// path, or "pipe:0"), whose container Sniff decided, into at most
// maxSeconds of raw 16 kHz mono at rawPath, and for each factor of warps
// the same samples scaled by it (warpedRaw). The demuxer is named, never
// probed (see demuxer), and only the first audio stream is kept, also from
// a video answer. flush writes every packet out as it is decoded, for
// readers that follow the output while it grows. spare (Audio.Spare) reads
// no more of the input than maxSeconds either: the output's -t does not
// stop the filters from consuming all of it, and a WAV that declares 1 Hz
// is 8 million seconds of input to resample for each scaled copy.
func decodeArgs(format Format, source, rawPath string, maxSeconds float64, filter string, warps []float64, flush, spare bool) []string {
	seconds := strconv.FormatFloat(maxSeconds, 'f', 3, 64)
	args := []string{"-f", demuxer[format]}
	if spare {
		args = append(args, "-t", seconds)
	}
	if format == FormatMP4 {
		// MP4 data references can point at other local files; never follow them.
		args = append(args, "-enable_drefs", "0")
	}
	args = append(args,
		"-i", source,
		// A track that yields no audio at all is an error, not an empty
		// success. ffmpeg says nothing when the index of a track's sample
		// tables does not fit its memory limit; the track then yields
		// nothing, and this makes that a failure.
		"-abort_on", "empty_output_stream",
	)
	output := func(path string) []string {
		out := []string{"-t", seconds, "-f", "s16le", "-c:a", "pcm_s16le"}
		if flush {
			out = append(out, "-flush_packets", "1")
		}
		return append(out, "-y", "file:"+path)
	}
	if len(warps) == 0 {
		args = append(args, "-map", "0:a:0", "-vn", "-sn", "-dn")
		if filter != "" {
			args = append(args, "-af", filter)
		}
		return append(append(args, "-ac", "1", "-ar", strconv.Itoa(sampleRate)), output(rawPath)...)
	}
	// One graph: the samples as the single-output line above makes them
	// (filter, then 16 kHz mono 16-bit), split into the plain copy and one
	// input per scaling, which each scale exactly those samples.
	graph := "[0:a:0]"
	if filter != "" {
		graph += filter + ","
	}
	graph += fmt.Sprintf("aresample=%d,aformat=sample_fmts=s16:channel_layouts=mono,asplit=%d[plain]", sampleRate, len(warps)+1)
	for i := range warps {
		graph += fmt.Sprintf("[in%d]", i)
	}
	for i, w := range warps {
		graph += fmt.Sprintf(";[in%d]%s[warp%d]", i, warpFilter(w), i)
	}
	args = append(args, "-filter_complex", graph, "-map", "[plain]")
	args = append(args, output(rawPath)...)
	for i, w := range warps {
		args = append(append(args, "-map", fmt.Sprintf("[warp%d]", i)), output(warpedRaw(rawPath, w))...)
	}
	return args
}

// runDecoder runs ffmpeg in dir under cfg.DecodeTimeout and the decoder
// limits (spare work's when spare) and returns what it printed. A failure is classified here, where
// the cause is still known: the caller's cancellation; a recording that
// takes too long, reaches a limit, has no audio track or is damaged (the
// student's to fix: ErrBadAudio); or a missing or broken ffmpeg (the
// server's: ErrUnavailable, worth retrying).
func runDecoder(ctx context.Context, cfg Config, logger *slog.Logger, dir string, args []string, spare bool) (string, error) {
	dctx, cancel := context.WithTimeout(ctx, cfg.DecodeTimeout)
	defer cancel()
	limits := cfg.decoderLimits(spare)
	cmd, err := ffmpegCommand(dctx, cfg, limits, dir, args)
	if err != nil {
		return "", unavailable("cannot run ffmpeg", err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &limitedWriter{w: &stderr, n: 16 << 10}
	runErr := cmd.Run()
	rlimit.Account(rlimit.PurposeDecode, cmd.ProcessState)
	msg := strings.TrimSpace(stderr.String())
	logger.Debug("transcribe: ffmpeg finished", "err", runErr,
		"peak_rss_mb", rlimit.PeakRSS(cmd.ProcessState)>>20, "cpu_ms", rlimit.CPUTime(cmd.ProcessState).Milliseconds(), "nice", limits.Nice, "memory_limit_mb", cfg.DecodeMemory>>20)
	var exitErr *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return "", fmt.Errorf("transcribe: decode: %w", ctx.Err())
	case dctx.Err() != nil:
		// Well-formed audio within the cap decodes in a fraction of the
		// deadline, so a timeout means the file itself is pathological.
		return "", badAudio(msgTooSlow, dctx.Err())
	case runErr == nil:
		return msg, nil
	case !errors.As(runErr, &exitErr):
		return "", unavailable("cannot run ffmpeg", runErr)
	case exitErr.ExitCode() == 126 || exitErr.ExitCode() == 127:
		// prlimit could not exec ffmpeg, or the dynamic loader could not
		// map its libraries within DecodeMemory: the server's to fix.
		return "", unavailable("cannot start ffmpeg under its limits", fmt.Errorf("%w: %s", runErr, msg))
	case limits.OutOfCPU(cmd.ProcessState):
		return "", badAudio(msgTooSlow, fmt.Errorf("ffmpeg used up its CPU limit of %v: %w", limits.CPU, runErr))
	case strings.Contains(msg, "Cannot allocate memory"):
		return "", badAudio(msgDamaged, fmt.Errorf("ffmpeg reached its memory limit of %d MiB: %w: %s", cfg.DecodeMemory>>20, runErr, msg))
	case strings.Contains(msg, "matches no streams"):
		return "", badAudio("The recording has no audio track.", errors.New(msg))
	}
	return "", badAudio(msgDamaged, fmt.Errorf("%w: %s", runErr, msg))
}

// Messages for recordings ffmpeg could not decode.
const (
	msgTooSlow = "The recording could not be processed in time."
	msgDamaged = "The recording is damaged or in an unsupported format."
	msgNoAudio = "The recording contains no audio."
)

// checkComplaints reads what a successful ffmpeg run printed. ffmpeg exits
// 0 on a file that stops mid-stream, and a partial transcript of a cut-off
// upload would be scored as if it were the whole answer, so that is
// refused, unless the recording is still being written (growing), whose
// end is cut off by nature. Anything else ffmpeg says is only logged.
func checkComplaints(logger *slog.Logger, format Format, msg string, growing bool) error {
	if growing {
		return nil
	}
	for _, m := range truncationMarkers {
		if strings.Contains(msg, m) {
			return badAudio("The recording is incomplete; it seems to have been cut off.", errors.New(msg))
		}
	}
	if msg != "" {
		logger.Warn("transcribe: ffmpeg complained but decoded", "format", format, "stderr", msg)
	}
	return nil
}

// readSamples loads the decoded audio. An empty result means the container
// held an audio track with no samples in it, which is the student's to fix.
func readSamples(rawPath string) ([]int16, error) {
	raw, err := os.ReadFile(rawPath)
	if err != nil {
		return nil, unavailable("cannot read decoded audio", err)
	}
	samples := samplesOf(raw)
	if len(samples) == 0 {
		return nil, badAudio(msgNoAudio, nil)
	}
	return samples, nil
}

// samplesOf reads raw's little-endian 16-bit samples (a last odd byte is
// half a sample still being written, and left out).
func samplesOf(raw []byte) []int16 {
	samples := make([]int16, len(raw)/2)
	for i := range samples {
		samples[i] = int16(binary.LittleEndian.Uint16(raw[2*i:]))
	}
	return samples
}

// stageInput returns the path ffmpeg reads: the caller's file, or the
// reader's bytes copied into dir (MP4 needs a seekable input).
func stageInput(cfg Config, dir string, in Audio) (string, error) {
	if in.Path != "" {
		abs, err := filepath.Abs(in.Path)
		if err != nil {
			return "", fmt.Errorf("transcribe: input path: %w", err)
		}
		st, err := os.Stat(abs)
		switch {
		case err != nil:
			return "", badAudio("The recording could not be read.", err)
		case !st.Mode().IsRegular():
			return "", badAudio("The recording is not a regular file.", nil)
		case st.Size() == 0:
			return "", badAudio("The recording is empty.", nil)
		case st.Size() > cfg.MaxInputBytes:
			return "", badAudio("The recording is too large.", fmt.Errorf("%d bytes", st.Size()))
		}
		return abs, nil
	}
	path := filepath.Join(dir, "upload")
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", unavailable("cannot stage the upload", err)
	}
	n, err := io.Copy(f, io.LimitReader(in.Reader, cfg.MaxInputBytes+1))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	switch {
	case err != nil:
		return "", badAudio("The recording could not be read.", err)
	case n == 0:
		return "", badAudio("The recording is empty.", nil)
	case n > cfg.MaxInputBytes:
		return "", badAudio("The recording is too large.", fmt.Errorf("over %d bytes", cfg.MaxInputBytes))
	}
	return path, nil
}

// sniffFile decides the container from the staged file's first bytes, not
// from the client's claim or a file name, before ffmpeg sees any of it.
func sniffFile(path string) (Format, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", badAudio("The recording could not be read.", err)
	}
	defer f.Close()
	head := make([]byte, SniffLen)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return "", badAudio("The recording could not be read.", err)
	}
	format, ok := Sniff(head[:n])
	if !ok {
		return "", badAudio("This file is not an audio or video recording we can read (WebM, MP4, Ogg or WAV).", nil)
	}
	return format, nil
}

// limitedWriter keeps the first n bytes and drops the rest, so a chatty
// ffmpeg cannot grow memory without bound.
type limitedWriter struct {
	w io.Writer
	n int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if l.n > 0 {
		k := min(len(p), l.n)
		l.n -= k
		if _, err := l.w.Write(p[:k]); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// checkFFmpeg proves that ffmpeg starts under the decoder limits (so
// prlimit is there too) and has the decoders browsers' recordings need.
func checkFFmpeg(ctx context.Context, cfg Config) error {
	cmd, err := rlimit.Command(ctx, cfg.decoderLimits(false), cfg.FFmpeg, "-hide_banner", "-decoders")
	if err != nil {
		return fmt.Errorf("transcribe: ffmpeg %q cannot run (apt-get install ffmpeg): %w", cfg.FFmpeg, err)
	}
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("transcribe: run %s under a %d MiB memory limit: %w", cfg.FFmpeg, cfg.DecodeMemory>>20, err)
	}
	for _, dec := range []string{" opus ", " aac ", " vorbis "} {
		if !bytes.Contains(out, []byte(dec)) {
			return fmt.Errorf("transcribe: %s lacks the%sdecoder", cfg.FFmpeg, dec)
		}
	}
	return nil
}
