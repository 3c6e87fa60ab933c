package tryout

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

// The browser polls a try every second while it is scored: loading it
// for that reads its state, never its recording (up to 8 MiB), which only
// the job that transcribes it reads.
func TestPollingATryDoesNotReadItsRecording(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		now := time.Now()
		recording := bytes.Repeat([]byte{0x1a, 0x45, 0xdf, 0xa3}, 1<<18)
		try := stored{Try: Try{ID: "try-id", Profession: "dental", Kind: KindSpoken, Status: StatusQueued, ExpiresAt: now.Add(Lifetime)},
			audio: recording, audioMIME: "audio/webm"}
		if err := insertTry(ctx, db.SQL, try, "network", now); err != nil {
			t.Fatal(err)
		}
		polled, err := loadTry(ctx, db.SQL, try.ID, now)
		if err != nil {
			t.Fatal(err)
		}
		if polled.audio != nil || polled.Status != StatusQueued {
			t.Fatalf("polling read %d bytes of recording (status %s)", len(polled.audio), polled.Status)
		}
		if audio, err := loadRecording(ctx, db.SQL, try.ID); err != nil || !bytes.Equal(audio, recording) {
			t.Fatalf("the job read %d bytes of recording: %v", len(audio), err)
		}
	})
}
