package practice

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/riverqueue/river"

	"github.com/whitecoat/whitecoat/internal/answer"
)

// An answer moves through its pipeline by events; answer.TransitionOf is
// the one place that says, for each event, which statuses it moves an
// answer from, the status it moves it to and the step that follows (a
// try on a landing page moves by the same table). Every status change of a
// practice answer is made by moveItemTx (one answer) or endUnanswered (the
// unanswered questions of a session that ends), and both read it there.

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

// move is one event on one answer: its status changes as transitions
// says, update writes what the step found out, and the next job is
// queued, all in one transaction.
type move struct {
	itemID string
	// sessionID is the answer's session, which the finalize job works on.
	sessionID string
	event     answer.Event
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
	t, ok := answer.TransitionOf(m.event)
	if !ok {
		return false, fmt.Errorf("practice: no transition for the event %q", m.event)
	}
	now := s.clock()
	moved, err := setItemStatus(ctx, tx, m.itemID, t.To, now, t.From)
	if err != nil || !moved {
		return false, err
	}
	if m.update != nil {
		if err := m.update(tx, now); err != nil {
			return false, err
		}
	}
	args, opts := s.jobOf(t.Next, m)
	if args == nil {
		return true, nil
	}
	if _, err := s.jobs.InsertTx(ctx, tx, args, opts); err != nil {
		return false, fmt.Errorf("practice: queue %s: %w", args.Kind(), err)
	}
	return true, nil
}

// jobOf is the job next stands for after the move m, and how often it is
// attempted: engine work as often as insertOpts says. What follows a
// settled practice answer is its session's stats, once every answer is.
func (s *Service) jobOf(next answer.Step, m move) (river.JobArgs, *river.InsertOpts) {
	switch next {
	case answer.StepTranscribe:
		return TranscribeArgs{ItemID: m.itemID}, s.insertOpts()
	case answer.StepScore:
		return ScoreArgs{ItemID: m.itemID}, s.insertOpts()
	case answer.StepSettled:
		return FinalizeArgs{SessionID: m.sessionID}, nil
	}
	return nil, nil
}

// insertOpts sets how often engine work is attempted.
func (s *Service) insertOpts() *river.InsertOpts {
	return &river.InsertOpts{MaxAttempts: s.cfg.MaxAttempts}
}

// endUnanswered applies answer.EventSessionEnded to every question of an ended
// session it applies to, in one statement; a recording still arriving for
// one is let go (the sweeper deletes it). The session's finalize job, which
// the caller queues, follows.
func endUnanswered(ctx context.Context, q *sql.Tx, sessionID string, now time.Time) error {
	t, _ := answer.TransitionOf(answer.EventSessionEnded)
	return skipUnanswered(ctx, q, sessionID, t.To, now, t.From)
}
