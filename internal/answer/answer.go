// Package answer is one answer as every screen shows it: a practice
// session's question, a saved session's, the one a reviewer reads through
// a share link, a visitor's try and a landing page's example all embed
// Answer, so that what was heard, the words that may have been misheard,
// a failure, "no meaningful response" and the feedback travel the same way
// everywhere and the web draws them with one card.
package answer

import (
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/httpx"
	"github.com/whitecoat/whitecoat/internal/transcribe"
	"github.com/whitecoat/whitecoat/internal/video"
)

// Kinds: how an answer is given.
const (
	KindSpoken = "spoken"
	KindTyped  = "typed"
)

var kinds = []string{KindSpoken, KindTyped}

// Status is where an answer is in its pipeline (practice owns the
// transitions between them); an answer that is shown after the fact is
// done, failed or skipped.
type Status string

// Statuses, in the order an answer moves through them.
const (
	StatusPending      Status = "pending"
	StatusQueued       Status = "queued"
	StatusTranscribing Status = "transcribing"
	StatusScoring      Status = "scoring"
	StatusDone         Status = "done"
	StatusFailed       Status = "failed"
	StatusSkipped      Status = "skipped"
)

// Statuses are every status, in that order.
var Statuses = []Status{StatusPending, StatusQueued, StatusTranscribing, StatusScoring, StatusDone, StatusFailed, StatusSkipped}

// Correction is the mark a corrected transcript carries: the engine's
// transcript, kept, and when the student corrected it.
type Correction struct {
	OriginalTranscript string    `json:"originalTranscript"`
	CorrectedAt        time.Time `json:"correctedAt"`
}

// Answer is what an answer shows wherever it is shown.
type Answer struct {
	// Kind is how the answer is given: spoken (recorded) or typed.
	Kind string `json:"kind"`
	// Scenario is what the student reads first at a station; empty for a
	// question asked on its own.
	Scenario string `json:"scenario"`
	Question string `json:"question"`
	// FollowUps are an MMI station's further prompts, revealed while the
	// answer runs; for a typed part, the second question, shown at once.
	FollowUps []string `json:"followUps"`
	Status    Status   `json:"status"`
	// Transcript is what was recognised (or typed): null until then, for
	// an answer that failed before it was transcribed, and for a skipped
	// question.
	Transcript *string `json:"transcript"`
	// Metrics and Feedback are left out until they exist: OpenAPI 3.1
	// cannot mark a referenced object nullable, so absent is how the
	// contract says "not yet".
	Metrics  *transcribe.Metrics `json:"metrics,omitempty"`
	Feedback *feedback.Feedback  `json:"feedback,omitempty"`
	// VideoDelivery is what the student's browser measured of a video
	// answer (eye contact, framing, steadiness); absent for an audio or
	// typed answer, or when the measurement was turned off.
	VideoDelivery *video.Delivery `json:"videoDelivery,omitempty"`
	// VideoNotMeasured says why VideoDelivery cannot be judged (the
	// browser could not run the measurement, the room was dark, no face
	// was found for most of the answer), in the student's words; empty
	// when it can be, or when nothing was measured. Derived by Derive.
	VideoNotMeasured string `json:"videoNotMeasured,omitempty"`
	// LegacyFeedback is feedback saved by older versions of the product
	// as plain text (or HTML).
	LegacyFeedback string `json:"legacyFeedback,omitempty"`
	// Meaningful is false when the transcript had no real answer in it, so
	// no feedback was generated; null until it is known.
	Meaningful *bool `json:"meaningful"`
	// Error says why the answer could not be processed, where that is
	// known.
	Error string `json:"error"`
	// Correction marks a transcript the student corrected: Transcript is
	// then their text, scored again, and this is what the engine heard.
	Correction *Correction `json:"correction,omitempty"`
	// UncertainWords counts the words of the transcript the speech engine
	// may have misheard, which the student is asked to check before
	// trusting the score; TranscriptParts is the transcript with those
	// words marked, empty when there are none (a typed or corrected
	// answer has none). Both are derived from Metrics by Derive.
	UncertainWords  int                         `json:"uncertainWords"`
	TranscriptParts []transcribe.TranscriptPart `json:"transcriptParts,omitempty"`
}

// TransformSchema publishes how an answer may be given and the statuses
// it moves through.
func (Answer) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	httpx.SetEnum(s, "kind", kinds)
	httpx.SetEnum(s, "status", Statuses)
	return s
}

// UncertainRanges are the byte ranges of transcript that hold a word the
// speech engine may have misheard (transcribe.Uncertain), when transcript
// is what the engine heard in a: none in a typed answer, and none once the
// student has corrected the transcript — their words are certain.
func (a Answer) UncertainRanges(transcript string) [][2]int {
	if a.Kind != KindSpoken || a.Correction != nil || a.Metrics == nil || a.Transcript == nil || *a.Transcript != transcript {
		return nil
	}
	return transcribe.Uncertain(transcript, a.Metrics.Words, a.Metrics.WordConfidence)
}

// Derive fills in what an answer shows but does not store, from what it
// stores: the words the student is asked to check before trusting the
// score (markUncertain), and why its video measurement cannot be judged.
// Every read model calls it as it is read, so that every screen shows the
// same.
func (a *Answer) Derive() {
	a.markUncertain()
	a.VideoNotMeasured = ""
	if a.VideoDelivery != nil {
		if why := a.VideoDelivery.Judgeable(); why != "" {
			a.VideoNotMeasured = why.Note()
		}
	}
}

// markUncertain splits the transcript into TranscriptParts and counts the
// words the student is asked to check; an answer with none has no parts.
func (a *Answer) markUncertain() {
	a.UncertainWords, a.TranscriptParts = 0, nil
	if a.Transcript == nil {
		return
	}
	ranges := a.UncertainRanges(*a.Transcript)
	a.UncertainWords, a.TranscriptParts = len(ranges), transcribe.Marked(*a.Transcript, ranges)
}

// Versions before failures travelled as an item's status and error wrote
// the spec's texts for a failed answer into its transcript (practice items
// and saved sessions) and its feedback (saved sessions); sessions saved
// before the status was stored have only those texts to tell a failure by.
// Nothing writes them any more: they are read where those rows are read
// (practice's items, history's saved sessions), so that older rows say
// "failed" the way new ones do.
const (
	LegacyTranscriptError = "Error"
	LegacyFeedbackError   = "Error generating feedback"
)
