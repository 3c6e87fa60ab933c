package practice_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/practice/practicetest"
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
func forgetScratch(t *testing.T, f *practicetest.Fixture) {
	t.Helper()
	for _, path := range audioFiles(t, f) {
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
		f := practicetest.New(t, db, nil)
		ana := f.User(t, "ana@example.com")
		ctx := context.Background()
		s, err := f.Practice.Create(ctx, ana(), practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "random", QuestionCount: 3})
		if err != nil {
			t.Fatal(err)
		}
		rec := practicetest.Recording(t)
		half := len(rec) / 2
		appendAt := func(item string, offset int, piece []byte) (int64, error) {
			return f.Practice.AppendAudio(ctx, ana(), s.ID, item, int64(offset), "audio/webm;codecs=opus", piece)
		}

		if _, err := appendAt(s.Items[0].ID, 0, rec[:half]); err != nil {
			t.Fatal(err)
		}
		if got := storedAudio(t, db); got != half {
			t.Fatalf("the database holds %d bytes after a %d-byte first piece", got, half)
		}
		forgetScratch(t, f)
		if n, err := appendAt(s.Items[0].ID, half, rec[half:]); err != nil || n != int64(len(rec)) {
			t.Fatalf("the next piece on a copy without the first: %d, %v", n, err)
		}
		forgetScratch(t, f)
		if _, err := f.Practice.FinishAudio(ctx, ana(), s.ID, s.Items[0].ID, int64(len(rec)), practice.Observed{}); err != nil {
			t.Fatal(err)
		}
		// Transcribed before the directory is emptied again below: that
		// would take the scratch copy from under the speech engine.
		f.WaitProcessed(t, ana(), s.ID)

		// A recording in neither the database nor this copy's directory is gone.
		if _, err := appendAt(s.Items[1].ID, 0, rec[:half]); err != nil {
			t.Fatal(err)
		}
		if _, err := db.SQL.Exec(`DELETE FROM practice_audio WHERE item_id = $1`, s.Items[1].ID); err != nil {
			t.Fatal(err)
		}
		forgetScratch(t, f)
		_, err = appendAt(s.Items[1].ID, half, rec[half:])
		practicetest.WantKind(t, err, apperr.KindConflict, practice.MsgRecordingGone)
		if _, err := f.Practice.Skip(ctx, ana(), s.ID, s.Items[1].ID); err != nil {
			t.Fatal(err)
		}

		if _, err := f.Practice.Upload(ctx, ana(), s.ID, s.Items[2].ID, "audio/webm;codecs=opus", strings.NewReader(string(rec))); err != nil {
			t.Fatal(err)
		}
		got := f.WaitProcessed(t, ana(), s.ID)
		for _, i := range []int{0, 2} {
			if it := got.Items[i]; it.Status != practice.StatusDone || it.Transcript == nil || *it.Transcript != practicetest.Spoken {
				t.Fatalf("answer %d: %+v", i, it)
			}
		}
		if n := storedAudio(t, db); n != 0 {
			t.Fatalf("%d bytes of recordings left in the database after transcription", n)
		}
		if files := audioFiles(t, f); len(files) != 0 {
			t.Fatalf("scratch copies left: %v", files)
		}
	})
}
