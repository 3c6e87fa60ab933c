package rubric

import (
	"fmt"
	"math"

	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/video"
)

// wordsPerMinuteAssumed converts a word count to a duration when no timing
// was measured: a comfortable interview pace.
const wordsPerMinuteAssumed = 150

// Written answers are judged on the length a timed written response holds
// (Casper gives 3.5 minutes for two questions, about 80-160 words each at
// typing speed) rather than what a spoken minute holds: on the spoken
// scale their 60-120 seconds.
const (
	writtenWordsMin = 80
	writtenWordsMax = 160
	// secondsPerWrittenWord puts the written range on the spoken one.
	secondsPerWrittenWord = float64(targetSecondsMin) / writtenWordsMin
)

// A spoken answer aims for this length, in seconds, under the spec's
// 3-minute limit; other limits scale it (deliveryResult.scale).
const (
	targetSecondsMin = 60
	targetSecondsMax = 120
)

// minSecondsForLengthAdvice is the shortest answer time that leaves room
// for advice on length: a third of it, the low end of the target, holds
// a few sentences. Under it the format sets the length, not the speaker.
const minSecondsForLengthAdvice = 45

type deliveryResult struct {
	seconds float64
	// fillersUnheard: the speech engine does not write filled pauses
	// ("um", "uh"), so only the spoken hedges could be counted.
	fillersUnheard bool
	estimated      bool // seconds came from the word count
	written        bool // a typed answer: seconds stand for its length in words
	words          int
	// scale stretches the length targets to the answer's limit (1 for the
	// spec's 3 minutes): a third to two thirds of the time is the aim.
	scale         float64
	wpm           float64
	fillers       int
	fillersPer100 float64
	longestPause  float64
	pausesOver2s  int
	fillerQuote   string
	score         float64
	// presence is what the browser measured on camera; nil for an audio
	// or typed answer.
	presence *presence
}

// measureDelivery measures the delivery d of the answer t, with its
// presence on camera v when it was watched; certain keeps the matches
// heard for certain, the only words a filler is counted from.
func measureDelivery(d *feedback.Delivery, v *video.Delivery, t *text, written bool, limitSeconds float64, certain func([]match) []match) deliveryResult {
	r := deliveryResult{scale: 1}
	if !written {
		r.presence = measurePresence(v)
	}
	if limitSeconds > 0 && !written {
		r.scale = limitSeconds / feedback.SpecLimitSeconds
	}
	words := len(t.words)
	r.words = words
	if written {
		// Nothing is heard in a typed answer: only its length counts.
		r.seconds, r.estimated, r.written = float64(words)*secondsPerWrittenWord, true, true
		r.score = r.lengthScore()
		return r
	}
	textFillers := certain(t.find(fillerCues, false))
	r.fillers = len(textFillers)
	if len(textFillers) > 0 {
		r.fillerQuote = t.quote(textFillers[0].at)
	}
	if d != nil && d.DurationSeconds > 0 {
		r.seconds = d.DurationSeconds
		r.wpm = d.WordsPerMinute
		if r.wpm <= 0 {
			r.wpm = float64(words) / (d.DurationSeconds / 60)
		}
		// Speech engines drop fillers unevenly; the larger of the measured
		// and the transcribed count is the closer to what was said. But an
		// engine that drops hesitations gives no figure at all
		// (fillersUnmeasured), not a guess from words that may have been
		// misheard, and nothing is quoted as a filler then.
		r.fillers = max(r.fillers, d.FillerCount)
		r.fillersUnheard = d.FillersEstimated
		if r.fillersUnheard {
			r.fillers, r.fillerQuote = 0, ""
		}
		r.longestPause = d.LongestPauseSeconds
		r.pausesOver2s = d.PausesOver2s
	} else {
		r.seconds = float64(words) / wordsPerMinuteAssumed * 60
		r.estimated = true
	}
	if words > 0 {
		r.fillersPer100 = 100 * float64(r.fillers) / float64(words)
	}
	r.score = r.compute()
	if r.presence.judged() {
		r.score = (1-presenceWeight)*r.score + presenceWeight*r.presence.score()
	}
	return r
}

// piecewise interpolates y over x breakpoints, flat beyond the ends.
func piecewise(x float64, xs, ys []float64) float64 {
	if x <= xs[0] {
		return ys[0]
	}
	for i := 1; i < len(xs); i++ {
		if x <= xs[i] {
			f := (x - xs[i-1]) / (xs[i] - xs[i-1])
			return ys[i-1] + f*(ys[i]-ys[i-1])
		}
	}
	return ys[len(ys)-1]
}

// roomForLength reports whether the format leaves the length to the
// speaker, so that length is judged and advised.
func (r deliveryResult) roomForLength() bool {
	return r.written || r.scale*feedback.SpecLimitSeconds >= minSecondsForLengthAdvice
}

// limit is the answer time, in seconds.
func (r deliveryResult) limit() float64 { return r.scale * feedback.SpecLimitSeconds }

func (r deliveryResult) lengthScore() float64 {
	if !r.roomForLength() {
		return 100
	}
	return piecewise(r.seconds/r.scale, []float64{15, 45, targetSecondsMin, targetSecondsMax, 150, 180, 240}, []float64{10, 60, 100, 100, 85, 70, 55})
}

// target is the length range the answer is judged against, in seconds.
func (r deliveryResult) target() (lo, hi float64) {
	return targetSecondsMin * r.scale, targetSecondsMax * r.scale
}

// targetText says the range: "60-120 s".
func (r deliveryResult) targetText() string {
	lo, hi := r.target()
	return fmt.Sprintf("%.0f-%.0f s", lo, hi)
}

func (r deliveryResult) paceScore() float64 {
	return piecewise(r.wpm, []float64{80, 110, 130, 170, 190, 220}, []float64{40, 80, 100, 100, 80, 40})
}

func (r deliveryResult) fillerScore() float64 {
	return piecewise(r.fillersPer100, []float64{2, 4, 14}, []float64{100, 85, 20})
}

func (r deliveryResult) pauseScore() float64 {
	s := 100.0
	switch {
	case r.longestPause > 8:
		s -= 25
	case r.longestPause > 4:
		s -= 10
	}
	if r.seconds > 0 && float64(r.pausesOver2s)/(r.seconds/60) > 3 {
		s -= 15
	}
	return s
}

func (r deliveryResult) compute() float64 {
	fillers := 1.0
	if r.fillersUnmeasured() {
		// No filler heard by an engine that misses them is no measure:
		// the rest is judged as it stands to each other.
		fillers = 0
	}
	if r.estimated {
		// Without timing only length (from words) and fillers can be judged.
		return (0.55*r.lengthScore() + fillers*0.45*r.fillerScore()) / (0.55 + fillers*0.45)
	}
	return (0.35*r.lengthScore() + 0.2*r.paceScore() + fillers*0.3*r.fillerScore() + 0.15*r.pauseScore()) / (0.7 + fillers*0.3)
}

// The pace target, in words per minute, both ends included.
const (
	paceTargetLow  = 130
	paceTargetHigh = 170
)

// paceMet reports whether the pace, as the evidence shows it (whole words
// per minute), is within the target: "170 words per minute (target
// 130-170)" is met.
func (r deliveryResult) paceMet() bool {
	shown := math.Round(r.wpm)
	return shown >= paceTargetLow && shown <= paceTargetHigh
}

// msgFillersUnmeasured is the fillers figure of an engine that misses
// filled pauses when it heard none.
const msgFillersUnmeasured = "Not measured: this speech engine does not reliably write down filled pauses like “um”."

// fillersUnmeasured reports that the fillers could not be counted: the
// speech engine misses filled pauses (um, uh) and wrote down none, nor
// any other filler — a 0 that says nothing about what was said.
func (r deliveryResult) fillersUnmeasured() bool { return r.fillersUnheard && r.fillers == 0 }

// evidence is what the delivery measures showed: the voice's, then the
// presence on camera when the answer was watched.
func (r deliveryResult) evidence() []feedback.Evidence {
	return append(r.voiceEvidence(), r.presence.evidence()...)
}

// voiceEvidence is what was measured of the voice (or a typed answer's length).
func (r deliveryResult) voiceEvidence() []feedback.Evidence {
	if r.written {
		return []feedback.Evidence{{Section: feedback.SectionOverallImpression, Criterion: "length", Met: r.words >= writtenWordsMin && r.words <= writtenWordsMax*2,
			Note: fmt.Sprintf("%d words written (aim for %d-%d per question)", r.words, writtenWordsMin, writtenWordsMax)}}
	}
	lengthNote := fmt.Sprintf("%.0f s (target %s)", r.seconds, r.targetText())
	if r.estimated {
		lengthNote = fmt.Sprintf("about %.0f s estimated from the word count (target %s); no timing measured", r.seconds, r.targetText())
	}
	lo, hi := r.target()
	length := feedback.Evidence{Section: feedback.SectionOverallImpression, Criterion: "length", Met: r.seconds >= lo && r.seconds <= hi, Note: lengthNote}
	if !r.roomForLength() {
		length.Met, length.Note = true, fmt.Sprintf("%.0f s of the %.0f s answer time", r.seconds, r.limit())
	}
	ev := []feedback.Evidence{length, r.fillersEvidence()}
	if !r.estimated {
		ev = append(ev,
			feedback.Evidence{Section: feedback.SectionOverallImpression, Criterion: "pace", Met: r.paceMet(),
				Note: fmt.Sprintf("%.0f words per minute (target %d-%d)", r.wpm, paceTargetLow, paceTargetHigh)},
			feedback.Evidence{Section: feedback.SectionOverallImpression, Criterion: "pauses", Met: r.pauseScore() == 100,
				Note: fmt.Sprintf("longest pause %.1f s, %d pauses over 2 s", r.longestPause, r.pausesOver2s)},
		)
	}
	return ev
}

// fillersEvidence is the fillers figure, saying what could not be heard.
func (r deliveryResult) fillersEvidence() feedback.Evidence {
	e := feedback.Evidence{Section: feedback.SectionOverallImpression, Criterion: "fillers", Met: r.fillersPer100 <= 4, Quote: r.fillerQuote,
		Note: fmt.Sprintf("%s, %.1f per 100 words (aim for 4 or fewer)", feedback.Count(r.fillers, "filler", "fillers"), r.fillersPer100)}
	switch {
	case r.fillersUnmeasured():
		e.Met, e.Note, e.Unjudged = false, msgFillersUnmeasured, feedback.UnjudgedNotMeasured
	case r.fillersUnheard:
		e.Note += "; this speech engine misses most filled pauses (um, uh), so there may be more"
	}
	return e
}

// checksMet reports whether every check of the voice that was measured is
// met, so that the criterion's words can say "comfortable length and
// pace"; presence on camera weighs in the score, not in those words.
func (r deliveryResult) checksMet() bool {
	for _, e := range r.voiceEvidence() {
		if !e.Met && e.Unjudged == "" {
			return false
		}
	}
	return true
}

func (r deliveryResult) suggestions() []suggestion {
	var out []suggestion
	if r.written {
		if r.words < writtenWordsMin {
			out = append(out, suggestion{54, "a fuller answer", fmt.Sprintf(
				"Write more (this has %d words): %d-%d words per question leave room for the issue, the options and your reasons.", r.words, writtenWordsMin, writtenWordsMax)})
		}
		return out
	}
	if r.fillersPer100 > 4 {
		at := ""
		if r.fillerQuote != "" {
			at = fmt.Sprintf(" (as in “%s”)", r.fillerQuote)
		}
		out = append(out, suggestion{58, "fewer fillers", fmt.Sprintf(
			"Cut the fillers: about %.0f per 100 words%s. Pause silently instead — it sounds more confident.", r.fillersPer100, at)})
	}
	_, hi := r.target()
	switch {
	case !r.roomForLength():
	case r.seconds > 150*r.scale:
		out = append(out, suggestion{54, "a tighter answer", fmt.Sprintf(
			"Tighten to under %.0f s (this ran about %.0f s): keep the example and the result, cut background.", hi, r.seconds)})
	case r.seconds < 45*r.scale && r.seconds >= 20*r.scale:
		out = append(out, suggestion{54, "a fuller answer", fmt.Sprintf(
			"Use more of your time (this ran about %.0f s): %s lets you give the example and what it taught you.", r.seconds, r.targetText())})
	}
	if !r.estimated && (r.wpm > 190 || (r.wpm > 0 && r.wpm < 110)) {
		out = append(out, suggestion{48, "a steadier pace", fmt.Sprintf(
			"Adjust your pace: %.0f words per minute; 130-170 is easy to follow.", r.wpm)})
	}
	if !r.estimated && r.longestPause > 4 {
		out = append(out, suggestion{46, "fewer long pauses", fmt.Sprintf(
			"A %.0f-second pause breaks the thread; note your structure (situation, action, result) before you start so you know what comes next.", r.longestPause)})
	}
	return append(out, r.presence.suggestions()...)
}
