package auth

import (
	"context"
	"sync"
)

// MaxReadsInFlight is how many reads (GET requests) one signed-in user may
// have served at once by this process; further ones wait their turn. A
// student's page asks for a few things at once; a script looping a history
// search over fifty connections would otherwise hold the database (SQLite
// has a single connection) and slow every other student's dashboard.
// Uploads and other writes are bounded by limits of their own.
const MaxReadsInFlight = 4

// turns hands out each user's MaxReadsInFlight places, keeping state only
// for users with a request in flight or waiting.
type turns struct {
	limit int
	mu    sync.Mutex
	users map[string]*userTurns
}

type userTurns struct {
	places chan struct{}
	// holders counts the requests holding or waiting for a place.
	holders int
}

func newTurns(limit int) *turns { return &turns{limit: limit, users: map[string]*userTurns{}} }

// take waits for one of userID's places; release gives it back. It fails
// only when ctx ends first (the client went away).
func (t *turns) take(ctx context.Context, userID string) (release func(), err error) {
	t.mu.Lock()
	u := t.users[userID]
	if u == nil {
		u = &userTurns{places: make(chan struct{}, t.limit)}
		t.users[userID] = u
	}
	u.holders++
	t.mu.Unlock()
	select {
	case u.places <- struct{}{}:
		return func() {
			<-u.places
			t.leave(userID, u)
		}, nil
	case <-ctx.Done():
		t.leave(userID, u)
		return nil, ctx.Err()
	}
}

func (t *turns) leave(userID string, u *userTurns) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if u.holders--; u.holders == 0 {
		delete(t.users, userID)
	}
}

// waiting is how many of userID's requests hold or wait for a place.
func (t *turns) waiting(userID string) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	if u := t.users[userID]; u != nil {
		return u.holders
	}
	return 0
}
