package transcribe

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/whitecoat/whitecoat/internal/transcribe/rlimit"
	"github.com/whitecoat/whitecoat/internal/transcribe/sphinx"
)

// Speaker normalisation (vocal tract length normalisation, done on the
// audio). The acoustic model recognises deep voices far better than high
// ones: on the development clips festival's female voice loses 11% of its
// words, and scaling its frequencies down by 1.1-1.15 before recognition
// brings that to about 7.5%, while the same scaling costs a male voice half
// its words. So the factor is chosen per answer, the way VTLN chooses it: a
// stretch of speech is recognised at each candidate and the one whose
// hypothesis the acoustic model scores highest wins. Only scaling down is
// offered; scaling up lost words for both male voices tried, even where their
// score preferred it (bench/transcribe/dev/README.md).
var warpSteps = []float64{1, scaledDown}

// scaledDown is the one scaling offered besides none.
const scaledDown = 1.1

// probeFrames is how much speech the factor is chosen on: enough that the
// scores of different factors differ clearly, little enough that trying
// them costs a fraction of the answer's own decoding. The winner's words
// are kept, so only the losers' work is extra.
const probeFrames = 6 * sphinx.FrameRate

// A voice's pitch settles most choices before any decoding: recognising
// the probe at both factors costs a sixth of a one-minute answer's
// decoding, and on every voice of the benchmark the probe chose 1.1 for the
// high ones (170-174 Hz median) and 1 for the low ones (88-129 Hz), as
// VTLN's factor follows the speaker's sex. Between these bounds, where
// adult voices of both sexes speak, the probe still decides.
const (
	lowVoiceHz  = 140
	highVoiceHz = 160
)

// warpForPitch is the factor for a voice of median pitch hz, and false when
// the pitch (0: not measured) does not settle it.
func warpForPitch(hz float64) (float64, bool) {
	switch {
	case hz >= highVoiceHz:
		return scaledDown, true
	case hz > 0 && hz <= lowVoiceHz:
		return 1, true
	}
	return 0, false
}

// warpFilter scales every frequency down by factor w without changing the
// duration: the samples are played slower (asetrate), then time-stretched
// back (atempo), then resampled to the decoder's rate.
func warpFilter(w float64) string {
	return fmt.Sprintf("asetrate=%d,atempo=%s,aresample=%d",
		int(sampleRate/w+0.5), strconv.FormatFloat(w, 'f', -1, 64), sampleRate)
}

// warpedRaw is where the samples at rawPath scaled by w are kept.
func warpedRaw(rawPath string, w float64) string {
	return fmt.Sprintf("%s-warp%s.raw", strings.TrimSuffix(rawPath, ".raw"), strconv.FormatFloat(w, 'f', -1, 64))
}

// warpsToMake are the scalings an answer recognised at factor w needs, for
// decode to write in its run: every candidate while none is chosen (w 0, or
// one this engine does not offer, which resume ignores).
func warpsToMake(w float64) []float64 {
	if !slices.Contains(warpSteps, w) {
		return warpSteps
	}
	return []float64{w}
}

// warped returns the decoder input (path without ".raw") for pc's samples
// scaled by w, making it on first use (decode usually has: see
// warpsToMake); factor 1 is pc itself.
func (p *pcm) warped(ctx context.Context, cfg Config, w float64) (string, error) {
	if w == 1 {
		return strings.TrimSuffix(p.rawPath, ".raw"), nil
	}
	p.warpMu.Lock()
	defer p.warpMu.Unlock()
	raw := warpedRaw(p.rawPath, w)
	out := strings.TrimSuffix(raw, ".raw")
	if p.warps[w] {
		return out, nil
	}
	dctx, cancel := context.WithTimeout(ctx, cfg.DecodeTimeout)
	defer cancel()
	cmd, err := ffmpegCommand(dctx, cfg, cfg.decoderLimits(p.spare), filepath.Dir(p.rawPath), []string{
		"-f", "s16le", "-ar", strconv.Itoa(sampleRate), "-ac", "1", "-i", "file:" + p.rawPath,
		"-af", warpFilter(w), "-f", "s16le", "-c:a", "pcm_s16le", "-y", "file:" + raw})
	if err != nil {
		return "", fmt.Errorf("transcribe: scale the voice: %w", err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &limitedWriter{w: &stderr, n: 4 << 10}
	err = cmd.Run()
	rlimit.Account(rlimit.PurposeDecode, cmd.ProcessState)
	if err != nil {
		// recognise's decoderFailed tells a cancelled answer from a failure.
		return "", fmt.Errorf("transcribe: scale the voice with ffmpeg: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	if p.warps == nil {
		p.warps = map[float64]bool{}
	}
	p.warps[w] = true
	return out, nil
}

// chooseWarp recognises frames [from, to) at every factor in parallel as
// req says and returns the one the acoustic model scores highest, with its
// words.
func (e *localEngine) chooseWarp(ctx context.Context, req sphinx.Request, pc *pcm, from, to int) (float64, []sphinx.Seg, error) {
	hyps := make([]sphinx.Hyp, len(warpSteps))
	errs := make([]error, len(warpSteps))
	var wg sync.WaitGroup
	for i, w := range warpSteps {
		wg.Go(func() {
			base, err := pc.warped(ctx, e.cfg, w)
			if err == nil {
				hyps[i], err = e.pool.Decode(ctx, req, base, from, to)
			}
			errs[i] = err
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return 0, nil, err
	}
	best := 0
	for i, h := range hyps {
		if h.Acoustic > hyps[best].Acoustic {
			best = i
		}
	}
	e.logger.Debug("transcribe: voice scaling chosen", "warp", warpSteps[best], "by", "probe", "from", from, "to", to,
		"scores", fmt.Sprint(acousticScores(hyps)))
	return warpSteps[best], hyps[best].Segs, nil
}

func acousticScores(hyps []sphinx.Hyp) []int64 {
	scores := make([]int64, len(hyps))
	for i, h := range hyps {
		scores[i] = h.Acoustic
	}
	return scores
}
