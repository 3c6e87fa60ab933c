package transcribe

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
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
}

func newLocal(cfg Config, logger *slog.Logger) (*localEngine, error) {
	pool, dir, err := newPool(cfg, logger)
	if err != nil {
		return nil, err
	}
	return &localEngine{cfg: cfg, logger: logger, pool: pool, dir: dir}, nil
}

// newPool prepares the decoder's dictionary in a directory of its own (not
// named like the per-answer ones, which SweepTemp removes) and the pool that
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
		Args: cfg.Local.Args, Workers: cfg.Local.Workers, Logger: logger,
	})
	return pool, dir, nil
}

func (e *localEngine) Name() string { return EngineLocal }

func (e *localEngine) Close() error {
	err := e.pool.Close()
	if rmErr := os.RemoveAll(e.dir); rmErr != nil {
		return fmt.Errorf("transcribe: remove decoder dir: %w", rmErr)
	}
	return err
}

func (e *localEngine) Transcribe(ctx context.Context, in Audio) (Result, error) {
	p, err := decode(ctx, e.cfg, e.logger, in, e.cfg.Local.AudioFilter)
	if err != nil {
		return Result{}, err
	}
	defer func() {
		if err := p.cleanup(); err != nil {
			e.logger.Error("transcribe: cleanup", "err", err)
		}
	}()
	res := Result{Engine: e.Name(), DurationSeconds: p.seconds(), Truncated: p.truncated, VerbatimFillers: true, Words: []Word{}}
	levels := frameLevels(p.samples)
	if !hasSpeech(levels) {
		return res, nil
	}
	spans := splitAtPauses(levels, pieces(len(levels), e.cfg.Local.Workers))

	rctx, cancel := context.WithTimeout(ctx, e.cfg.Local.RecognizeTimeout)
	defer cancel()
	base := strings.TrimSuffix(p.rawPath, ".raw")
	segs := make([][]sphinx.Seg, len(spans))
	errs := make([]error, len(spans))
	var wg sync.WaitGroup
	for i, s := range spans {
		wg.Go(func() {
			segs[i], errs[i] = e.pool.Decode(rctx, base, s.start, s.end)
			if errs[i] != nil {
				cancel() // the answer fails as a whole; free the other workers
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		if ctx.Err() != nil {
			return Result{}, fmt.Errorf("transcribe: recognise: %w", ctx.Err())
		}
		return Result{}, unavailable("the speech decoder failed", err)
	}
	for _, s := range segs {
		res.Words = append(res.Words, wordsFromSegs(s)...)
	}
	texts := make([]string, len(res.Words))
	for i, w := range res.Words {
		texts[i] = w.Word
	}
	res.Text = strings.Join(texts, " ")
	return res, nil
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

// wordsFromSegs drops pocketsphinx's silence and noise tokens and the
// "(2)" marks of alternate pronunciations.
func wordsFromSegs(segs []sphinx.Seg) []Word {
	var words []Word
	for _, s := range segs {
		w := s.Word
		if strings.HasPrefix(w, "<") || strings.HasPrefix(w, "[") || strings.HasPrefix(w, "+") {
			continue
		}
		if i := strings.IndexByte(w, '('); i > 0 {
			w = w[:i]
		}
		words = append(words, Word{
			Word:  w,
			Start: float64(s.Start) / sphinx.FrameRate,
			End:   float64(s.End) / sphinx.FrameRate,
		})
	}
	return words
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
	if _, err := pool.Decode(ctx, base, 0, -1); err != nil {
		return fmt.Errorf("transcribe: pocketsphinx cannot decode: %w", err)
	}
	return nil
}
