package practice_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

// storedAudio is how many bytes of recordings the database holds.
func storedAudio(t *testing.T, db *store.DB) int {
	t.Helper()
	var n int
	if err := db.SQL.QueryRow(`SELECT COALESCE(SUM(LENGTH(data)), 0) FROM practice_audio`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// forgetScratch empties the audio directory, as if the pieces so far had
// gone to another copy of the server.
func (f *fixture) forgetScratch(t *testing.T) {
	t.Helper()
	for _, path := range f.audioFiles(t) {
		if err := os.RemoveAll(path); err != nil {
			t.Fatal(err)
		}
	}
}

// An answer lives in the database from its first piece until it is
// transcribed: a copy that did not receive the earlier pieces takes the
// next ones and transcribes it, and then it is kept nowhere.
func TestAnAnswerLivesInTheDatabaseUntilTranscribed(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db, nil)
		ana := f.user(t, "ana@example.com")
		ctx := context.Background()
		s, err := f.svc.Create(ctx, ana(), practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "random", QuestionCount: 3})
		if err != nil {
			t.Fatal(err)
		}
		rec := recording(t)
		half := len(rec) / 2
		appendAt := func(item string, offset int, piece []byte) (int64, error) {
			return f.svc.AppendAudio(ctx, ana(), s.ID, item, int64(offset), "audio/webm;codecs=opus", piece)
		}

		if _, err := appendAt(s.Items[0].ID, 0, rec[:half]); err != nil {
			t.Fatal(err)
		}
		if got := storedAudio(t, db); got != half {
			t.Fatalf("the database holds %d bytes after a %d-byte first piece", got, half)
		}
		f.forgetScratch(t)
		if n, err := appendAt(s.Items[0].ID, half, rec[half:]); err != nil || n != int64(len(rec)) {
			t.Fatalf("the next piece on a copy without the first: %d, %v", n, err)
		}
		f.forgetScratch(t)
		if _, err := f.svc.FinishAudio(ctx, ana(), s.ID, s.Items[0].ID, int64(len(rec))); err != nil {
			t.Fatal(err)
		}
		// Transcribed before the directory is emptied again below: that
		// would take the scratch copy from under the speech engine.
		f.waitProcessed(t, ana(), s.ID)

		// A recording in neither the database nor this copy's directory is gone.
		if _, err := appendAt(s.Items[1].ID, 0, rec[:half]); err != nil {
			t.Fatal(err)
		}
		if _, err := db.SQL.Exec(`DELETE FROM practice_audio WHERE item_id = $1`, s.Items[1].ID); err != nil {
			t.Fatal(err)
		}
		f.forgetScratch(t)
		_, err = appendAt(s.Items[1].ID, half, rec[half:])
		wantKind(t, err, apperr.KindConflict, practice.MsgRecordingGone)
		if _, err := f.svc.Skip(ctx, ana(), s.ID, s.Items[1].ID); err != nil {
			t.Fatal(err)
		}

		if _, err := f.svc.Upload(ctx, ana(), s.ID, s.Items[2].ID, "audio/webm;codecs=opus", strings.NewReader(string(rec))); err != nil {
			t.Fatal(err)
		}
		got := f.waitProcessed(t, ana(), s.ID)
		for _, i := range []int{0, 2} {
			if it := got.Items[i]; it.Status != practice.StatusDone || it.Transcript == nil || *it.Transcript != spoken {
				t.Fatalf("answer %d: %+v", i, it)
			}
		}
		if n := storedAudio(t, db); n != 0 {
			t.Fatalf("%d bytes of recordings left in the database after transcription", n)
		}
		if files := f.audioFiles(t); len(files) != 0 {
			t.Fatalf("scratch copies left: %v", files)
		}
	})
}
