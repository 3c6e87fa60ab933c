package share

import (
	"testing"
	"time"
)

// A link opens until the instant its lifetime ends; one turned off says
// so even once its date has passed too, so the reviewer is told what the
// student did rather than what the calendar did.
func TestALinksStateAtATime(t *testing.T) {
	made := time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)
	week, ok := ExpirySevenDays.lifetime()
	if !ok || week != 7*24*time.Hour {
		t.Fatalf("7 days lasts %v (%v)", week, ok)
	}
	if month, ok := ExpiryThirtyDays.lifetime(); !ok || month != 30*24*time.Hour {
		t.Fatalf("30 days lasts %v (%v)", month, ok)
	}
	if _, ok := ExpiryUntilRevoked.lifetime(); ok {
		t.Fatal("a link until revoked has an end")
	}
	end := made.Add(week)
	revoked := made.Add(time.Hour)
	for _, tc := range []struct {
		name string
		link Link
		at   time.Time
		want State
	}{
		{"just before its end", Link{ExpiresAt: &end}, end.Add(-time.Microsecond), StateActive},
		{"at its end", Link{ExpiresAt: &end}, end, StateExpired},
		{"until revoked, a year on", Link{}, made.AddDate(1, 0, 0), StateActive},
		{"turned off", Link{RevokedAt: &revoked}, revoked, StateRevoked},
		{"turned off, then past its end", Link{ExpiresAt: &end, RevokedAt: &revoked}, end.Add(time.Hour), StateRevoked},
	} {
		if got := stateAt(tc.link, tc.at); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}
