package transcribe

import (
	"math"
	"slices"
)

// Pitch range searched: below the lowest speaking voices, above the
// highest. Analysis runs on every second sample (8 kHz), which keeps the
// periods of these pitches whole and quarters the cost.
const (
	minPitchHz      = 60
	maxPitchHz      = 400
	pitchRate       = sampleRate / 2
	pitchWindow     = pitchRate * 40 / 1000 // 40 ms: two periods of the lowest pitch
	pitchHop        = pitchRate * 20 / 1000
	voicedMinCorr   = 0.6 // normalised autocorrelation of a clearly periodic frame
	octaveTolerance = 0.9 // how close to the best a shorter period's peak must come
	minVoicedFrames = 20  // 0.4 s of voicing: enough for a median worth trusting
	// quietAmplitude is the RMS sample value (about -41 dBFS) under which a
	// frame is not looked at: breath and room noise have no pitch to find.
	quietAmplitude = 300
)

// medianPitch is the median fundamental frequency in Hz of the clearly
// voiced frames of samples (16 kHz), by normalised autocorrelation, or 0
// when too few frames are voiced to say.
func medianPitch(samples []int16) float64 {
	x := make([]float64, len(samples)/2)
	for i := range x {
		x[i] = (float64(samples[2*i]) + float64(samples[2*i+1])) / 2
	}
	minLag, maxLag := pitchRate/maxPitchHz, pitchRate/minPitchHz
	var pitches []float64
	corr := make([]float64, maxLag+2)
	for start := 0; start+pitchWindow+maxLag+1 <= len(x); start += pitchHop {
		frame := x[start : start+pitchWindow+maxLag+1]
		energy := 0.0
		for _, v := range frame[:pitchWindow] {
			energy += v * v
		}
		if energy/pitchWindow < quietAmplitude*quietAmplitude {
			continue
		}
		best := 0.0
		for lag := minLag; lag <= maxLag+1; lag++ {
			dot, e2 := 0.0, 0.0
			for i := range pitchWindow {
				dot += frame[i] * frame[i+lag]
				e2 += frame[i+lag] * frame[i+lag]
			}
			corr[lag] = dot / math.Sqrt(energy*e2+1)
			if lag <= maxLag {
				best = max(best, corr[lag])
			}
		}
		// A periodic frame correlates as well at twice and three times its
		// period: the period is the first peak nearly as high as the best.
		bestLag := 0
		for lag := minLag; lag <= maxLag && bestLag == 0; lag++ {
			if corr[lag] >= octaveTolerance*best && corr[lag] >= corr[lag-1] && corr[lag] >= corr[lag+1] {
				bestLag = lag
			}
		}
		if bestLag > 0 && best >= voicedMinCorr {
			pitches = append(pitches, float64(pitchRate)/float64(bestLag))
		}
	}
	if len(pitches) < minVoicedFrames {
		return 0
	}
	slices.Sort(pitches)
	return pitches[len(pitches)/2]
}
