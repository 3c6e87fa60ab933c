package transcribe

import (
	"math"
)

// frameSamples is one 10 ms frame, pocketsphinx's frame rate, so that frame
// indices here are the ones its control file expects.
const frameSamples = sampleRate / 100

// Speech detection thresholds. Room tone of a laptop microphone sits around
// -60 dBFS and quiet speech above -40 dBFS; digital silence is -inf.
const (
	speechDBFS       = -45.0
	minSpeechFrames  = 25 // 250 ms above the threshold
	smoothHalfWindow = 15 // frames each side when looking for a pause
)

type span struct{ start, end int } // frames, end exclusive

// frameLevels returns each 10 ms frame's RMS level in dBFS.
func frameLevels(samples []int16) []float64 {
	n := len(samples) / frameSamples
	levels := make([]float64, n)
	for i := range n {
		var sum float64
		for _, s := range samples[i*frameSamples : (i+1)*frameSamples] {
			v := float64(s) / 32768
			sum += v * v
		}
		rms := math.Sqrt(sum / frameSamples)
		levels[i] = 20 * math.Log10(max(rms, 1e-9))
	}
	return levels
}

// hasSpeech says whether any stretch could be speech, so that silent
// recordings return an empty transcript without running a decoder.
func hasSpeech(levels []float64) bool {
	return loudFrames(levels) >= minSpeechFrames
}

// loudFrames counts the frames above the speech threshold.
func loudFrames(levels []float64) int {
	loud := 0
	for _, l := range levels {
		if l > speechDBFS {
			loud++
		}
	}
	return loud
}

// splitAtPauses cuts the recording into n pieces of roughly equal length, each
// cut placed at the quietest moment near its ideal position, so that words are
// not split and the pieces can be decoded in parallel.
func splitAtPauses(levels []float64, n int) []span {
	total := len(levels)
	if n <= 1 || total < 2*n*smoothHalfWindow {
		return []span{{0, total}}
	}
	quiet := newPauseFinder(levels)
	chunk := total / n
	reach := chunk / 4
	spans := make([]span, 0, n)
	start := 0
	for k := 1; k < n; k++ {
		ideal := k * chunk
		best := quiet.quietest(max(start+smoothHalfWindow, ideal-reach), min(total-smoothHalfWindow, ideal+reach), ideal)
		spans = append(spans, span{start, best})
		start = best
	}
	return append(spans, span{start, total})
}

// pauseFinder finds pauses rather than the gap between two syllables, by
// averaging the level over a window either side of each frame.
type pauseFinder struct {
	prefix []float64 // prefix[i] is the sum of the first i levels
}

func newPauseFinder(levels []float64) pauseFinder {
	prefix := make([]float64, len(levels)+1)
	for i, l := range levels {
		prefix[i+1] = prefix[i] + l
	}
	return pauseFinder{prefix}
}

func (p pauseFinder) smooth(i int) float64 {
	total := len(p.prefix) - 1
	lo, hi := max(0, i-smoothHalfWindow), min(total, i+smoothHalfWindow+1)
	return (p.prefix[hi] - p.prefix[lo]) / float64(hi-lo)
}

// quietest returns the frame in [lo, hi] with the lowest smoothed level,
// the one nearest ideal among equally quiet ones; lo when the range is empty.
func (p pauseFinder) quietest(lo, hi, ideal int) int {
	best, bestLevel := lo, math.Inf(1)
	for i := lo; i <= hi; i++ {
		if l := p.smooth(i) + 1e-6*math.Abs(float64(i-ideal)); l < bestLevel {
			best, bestLevel = i, l
		}
	}
	return best
}
