package practice_test

import (
	"bytes"
	"context"
	"net/http"
	"testing"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/history"
	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/practice/practicetest"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

// practiceRows is every row of the tables a student's practice lives in,
// and the account counters practice moves, as text: what a refused
// request must leave as it found it.
func practiceRows(t *testing.T, db *store.DB) string {
	t.Helper()
	return storetest.Rows(t, db,
		`SELECT * FROM practice_sessions ORDER BY id`,
		`SELECT * FROM practice_items ORDER BY id`,
		`SELECT * FROM saved_sessions ORDER BY id`,
		`SELECT * FROM processed_sessions ORDER BY session_id`,
		`SELECT path, offset_bytes, item_id, LENGTH(data) FROM practice_audio ORDER BY path, offset_bytes`,
		`SELECT * FROM practice_voices ORDER BY user_id`,
		`SELECT email, usage_count FROM users ORDER BY email`,
		`SELECT kind, args FROM river_job ORDER BY id`)
}

// Another student who calls any operation on a student's session, answer
// or saved session with their real ids is answered that there is no such
// thing, and nothing of the owner's changes: not their rows, not their
// counters, no job queued. Each owner's row is found by a statement that
// names the user in its WHERE, before (or as) anything is written; a
// check made in Go after loading the rows let a statement that lost its
// owner filter write first.
func TestAnotherStudentCanNeitherSeeNorChangeAStudentsPractice(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.New(t, db, func(c *practice.Config) { c.MaxAttempts = 1 })
		ana, bob := f.User(t, "ana@example.com"), f.User(t, "bob@example.com")
		ctx := context.Background()
		rec := practicetest.Recording(t)
		const mime = "audio/webm;codecs=opus"

		// Ana's finished session: a failed answer she may retry, a scored
		// one she may correct, a skipped question; saved.
		done := f.Start(t, ana(), 3)
		f.Whisper.FailNext(1, http.StatusServiceUnavailable)
		f.Upload(t, ana(), done, 0)
		f.WaitProcessed(t, ana(), done.ID)
		f.Upload(t, ana(), done, 1)
		f.WaitProcessed(t, ana(), done.ID)
		if _, err := f.Practice.Complete(ctx, ana(), done.ID, 60); err != nil {
			t.Fatal(err)
		}
		processed := f.WaitProcessed(t, ana(), done.ID)
		failed, scored := processed.Items[0], processed.Items[1]
		if !failed.CanRetry || scored.Status != practice.StatusDone || scored.Transcript == nil {
			t.Fatalf("setup: want a retryable failure and a scored answer, got %+v", processed.Items)
		}
		saved, err := f.History.Save(ctx, ana(), done.ID, "Ana's practice")
		if err != nil {
			t.Fatal(err)
		}
		// Ana's session in progress: a question unanswered, one whose
		// recording is arriving in pieces.
		open := f.Start(t, ana(), 3)
		pending, streaming := open.Items[0], open.Items[1]
		half := len(rec) / 2
		if _, err := f.Practice.AppendAudio(ctx, ana(), open.ID, streaming.ID, 0, mime, rec[:half]); err != nil {
			t.Fatal(err)
		}
		// What Ana's requests were admitted to: Bob's requests reach the
		// step after admission with them only if admission let him by.
		admittedPending, err := f.Practice.AdmitAnswer(ctx, ana(), open.ID, pending.ID)
		if err != nil {
			t.Fatal(err)
		}
		admittedStreaming, err := f.Practice.AdmitAnswer(ctx, ana(), open.ID, streaming.ID)
		if err != nil {
			t.Fatal(err)
		}

		before := practiceRows(t, db)
		for _, tc := range []struct {
			name string
			call func() error
			// msg is the refusal's text, where the operation names it.
			msg string
		}{
			{"get", func() error { _, err := f.Practice.Get(ctx, bob(), done.ID); return err }, practice.MsgSessionNotFound},
			{"earlier attempts", func() error { _, err := f.History.EarlierAttempts(ctx, bob(), done.ID); return err }, practice.MsgSessionNotFound},
			{"complete", func() error { _, err := f.Practice.Complete(ctx, bob(), open.ID, 60); return err }, practice.MsgSessionNotFound},
			{"save", func() error { _, err := f.History.Save(ctx, bob(), done.ID, "Bob's now"); return err }, practice.MsgSessionNotFound},
			{"get saved", func() error { _, err := f.History.GetSaved(ctx, bob(), saved.ID); return err }, history.MsgSavedNotFound},
			{"skip", func() error { _, err := f.Practice.Skip(ctx, bob(), open.ID, pending.ID); return err }, practice.MsgSessionNotFound},
			{"retry", func() error { _, err := f.Practice.Retry(ctx, bob(), done.ID, failed.ID); return err }, practice.MsgSessionNotFound},
			{"correct a scored answer", func() error {
				_, err := f.Practice.CorrectTranscript(ctx, bob(), done.ID, scored.ID, practicetest.Corrected)
				return err
			}, practice.MsgSessionNotFound},
			{"correct an unscored answer", func() error {
				_, err := f.Practice.CorrectTranscript(ctx, bob(), open.ID, pending.ID, practicetest.Corrected)
				return err
			}, practice.MsgSessionNotFound},
			{"admit an answer", func() error { _, err := f.Practice.AdmitAnswer(ctx, bob(), open.ID, pending.ID); return err }, practice.MsgSessionNotFound},
			{"upload", func() error {
				_, err := f.Practice.Upload(ctx, bob(), open.ID, pending.ID, mime, bytes.NewReader(rec))
				return err
			}, practice.MsgSessionNotFound},
			{"upload past admission", func() error {
				_, err := f.Practice.UploadAdmitted(ctx, bob(), admittedPending, mime, bytes.NewReader(rec))
				return err
			}, practice.MsgSessionNotFound},
			{"first piece past admission", func() error {
				_, err := f.Practice.AppendAdmitted(ctx, bob(), admittedPending, 0, mime, rec[:half], "")
				return err
			}, practice.MsgSessionNotFound},
			{"next piece past admission", func() error {
				_, err := f.Practice.AppendAdmitted(ctx, bob(), admittedStreaming, int64(half), mime, rec[half:], "")
				return err
			}, practice.MsgSessionNotFound},
			{"finish a recording", func() error {
				_, err := f.Practice.FinishAudio(ctx, bob(), open.ID, streaming.ID, int64(half), practice.Observed{})
				return err
			}, practice.MsgSessionNotFound},
			{"answer in writing", func() error {
				_, err := f.Practice.AnswerInWriting(ctx, bob(), open.ID, pending.ID, "Bob's words")
				return err
			}, practice.MsgSessionNotFound},
		} {
			err := tc.call()
			if e, ok := apperr.As(err); !ok || e.Kind != apperr.KindNotFound || e.Message != tc.msg {
				t.Errorf("%s: Bob got %v; want not found (%q)", tc.name, err, tc.msg)
			}
			if after := practiceRows(t, db); after != before {
				t.Fatalf("%s: Bob's request changed Ana's rows:\nbefore:\n%s\nafter:\n%s", tc.name, before, after)
			}
		}

		// Ana still reaches all of it.
		if _, err := f.History.GetSaved(ctx, ana(), saved.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := f.Practice.FinishAudio(ctx, ana(), open.ID, streaming.ID, int64(half), practice.Observed{}); err != nil {
			t.Fatal(err)
		}
	})
}
