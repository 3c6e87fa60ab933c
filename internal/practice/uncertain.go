package practice

import "github.com/whitecoat/whitecoat/internal/transcribe"

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
	ranges := uncertainRanges(*it, *it.Transcript)
	it.UncertainWords, it.TranscriptParts = len(ranges), transcribe.Marked(*it.Transcript, ranges)
}
