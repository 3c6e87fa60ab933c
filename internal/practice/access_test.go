package practice_test

import (
	"bytes"
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/billing"
	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/practice/practicetest"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

var oneQuestion = practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "random", QuestionCount: 1}

// A trial user who started four sessions at once answered and completed
// all four: the trial was checked only as each was created. However the
// requests interleave, at most the free sessions take answers.
func TestParallelSessionsCannotExceedTheFreeTrial(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.New(t, db, nil)
		ana := f.User(t, "ana@example.com")
		ctx := context.Background()
		const tabs = 4
		answered := make([]bool, tabs)
		var wg sync.WaitGroup
		for i := range tabs {
			wg.Go(func() {
				s, err := f.Practice.Create(ctx, ana(), oneQuestion)
				if err != nil {
					if e, _ := apperr.As(err); e == nil || e.Message != billing.MsgLocked {
						t.Error(err)
					}
					return
				}
				_, err = f.Practice.Upload(ctx, ana(), s.ID, s.Items[0].ID, "audio/webm", bytes.NewReader(practicetest.Recording(t)))
				answered[i] = err == nil
				if _, err := f.Practice.Complete(ctx, ana(), s.ID, 60); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		n := 0
		for _, ok := range answered {
			if ok {
				n++
			}
		}
		if n > billing.FreeSessions {
			t.Fatalf("%d sessions took answers; the trial has %d", n, billing.FreeSessions)
		}
	})
}

// A second Start (another tab) replaces the session in progress when it
// has no answer yet: one session is left, and the first tab's is over.
func TestStartingAgainReplacesAnEmptySession(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.New(t, db, nil)
		ana := f.User(t, "ana@example.com")
		ctx := context.Background()
		first, err := f.Practice.Create(ctx, ana(), oneQuestion)
		if err != nil {
			t.Fatal(err)
		}
		second, err := f.Practice.Create(ctx, ana(), oneQuestion)
		if err != nil {
			t.Fatal(err)
		}
		_, err = f.Practice.Upload(ctx, ana(), first.ID, first.Items[0].ID, "audio/webm", bytes.NewReader(practicetest.Recording(t)))
		practicetest.WantKind(t, err, apperr.KindConflict, practice.MsgSessionCompleted)
		f.Upload(t, ana(), second, 0)
		f.WaitProcessed(t, ana(), first.ID)
		d, err := f.History.Dashboard(ctx, ana())
		if err != nil {
			t.Fatal(err)
		}
		// The second session, answered, uses one.
		if got := d.Access.FreeSessionsRemaining; got != billing.FreeSessions-1 {
			t.Fatalf("%d free sessions left; the replaced session had no answer and uses none", got)
		}
	})
}

// An upload to a session created before the trial expired was accepted
// and scored. Every path an answer takes now applies spec §4.
func TestAnswersAfterTheTrialEndedAreRefused(t *testing.T) {
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
		if _, err := f.Practice.AppendAudio(ctx, ana(), s.ID, s.Items[2].ID, 0, "audio/webm", rec); err != nil {
			t.Fatal(err)
		}
		practicetest.EndTrial(t, db, "ana@example.com")

		_, err = f.Practice.Upload(ctx, ana(), s.ID, s.Items[0].ID, "audio/webm", bytes.NewReader(rec))
		practicetest.WantKind(t, err, apperr.KindForbidden, billing.MsgLocked)
		_, err = f.Practice.AppendAudio(ctx, ana(), s.ID, s.Items[1].ID, 0, "audio/webm", rec)
		practicetest.WantKind(t, err, apperr.KindForbidden, billing.MsgLocked)
		_, err = f.Practice.AppendAudio(ctx, ana(), s.ID, s.Items[2].ID, int64(len(rec)), "audio/webm", rec[:10])
		practicetest.WantKind(t, err, apperr.KindForbidden, billing.MsgLocked)
		_, err = f.Practice.FinishAudio(ctx, ana(), s.ID, s.Items[2].ID, int64(len(rec)), practice.Observed{})
		practicetest.WantKind(t, err, apperr.KindForbidden, billing.MsgLocked)
		got, err := f.Practice.Get(ctx, ana(), s.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range got.Items {
			if it.Status != practice.StatusPending {
				t.Fatalf("an answer was taken after the trial ended: %+v", it)
			}
		}
	})
}

// A piece is admitted, written to disk, then recorded in a transaction;
// the trial may end in between. The transaction checks spec §4 again, for
// the first piece of an answer and for the pieces after it, and the refused
// piece leaves the answer as it was.
func TestAPieceIsCheckedAgainWhenItIsRecorded(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		var (
			mu  sync.Mutex
			now = time.Now()
		)
		clock := func() time.Time {
			mu.Lock()
			defer mu.Unlock()
			return now
		}
		f := practicetest.NewClocked(t, db, clock, nil)
		ana := f.User(t, "ana@example.com")
		ctx := context.Background()
		s, err := f.Practice.Create(ctx, ana(), practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "random", QuestionCount: 2})
		if err != nil {
			t.Fatal(err)
		}
		rec := practicetest.Recording(t)
		first, later := s.Items[0], s.Items[1]
		if _, err := f.Practice.AppendAudio(ctx, ana(), s.ID, later.ID, 0, "audio/webm", rec); err != nil {
			t.Fatal(err)
		}
		admitted := map[string]practice.Item{}
		for _, it := range []practice.Item{first, later} {
			if admitted[it.ID], err = f.Practice.AdmitAnswer(ctx, ana(), s.ID, it.ID); err != nil {
				t.Fatal(err)
			}
		}
		usage := ana().UsageCount

		mu.Lock()
		now = ana().TrialExpiresAt.Add(time.Minute)
		mu.Unlock()
		_, err = f.Practice.AppendAdmitted(ctx, ana(), admitted[first.ID], 0, "audio/webm", rec, "")
		practicetest.WantKind(t, err, apperr.KindForbidden, billing.MsgLocked)
		_, err = f.Practice.AppendAdmitted(ctx, ana(), admitted[later.ID], int64(len(rec)), "audio/webm", rec[:100], "")
		practicetest.WantKind(t, err, apperr.KindForbidden, billing.MsgLocked)

		// Finishing shows what the server holds: nothing of the first
		// answer, and the later one as it was before the refused piece.
		_, err = f.Practice.FinishAudio(ctx, ana(), s.ID, first.ID, int64(len(rec)), practice.Observed{})
		practicetest.WantKind(t, err, apperr.KindConflict, "No recording was uploaded")
		mu.Lock()
		now = time.Now()
		mu.Unlock()
		if _, err := f.Practice.FinishAudio(ctx, ana(), s.ID, later.ID, int64(len(rec)), practice.Observed{}); err != nil {
			t.Fatalf("the later answer after a refused piece: %v", err)
		}
		if got := ana().UsageCount; got != usage {
			t.Fatalf("usage %d after refused pieces, was %d", got, usage)
		}
	})
}

// A request holds the account as it was when the request began; the
// transaction that records its answer decided on that copy, so an answer
// admitted before the trial ended was stored after it. The transaction
// reads the account as it stands: the first piece, a later piece and a
// whole upload are all refused, and the answers are left as they were.
func TestTheAnswerIsDecidedOnTheAccountAsItStands(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.New(t, db, nil)
		ana := f.User(t, "ana@example.com")
		ctx := context.Background()
		s := f.Start(t, ana(), 3)
		rec := practicetest.Recording(t)
		whole, first, later := s.Items[0], s.Items[1], s.Items[2]
		if _, err := f.Practice.AppendAudio(ctx, ana(), s.ID, later.ID, 0, "audio/webm", rec); err != nil {
			t.Fatal(err)
		}
		began := ana() // the account as each request found it
		var err error
		admitted := map[string]practice.Item{}
		for _, it := range []practice.Item{whole, first, later} {
			if admitted[it.ID], err = f.Practice.AdmitAnswer(ctx, began, s.ID, it.ID); err != nil {
				t.Fatal(err)
			}
		}

		practicetest.EndTrial(t, db, "ana@example.com")
		_, err = f.Practice.UploadAdmitted(ctx, began, admitted[whole.ID], "audio/webm", bytes.NewReader(rec))
		practicetest.WantKind(t, err, apperr.KindForbidden, billing.MsgLocked)
		_, err = f.Practice.AppendAdmitted(ctx, began, admitted[first.ID], 0, "audio/webm", rec, "")
		practicetest.WantKind(t, err, apperr.KindForbidden, billing.MsgLocked)
		_, err = f.Practice.AppendAdmitted(ctx, began, admitted[later.ID], int64(len(rec)), "audio/webm", rec[:100], "")
		practicetest.WantKind(t, err, apperr.KindForbidden, billing.MsgLocked)

		if got := ana().UsageCount; got != began.UsageCount {
			t.Fatalf("usage %d after refused answers, was %d", got, began.UsageCount)
		}
		// With the trial back, the server shows what it holds: nothing of
		// the first answer, the later one as it was before its refused piece.
		if _, err := db.SQL.ExecContext(ctx, `UPDATE users SET trial_expires_at = $1 WHERE email = $2`,
			began.TrialExpiresAt, "ana@example.com"); err != nil {
			t.Fatal(err)
		}
		_, err = f.Practice.FinishAudio(ctx, ana(), s.ID, first.ID, int64(len(rec)), practice.Observed{})
		practicetest.WantKind(t, err, apperr.KindConflict, "No recording was uploaded")
		if _, err := f.Practice.FinishAudio(ctx, ana(), s.ID, later.ID, int64(len(rec)), practice.Observed{}); err != nil {
			t.Fatalf("the later answer after a refused piece: %v", err)
		}
		got, err := f.Practice.Get(ctx, ana(), s.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Items[0].Status != practice.StatusPending {
			t.Fatalf("a refused whole upload was taken: %+v", got.Items[0])
		}
	})
}

// Two tabs send the first piece of an answer at the same moment, both
// admitted while the usage guard had room for one more answer. Whatever
// order their transactions run in, one answer is taken and counted; and
// two first pieces of the same answer count it once.
func TestTwoTabsStartingAnswersAtOnce(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.New(t, db, func(c *practice.Config) { c.DailyAnswerLimit = 1 })
		ana := f.User(t, "ana@example.com")
		ctx := context.Background()
		rec := practicetest.Recording(t)
		both := func(u auth.User, one, other practice.Item) [2]error {
			var errs [2]error
			var wg sync.WaitGroup
			for i, it := range []practice.Item{one, other} {
				wg.Go(func() { _, errs[i] = f.Practice.AppendAdmitted(ctx, u, it, 0, "audio/webm", rec, "") })
			}
			wg.Wait()
			return errs
		}

		s := f.Start(t, ana(), 3)
		u := ana()
		same := make([]practice.Item, 2)
		for i := range same {
			var err error
			if same[i], err = f.Practice.AdmitAnswer(ctx, u, s.ID, s.Items[0].ID); err != nil {
				t.Fatal(err)
			}
		}
		for _, err := range both(u, same[0], same[1]) {
			if err != nil {
				t.Fatalf("a first piece of the same answer sent twice: %v", err)
			}
		}
		if got := ana().UsageCount; got != 1 {
			t.Fatalf("usage %d after one answer started from two tabs", got)
		}
		if _, err := f.Practice.FinishAudio(ctx, ana(), s.ID, s.Items[0].ID, int64(len(rec)), practice.Observed{}); err != nil {
			t.Fatalf("the answer started from two tabs: %v", err)
		}

		// A new day's allowance of one answer, and two tabs each starting one.
		if _, err := db.SQL.ExecContext(ctx, `UPDATE practice_items SET uploaded_at = $1 WHERE id = $2`,
			time.Now().Add(-25*time.Hour), s.Items[0].ID); err != nil {
			t.Fatal(err)
		}
		u = ana()
		var two []practice.Item
		for _, it := range s.Items[1:] {
			admitted, err := f.Practice.AdmitAnswer(ctx, u, s.ID, it.ID)
			if err != nil {
				t.Fatal(err)
			}
			two = append(two, admitted)
		}
		errs := both(u, two[0], two[1])
		taken := 0
		for _, err := range errs {
			if err == nil {
				taken++
				continue
			}
			practicetest.WantKind(t, err, apperr.KindForbidden, practice.MsgHeavyUsage)
		}
		if taken != 1 {
			t.Fatalf("%d answers taken from two tabs with room for one", taken)
		}
		if got := ana().UsageCount; got != 2 {
			t.Fatalf("usage %d after two answers in two days", got)
		}
	})
}

// Streamed pieces bypassed the daily usage guard: 20 streams were accepted
// with usage 0, holding 106 MB on disk. A stream counts from its first
// piece, and the bytes a user has arriving in pieces are capped.
func TestStreamsCountTowardUsageAndAreCapped(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.New(t, db, func(c *practice.Config) { c.DailyAnswerLimit = 2 })
		ana := f.User(t, "ana@example.com")
		ctx := context.Background()
		s, err := f.Practice.Create(ctx, ana(), practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "random", QuestionCount: 3})
		if err != nil {
			t.Fatal(err)
		}
		rec := practicetest.Recording(t)
		for _, it := range s.Items[:2] {
			if _, err := f.Practice.AppendAudio(ctx, ana(), s.ID, it.ID, 0, "audio/webm", rec); err != nil {
				t.Fatal(err)
			}
		}
		_, err = f.Practice.AppendAudio(ctx, ana(), s.ID, s.Items[2].ID, 0, "audio/webm", rec)
		practicetest.WantKind(t, err, apperr.KindForbidden, practice.MsgHeavyUsage)
		if _, err := f.Practice.FinishAudio(ctx, ana(), s.ID, s.Items[0].ID, int64(len(rec)), practice.Observed{}); err != nil {
			t.Fatalf("finishing a stream counted when it began: %v", err)
		}
		if u := ana(); u.UsageCount != 2 {
			t.Fatalf("usage %d after two streams, one finished", u.UsageCount)
		}
	})
}

func TestBytesInFlightAreCapped(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.New(t, db, nil)
		bob := f.User(t, "bob@example.com")
		ctx := context.Background()
		s, err := f.Practice.Create(ctx, bob(), practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "random", QuestionCount: 3})
		if err != nil {
			t.Fatal(err)
		}
		rec := practicetest.Recording(t)
		piece := append(bytes.Clone(rec), make([]byte, practice.MaxPieceBytes-len(rec))...)
		var inFlight int64
		var refused error
		for _, it := range s.Items {
			for offset := int64(0); offset+practice.MaxPieceBytes <= practice.MaxUploadBytes; offset += practice.MaxPieceBytes {
				if _, refused = f.Practice.AppendAudio(ctx, bob(), s.ID, it.ID, offset, "audio/webm", piece); refused != nil {
					break
				}
				inFlight += practice.MaxPieceBytes
			}
			if refused != nil {
				break
			}
		}
		practicetest.WantKind(t, refused, apperr.KindConflict, "Too many recordings")
		if inFlight > practice.MaxBytesInFlight {
			t.Fatalf("%d bytes accepted in flight; the cap is %d", inFlight, practice.MaxBytesInFlight)
		}
	})
}

// A session in which every question was skipped used up a free session
// and entered the averages as 0%.
func TestASessionWithoutAnswersIsNoPractice(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.New(t, db, nil)
		ana := f.User(t, "ana@example.com")
		ctx := context.Background()
		s, err := f.Practice.Create(ctx, ana(), practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "random", QuestionCount: 2})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Practice.Skip(ctx, ana(), s.ID, s.Items[0].ID); err != nil {
			t.Fatal(err)
		}
		if _, err := f.Practice.Complete(ctx, ana(), s.ID, 30); err != nil {
			t.Fatal(err)
		}
		got := f.WaitProcessed(t, ana(), s.ID)
		if got.AverageScore != nil {
			t.Fatalf("an all-skipped session has an average: %d", *got.AverageScore)
		}
		u := ana()
		d, err := f.History.Dashboard(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		if d.Stats != (practice.Stats{}) || d.Access.FreeSessionsRemaining != billing.FreeSessions {
			t.Fatalf("an all-skipped session entered the stats: dashboard %+v, access %+v", d.Stats, d.Access)
		}
		if _, err := f.Practice.Create(ctx, u, oneQuestion); err != nil {
			t.Fatal(err)
		}
	})
}

// A read-only or full audio directory was reported as a damaged recording;
// the answer was lost and still counted. It is the server's fault: a 503
// to retry, nothing counted, the answer still awaiting its recording.
func TestAnUnwritableAudioDirectoryIsTheServersFault(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		dir := t.TempDir() + "/audio"
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		f := practicetest.New(t, db, func(c *practice.Config) { c.AudioDir = dir })
		ana := f.User(t, "ana@example.com")
		ctx := context.Background()
		s, err := f.Practice.Create(ctx, ana(), practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "random", QuestionCount: 2})
		if err != nil {
			t.Fatal(err)
		}
		// Tests run as root, which permissions do not stop: a file where
		// the directory should be makes every write fail.
		if err := os.Remove(dir); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dir, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := f.Practice.CheckStorage(); err == nil {
			t.Fatal("storage reported ready")
		}
		rec := practicetest.Recording(t)
		_, err = f.Practice.Upload(ctx, ana(), s.ID, s.Items[0].ID, "audio/webm", bytes.NewReader(rec))
		practicetest.WantKind(t, err, apperr.KindUnavailable, practice.MsgCannotStore)
		_, err = f.Practice.AppendAudio(ctx, ana(), s.ID, s.Items[1].ID, 0, "audio/webm", rec)
		practicetest.WantKind(t, err, apperr.KindUnavailable, practice.MsgCannotStore)
		if e, _ := apperr.As(err); e.RetryAfter <= 0 || !strings.Contains(e.Error(), "not a directory") {
			t.Fatalf("the 503 lacks a Retry-After or its cause: %v", e)
		}
		if u := ana(); u.UsageCount != 0 {
			t.Fatalf("usage %d for answers that were not stored", u.UsageCount)
		}

		if err := os.Remove(dir); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := f.Practice.CheckStorage(); err != nil {
			t.Fatal(err)
		}
		f.Upload(t, ana(), s, 0)
	})
}

// A usage pause is a state the dashboard shows, with when it ends, and no
// session starts into it (issue 30): before, the dashboard showed nothing
// and a new session was refused a second into its first answer.
func TestAUsagePauseShowsOnTheDashboardUntilItEnds(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		var mu sync.Mutex
		now := store.Truncate(time.Now())
		clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
		advance := func(d time.Duration) { mu.Lock(); defer mu.Unlock(); now = now.Add(d) }
		f := practicetest.NewClocked(t, db, clock, func(c *practice.Config) { c.DailyAnswerLimit = 2 })
		ana := f.User(t, "ana@example.com")
		f.GivePass(t, "ana@example.com")
		ctx := context.Background()
		pause := func() *practice.UsagePause {
			t.Helper()
			d, err := f.History.Dashboard(ctx, ana())
			if err != nil {
				t.Fatal(err)
			}
			return d.UsagePause
		}
		if p := pause(); p != nil {
			t.Fatalf("a new account is paused: %+v", p)
		}
		first := clock()
		s := f.Start(t, ana(), 3)
		f.Upload(t, ana(), s, 0)
		advance(time.Hour)
		if p := pause(); p != nil {
			t.Fatalf("paused with room for one more answer: %+v", p)
		}
		f.Upload(t, ana(), s, 1)

		p := pause()
		if p == nil || !p.EndsAt.Equal(first.Add(24*time.Hour)) || p.Message != practice.MsgHeavyUsage {
			t.Fatalf("pause after the day's answers: %+v, want one ending %v", p, first.Add(24*time.Hour))
		}
		_, err := f.Practice.Create(ctx, ana(), oneQuestion)
		practicetest.WantKind(t, err, apperr.KindForbidden, practice.MsgHeavyUsage)

		advance(23*time.Hour - time.Second)
		if p := pause(); p == nil {
			t.Fatal("the pause ended early")
		}
		advance(time.Second)
		if p := pause(); p != nil {
			t.Fatalf("still paused once the first answer is a day old: %+v", p)
		}
		f.Start(t, ana(), 1)
	})
}
