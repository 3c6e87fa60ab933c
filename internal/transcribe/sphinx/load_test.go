package sphinx

import (
	"math"
	"testing"
	"time"
)

// The load follows the share of slots in use with a memory of about
// loadTimeConstant: a box busy for a moment stays lightly loaded, one
// busy for long reads as busy, and it fades once the work stops.
func TestLoadAveragesTheSlotsInUse(t *testing.T) {
	start := time.Unix(1_000_000, 0)
	l := newLoad(2, start)
	at := func(d time.Duration) time.Time { return start.Add(d) }
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 0.01 {
			t.Errorf("%s: load %.3f, want %.3f", what, got, want)
		}
	}
	near("idle", l.share(at(time.Minute)), 0)
	// One of two slots for one time constant: half of 1-1/e.
	l.change(1, at(time.Minute))
	near("one slot for 10 s", l.share(at(time.Minute+loadTimeConstant)), 0.5*(1-math.Exp(-1)))
	// Both slots for a long time: all of them.
	l.change(1, at(time.Minute+loadTimeConstant))
	near("both slots for long", l.share(at(10*time.Minute)), 1)
	// Then nothing for one time constant: 1/e of it is left.
	l.change(-2, at(10*time.Minute))
	near("after 10 s idle", l.share(at(10*time.Minute+loadTimeConstant)), math.Exp(-1))
	// A reading in the past changes nothing.
	near("read late", l.share(at(10*time.Minute)), math.Exp(-1))
}
