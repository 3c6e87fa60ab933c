package transcribe

import (
	"slices"
	"strings"
	"unicode"
)

// NoMeaningfulResponse is the spec's message when an answer is skipped.
const NoMeaningfulResponse = "No meaningful response detected. Skipping feedback."

// minMeaningfulWords is how many words must remain once blocklisted phrases
// and hesitations are removed. The spec only names empty transcripts; a
// one- or two-word remainder ("okay", "I don't") is no answer to give
// feedback on either.
const minMeaningfulWords = 3

// nonResponsePhrases is the one blocklist: what speech engines produce for
// silence, breathing and background noise (Whisper's well-known
// hallucinations come from video subtitles), and sign-offs that are no
// answer on their own. Matching is on normalized words, so case and
// punctuation do not matter.
var nonResponsePhrases = func() [][]string {
	phrases := []string{
		"thank you for watching", "thanks for watching", "thank you so much for watching",
		"thank you very much for watching", "thanks for watching and see you next time",
		"please subscribe", "subscribe", "subscribe to my channel", "like and subscribe",
		"don't forget to like and subscribe", "see you next time", "see you in the next video",
		"shh", "thank you", "thank you very much", "thank you so much", "thanks", "you",
		"bye", "bye bye", "okay", "ok", "so", "yeah", "music", "applause", "laughter",
		"silence", "blank audio", "no speech", "inaudible", "noise",
		"subtitles by the amara org community", "transcribed by otter ai",
	}
	out := make([][]string, len(phrases))
	for i, p := range phrases {
		out[i] = strings.Fields(p)
	}
	// Longest first, so "thank you for watching" wins over "thank you".
	slices.SortStableFunc(out, func(a, b []string) int { return len(b) - len(a) })
	return out
}()

// hesitations are vocalised pauses. They are fillers in the metrics and carry
// no content for the meaningful-content check.
var hesitations = map[string]bool{
	"um": true, "umm": true, "uh": true, "uhm": true, "uhh": true, "er": true, "erm": true,
	"ah": true, "ahh": true, "hmm": true, "hm": true, "mm": true, "mhm": true,
}

// Meaningful reports whether a transcript holds an answer worth feedback:
// not empty, and not only blocklisted phrases and hesitations.
func Meaningful(text string) bool {
	words := normalizeWords(text)
	content := 0
	for i := 0; i < len(words); {
		if n := matchPhrase(words[i:]); n > 0 {
			i += n
			continue
		}
		if !hesitations[words[i]] {
			content++
			if content >= minMeaningfulWords {
				return true
			}
		}
		i++
	}
	return false
}

func matchPhrase(words []string) int {
	for _, p := range nonResponsePhrases {
		if len(p) <= len(words) && slices.Equal(p, words[:len(p)]) {
			return len(p)
		}
	}
	return 0
}

// normalizeWords lower-cases text and splits it into words on anything that
// is not a letter, digit or inner apostrophe.
func normalizeWords(text string) []string {
	toks := tokenize(text)
	words := make([]string, len(toks))
	for i, t := range toks {
		words[i] = t.word
	}
	return words
}

type token struct {
	word string
	// pauseAfter is punctuation after the word (comma, full stop, dash...),
	// which engines with punctuation use to mark a spoken pause.
	pauseAfter bool
	// gapAfter is a silence after the word in the engine's word timings.
	gapAfter bool
	// from and to are the word's bytes in the text it came from.
	from, to int
}

func tokenize(text string) []token {
	var out []token
	var b strings.Builder
	from := 0 // where the word in b begins
	flush := func(pause bool, at int) {
		w := strings.Trim(b.String(), "'")
		b.Reset()
		if w != "" {
			out = append(out, token{word: w, from: from, to: at})
		}
		if pause && len(out) > 0 {
			out[len(out)-1].pauseAfter = true
		}
	}
	for i, r := range text {
		if b.Len() == 0 {
			from = i
		}
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(unicode.ToLower(r))
		case r == '\'' || r == '’':
			b.WriteByte('\'')
		case unicode.IsSpace(r):
			flush(false, i)
		default:
			flush(true, i)
		}
	}
	flush(false, len(text))
	return out
}
