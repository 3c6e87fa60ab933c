package transcribe

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/whitecoat/whitecoat/internal/transcribe/sphinx"
)

// Splitting policy. Pieces of up to ~40 s keep the decoder's search short
// while leaving enough context for the language model; below 10 s the cost of
// a cut outweighs the parallelism.
const (
	maxPieceFrames = 40 * sphinx.FrameRate
	minSplitFrames = 10 * sphinx.FrameRate
)

type localEngine struct {
	cfg    Config
	logger *slog.Logger
	pool   *sphinx.Pool
	dir    string // the workers' dictionary, removed by Close

	// stepping are the recordings a step is working on. On a busy box a
	// step can outlast the interval between steps; a second one of the
	// same recording at once would recognise the same speech again.
	steppingMu sync.Mutex
	stepping   map[string]bool

	// align places a text the student's browser heard on the recording;
	// its live runs decode the recordings in progress for both.
	*textAligner // Align, AdvanceAlign, decodeSoFar and decodeFinished
}

func newLocal(cfg Config, logger *slog.Logger) (*localEngine, error) {
	pool, dir, err := newPool(cfg, logger)
	if err != nil {
		return nil, err
	}
	return &localEngine{cfg: cfg, logger: logger, pool: pool, dir: dir, textAligner: newTextAligner(cfg, logger)}, nil
}

// newPool prepares the decoder's dictionary in a directory of its own (not
// named like the per-answer ones, which sweepTemp removes) and the pool that
// uses it.
func newPool(cfg Config, logger *slog.Logger) (*sphinx.Pool, string, error) {
	dir, err := os.MkdirTemp(cfg.TempDir, "whitecoat-sphinx-")
	if err != nil {
		return nil, "", fmt.Errorf("transcribe: decoder dir: %w", err)
	}
	dict := cfg.Local.Dict
	if cfg.Local.Vocabulary > 0 {
		if dict, err = writeDictionary(cfg.Local.Dict, cfg.Local.Vocabulary, dir); err != nil {
			os.RemoveAll(dir)
			return nil, "", fmt.Errorf("%w (apt-get install pocketsphinx-en-us)", err)
		}
	}
	pool := sphinx.New(sphinx.Options{
		Batch: cfg.Local.Batch, HMM: cfg.Local.HMM, LM: cfg.Local.LM, Dict: dict,
		Args: cfg.Local.Args, QuickArgs: cfg.Local.QuickArgs, Workers: cfg.Local.Workers, Memory: cfg.Local.WorkerMemory, Logger: logger,
	})
	return pool, dir, nil
}

func (e *localEngine) Name() string { return EngineLocal }

func (e *localEngine) SweepTemp(age time.Duration) (int, error) {
	e.live.sweep(e.logger)
	return sweepTemp(e.cfg, age)
}

func (e *localEngine) Close() error {
	e.live.endAll(e.logger)
	err := e.pool.Close()
	if rmErr := os.RemoveAll(e.dir); rmErr != nil {
		return fmt.Errorf("transcribe: remove decoder dir: %w", rmErr)
	}
	return err
}

func (e *localEngine) Transcribe(ctx context.Context, in Audio) (Result, error) {
	return e.Finish(ctx, in, Progress{})
}

// Growing recordings are recognised in steps of at least minAdvanceFrames,
// each ending at the quietest moment of its last pauseSearchFrames, and
// never within settleFrames of the end, where the encoder's last packet may
// be cut off. Every cut costs words (the model normalises each piece on its
// own, and the language model loses the context): on the development clips
// 6 s steps cost 1.0 point of WER against whole-file recognition, 4 s steps
// 1.7 points, while keeping what is left at the end to 4-9 s.
const (
	minAdvanceFrames  = 6 * sphinx.FrameRate
	pauseSearchFrames = 3 * sphinx.FrameRate
	settleFrames      = sphinx.FrameRate / 2
)

func (e *localEngine) Advance(ctx context.Context, in Audio, p Progress) (Progress, error) {
	size, err := fileSize(in)
	if err != nil {
		return p, err
	}
	if !mayHoldStep(p, size) || !e.beginStep(in.Path) {
		return p, nil
	}
	defer e.endStep(in.Path)
	pc, since, release, err := e.decodeSoFar(ctx, in, warpsToMake(p.Warp))
	if err != nil {
		return p, err
	}
	defer release()
	if pc.seconds() < p.Until {
		// A live decode that has not caught up with the recording yet
		// (started again, or on a busy box): the next step will have it.
		// Its length says nothing of the recording's bytes per second.
		return p, nil
	}
	// A decode that had not caught up says nothing of the recording's
	// bytes per second: one taken as a measure would tell the next steps
	// that the recording is shorter than it is, and they would not start.
	measured := p
	if !pc.behind {
		measured.DecodedBytes, measured.DecodedSeconds = size, pc.seconds()
	}
	levels := frameLevels(pc.samples)
	from, words, warp, probed := resume(p, len(levels))
	end := len(levels) - settleFrames
	if end-from < minAdvanceFrames {
		return measured, nil
	}
	cut := newPauseFinder(levels).quietest(max(from+minAdvanceFrames-pauseSearchFrames, end-pauseSearchFrames), end, end)
	more, warp, probedNow, err := e.recognise(ctx, sphinx.Request{Priority: sphinx.Ahead, Since: since}, pc, levels, from, cut, warp)
	if err != nil {
		return p, err
	}
	return Progress{Words: append(words, more...), Until: float64(cut) / sphinx.FrameRate, Warp: warp, Probed: probed || probedNow,
		DecodedBytes: measured.DecodedBytes, DecodedSeconds: measured.DecodedSeconds}, nil
}

// beginStep claims the recording at path for a step; false when another
// step has it.
func (e *localEngine) beginStep(path string) bool {
	e.steppingMu.Lock()
	defer e.steppingMu.Unlock()
	if e.stepping[path] {
		return false
	}
	if e.stepping == nil {
		e.stepping = map[string]bool{}
	}
	e.stepping[path] = true
	return true
}

func (e *localEngine) endStep(path string) {
	e.steppingMu.Lock()
	defer e.steppingMu.Unlock()
	delete(e.stepping, path)
}

// FirstStep is the shortest recording a step can be cut from: a step's
// worth of sound and the settling time after it.
func (e *localEngine) FirstStep() time.Duration {
	return time.Duration(minAdvanceFrames+settleFrames) * time.Second / sphinx.FrameRate
}

// mayHoldStep reports whether a recording of size bytes may hold a step's
// worth of sound past what p recognised, judged by the bytes per second
// its last decode found. Starting the decoder costs a tenth of a second or
// more of CPU before it decodes anything, so a call that cannot recognise
// (most calls a few seconds after the last step) is answered without it.
// Without a measurement it may.
func mayHoldStep(p Progress, size int64) bool {
	if p.DecodedBytes <= 0 || p.DecodedSeconds <= 0 {
		return true
	}
	seconds := float64(size) * p.DecodedSeconds / float64(p.DecodedBytes)
	return seconds*sphinx.FrameRate-settleFrames-p.Until*sphinx.FrameRate >= minAdvanceFrames
}

// fileSize is the size of the recording Advance was given by path.
func fileSize(in Audio) (int64, error) {
	fi, err := os.Stat(in.Path)
	if err != nil {
		return 0, fmt.Errorf("transcribe: recording in progress: %w", err)
	}
	return fi.Size(), nil
}

func (e *localEngine) Finish(ctx context.Context, in Audio, p Progress) (Result, error) {
	pc, since, err := e.decodeFinished(ctx, in, warpsToMake(p.Warp))
	if err != nil {
		return Result{}, err
	}
	defer e.cleanup(pc)
	// VerbatimFillers is false: the decoder can write "um" and "uh" (its
	// dictionary and language model have them), but it wrote down only 1
	// in 4 of the filled pauses synthetic voices said (bench/transcribe/
	// fillers), and a real speaker's "Um" came out as "Am" (issue 29): its
	// count is a lower bound, and its 0 no measure at all.
	res := Result{Engine: e.Name(), DurationSeconds: pc.seconds(), Truncated: pc.truncated, Words: []Word{},
		WordConfidence: ConfidenceLattice}
	levels := frameLevels(pc.samples)
	if !hasSpeech(levels) {
		return res, nil
	}
	from, words, warp, probed := resume(p, len(levels))
	req := sphinx.Request{Priority: sphinx.Awaited, Since: since}
	if in.Spare {
		req.Priority = sphinx.Spare
	}
	more, warp, probedNow, err := e.recognise(ctx, req, pc, levels, from, len(levels), warp)
	if err != nil {
		return Result{}, err
	}
	res.Words = append(words, more...)
	res.Warp, res.WarpProbed = warp, probed || probedNow
	res.Text = punctuate(res.Words)
	return res, nil
}

// resume returns the frame to continue from, a copy of the words before it,
// the voice scaling chosen so far (0 when the recording so far held no
// speech to choose it on) and whether it was chosen on this recording;
// progress that does not fit the recording (it ends sooner than Until, or
// has a factor this engine does not offer) is ignored and the recording
// recognised from the start. Progress that starts the recording (Until 0)
// keeps only its factor: the speaker's, given by the caller.
func resume(p Progress, frames int) (int, []Word, float64, bool) {
	from := int(math.Round(p.Until * sphinx.FrameRate))
	if p.Warp != 0 && !slices.Contains(warpSteps, p.Warp) || from > frames {
		return 0, []Word{}, 0, false
	}
	if from <= 0 {
		return 0, []Word{}, p.Warp, false
	}
	return from, slices.Clone(p.Words), p.Warp, p.Probed
}

func (e *localEngine) cleanup(pc *pcm) {
	if err := pc.cleanup(); err != nil {
		e.logger.Error("transcribe: cleanup", "err", err)
	}
}

// recognise decodes frames [from, to) of pc scaled by warp, cut at pauses
// into pieces decoded in parallel, waiting for decoders as req says (its
// search is chosen here, by load). With warp 0 it first chooses the
// factor on the first few seconds of speech, and returns the one it chose
// and true.
func (e *localEngine) recognise(ctx context.Context, req sphinx.Request, pc *pcm, levels []float64, from, to int, warp float64) ([]Word, float64, bool, error) {
	if !hasSpeech(levels[from:to]) {
		return nil, warp, false, nil
	}
	probed := warp == 0
	rctx, cancel := context.WithTimeout(ctx, e.cfg.Local.RecognizeTimeout)
	defer cancel()
	req.Search = e.search()
	var segs [][]sphinx.Seg
	if warp == 0 {
		end := probeEnd(levels, from, to)
		pitch := medianPitch(pc.samples[from*frameSamples : end*frameSamples])
		if w, ok := warpForPitch(pitch); ok {
			warp = w
			e.logger.Debug("transcribe: voice scaling chosen", "warp", warp, "by", "pitch", "hz", math.Round(pitch))
		} else {
			w, first, err := e.chooseWarp(rctx, req, pc, from, end)
			if err != nil {
				return nil, 0, false, decoderFailed(ctx, err)
			}
			warp, from, segs = w, end, [][]sphinx.Seg{first}
		}
	}
	if from < to && hasSpeech(levels[from:to]) {
		workers := e.cfg.Local.Workers
		if req.Priority == sphinx.Spare {
			workers = 1 // its pieces run one at a time anyway
		}
		rest, err := e.decodeSpans(rctx, req, pc, warp, from, splitAtPauses(levels[from:to], pieces(to-from, workers)))
		if err != nil {
			return nil, 0, false, decoderFailed(ctx, err)
		}
		segs = append(segs, rest...)
	}
	var words []Word
	for _, s := range segs {
		words = append(words, wordsFromSegs(s, levels)...)
	}
	return words, warp, probed, nil
}

// quickLoad is the decoders' load (sphinx.Pool.Load) from which
// recognition searches quickly: they have been busy nearly all the time
// for several seconds, so answers are arriving faster than the thorough
// search gets through them.
const quickLoad = 0.8

// search is the decoder search for a step that starts now: the thorough
// one while the decoders keep up. When requests already wait for a
// decoder, or the decoders have been busy nearly all the time lately, the
// box is short of CPU for recognition, and the quick search (see
// LocalConfig.QuickArgs) gets through the queue faster, so that feedback
// still comes within seconds, for a few more words heard wrong. A step's
// requests all search alike: the voice scaling compares the scores of two
// decodes, which only one search's scores allow.
func (e *localEngine) search() sphinx.Search {
	if e.pool.Waiting() > 0 || e.pool.Load() >= quickLoad {
		return sphinx.Quick
	}
	return sphinx.Thorough
}

// SpeechBySearch implements LoadAdaptive.
func (e *localEngine) SpeechBySearch() map[string]time.Duration {
	return map[string]time.Duration{
		sphinx.Thorough.String(): e.pool.Decoded(sphinx.Thorough),
		sphinx.Quick.String():    e.pool.Decoded(sphinx.Quick),
	}
}

// DecoderWaits implements LoadAdaptive.
func (e *localEngine) DecoderWaits() map[string]sphinx.Waits { return e.pool.Waited() }

// decodeSpans decodes spans (relative to from) of pc scaled by warp in
// parallel as req says; the first failure cancels the rest.
func (e *localEngine) decodeSpans(ctx context.Context, req sphinx.Request, pc *pcm, warp float64, from int, spans []span) ([][]sphinx.Seg, error) {
	base, err := pc.warped(ctx, e.cfg, warp)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	segs := make([][]sphinx.Seg, len(spans))
	errs := make([]error, len(spans))
	var wg sync.WaitGroup
	for i, sp := range spans {
		wg.Go(func() {
			var hyp sphinx.Hyp
			hyp, errs[i] = e.pool.Decode(ctx, req, base, from+sp.start, from+sp.end)
			if errs[i] != nil {
				cancel() // the answer fails as a whole; free the other workers
			}
			segs[i] = hyp.Segs
		})
	}
	wg.Wait()
	return segs, errors.Join(errs...)
}

// decoderFailed reports a failed recognition as the caller's cancellation
// when that is what it was, and as the engine's failure otherwise.
func decoderFailed(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("transcribe: recognize: %w", ctx.Err())
	}
	return unavailable("the speech decoder failed", err)
}

// probeEnd is where the stretch the voice scaling is chosen on ends: at a
// pause about probeFrames into the speech after from, or at to when what
// would be left is too short to be worth a cut.
func probeEnd(levels []float64, from, to int) int {
	if to-from < probeFrames+minSplitFrames {
		return to
	}
	start := from
	for start < to && levels[start] <= speechDBFS {
		start++
	}
	ideal := min(start+probeFrames, to-minSplitFrames)
	return newPauseFinder(levels).quietest(max(from+smoothHalfWindow, ideal-pauseSearchFrames/2), ideal+pauseSearchFrames/2, ideal)
}

// pieces is how many parts to decode in parallel: enough to keep each short,
// and a multiple of the worker count so no core idles at the end.
func pieces(frames, workers int) int {
	if frames < minSplitFrames {
		return 1
	}
	n := (frames + maxPieceFrames - 1) / maxPieceFrames
	return (n + workers - 1) / workers * workers
}

// wordsFromSegs drops pocketsphinx's silence and noise tokens, words it
// heard in silence, and the "(2)" marks of alternate pronunciations, and
// gives each word its confidence (wordConfidence).
func wordsFromSegs(segs []sphinx.Seg, levels []float64) []Word {
	var words []Word
	for _, s := range segs {
		w := s.Word
		if sphinx.Filler(w) || silent(levels, s.Start, s.End) {
			continue
		}
		if i := strings.IndexByte(w, '('); i > 0 {
			w = w[:i]
		}
		words = append(words, Word{
			Word:       w,
			Start:      float64(s.Start) / sphinx.FrameRate,
			End:        float64(s.End) / sphinx.FrameRate,
			Confidence: confidence(wordConfidence(s)),
		})
	}
	return words
}

// wordConfidence is how likely the recognised word s was said: its
// posterior in the decoder's lattice (see the README for how well it
// picks out misheard words).
func wordConfidence(s sphinx.Seg) float64 { return s.Posterior }

// silent says whether frames [start, end) are too quiet to hold a word: the
// decoder, which is given pauses whole (see sphinx.Pool), sometimes fills a
// long one with a word. Fewer than a quarter of loud frames is what a
// spoken word, quiet consonants included, does not have.
func silent(levels []float64, start, end int) bool {
	start, end = max(start, 0), min(end, len(levels))
	return end > start && loudFrames(levels[start:end])*4 < end-start
}

func checkLocal(ctx context.Context, cfg Config) error {
	if _, err := exec.LookPath(cfg.Local.Batch); err != nil {
		return fmt.Errorf("transcribe: %s not found (apt-get install pocketsphinx): %w", cfg.Local.Batch, err)
	}
	for _, path := range []string{cfg.Local.HMM + "/mdef", cfg.Local.LM, cfg.Local.Dict} {
		if _, err := os.Stat(path); err != nil {
			return fmt.Errorf("transcribe: pocketsphinx model file missing (apt-get install pocketsphinx-en-us): %w", err)
		}
	}
	// Decode half a second of near-silence: proves the binary runs and the
	// model loads, not just that the files exist.
	dir, err := os.MkdirTemp(cfg.TempDir, tempPrefix+"check-")
	if err != nil {
		return fmt.Errorf("transcribe: check: %w", err)
	}
	defer os.RemoveAll(dir)
	base := filepath.Join(dir, "probe")
	if err := os.WriteFile(base+".raw", make([]byte, sampleRate), 0o600); err != nil {
		return fmt.Errorf("transcribe: check: %w", err)
	}
	one := cfg
	one.Local.Workers = 1
	pool, poolDir, err := newPool(one, slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	defer os.RemoveAll(poolDir)
	defer pool.Close()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if _, err := pool.Decode(ctx, sphinx.Request{Search: sphinx.Thorough, Priority: sphinx.Awaited}, base, 0, -1); err != nil {
		return fmt.Errorf("transcribe: pocketsphinx cannot decode: %w", err)
	}
	return nil
}
