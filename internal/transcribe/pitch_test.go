package transcribe

import (
	"math"
	"math/rand/v2"
	"testing"
)

// voiced is seconds of a voice-like sound at f0 Hz: a pulse train's first
// ten harmonics, falling off as a glottal source does.
func voiced(f0, seconds float64) []int16 {
	out := make([]int16, int(seconds*sampleRate))
	for i := range out {
		v := 0.0
		for h := 1.0; h <= 10; h++ {
			v += math.Sin(2*math.Pi*f0*h*float64(i)/sampleRate) / h
		}
		out[i] = int16(4000 * v)
	}
	return out
}

func TestMedianPitch(t *testing.T) {
	for _, f0 := range []float64{85, 103, 130, 174, 220, 300} {
		if got := medianPitch(voiced(f0, 2)); math.Abs(got-f0) > f0*0.03 {
			t.Errorf("a %.0f Hz voice: median pitch %.1f Hz", f0, got)
		}
	}
	noise := make([]int16, 2*sampleRate)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range noise {
		noise[i] = int16(r.NormFloat64() * 3000)
	}
	for name, samples := range map[string][]int16{
		"silence":            make([]int16, 2*sampleRate),
		"noise":              noise,
		"a tenth of voicing": voiced(120, 0.1),
	} {
		if got := medianPitch(samples); got != 0 {
			t.Errorf("%s: median pitch %.1f Hz, want 0 (nothing to measure)", name, got)
		}
	}
}

func TestWarpForPitch(t *testing.T) {
	for _, tc := range []struct {
		hz      float64
		want    float64
		settled bool
	}{
		{0, 0, false}, {88, 1, true}, {129, 1, true}, {140, 1, true}, {150, 0, false},
		{160, 1.1, true}, {174, 1.1, true}, {260, 1.1, true},
	} {
		if w, ok := warpForPitch(tc.hz); w != tc.want || ok != tc.settled {
			t.Errorf("%.0f Hz: %.2f, %v; want %.2f, %v", tc.hz, w, ok, tc.want, tc.settled)
		}
	}
}
