package transcribe

import (
	"math"
	"slices"
	"testing"

	"github.com/whitecoat/whitecoat/internal/transcribe/sphinx"
)

func TestFrameLevels(t *testing.T) {
	samples := make([]int16, 3*frameSamples+7) // the partial frame is dropped
	for i := frameSamples; i < 2*frameSamples; i++ {
		samples[i] = 16384 // half scale: -6 dBFS
	}
	levels := frameLevels(samples)
	if len(levels) != 3 {
		t.Fatalf("got %d frames, want 3", len(levels))
	}
	if levels[0] > -150 || math.Abs(levels[1]-(-6.02)) > 0.01 || levels[2] > -150 {
		t.Errorf("levels = %v, want [-180 -6.02 -180]", levels)
	}
}

func TestHasSpeech(t *testing.T) {
	quiet := func(n int) []float64 {
		l := make([]float64, n)
		for i := range l {
			l[i] = -70
		}
		return l
	}
	withBurst := func(n, burst int) []float64 {
		l := quiet(n)
		for i := 100; i < 100+burst; i++ {
			l[i] = -20
		}
		return l
	}
	tests := []struct {
		name   string
		levels []float64
		want   bool
	}{
		{"silence", quiet(1000), false},
		{"click", withBurst(1000, 5), false},
		{"a word", withBurst(1000, minSpeechFrames), true},
		{"empty", nil, false},
	}
	for _, tc := range tests {
		if got := hasSpeech(tc.levels); got != tc.want {
			t.Errorf("%s: hasSpeech = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestSplitAtPauses(t *testing.T) {
	// 60 s of "speech" with pauses at 14 s, 31 s and 44 s.
	levels := make([]float64, 6000)
	for i := range levels {
		levels[i] = -20
	}
	for _, p := range []int{1400, 3100, 4400} {
		for i := p - 20; i < p+20; i++ {
			levels[i] = -80
		}
	}
	tests := []struct {
		n    int
		cuts []int
	}{
		{1, nil},
		{2, []int{3100}},
		{4, []int{1400, 3100, 4400}},
	}
	for _, tc := range tests {
		spans := splitAtPauses(levels, tc.n)
		if len(spans) != tc.n {
			t.Fatalf("n=%d: got %d spans", tc.n, len(spans))
		}
		if spans[0].start != 0 || spans[len(spans)-1].end != len(levels) {
			t.Errorf("n=%d: spans %v do not cover the recording", tc.n, spans)
		}
		for i := 1; i < len(spans); i++ {
			if spans[i].start != spans[i-1].end {
				t.Errorf("n=%d: gap or overlap between %v and %v", tc.n, spans[i-1], spans[i])
			}
			if cut := spans[i].start; math.Abs(float64(cut-tc.cuts[i-1])) > 20 {
				t.Errorf("n=%d: cut %d at frame %d, want within the pause at %d", tc.n, i, cut, tc.cuts[i-1])
			}
		}
	}
	if spans := splitAtPauses(levels[:50], 4); len(spans) != 1 {
		t.Errorf("a tiny recording was split: %v", spans)
	}
}

func TestPieces(t *testing.T) {
	tests := []struct{ frames, workers, want int }{
		{500, 2, 1},   // 5 s: not worth a cut
		{6000, 2, 2},  // 60 s on two cores
		{6000, 1, 2},  // 60 s, one core: still keep pieces short
		{18000, 2, 6}, // 3 min
		{2000, 4, 4},  // 20 s on four cores
	}
	for _, tc := range tests {
		if got := pieces(tc.frames, tc.workers); got != tc.want {
			t.Errorf("pieces(%d, %d) = %d, want %d", tc.frames, tc.workers, got, tc.want)
		}
	}
}

func TestWordsHeardInSilenceAreDropped(t *testing.T) {
	// Frames of 10 ms: 1 s of speech, 4 s of room tone, then speech that
	// begins with 0.2 s of a quiet consonant.
	levels := make([]float64, 600)
	for i := range levels {
		switch {
		case i < 100 || i >= 520:
			levels[i] = -25
		case i >= 500:
			levels[i] = -50
		default:
			levels[i] = -62
		}
	}
	segs := []sphinx.Seg{
		{Word: "hello", Start: 10, End: 60},
		{Word: "<sil>", Start: 60, End: 95},
		{Word: "this", Start: 95, End: 130}, // 5 loud frames of 35
		{Word: "now", Start: 130, End: 500}, // a pause the decoder filled
		{Word: "its(2)", Start: 500, End: 540},
		{Word: "world", Start: 540, End: 580},
	}
	var got []string
	for _, w := range wordsFromSegs(segs, levels) {
		got = append(got, w.Word)
	}
	if want := []string{"hello", "its", "world"}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
