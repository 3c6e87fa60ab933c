package transcribe

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestFindFillers(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"I want to help people", nil},
		{"um I want to uh help", []string{"um", "uh"}},
		{"Um, I think, er, that's it. Hmm.", []string{"um", "er", "hmm"}},
		{"I like science", nil},
		{"I would like to serve", nil},
		{"it looks like a good school", nil},
		{"it was like a second home", nil},
		{"and like I really wanted it", []string{"like"}},
		{"so, like, I was nervous", []string{"like"}},
		{"it was, like, amazing", []string{"like"}},
		{"like I said before", []string{"like"}},
		{"you know the answer", nil},
		{"do you know how", nil},
		{"I was you know nervous", []string{"you know"}},
		{"it's hard, you know, to wait", []string{"you know"}},
		{"um like you know I guess", []string{"um", "like", "you know"}},
		{"Basically, I want to help", []string{"basically"}},
		{"and basically we did both", []string{"basically"}},
		{"it was, basically, luck", []string{"basically"}},
		{"the answer was basically the same", nil},
		{"I basically decided then", nil},
	}
	for _, tc := range tests {
		var got []string
		for _, f := range findFillers(tokenize(tc.text)) {
			got = append(got, f.Word)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("findFillers(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

func TestComputeMetrics(t *testing.T) {
	words := func(spec ...float64) []Word {
		var ws []Word
		for i := 0; i+1 < len(spec); i += 2 {
			ws = append(ws, Word{Word: "w", Start: spec[i], End: spec[i+1]})
		}
		return ws
	}
	tests := []struct {
		name  string
		res   Result
		limit time.Duration
		want  Metrics
	}{
		{
			name: "timed local result",
			res: Result{Text: "um I think uh that", Words: words(1, 1.5, 1.5, 2, 4.5, 5, 5, 6, 6, 7), DurationSeconds: 30, VerbatimFillers: true,
				WordConfidence: ConfidenceLattice},
			limit: 3 * time.Minute,
			want: Metrics{
				DurationSeconds: 30, WordCount: 5, WordsPerMinute: 50, FillerCount: 2,
				Fillers: map[string]int{"um": 1, "uh": 1}, FillersPerMinute: 4, FillersPer100Words: 40,
				FillersSource: FillersFromEngine, PausesMeasured: true, LongestPauseSeconds: 2.5, PausesOver2s: 1,
				LimitShare: 0.167, Words: words(1, 1.5, 1.5, 2, 4.5, 5, 5, 6, 6, 7), WordConfidence: ConfidenceLattice,
			},
		},
		{
			name:  "untimed whisper result",
			res:   Result{Text: "I think, like, it matters a lot to me.", DurationSeconds: 60},
			limit: time.Minute,
			// An engine that drops hesitations has no filler figure (issue
			// 39 item 4): a count from its words would be a guess from
			// words that may be misheard.
			want: Metrics{
				DurationSeconds: 60, WordCount: 9, WordsPerMinute: 9, Fillers: map[string]int{},
				FillersSource: FillersEstimated, LimitShare: 1,
			},
		},
		{
			// No filler from a word that may have been misheard: the "uh"
			// under the lattice threshold is not counted, the "um" is.
			name: "a hesitation that may be misheard",
			res: Result{Text: "um I think uh that", Words: []Word{
				{Word: "um", Start: 0, End: 1, Confidence: ptrTo(0.9)}, {Word: "I", Start: 1, End: 2, Confidence: ptrTo(0.9)},
				{Word: "think", Start: 2, End: 3, Confidence: ptrTo(0.9)}, {Word: "uh", Start: 3, End: 4, Confidence: ptrTo(0.01)},
				{Word: "that", Start: 4, End: 5, Confidence: ptrTo(0.9)}}, DurationSeconds: 6, VerbatimFillers: true, WordConfidence: ConfidenceLattice},
			limit: time.Minute,
			want: Metrics{
				DurationSeconds: 6, WordCount: 5, WordsPerMinute: 60, FillerCount: 1,
				Fillers: map[string]int{"um": 1}, FillersPerMinute: 10, FillersPer100Words: 20,
				FillersSource: FillersFromEngine, PausesMeasured: true, LimitShare: 0.1, WordConfidence: ConfidenceLattice, Words: []Word{
					{Word: "um", Start: 0, End: 1, Confidence: ptrTo(0.9)}, {Word: "I", Start: 1, End: 2, Confidence: ptrTo(0.9)},
					{Word: "think", Start: 2, End: 3, Confidence: ptrTo(0.9)}, {Word: "uh", Start: 3, End: 4, Confidence: ptrTo(0.01)},
					{Word: "that", Start: 4, End: 5, Confidence: ptrTo(0.9)}},
			},
		},
		{
			name:  "empty",
			res:   Result{Words: []Word{}},
			limit: 3 * time.Minute,
			want:  Metrics{Fillers: map[string]int{}, FillersSource: FillersEstimated},
		},
		{
			name:  "pause exactly 2 s is not over 2 s",
			res:   Result{Text: "a b", Words: words(0, 1, 3, 4), DurationSeconds: 4},
			limit: 3 * time.Minute,
			want: Metrics{DurationSeconds: 4, WordCount: 2, WordsPerMinute: 30, Fillers: map[string]int{},
				FillersSource: FillersEstimated, PausesMeasured: true, LongestPauseSeconds: 2, LimitShare: 0.022, Words: words(0, 1, 3, 4)},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.want.Source = SourceRecognised // every case is the engine's own words
			if got := ComputeMetrics(tc.res, tc.limit); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ComputeMetrics =\n%+v\nwant\n%+v", got, tc.want)
			}
		})
	}
}

// Without punctuation (the local engine writes none), the word timings'
// pauses mark "like" and "basically" as fillers; grammar still vetoes.
func TestFindFillersFromPauses(t *testing.T) {
	timed := func(text string, gapAfter ...int) Result {
		r := Result{Text: text}
		at := 0.0
		gaps := map[int]bool{}
		for _, g := range gapAfter {
			gaps[g] = true
		}
		for i, w := range strings.Fields(text) {
			r.Words = append(r.Words, Word{Word: w, Start: at, End: at + 0.3})
			at += 0.3
			if gaps[i] {
				at += 0.5
			}
		}
		return r
	}
	tests := []struct {
		r    Result
		want []Filler
	}{
		{timed("we argued like for a week"), nil},
		{timed("we argued like for a week", 1), []Filler{{"like", 2}}},
		{timed("I would like to help", 2), nil},
		{timed("the plan is basically fine"), nil},
		{timed("the plan is basically fine", 2), nil},
		{timed("the plan is basically fine", 2, 3), []Filler{{"basically", 3}}},
		{timed("I basically decided", 0), nil},
		// Timings that do not match the text are ignored.
		{Result{Text: "we argued like for a week", Words: []Word{{Word: "we", End: 0.2}, {Word: "argued", Start: 1}}}, nil},
	}
	for _, tc := range tests {
		if got := FindFillers(tc.r); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("FindFillers(%q) = %v, want %v", tc.r.Text, got, tc.want)
		}
	}
}

func ptrTo(f float64) *float64 { return &f }

// The contract publishes every value a transcript's metrics can carry: an
// aligned answer's "alignment" confidences once went out under an enum
// that did not name them.
func TestMetricsEnumsNameEveryValue(t *testing.T) {
	for field, values := range map[string][]string{
		"WordConfidence": {ConfidenceLattice, ConfidenceWord, ConfidenceSegment, ConfidenceAlignment, ConfidenceNone},
		"Source":         {SourceRecognised, SourceAligned, SourceRecognisedInstead},
	} {
		f, ok := reflect.TypeFor[Metrics]().FieldByName(field)
		if !ok {
			t.Fatalf("Metrics has no field %s", field)
		}
		enum := strings.Split(f.Tag.Get("enum"), ",")
		for _, v := range values {
			if !slices.Contains(enum, v) {
				t.Errorf("Metrics.%s's enum %q lacks %q", field, enum, v)
			}
		}
	}
}

func TestMetricsSaySourceOfTheWords(t *testing.T) {
	if got := ComputeMetrics(Result{Text: "I care"}, time.Minute).Source; got != SourceRecognised {
		t.Errorf("an engine's own words: source %q, want %q", got, SourceRecognised)
	}
	if got := ComputeMetrics(Result{Text: "I care", Source: SourceAligned}, time.Minute).Source; got != SourceAligned {
		t.Errorf("an aligned text: source %q, want %q", got, SourceAligned)
	}
}
