package transcribe

import (
	"math"
	"time"
)

// Sources of the filler counts in Metrics.FillersSource.
const (
	// FillersFromEngine: the engine transcribes hesitations verbatim, so the
	// count is what was said (as well as the recogniser heard it).
	FillersFromEngine = "engine"
	// FillersEstimated: the engine (Whisper and similar) tends to drop "um"
	// and "uh", so the count is a lower bound from what it kept.
	FillersEstimated = "estimated"
)

// LongPause is the pause length the metrics count separately.
const LongPause = 2 * time.Second

// Metrics describes how an answer was spoken.
type Metrics struct {
	DurationSeconds float64 `json:"durationSeconds"`
	WordCount       int     `json:"wordCount"`
	// WordsPerMinute is measured over the speaking time (first word to last)
	// when word timings exist, so thinking time before the first word does not
	// lower it; otherwise over the whole recording.
	WordsPerMinute     float64        `json:"wordsPerMinute"`
	FillerCount        int            `json:"fillerCount"`
	Fillers            map[string]int `json:"fillers"`
	FillersPerMinute   float64        `json:"fillersPerMinute"`
	FillersPer100Words float64        `json:"fillersPer100Words"`
	FillersSource      string         `json:"fillersSource"`
	// Pauses are silences between words; they need word timings.
	PausesMeasured      bool    `json:"pausesMeasured"`
	LongestPauseSeconds float64 `json:"longestPauseSeconds"`
	PausesOver2s        int     `json:"pausesOver2s"`
	// LimitShare is the duration as a share of the answer limit (1 = all of it).
	LimitShare float64 `json:"limitShare"`
}

// ComputeMetrics measures r against the answer limit.
func ComputeMetrics(r Result, limit time.Duration) Metrics {
	m := Metrics{
		DurationSeconds: round(r.DurationSeconds, 2),
		Fillers:         map[string]int{},
		FillersSource:   FillersEstimated,
	}
	if r.VerbatimFillers {
		m.FillersSource = FillersFromEngine
	}
	toks := tokenize(r.Text)
	m.WordCount = len(toks)
	for _, f := range findFillers(toks) {
		m.Fillers[f]++
		m.FillerCount++
	}

	speaking := r.DurationSeconds
	if len(r.Words) > 0 {
		m.PausesMeasured = true
		speaking = r.Words[len(r.Words)-1].End - r.Words[0].Start
		for i := 1; i < len(r.Words); i++ {
			gap := r.Words[i].Start - r.Words[i-1].End
			m.LongestPauseSeconds = max(m.LongestPauseSeconds, gap)
			if gap > LongPause.Seconds() {
				m.PausesOver2s++
			}
		}
		m.LongestPauseSeconds = round(m.LongestPauseSeconds, 2)
	}
	if speaking > 0 {
		m.WordsPerMinute = round(float64(m.WordCount)/speaking*60, 1)
	}
	if r.DurationSeconds > 0 {
		m.FillersPerMinute = round(float64(m.FillerCount)/r.DurationSeconds*60, 2)
	}
	if m.WordCount > 0 {
		m.FillersPer100Words = round(float64(m.FillerCount)/float64(m.WordCount)*100, 2)
	}
	if limit > 0 {
		m.LimitShare = round(r.DurationSeconds/limit.Seconds(), 3)
	}
	return m
}

func round(x float64, places int) float64 {
	p := math.Pow(10, float64(places))
	return math.Round(x*p) / p
}

// Words around "like" and "you know" that make them grammar, not filler:
// "I like", "would like to", "looks like a", "you know the answer".
var (
	likeAsVerbOrPreposition = set("i", "you", "we", "they", "he", "she", "would", "i'd", "we'd", "you'd",
		"they'd", "do", "don't", "didn't", "does", "doesn't", "really", "also", "feel", "feels", "felt",
		"look", "looks", "looked", "sound", "sounds", "seem", "seems", "something", "anything",
		"nothing", "things", "more", "much", "not", "people", "patients", "just", "exactly", "most")
	afterLikeObject = set("a", "an", "the", "my", "your", "his", "her", "our", "their", "this", "that",
		"these", "those", "me", "him", "them", "us", "to", "how", "what", "when")
	youKnowAsVerb = set("do", "did", "don't", "didn't", "if", "as", "what", "would", "will", "to",
		"could", "might", "may", "should", "let")
	afterYouKnowObject = set("that", "how", "what", "why", "where", "who", "when", "the", "a", "an",
		"it", "him", "her", "them", "about", "this", "my", "your", "if", "whether", "more", "me")
)

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// findFillers returns the fillers in toks: hesitations always; "like" and
// "you know" when the words around them (or a comma) say they are filler.
// It is a heuristic: it errs towards not counting.
func findFillers(toks []token) []string {
	var out []string
	word := func(i int) string {
		if i < 0 || i >= len(toks) {
			return ""
		}
		return toks[i].word
	}
	for i := 0; i < len(toks); i++ {
		w := toks[i].word
		switch {
		case hesitations[w]:
			out = append(out, w)
		case w == "like":
			prev, next := word(i-1), word(i+1)
			pausedAround := toks[i].pauseAfter || (i > 0 && toks[i-1].pauseAfter)
			grammatical := likeAsVerbOrPreposition[prev] || afterLikeObject[next]
			if pausedAround || (!grammatical && (prev == "" || prev == "and" || prev == "but" || prev == "so" ||
				prev == "was" || prev == "is" || prev == "it's" || prev == "like" || hesitations[prev])) {
				out = append(out, "like")
			}
		case w == "you" && word(i+1) == "know":
			if toks[i+1].pauseAfter || (!youKnowAsVerb[word(i-1)] && !afterYouKnowObject[word(i+2)]) {
				out = append(out, "you know")
			}
			i++
		}
	}
	return out
}
