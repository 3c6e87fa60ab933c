package practice

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/riverqueue/river"

	"github.com/whitecoat/whitecoat/internal/answer"
)

// An answer moves through its pipeline by events. transitions is the one
// place that says, for each event, which statuses it moves an answer from,
// the status it moves it to and the job that follows; every status change
// is made by moveItemTx (one answer) or endUnanswered (the unanswered
// questions of a session that ends), and both read it here.

// ItemStatus is where an answer is in its pipeline; the statuses are
// answer's, which every read model of an answer shows.
type ItemStatus = answer.Status

// Item statuses, in the order an answer moves through them.
const (
	StatusPending      = answer.StatusPending
	StatusQueued       = answer.StatusQueued
	StatusTranscribing = answer.StatusTranscribing
	StatusScoring      = answer.StatusScoring
	StatusDone         = answer.StatusDone
	StatusFailed       = answer.StatusFailed
	StatusSkipped      = answer.StatusSkipped
)

// itemEvent is something that happens to an answer.
type itemEvent string

const (
	// A recording arrived, whole or finished in pieces, for a question
	// without an answer or whose answer failed.
	eventRecorded itemEvent = "recorded"
	// A typed answer arrived with an answer in it, or without one.
	eventWritten      itemEvent = "written"
	eventWrittenEmpty itemEvent = "written without an answer"
	// The student skipped an unanswered question.
	eventSkipped itemEvent = "skipped"
	// The session ended with the question unanswered.
	eventSessionEnded itemEvent = "session ended"
	// The student asked for a failed answer to be processed again.
	eventRetried itemEvent = "retried"
	// A transcription job took the answer (again, after a crash or retry).
	eventTranscriptionStarted itemEvent = "transcription started"
	// The speech engine failed for now; River tries again.
	eventTranscriptionDeferred itemEvent = "transcription deferred"
	// The recording was transcribed, with an answer in it or without one.
	eventTranscribed      itemEvent = "transcribed"
	eventTranscribedEmpty itemEvent = "transcribed without an answer"
	// The recording could not be transcribed: it is bad, gone, or the
	// engine failed for good.
	eventTranscriptionFailed itemEvent = "transcription failed"
	// The feedback engine scored the transcript, or failed for good.
	eventScored        itemEvent = "scored"
	eventScoringFailed itemEvent = "scoring failed"
	// The sweeper found the answer in progress for too long: the work of a
	// process that died. Transcription starts again from queued; scoring
	// stays where its job expects it.
	eventTranscriptionRecovered itemEvent = "transcription recovered"
	eventScoringRecovered       itemEvent = "scoring recovered"
)

// nextJob is the job a transition queues in the transaction that makes it.
type nextJob string

const (
	noJob         nextJob = ""
	transcribeJob nextJob = "transcribe"
	scoreJob      nextJob = "score"
	// finalizeJob follows an answer's last step: its session's stats, once
	// every answer is settled.
	finalizeJob nextJob = "finalize"
)

// transition is what an event does to an answer in one of the from
// statuses; in any other status the event changes nothing.
type transition struct {
	from []ItemStatus
	to   ItemStatus
	next nextJob
}

// unanswered are the statuses in which a question takes an answer: it has
// none yet, or the last one failed and may be replaced.
var unanswered = []ItemStatus{StatusPending, StatusFailed}

var transitions = map[itemEvent]transition{
	eventRecorded:               {from: unanswered, to: StatusQueued, next: transcribeJob},
	eventWritten:                {from: unanswered, to: StatusScoring, next: scoreJob},
	eventWrittenEmpty:           {from: unanswered, to: StatusDone, next: finalizeJob},
	eventSkipped:                {from: []ItemStatus{StatusPending}, to: StatusSkipped},
	eventSessionEnded:           {from: []ItemStatus{StatusPending}, to: StatusSkipped},
	eventRetried:                {from: []ItemStatus{StatusFailed}, to: StatusQueued, next: transcribeJob},
	eventTranscriptionStarted:   {from: []ItemStatus{StatusQueued, StatusTranscribing}, to: StatusTranscribing},
	eventTranscriptionDeferred:  {from: []ItemStatus{StatusTranscribing}, to: StatusQueued},
	eventTranscribed:            {from: []ItemStatus{StatusTranscribing}, to: StatusScoring, next: scoreJob},
	eventTranscribedEmpty:       {from: []ItemStatus{StatusTranscribing}, to: StatusDone, next: finalizeJob},
	eventTranscriptionFailed:    {from: []ItemStatus{StatusQueued, StatusTranscribing}, to: StatusFailed, next: finalizeJob},
	eventScored:                 {from: []ItemStatus{StatusScoring}, to: StatusDone, next: finalizeJob},
	eventScoringFailed:          {from: []ItemStatus{StatusScoring}, to: StatusFailed, next: finalizeJob},
	eventTranscriptionRecovered: {from: []ItemStatus{StatusQueued, StatusTranscribing}, to: StatusQueued, next: transcribeJob},
	eventScoringRecovered:       {from: []ItemStatus{StatusScoring}, to: StatusScoring, next: scoreJob},
}

// move is one event on one answer: its status changes as transitions
// says, update writes what the step found out, and the next job is
// queued, all in one transaction.
type move struct {
	itemID string
	// sessionID is the answer's session, which the finalize job works on.
	sessionID string
	event     itemEvent
	// update, when set, writes the step's results to the item's row; now
	// is the time the status changed.
	update func(tx *sql.Tx, now time.Time) error
}

// moveItem makes the move in a transaction of its own. It reports false,
// changing nothing, when the event does not apply to the item's status: a
// second delivery of the same job, or a second request, got there first.
func (s *Service) moveItem(ctx context.Context, m move) (bool, error) {
	var moved bool
	err := s.db.WithTx(ctx, func(tx *sql.Tx) error {
		var err error
		moved, err = s.moveItemTx(ctx, tx, m)
		return err
	})
	return moved && err == nil, err
}

// moveItemTx makes the move inside the caller's transaction.
func (s *Service) moveItemTx(ctx context.Context, tx *sql.Tx, m move) (bool, error) {
	t, ok := transitions[m.event]
	if !ok {
		return false, fmt.Errorf("practice: no transition for the event %q", m.event)
	}
	now := s.clock()
	moved, err := setItemStatus(ctx, tx, m.itemID, t.to, now, t.from)
	if err != nil || !moved {
		return false, err
	}
	if m.update != nil {
		if err := m.update(tx, now); err != nil {
			return false, err
		}
	}
	args, opts := s.jobOf(t.next, m)
	if args == nil {
		return true, nil
	}
	if _, err := s.jobs.InsertTx(ctx, tx, args, opts); err != nil {
		return false, fmt.Errorf("practice: queue %s: %w", args.Kind(), err)
	}
	return true, nil
}

// jobOf is the job next stands for after the move m, and how often it is
// attempted: engine work as often as insertOpts says.
func (s *Service) jobOf(next nextJob, m move) (river.JobArgs, *river.InsertOpts) {
	switch next {
	case transcribeJob:
		return TranscribeArgs{ItemID: m.itemID}, s.insertOpts()
	case scoreJob:
		return ScoreArgs{ItemID: m.itemID}, s.insertOpts()
	case finalizeJob:
		return FinalizeArgs{SessionID: m.sessionID}, nil
	}
	return nil, nil
}

// insertOpts sets how often engine work is attempted.
func (s *Service) insertOpts() *river.InsertOpts {
	return &river.InsertOpts{MaxAttempts: s.cfg.MaxAttempts}
}

// endUnanswered applies eventSessionEnded to every question of an ended
// session it applies to, in one statement; a recording still arriving for
// one is let go (the sweeper deletes it). The session's finalize job, which
// the caller queues, follows.
func endUnanswered(ctx context.Context, q *sql.Tx, sessionID string, now time.Time) error {
	t := transitions[eventSessionEnded]
	return skipUnanswered(ctx, q, sessionID, t.to, now, t.from)
}
