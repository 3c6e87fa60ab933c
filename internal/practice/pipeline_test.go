package practice_test

import (
	"context"
	"io/fs"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/billing"
	"github.com/whitecoat/whitecoat/internal/history"
	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/practice/practicetest"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

func TestEngineOutageIsRiddenOut(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.New(t, db, nil)
		reload := f.User(t, "ana@example.com")
		s, err := f.Practice.Create(context.Background(), reload(), practice.CreateInput{Profession: "pharmacy", Mode: "audio", InterviewType: "random", QuestionCount: 1})
		if err != nil {
			t.Fatal(err)
		}
		f.Whisper.FailNext(3, http.StatusServiceUnavailable)
		f.Upload(t, reload(), s, 0)
		got := f.WaitProcessed(t, reload(), s.ID)
		if it := got.Items[0]; it.Status != practice.StatusDone || it.Feedback == nil {
			t.Fatalf("after the outage: %+v", it)
		}
		if n := f.Whisper.Failed(); n != 3 {
			t.Fatalf("the service failed %d requests, want 3: the outage did not happen as staged", n)
		}
	})
}

func TestBadRecordingsGetClearErrors(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.New(t, db, nil)
		reload := f.User(t, "ana@example.com")
		ctx := context.Background()
		s, err := f.Practice.Create(ctx, reload(), practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "random", QuestionCount: 2})
		if err != nil {
			t.Fatal(err)
		}
		_, err = f.Practice.Upload(ctx, reload(), s.ID, s.Items[0].ID, "audio/webm", strings.NewReader("just some text pretending to be audio"))
		practicetest.WantKind(t, err, apperr.KindInvalid, "not a recording")
		if entries, _ := os.ReadDir(f.Audio); len(entries) != 0 {
			t.Fatal("a rejected upload was kept")
		}

		// A recording cut off after its header: accepted, then failed with a reason.
		rec := practicetest.Recording(t)
		if _, err := f.Practice.Upload(ctx, reload(), s.ID, s.Items[1].ID, "audio/webm", strings.NewReader(string(rec[:200]))); err != nil {
			t.Fatal(err)
		}
		got := f.WaitProcessed(t, reload(), s.ID)
		it := got.Items[1]
		if it.Status != practice.StatusFailed || it.Error == "" || it.Transcript != nil || it.CanRetry {
			t.Fatalf("truncated recording: %+v", it)
		}
		_, err = f.Practice.Retry(ctx, reload(), s.ID, it.ID)
		practicetest.WantKind(t, err, apperr.KindConflict, "no longer available")

		// Re-recording a failed answer works.
		f.Upload(t, reload(), s, 1)
		if got := f.WaitProcessed(t, reload(), s.ID); got.Items[1].Status != practice.StatusDone {
			t.Fatalf("re-recorded answer: %+v", got.Items[1])
		}
	})
}

func TestRequestsAreCheckedAndChangeNothingWhenRefused(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.New(t, db, func(c *practice.Config) { c.DailyAnswerLimit = 2; c.MaxAudioBytes = 64 << 10 })
		ana, bob := f.User(t, "ana@example.com"), f.User(t, "bob@example.com")
		ctx := context.Background()
		s, err := f.Practice.Create(ctx, ana(), practice.CreateInput{Profession: "medical", Mode: "video", InterviewType: "random", QuestionCount: 4})
		if err != nil {
			t.Fatal(err)
		}
		rec := string(practicetest.Recording(t))
		_, err = f.Practice.Get(ctx, bob(), s.ID)
		practicetest.WantKind(t, err, apperr.KindNotFound, "No such practice session")
		_, err = f.Practice.Upload(ctx, bob(), s.ID, s.Items[0].ID, "audio/webm", strings.NewReader(rec))
		practicetest.WantKind(t, err, apperr.KindNotFound, "No such practice session")
		_, err = f.Practice.Upload(ctx, ana(), s.ID, "no-such-item", "audio/webm", strings.NewReader(rec))
		practicetest.WantKind(t, err, apperr.KindNotFound, "No such question")
		_, err = f.Practice.Upload(ctx, ana(), "no-such-session", s.Items[0].ID, "audio/webm", strings.NewReader(rec))
		practicetest.WantKind(t, err, apperr.KindNotFound, "No such practice session")
		_, err = f.Practice.Upload(ctx, ana(), s.ID, s.Items[0].ID, "audio/webm", strings.NewReader(rec+strings.Repeat("x", 70<<10)))
		practicetest.WantKind(t, err, apperr.KindTooLarge, "too large")
		_, err = f.Practice.Skip(ctx, bob(), s.ID, s.Items[0].ID)
		practicetest.WantKind(t, err, apperr.KindNotFound, "")
		_, err = f.Practice.Complete(ctx, bob(), s.ID, 10)
		practicetest.WantKind(t, err, apperr.KindNotFound, "")

		f.Upload(t, ana(), s, 0)
		_, err = f.Practice.Upload(ctx, ana(), s.ID, s.Items[0].ID, "audio/webm", strings.NewReader(rec))
		practicetest.WantKind(t, err, apperr.KindConflict, "already has an answer")
		_, err = f.Practice.Skip(ctx, ana(), s.ID, s.Items[0].ID)
		practicetest.WantKind(t, err, apperr.KindConflict, "unanswered")
		f.Upload(t, ana(), s, 1)
		_, err = f.Practice.Upload(ctx, ana(), s.ID, s.Items[2].ID, "audio/webm", strings.NewReader(rec))
		practicetest.WantKind(t, err, apperr.KindForbidden, practice.MsgHeavyUsage)

		got := f.WaitProcessed(t, ana(), s.ID)
		if got.Items[2].Status != practice.StatusPending || got.Items[3].Status != practice.StatusPending {
			t.Fatalf("refused requests changed items: %+v", got.Items)
		}
		if u := ana(); u.UsageCount != 2 {
			t.Fatalf("usage count %d after 2 accepted uploads", u.UsageCount)
		}
		if _, err := f.Practice.Complete(ctx, ana(), s.ID, 60); err != nil {
			t.Fatal(err)
		}
		_, err = f.Practice.Upload(ctx, ana(), s.ID, s.Items[3].ID, "audio/webm", strings.NewReader(rec))
		practicetest.WantKind(t, err, apperr.KindConflict, practice.MsgSessionCompleted)
	})
}

func TestTrialAllowsTwoSessions(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.New(t, db, nil)
		reload := f.User(t, "ana@example.com")
		ctx := context.Background()
		in := practice.CreateInput{Profession: "pa", Mode: "audio", InterviewType: "random", QuestionCount: 1}

		first, err := f.Practice.Create(ctx, reload(), in)
		if err != nil {
			t.Fatal(err)
		}
		f.Upload(t, reload(), first, 0)
		if _, err := f.Practice.Complete(ctx, reload(), first.ID, 30); err != nil {
			t.Fatal(err)
		}
		// The second is left unfinished with an answer in it; starting a
		// third completes it, so it counts, and the trial is used up.
		second, err := f.Practice.Create(ctx, reload(), in)
		if err != nil {
			t.Fatal(err)
		}
		f.Upload(t, reload(), second, 0)
		_, err = f.Practice.Create(ctx, reload(), in)
		practicetest.WantKind(t, err, apperr.KindForbidden, billing.MsgLocked)
		f.WaitStats(t, reload, 2)
		_, err = f.Practice.Create(ctx, reload(), in)
		practicetest.WantKind(t, err, apperr.KindForbidden, billing.MsgLocked)
		d, err := f.History.Dashboard(ctx, reload())
		if err != nil {
			t.Fatal(err)
		}
		if d.Access.PracticeEnabled || d.Access.FreeSessionsRemaining != 0 || d.Stats.SessionsCompleted != 2 {
			t.Fatalf("dashboard after the trial: %+v", d)
		}
	})
}

func TestSaveAndReview(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.New(t, db, nil)
		ana, bob := f.User(t, "ana@example.com"), f.User(t, "bob@example.com")
		ctx := context.Background()
		s, err := f.Practice.Create(ctx, ana(), practice.CreateInput{Profession: "vet", Mode: "audio", InterviewType: "custom",
			Questions: []practice.CustomQuestion{{"First?"}, {"Second?"}, {"Third?"}}})
		practicetest.WantKind(t, err, apperr.KindInvalid, "Unknown profession")
		s, err = f.Practice.Create(ctx, ana(), practice.CreateInput{Profession: "veterinary", Mode: "audio", InterviewType: "custom",
			Questions: []practice.CustomQuestion{{"First?"}, {"Second?"}, {"Third?"}}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Practice.Skip(ctx, ana(), s.ID, s.Items[0].ID); err != nil {
			t.Fatal(err)
		}
		f.Upload(t, ana(), s, 1)
		_, err = f.History.Save(ctx, ana(), s.ID, "")
		practicetest.WantKind(t, err, apperr.KindConflict, "Complete the session")
		if _, err := f.Practice.Complete(ctx, ana(), s.ID, 95); err != nil {
			t.Fatal(err)
		}
		f.WaitProcessed(t, ana(), s.ID)
		saved, err := f.History.Save(ctx, ana(), s.ID, "   ")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(saved.Title, "Session ") || saved.Counts != (history.Counts{TotalQuestions: 3, Answered: 1, Skipped: 2}) ||
			saved.TotalSessionTime != 95 || saved.Profession != "veterinary" {
			t.Fatalf("saved %+v", saved)
		}
		if saved.Items[0].Question != "Second?" || practicetest.TextOf(saved.Items[0].Transcript) != practicetest.Spoken || saved.Items[0].Feedback == nil ||
			saved.Items[0].Status != practice.StatusDone || saved.Items[0].Meaningful == nil || !*saved.Items[0].Meaningful ||
			!saved.Items[1].Skipped || saved.Items[1].Status != practice.StatusSkipped || !saved.Items[2].Skipped {
			t.Fatalf("saved items (skipped last): %+v", saved.Items)
		}
		again, err := f.History.Save(ctx, ana(), s.ID, "Mock interview with Dr. Lee")
		if err != nil || again.ID != saved.ID || again.Title != "Mock interview with Dr. Lee" {
			t.Fatalf("saving twice: %+v %v", again, err)
		}
		_, err = f.History.GetSaved(ctx, bob(), saved.ID)
		practicetest.WantKind(t, err, apperr.KindNotFound, "")
		d, err := f.History.Dashboard(ctx, ana())
		if err != nil || len(d.RecentSessions) != 1 || d.RecentSessions[0].Title != "Mock interview with Dr. Lee" {
			t.Fatalf("dashboard: %+v %v", d, err)
		}
		if bd, _ := f.History.Dashboard(ctx, bob()); len(bd.RecentSessions) != 0 {
			t.Fatalf("another user's dashboard shows %d sessions", len(bd.RecentSessions))
		}
	})
}

func TestSweepDeletesOnlyWhatNoAnswerNeeds(t *testing.T) {
	t.Parallel()
	f := practicetest.New(t, storetest.SQLite(t), func(c *practice.Config) { c.StuckAfter = 10 * time.Minute })
	ctx := context.Background()
	reload := f.User(t, "ana@example.com")
	// A recording an answer still waits on (made to look old), kept.
	f.Whisper.FailNext(math.MaxInt, http.StatusServiceUnavailable)
	s, err := f.Practice.Create(ctx, reload(), practice.CreateInput{Profession: "ot", Mode: "audio", InterviewType: "random", QuestionCount: 1})
	if err != nil {
		t.Fatal(err)
	}
	f.Upload(t, reload(), s, 0)
	// The recording is a file; the engine's work directory for the
	// transcription the upload queued may be there beside it, or not yet.
	entries, _ := os.ReadDir(f.Audio)
	entries = slices.DeleteFunc(entries, fs.DirEntry.IsDir)
	if len(entries) != 1 {
		t.Fatalf("%d files after one upload", len(entries))
	}
	waiting := filepath.Join(f.Audio, entries[0].Name())

	old := time.Now().Add(-30 * time.Minute)
	orphan, fresh, workDir, newDir := filepath.Join(f.Audio, "orphan.webm"), filepath.Join(f.Audio, "fresh.webm"),
		filepath.Join(f.Audio, "whitecoat-stt-old"), filepath.Join(f.Audio, "whitecoat-stt-new")
	// The local engine keeps its dictionary in a directory here for as
	// long as it runs; sweeping it broke every decoder started later.
	engineDir := filepath.Join(f.Audio, "whitecoat-sphinx-dictionary")
	for _, p := range []string{orphan, fresh} {
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{workDir, newDir, engineDir} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{waiting, orphan} {
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	older := time.Now().Add(-20 * time.Minute)
	for _, d := range []string{workDir, engineDir} {
		if err := os.Chtimes(d, older, older); err != nil {
			t.Fatal(err)
		}
	}
	n, err := f.Practice.SweepAudio(ctx)
	if err != nil || n != 2 {
		t.Fatalf("swept %d (%v), want the orphan and the old work directory", n, err)
	}
	for _, keep := range []string{waiting, fresh, newDir, engineDir} {
		if _, err := os.Stat(keep); err != nil {
			t.Errorf("%s was swept", filepath.Base(keep))
		}
	}
}

func TestSimultaneousRetriesQueueTheAnswerOnce(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.New(t, db, func(c *practice.Config) { c.MaxAttempts = 1 })
		reload := f.User(t, "ana@example.com")
		ctx := context.Background()
		s, err := f.Practice.Create(ctx, reload(), practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "random", QuestionCount: 1})
		if err != nil {
			t.Fatal(err)
		}
		f.Whisper.FailNext(1, http.StatusServiceUnavailable)
		f.Upload(t, reload(), s, 0)
		failed := f.WaitProcessed(t, reload(), s.ID).Items[0]
		if failed.Status != practice.StatusFailed || !failed.CanRetry {
			t.Fatalf("setup: want a failed answer that can be retried, got %+v", failed)
		}
		// The retried answer stays in transcription while the requests arrive.
		f.Whisper.SetDelay(2 * time.Second)
		const n = 8
		u, start, errs := reload(), make(chan struct{}), make(chan error, n)
		for range n {
			go func() {
				<-start
				_, err := f.Practice.Retry(ctx, u, s.ID, failed.ID)
				errs <- err
			}()
		}
		close(start)
		queued := 0
		for range n {
			if err := <-errs; err != nil {
				practicetest.WantKind(t, err, apperr.KindConflict, "")
			} else {
				queued++
			}
		}
		if queued != 1 {
			t.Fatalf("%d of %d simultaneous retries answered that they queued the answer; one did", queued, n)
		}
	})
}

func TestAFailedAnswerIsToldByItsStatus(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.New(t, db, nil)
		reload := f.User(t, "ana@example.com")
		ctx := context.Background()
		s, err := f.Practice.Create(ctx, reload(), practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "random", QuestionCount: 1})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Practice.Upload(ctx, reload(), s.ID, s.Items[0].ID, "audio/webm", strings.NewReader(string(practicetest.Recording(t)[:200]))); err != nil {
			t.Fatal(err)
		}
		if _, err := f.Practice.Complete(ctx, reload(), s.ID, 30); err != nil {
			t.Fatal(err)
		}
		got := f.WaitProcessed(t, reload(), s.ID).Items[0]
		if got.Status != practice.StatusFailed || got.Error == "" || got.Transcript != nil || got.Feedback != nil {
			t.Fatalf("failed answer: %+v", got)
		}
		saved, err := f.History.Save(ctx, reload(), s.ID, "")
		if err != nil {
			t.Fatal(err)
		}
		if it := saved.Items[0]; it.Status != practice.StatusFailed || it.Transcript != nil || it.Feedback != nil || it.LegacyFeedback != "" {
			t.Fatalf("saved failed answer: %+v", it)
		}
	})
}

// Older versions wrote "Error" and "Error generating feedback" into a failed
// answer's transcript and feedback; they read back as a failed status.
func TestFailuresSavedByOlderVersionsReadAsFailed(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.New(t, db, nil)
		reload := f.User(t, "ana@example.com")
		ctx := context.Background()
		items := `[
			{"question": "Q1", "tip": "", "skipped": false, "transcript": "Error", "feedback": "Error generating feedback"},
			{"question": "Q2", "tip": "", "status": "failed", "skipped": false, "transcript": "Error", "feedback": "Error generating feedback"},
			{"question": "Q3", "tip": "", "status": "failed", "skipped": false, "transcript": "I care.", "feedback": "Error generating feedback"},
			{"question": "Q4", "tip": "", "skipped": false, "transcript": "I care.", "feedback": "Good answer."},
			{"question": "Q5", "tip": "", "skipped": false, "transcript": "Thank you.", "feedback": null},
			{"question": "Q6", "tip": "", "status": "skipped", "skipped": true, "transcript": "", "feedback": null}
		]`
		if _, err := db.SQL.ExecContext(ctx, `INSERT INTO saved_sessions (id, user_id, title, profession, created_at, overall_avg,
			total_session_time, total_questions, answered, skipped, items) VALUES ('old', $1, 'Old', 'dental', $2, 0, 60, 6, 5, 1, $3)`,
			reload().ID, time.Now(), items); err != nil {
			t.Fatal(err)
		}
		sv, err := f.History.GetSaved(ctx, reload(), "old")
		if err != nil {
			t.Fatal(err)
		}
		// Every version's rows read as an answer that ended: done (the
		// oldest, meaningful when they had feedback), failed or skipped.
		for i, want := range []struct {
			question   string
			status     practice.ItemStatus
			transcript string
			legacy     string
		}{
			{"Q1", practice.StatusFailed, "", ""},
			{"Q2", practice.StatusFailed, "", ""},
			{"Q3", practice.StatusFailed, "I care.", ""},
			{"Q4", practice.StatusDone, "I care.", "Good answer."},
			{"Q5", practice.StatusDone, "Thank you.", ""},
			{"Q6", practice.StatusSkipped, "", ""},
		} {
			got := sv.Items[i]
			meaningful := want.legacy != ""
			if got.Question != want.question || got.Status != want.status || practicetest.TextOf(got.Transcript) != want.transcript || got.LegacyFeedback != want.legacy ||
				(want.status == practice.StatusDone) != (got.Meaningful != nil) || (got.Meaningful != nil && *got.Meaningful != meaningful) ||
				(want.status == practice.StatusSkipped) != (got.Transcript == nil && got.Status != practice.StatusFailed) {
				t.Errorf("item %d: got %+v, want %+v", i, got, want)
			}
		}

		// A practice session's failed answer, as older versions stored it.
		s, err := f.Practice.Create(ctx, reload(), practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "random", QuestionCount: 1})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.SQL.ExecContext(ctx, `UPDATE practice_items SET status = 'failed', error = 'Bad audio.', transcript = 'Error' WHERE id = $1`, s.Items[0].ID); err != nil {
			t.Fatal(err)
		}
		got, err := f.Practice.Get(ctx, reload(), s.ID)
		if err != nil {
			t.Fatal(err)
		}
		if it := got.Items[0]; it.Status != practice.StatusFailed || it.Transcript != nil {
			t.Fatalf("older failed answer: %+v", it)
		}
	})
}

// Save tries again once when a double click saved the copy first; a
// unique violation that does not clear (here, a copy of the session held
// by another account, which no request makes) is an error, not an endless
// retry: before, Save called itself until the stack overflowed.
func TestSaveRetriesARaceOnce(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.New(t, db, nil)
		ana, bob := f.User(t, "ana@example.com"), f.User(t, "bob@example.com")
		ctx := context.Background()
		s := f.Practise(t, ana, "I care about patients.", practicetest.CustomSession("dental", "Why dentistry?"))
		if _, err := db.SQL.ExecContext(ctx, `INSERT INTO saved_sessions (id, user_id, practice_session_id, title, profession, created_at,
			overall_avg, total_session_time, total_questions, answered, skipped, items) VALUES ('stray', $1, $2, 'Stray', 'dental', $3, 0, 0, 1, 1, 0, '[]')`,
			bob().ID, s.ID, time.Now()); err != nil {
			t.Fatal(err)
		}
		if _, err := f.History.Save(ctx, ana(), s.ID, "Mine"); err == nil || !store.IsUniqueViolation(err) {
			t.Fatalf("saving over a copy that is not hers: %v", err)
		}
	})
}

// Retrying a failed answer processes it as an answer: once the trial has
// ended it is refused like a new recording, so a retry cannot score a
// free session the trial no longer gives (before, Retry checked only the
// answer's status).
func TestARetryAfterTheTrialEndedIsRefused(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		var now atomic.Int64
		now.Store(time.Now().UnixNano())
		f := practicetest.NewClocked(t, db, func() time.Time { return time.Unix(0, now.Load()) }, func(c *practice.Config) { c.MaxAttempts = 1 })
		ana := f.User(t, "ana@example.com")
		ctx := context.Background()
		s, err := f.Practice.Create(ctx, ana(), practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "random", QuestionCount: 1})
		if err != nil {
			t.Fatal(err)
		}
		f.Whisper.FailNext(1, http.StatusServiceUnavailable)
		f.Upload(t, ana(), s, 0)
		it := f.WaitProcessed(t, ana(), s.ID).Items[0]
		if it.Status != practice.StatusFailed || !it.CanRetry {
			t.Fatalf("the staged outage left %+v", it)
		}
		now.Add(int64(8 * 24 * time.Hour))
		_, err = f.Practice.Retry(ctx, ana(), s.ID, it.ID)
		practicetest.WantKind(t, err, apperr.KindForbidden, billing.MsgLocked)
		if got, _ := f.Practice.Get(ctx, ana(), s.ID); got.Items[0].Status != practice.StatusFailed {
			t.Fatalf("the refused retry moved the answer to %s", got.Items[0].Status)
		}
	})
}
