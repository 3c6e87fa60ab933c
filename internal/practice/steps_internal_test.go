package practice

import (
	"context"
	"testing"
)

// An answer's transcription stops the step of its recording still running
// (it starts from the progress saved, so the step can only take CPU from
// it): the latest step of the item, not one of another item, and a step
// that ended leaves a later one stoppable.
func TestTranscriptionStopsTheRecordingsRunningStep(t *testing.T) {
	var r runningSteps
	first, doneFirst := r.start(context.Background(), "item-1")
	second, doneSecond := r.start(context.Background(), "item-1")
	other, doneOther := r.start(context.Background(), "item-2")
	defer doneOther()
	doneFirst() // ends itself; the later step must stay registered
	if first.Err() == nil {
		t.Fatal("a step that ended still runs")
	}
	r.stop("item-1")
	if second.Err() == nil {
		t.Error("the running step of the finished answer was not stopped")
	}
	if other.Err() != nil {
		t.Error("another answer's step was stopped")
	}
	doneSecond()
	r.stop("item-3") // nothing running: nothing happens
	if len(r.running) != 1 {
		t.Errorf("%d steps still registered, want the other answer's only", len(r.running))
	}
}
