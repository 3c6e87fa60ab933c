package sphinx

import (
	"math"
	"sync"
	"time"
)

// loadTimeConstant is how far back the pool's load looks: an exponentially
// weighted average whose weight falls to a third over this time. Long
// enough that one student's long answer, which keeps every decoder busy
// for a few seconds, does not read as a busy box; short enough to follow a
// crowd of students as it arrives.
const loadTimeConstant = 10 * time.Second

// load averages the share of a pool's slots in use over time.
type load struct {
	mu    sync.Mutex
	slots int
	busy  int       // slots in use now
	at    time.Time // when avg was last brought up to date
	avg   float64
}

func newLoad(slots int, now time.Time) *load { return &load{slots: max(slots, 1), at: now} }

// change records that delta slots were taken (or given back, negative) at now.
func (l *load) change(delta int, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.catchUp(now)
	l.busy += delta
}

// share is the average share of slots in use up to now, from 0 to 1.
func (l *load) share(now time.Time) float64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.catchUp(now)
	return l.avg
}

// catchUp moves the average to now, the slots in use having stayed as they
// are since it was last moved.
func (l *load) catchUp(now time.Time) {
	if dt := now.Sub(l.at); dt > 0 {
		keep := math.Exp(-dt.Seconds() / loadTimeConstant.Seconds())
		l.avg = l.avg*keep + float64(l.busy)/float64(l.slots)*(1-keep)
		l.at = now
	}
}
