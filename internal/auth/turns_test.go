package auth

import (
	"context"
	"errors"
	"runtime"
	"testing"
)

// TestReadsTakeTurnsPerUser: a user's reads beyond the limit wait until
// one of theirs ends; another user's never wait for them; a read whose
// client goes away while it waits gives its place up; nothing is kept
// about a user with nothing in flight.
func TestReadsTakeTurnsPerUser(t *testing.T) {
	t.Parallel()
	tr := newTurns(2)
	ctx := context.Background()
	first, err := tr.take(ctx, "ana")
	if err != nil {
		t.Fatal(err)
	}
	second, err := tr.take(ctx, "ana")
	if err != nil {
		t.Fatal(err)
	}
	// Bob's read does not wait for Ana's.
	bob, err := tr.take(ctx, "bob")
	if err != nil {
		t.Fatal(err)
	}
	bob()

	third := make(chan func())
	go func() {
		release, err := tr.take(ctx, "ana")
		if err != nil {
			t.Error(err)
		}
		third <- release
	}()
	// Wait until the third read is queued, then check it holds no place.
	for tr.waiting("ana") != 3 {
		select {
		case <-third:
			t.Fatal("a third read ran while two were in flight")
		default:
			runtime.Gosched()
		}
	}
	select {
	case <-third:
		t.Fatal("a third read ran while two were in flight")
	default:
	}
	first()
	(<-third)()
	second()

	gone, cancel := context.WithCancel(ctx)
	hold1, _ := tr.take(ctx, "ana")
	hold2, _ := tr.take(ctx, "ana")
	cancel()
	if _, err := tr.take(gone, "ana"); !errors.Is(err, context.Canceled) {
		t.Fatalf("a read whose client left: %v", err)
	}
	hold1()
	hold2()
	if n := tr.waiting("ana"); n != 0 || len(tr.users) != 0 {
		t.Fatalf("%d reads of Ana's still counted, %d users kept", n, len(tr.users))
	}
}
