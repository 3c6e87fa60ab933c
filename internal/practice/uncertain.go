package practice

import "github.com/whitecoat/whitecoat/internal/transcribe"

// TranscriptPart is a piece of an answer's transcript: a word the speech
// engine may have misheard (Uncertain), or the words and spaces between
// such words. The parts of a transcript, in order, are its text.
type TranscriptPart struct {
	Text      string `json:"text"`
	Uncertain bool   `json:"uncertain,omitempty"`
}

// uncertainRanges are the byte ranges of transcript that hold a word the
// speech engine may have misheard (transcribe.Uncertain), when transcript
// is what the engine heard in it: none in a typed answer, and none once
// the student has corrected the transcript — their words are certain.
func uncertainRanges(it Item, transcript string) [][2]int {
	if it.Kind != KindSpoken || it.Correction != nil || it.Metrics == nil || it.Transcript == nil || *it.Transcript != transcript {
		return nil
	}
	return transcribe.Uncertain(transcript, it.Metrics.Words, it.Metrics.WordConfidence)
}

// markUncertain splits the item's transcript into TranscriptParts and
// counts the words the student is asked to check before trusting the
// score; an answer with none has no parts.
func (it *Item) markUncertain() {
	if it.Transcript == nil {
		return
	}
	text := *it.Transcript
	ranges := uncertainRanges(*it, text)
	if len(ranges) == 0 {
		return
	}
	it.UncertainWords = len(ranges)
	at := 0
	for _, r := range ranges {
		if r[0] > at {
			it.TranscriptParts = append(it.TranscriptParts, TranscriptPart{Text: text[at:r[0]]})
		}
		it.TranscriptParts = append(it.TranscriptParts, TranscriptPart{Text: text[r[0]:r[1]], Uncertain: true})
		at = r[1]
	}
	if at < len(text) {
		it.TranscriptParts = append(it.TranscriptParts, TranscriptPart{Text: text[at:]})
	}
}
