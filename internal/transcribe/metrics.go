package transcribe

import (
	"math"
	"strings"
	"time"

	"github.com/whitecoat/whitecoat/internal/feedback"
)

// Sources of the filler counts in Metrics.FillersSource.
const (
	// FillersFromEngine: the engine transcribes hesitations verbatim, so the
	// count is what was said (as well as the recogniser heard it).
	FillersFromEngine = "engine"
	// FillersEstimated: the engine tends to drop "um" and "uh" (Whisper
	// and similar, and the local decoder, which misses most of them), so
	// the count is a lower bound from what it kept.
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
	FillersSource      string         `json:"fillersSource" enum:"engine,estimated"`
	// Pauses are silences between words; they need word timings.
	PausesMeasured      bool    `json:"pausesMeasured"`
	LongestPauseSeconds float64 `json:"longestPauseSeconds"`
	PausesOver2s        int     `json:"pausesOver2s"`
	// LimitShare is the duration as a share of the answer limit (1 = all of it).
	LimitShare float64 `json:"limitShare"`
	// Words are the recognised words with their timings and the engine's
	// confidence in each (see Word), kept with the transcript so that what
	// may have been misheard can be shown and checked; WordConfidence says
	// where the confidences come from. Empty for engines without word
	// timings.
	Words          []Word `json:"words,omitempty"`
	WordConfidence string `json:"wordConfidence,omitempty" enum:"lattice,word,segment,alignment,none"`
	// Source is whose words the transcript holds (Result.Source): absent
	// in answers transcribed before issue 39, which the engine recognised.
	Source string `json:"source,omitempty" enum:"recognised,aligned,recognisedInstead"`
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
	m.WordCount = len(tokenize(r.Text))
	if len(r.Words) > 0 {
		m.Words, m.WordConfidence = r.Words, r.WordConfidence
	}
	if m.Source = r.Source; m.Source == "" {
		m.Source = SourceRecognised
	}
	// Fillers are counted only where the engine writes the hesitations it
	// hears: from an engine that drops them, a count from its words would
	// be a guess from words that may be misheard, and the answer says "not
	// measured" instead. No filler is counted from a word the engine may
	// have misheard.
	if r.VerbatimFillers {
		toks := tokenize(r.Text)
		uncertain := Uncertain(r.Text, r.Words, r.WordConfidence)
		for _, f := range FindFillers(r) {
			last := min(f.Index+len(strings.Fields(f.Word))-1, len(toks)-1) // "you know" is two words
			if overlapsAny(toks[f.Index].from, toks[last].to, uncertain) {
				continue
			}
			m.Fillers[f.Word]++
			m.FillerCount++
		}
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

// overlapsAny reports whether bytes [from, to) overlap any of ranges.
func overlapsAny(from, to int, ranges [][2]int) bool {
	for _, r := range ranges {
		if r[0] < to && from < r[1] {
			return true
		}
	}
	return false
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
	// clauseStart are the words after which a clause begins, so a "like",
	// "you know" or "basically" right after them opens it as filler.
	clauseStart   = set("and", "but", "so", "because", "then")
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

// Filler is one filler found in a transcript.
type Filler struct {
	// Word is the filler as counted: a hesitation ("um", "uh"), "like",
	// "you know" or "basically".
	Word string
	// Index is the position of its (first) word among the transcript's
	// words as NormalizeWords splits them.
	Index int
}

// FindFillers returns the fillers in r's transcript. Besides punctuation,
// the word timings (when the engine gives them and they match the text)
// mark the pauses that make "like", "you know" and "basically" fillers.
func FindFillers(r Result) []Filler {
	toks := tokenize(r.Text)
	markGaps(toks, r.Words)
	return findFillers(toks)
}

// NormalizeWords lower-cases text and splits it into words the way the
// metrics and the word error rate count them.
func NormalizeWords(text string) []string { return normalizeWords(text) }

// PauseGap is the silence between two words that counts as a pause around
// a lexical filler when the transcript has no punctuation to say so.
const PauseGap = 0.25

// markGaps sets gapAfter on the tokens followed by at least PauseGap of
// silence, when words (the engine's timed words) split into exactly toks.
func markGaps(toks []token, words []Word) {
	if len(words) == 0 {
		return
	}
	last := make([]int, len(words)) // index in toks of each word's last token
	n := 0
	for i, w := range words {
		n += len(tokenize(w.Word))
		last[i] = n - 1
	}
	if n != len(toks) {
		return
	}
	for i := 0; i+1 < len(words); i++ {
		if last[i] >= 0 && words[i+1].Start-words[i].End >= PauseGap {
			toks[last[i]].gapAfter = true
		}
	}
}

// findFillers returns the fillers in toks: hesitations always; "like",
// "you know" and "basically" when the words around them, a comma or a
// pause say they are filler. It is a heuristic: it errs towards not
// counting.
func findFillers(toks []token) []Filler {
	var out []Filler
	word := func(i int) string {
		if i < 0 || i >= len(toks) {
			return ""
		}
		return toks[i].word
	}
	// pause reports punctuation after token i; pauseOrGap a timed pause too.
	pause := func(i int) bool { return i >= 0 && i < len(toks) && toks[i].pauseAfter }
	pauseOrGap := func(i int) bool { return i >= 0 && i < len(toks) && (toks[i].pauseAfter || toks[i].gapAfter) }
	for i := 0; i < len(toks); i++ {
		w := toks[i].word
		switch {
		case hesitations[w]:
			out = append(out, Filler{w, i})
		case w == "like":
			prev, next := word(i-1), word(i+1)
			grammatical := likeAsVerbOrPreposition[prev] || afterLikeObject[next]
			if pause(i) || pause(i-1) || (!grammatical && (prev == "" || clauseStart[prev] || hesitations[prev] ||
				prev == "was" || prev == "is" || prev == "it's" || prev == "like" || pauseOrGap(i) || pauseOrGap(i-1))) {
				out = append(out, Filler{"like", i})
			}
		case w == "you" && word(i+1) == "know":
			if pause(i+1) || (!youKnowAsVerb[word(i-1)] && !afterYouKnowObject[word(i+2)]) {
				out = append(out, Filler{"you know", i})
			}
			i++
		case w == "basically":
			// "Basically, ...", "and basically we ...", "it was, basically, ...":
			// a clause opener or a parenthesis (a pause on both sides). "was basically the same" and
			// "I basically decided" are adverbs doing their job.
			opens := i == 0 || pause(i-1) || clauseStart[word(i-1)] || hesitations[word(i-1)]
			if opens || pause(i) || pauseOrGap(i-1) && pauseOrGap(i) {
				out = append(out, Filler{"basically", i})
			}
		}
	}
	return out
}

// FeedbackDelivery is what the feedback engine is told of a spoken
// answer's delivery; nil for a typed answer (m nil) or one without speech.
func (m *Metrics) FeedbackDelivery() *feedback.Delivery {
	if m == nil || m.DurationSeconds == 0 {
		return nil
	}
	return &feedback.Delivery{
		DurationSeconds: m.DurationSeconds, WordsPerMinute: m.WordsPerMinute, FillerCount: m.FillerCount,
		FillersPer100Words: m.FillersPer100Words, LongestPauseSeconds: m.LongestPauseSeconds, PausesOver2s: m.PausesOver2s,
		FillersEstimated: m.FillersSource == FillersEstimated,
	}
}
