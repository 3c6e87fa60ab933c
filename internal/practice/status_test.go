package practice_test

import (
	"context"
	"maps"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/practice/practicetest"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

// pipeline is what each step of an answer's pipeline did before the
// steps were one table, in the order of the events' names: the table must
// keep doing it.
var pipeline = func() []practice.Transition {
	const (
		pending, queued, transcribing  = practice.StatusPending, practice.StatusQueued, practice.StatusTranscribing
		scoring, done, failed, skipped = practice.StatusScoring, practice.StatusDone, practice.StatusFailed, practice.StatusSkipped
	)
	transcribe, score, finalize := practice.TranscribeArgs{}.Kind(), practice.ScoreArgs{}.Kind(), practice.FinalizeArgs{}.Kind()
	from := func(s ...practice.ItemStatus) []practice.ItemStatus { return s }
	return []practice.Transition{
		{Event: "recorded", From: from(pending, failed), To: queued, Next: transcribe},
		{Event: "retried", From: from(failed), To: queued, Next: transcribe},
		{Event: "scored", From: from(scoring), To: done, Next: finalize},
		{Event: "scoring failed", From: from(scoring), To: failed, Next: finalize},
		{Event: "scoring recovered", From: from(scoring), To: scoring, Next: score},
		{Event: "session ended", From: from(pending), To: skipped},
		{Event: "skipped", From: from(pending), To: skipped},
		{Event: "transcribed", From: from(transcribing), To: scoring, Next: score},
		{Event: "transcribed without an answer", From: from(transcribing), To: done, Next: finalize},
		{Event: "transcription deferred", From: from(transcribing), To: queued},
		{Event: "transcription failed", From: from(queued, transcribing), To: failed, Next: finalize},
		{Event: "transcription recovered", From: from(queued, transcribing), To: queued, Next: transcribe},
		{Event: "transcription started", From: from(queued, transcribing), To: transcribing},
		{Event: "written", From: from(pending, failed), To: scoring, Next: score},
		{Event: "written without an answer", From: from(pending, failed), To: done, Next: finalize},
	}
}()

// The item state machine is its table, and the table is the pipeline as
// it was. Every transition in it, from each
// status an answer can have: from one of the transition's statuses the
// answer moves to its status and the transition's job is queued with it;
// from any other status the event is refused and nothing changes, no job
// either. An event the table does not know is an error.
func TestEveryItemTransitionIsMadeAsTheTableSays(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.NewIdle(t, db) // the queued jobs stay queued
		ana := f.User(t, "ana@example.com")
		ctx := context.Background()
		created, err := f.Practice.Create(ctx, ana(), oneQuestion)
		if err != nil {
			t.Fatal(err)
		}
		s, err := f.Practice.Get(ctx, ana(), created.ID)
		if err != nil {
			t.Fatal(err)
		}
		it := s.Items[0]
		jobTable := "river_job"
		if db.Schema != "" {
			jobTable = db.Schema + "." + jobTable
		}
		queued := func() map[string]int {
			t.Helper()
			rows, err := db.SQL.QueryContext(ctx, `SELECT kind FROM `+jobTable)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			kinds := map[string]int{}
			for rows.Next() {
				var kind string
				if err := rows.Scan(&kind); err != nil {
					t.Fatal(err)
				}
				kinds[kind]++
			}
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}
			return kinds
		}
		long := time.Now().Add(-time.Hour).UTC().Truncate(time.Second)
		state := func() (practice.ItemStatus, time.Time) {
			t.Helper()
			var status practice.ItemStatus
			var updated time.Time
			if err := db.SQL.QueryRowContext(ctx, `SELECT status, updated_at FROM practice_items WHERE id = $1`, it.ID).Scan(&status, &updated); err != nil {
				t.Fatal(err)
			}
			return status, updated
		}

		table := f.Practice.Transitions()
		if !reflect.DeepEqual(table, pipeline) {
			t.Fatalf("the table is\n%+v\nthe pipeline's steps are\n%+v", table, pipeline)
		}
		reached := map[practice.ItemStatus]bool{practice.StatusPending: true} // where every answer starts
		for _, tr := range table {
			if len(tr.From) == 0 || !slices.Contains(practice.ItemStatuses, tr.To) {
				t.Fatalf("%q is not a transition between statuses: %+v", tr.Event, tr)
			}
			reached[tr.To] = true
			for _, from := range practice.ItemStatuses {
				if _, err := db.SQL.ExecContext(ctx, `UPDATE practice_items SET status = $1, updated_at = $2 WHERE id = $3`, from, long, it.ID); err != nil {
					t.Fatal(err)
				}
				before := queued()
				if err := f.Practice.ApplyEvent(ctx, it, tr.Event); err != nil {
					t.Fatalf("%q from %s: %v", tr.Event, from, err)
				}
				status, updated := state()
				after := queued()
				if !slices.Contains(tr.From, from) {
					if status != from || !updated.Equal(long) || !maps.Equal(after, before) {
						t.Errorf("%q from %s was not refused: now %s, updated %v, jobs %v then %v", tr.Event, from, status, updated, before, after)
					}
					continue
				}
				want := before
				if tr.Next != "" {
					want = maps.Clone(before)
					want[tr.Next]++
				}
				if status != tr.To || updated.Equal(long) || !maps.Equal(after, want) {
					t.Errorf("%q from %s: now %s (want %s), updated %v, jobs %v (want %v)", tr.Event, from, status, tr.To, updated, after, want)
				}
			}
		}
		for _, status := range practice.ItemStatuses {
			if !reached[status] {
				t.Errorf("no transition leads to %s", status)
			}
		}
		if err := f.Practice.ApplyEvent(ctx, it, "graded by hand"); err == nil {
			t.Fatal("an event outside the table was applied")
		}
	})
}
