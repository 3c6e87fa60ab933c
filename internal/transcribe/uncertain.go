package transcribe

// Which words of a transcript the engine may have misheard: decided here,
// once, from the word confidences and where they come from, for the
// summary that marks them and for the feedback that must not quote them.

// uncertainBelow is, per kind of word confidence (Result.WordConfidence),
// the confidence under which a word counts as possibly misheard.
//
//   - lattice (the local decoder's word posteriors): the posteriors are
//     sharp, most words near 0 or 1 (see the README). A mark must be
//     right more often than not (issue 39): the threshold is the highest
//     of the bench's (bench/transcribe -set real, its marks table) at
//     which most marked words of the tuning part are misheard. On the
//     tuning part 0.02 marks 13 words, 7 of them misheard (precision 54%,
//     recall 7 of 16); 0.05 is 8 of 16 (50%) and 0.5, the earlier
//     threshold, 10 of 22 (45%). On the held-out part 0.02 marks 19
//     words, 11 misheard (58%), and finds 11 of the 17 misheard (65%);
//     on all 115 words, 18 of 32 (56%) and 18 of 33 (55%), against 23 of
//     45 (51%) and 70% at 0.5.
//   - word (a Whisper-style server's word probability): under an even
//     chance the engine itself thought another word as likely.
//   - segment (a segment's mean token probability times its chance of
//     holding speech): every word of a segment shares it, so only a
//     segment the engine doubted as a whole marks its words.
//   - alignment (a given word's fit against a free phone loop): the
//     threshold under which the aligner counts a word unsupported
//     (swapped words in bench/align sit under it, true ones mostly over).
//
// ConfidenceNone has no entry: without a measure no word is marked.
var uncertainBelow = map[string]float64{
	ConfidenceLattice:   0.02,
	ConfidenceWord:      0.5,
	ConfidenceSegment:   0.4,
	ConfidenceAlignment: alignWordThreshold,
}

// UncertainBelow is the confidence of kind under which a word is marked
// as possibly misheard; false for a kind without marks.
func UncertainBelow(kind string) (float64, bool) {
	below, ok := uncertainBelow[kind]
	return below, ok
}

// Uncertain returns the byte ranges of text (the transcript) that hold a
// word the engine may have misheard: a word of words (the engine's timed
// words, each with its confidence of kind) under its kind's threshold.
// Nil when there is no measure, or when words do not split into text's
// words one for one (then no word of text can be pointed at).
func Uncertain(text string, words []Word, kind string) [][2]int {
	below, ok := uncertainBelow[kind]
	if !ok || len(words) == 0 {
		return nil
	}
	toks := tokenize(text)
	var out [][2]int
	n := 0
	for _, w := range words {
		parts := len(tokenize(w.Word))
		if n+parts > len(toks) {
			return nil
		}
		if parts > 0 && w.Confidence != nil && *w.Confidence < below {
			out = append(out, [2]int{toks[n].from, toks[n+parts-1].to})
		}
		n += parts
	}
	if n != len(toks) {
		return nil
	}
	return out
}

// TranscriptPart is a piece of a transcript: a word the speech engine may
// have misheard (Uncertain), or the words and spaces between such words.
// The parts of a transcript, in order, are its text.
type TranscriptPart struct {
	Text      string `json:"text"`
	Uncertain bool   `json:"uncertain,omitempty"`
}

// Marked splits text into parts at its uncertain ranges (Uncertain's);
// nil when none is uncertain, so that an answer with nothing to check
// carries no parts.
func Marked(text string, ranges [][2]int) []TranscriptPart {
	if len(ranges) == 0 {
		return nil
	}
	var parts []TranscriptPart
	at := 0
	for _, r := range ranges {
		if r[0] > at {
			parts = append(parts, TranscriptPart{Text: text[at:r[0]]})
		}
		parts = append(parts, TranscriptPart{Text: text[r[0]:r[1]], Uncertain: true})
		at = r[1]
	}
	if at < len(text) {
		parts = append(parts, TranscriptPart{Text: text[at:]})
	}
	return parts
}
