package sphinx

import (
	"slices"
	"sync"
	"time"
)

// WaitBounds are the upper bounds, in seconds, of the buckets the pool
// counts its requests' waits for a decoder in: from none (a decoder was
// free) to the longest a student's answer should ever wait.
var WaitBounds = []float64{0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32}

// Waits is how long the requests of one priority waited for a decoder,
// counted as Prometheus counts a histogram: Buckets[i] requests waited at
// most WaitBounds[i] seconds (cumulative), Count in all, Sum seconds.
type Waits struct {
	Buckets []uint64
	Count   uint64
	Sum     float64
}

// String names a priority in the pool's figures.
func (p Priority) String() string {
	switch p {
	case Awaited:
		return "awaited"
	case Spare:
		return "spare"
	}
	return "ahead"
}

// waitCounts counts the waits of each priority.
type waitCounts struct {
	mu sync.Mutex
	by [len(priorities)]Waits
}

func (c *waitCounts) observe(p Priority, waited time.Duration) {
	seconds := waited.Seconds()
	c.mu.Lock()
	defer c.mu.Unlock()
	w := &c.by[p]
	if w.Buckets == nil {
		w.Buckets = make([]uint64, len(WaitBounds))
	}
	for i, bound := range WaitBounds {
		if seconds <= bound {
			w.Buckets[i]++
		}
	}
	w.Count++
	w.Sum += seconds
}

// Waited is how long the requests of each priority, by name, have waited
// for a decoder since the pool started.
func (p *Pool) Waited() map[string]Waits {
	p.waits.mu.Lock()
	defer p.waits.mu.Unlock()
	out := make(map[string]Waits, len(priorities))
	for _, pr := range priorities {
		w := p.waits.by[pr]
		w.Buckets = slices.Clone(w.Buckets)
		if w.Buckets == nil {
			w.Buckets = make([]uint64, len(WaitBounds))
		}
		out[pr.String()] = w
	}
	return out
}
