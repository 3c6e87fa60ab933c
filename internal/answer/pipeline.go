package answer

import (
	"maps"
	"slices"
)

// An answer moves through its pipeline by events: recorded or written,
// transcribed, scored, or failed on the way. TransitionOf is the one place
// that says, for each event, which statuses it moves an answer from, the
// status it moves it to and the step that follows; a practice answer and
// a visitor's try move by it alike, each in its own table.

// Event is something that happens to an answer.
type Event string

const (
	// A recording arrived, whole or finished in pieces, for a question
	// without an answer or whose answer failed.
	EventRecorded Event = "recorded"
	// A typed answer arrived with an answer in it, or without one.
	EventWritten      Event = "written"
	EventWrittenEmpty Event = "written without an answer"
	// The student skipped an unanswered question.
	EventSkipped Event = "skipped"
	// The session ended with the question unanswered.
	EventSessionEnded Event = "session ended"
	// The student asked for a failed answer to be processed again.
	EventRetried Event = "retried"
	// A transcription job took the answer (again, after a crash or retry).
	EventTranscriptionStarted Event = "transcription started"
	// The speech engine failed for now; River tries again.
	EventTranscriptionDeferred Event = "transcription deferred"
	// The recording was transcribed, with an answer in it or without one.
	EventTranscribed      Event = "transcribed"
	EventTranscribedEmpty Event = "transcribed without an answer"
	// The recording could not be transcribed: it is bad, gone, or the
	// engine failed for good.
	EventTranscriptionFailed Event = "transcription failed"
	// The feedback engine scored the transcript, or failed for good.
	EventScored        Event = "scored"
	EventScoringFailed Event = "scoring failed"
	// The sweeper found the answer in progress for too long: the work of a
	// process that died. Transcription starts again from queued; scoring
	// stays where its job expects it.
	EventTranscriptionRecovered Event = "transcription recovered"
	EventScoringRecovered       Event = "scoring recovered"
)

// Step is the work a transition queues in the transaction that makes it.
type Step string

const (
	StepTranscribe Step = "transcribe"
	StepScore      Step = "score"
	// StepSettled follows an answer's last step: whatever its owner does
	// with a settled answer (a practice session's stats, once every answer
	// is settled; nothing for a try).
	StepSettled Step = "settled"
)

// Transition is what an event does to an answer in one of the From
// statuses; in any other status the event changes nothing.
type Transition struct {
	From []Status
	To   Status
	Next Step
}

// Unanswered are the statuses in which a question takes an answer: it has
// none yet, or the last one failed and may be replaced.
var Unanswered = []Status{StatusPending, StatusFailed}

var transitions = map[Event]Transition{
	EventRecorded:               {From: Unanswered, To: StatusQueued, Next: StepTranscribe},
	EventWritten:                {From: Unanswered, To: StatusScoring, Next: StepScore},
	EventWrittenEmpty:           {From: Unanswered, To: StatusDone, Next: StepSettled},
	EventSkipped:                {From: []Status{StatusPending}, To: StatusSkipped},
	EventSessionEnded:           {From: []Status{StatusPending}, To: StatusSkipped},
	EventRetried:                {From: []Status{StatusFailed}, To: StatusQueued, Next: StepTranscribe},
	EventTranscriptionStarted:   {From: []Status{StatusQueued, StatusTranscribing}, To: StatusTranscribing},
	EventTranscriptionDeferred:  {From: []Status{StatusTranscribing}, To: StatusQueued},
	EventTranscribed:            {From: []Status{StatusTranscribing}, To: StatusScoring, Next: StepScore},
	EventTranscribedEmpty:       {From: []Status{StatusTranscribing}, To: StatusDone, Next: StepSettled},
	EventTranscriptionFailed:    {From: []Status{StatusQueued, StatusTranscribing}, To: StatusFailed, Next: StepSettled},
	EventScored:                 {From: []Status{StatusScoring}, To: StatusDone, Next: StepSettled},
	EventScoringFailed:          {From: []Status{StatusScoring}, To: StatusFailed, Next: StepSettled},
	EventTranscriptionRecovered: {From: []Status{StatusQueued, StatusTranscribing}, To: StatusQueued, Next: StepTranscribe},
	EventScoringRecovered:       {From: []Status{StatusScoring}, To: StatusScoring, Next: StepScore},
}

// TransitionOf is what e does to an answer.
func TransitionOf(e Event) (Transition, bool) {
	t, ok := transitions[e]
	return t, ok
}

// Events are every event the table knows, in the order of their names.
func Events() []Event {
	return slices.Sorted(maps.Keys(transitions))
}
