package practice_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/practice/practicetest"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
	"github.com/whitecoat/whitecoat/internal/transcribe"
)

// spyEngine is the local engine, noting what each call was given and
// what the engine made of it.
type spyEngine struct {
	transcribe.Incremental
	mu       sync.Mutex
	finished []transcribe.Result
	advanced []transcribe.Progress // what Advance was given
}

func (s *spyEngine) Transcribe(ctx context.Context, in transcribe.Audio) (transcribe.Result, error) {
	return s.Finish(ctx, in, transcribe.Progress{})
}

func (s *spyEngine) Finish(ctx context.Context, in transcribe.Audio, p transcribe.Progress) (transcribe.Result, error) {
	res, err := s.Incremental.Finish(ctx, in, p)
	if err == nil {
		s.mu.Lock()
		s.finished = append(s.finished, res)
		s.mu.Unlock()
	}
	return res, err
}

func (s *spyEngine) Advance(ctx context.Context, in transcribe.Audio, p transcribe.Progress) (transcribe.Progress, error) {
	s.mu.Lock()
	s.advanced = append(s.advanced, p)
	s.mu.Unlock()
	return s.Incremental.Advance(ctx, in, p)
}

func (s *spyEngine) results() []transcribe.Result {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]transcribe.Result(nil), s.finished...)
}

// TestVoiceFactorIsRememberedPerStudent: the local engine chooses how to
// scale a voice by probing the first answer; the student's later answers,
// uploaded whole or arriving in pieces, start at that factor and skip the
// probe. The factor is theirs: exported with their data, deleted with it,
// and never given to another student.
func TestVoiceFactorIsRememberedPerStudent(t *testing.T) {
	rec := speak(t, dentistAnswer)
	requireLocalEngine(t)
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		spy := &spyEngine{Incremental: localEngine(t)}
		f := practicetest.NewWith(t, db, spy, func(c *practice.Config) { c.AdvanceEvery = 0 })
		ana, bob := f.User(t, "ana@example.com"), f.User(t, "bob@example.com")
		ctx := context.Background()
		s, err := f.Practice.Create(ctx, ana(), practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "random", QuestionCount: 4})
		if err != nil {
			t.Fatal(err)
		}
		upload := func(u func() auth.User, sess practice.Session, i int) {
			t.Helper()
			if _, err := f.Practice.Upload(ctx, u(), sess.ID, sess.Items[i].ID, "audio/webm", strings.NewReader(string(rec))); err != nil {
				t.Fatal(err)
			}
			f.WaitProcessed(t, u(), sess.ID)
		}

		// The first answer is probed: festival's female voice is
		// recognised scaled by 1.1.
		upload(ana, s, 0)
		got := spy.results()
		if len(got) != 1 || got[0].Warp != 1.1 || !got[0].WarpProbed {
			t.Fatalf("first answer: %+v; want factor 1.1, chosen by the probe", got)
		}
		ex, err := f.Practice.Export(ctx, ana().ID)
		if err != nil {
			t.Fatal(err)
		}
		if v := ex.VoiceFactor; v == nil || v.Warp != 1.1 || v.Answers != 0 || v.ChosenAt.IsZero() {
			t.Fatalf("exported voice factor %+v after the first answer", v)
		}

		// The second, uploaded whole, starts at it: no probe.
		upload(ana, s, 1)
		got = spy.results()
		if len(got) != 2 || got[1].Warp != 1.1 || got[1].WarpProbed {
			t.Fatalf("second answer: %+v; want factor 1.1 remembered, no probe", got[1:])
		}
		if it := f.WaitProcessed(t, ana(), s.ID).Items[1]; it.Transcript == nil || !strings.Contains(*it.Transcript, "dentist") {
			t.Fatalf("second answer at the remembered factor: %+v", it)
		}

		// The third arrives in pieces: recognised while it arrives at the
		// remembered factor, and finished without a probe.
		item := s.Items[2].ID
		half := len(rec) / 2
		if _, err := f.Practice.AppendAudio(ctx, ana(), s.ID, item, 0, "audio/webm;codecs=opus", rec[:half]); err != nil {
			t.Fatal(err)
		}
		if _, err := f.Practice.AppendAudio(ctx, ana(), s.ID, item, int64(half), "audio/webm;codecs=opus", rec[half:]); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(30 * time.Second)
		for len(spy.advancedCopy()) == 0 && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		if _, err := f.Practice.FinishAudio(ctx, ana(), s.ID, item, int64(len(rec)), practice.Observed{}); err != nil {
			t.Fatal(err)
		}
		f.WaitProcessed(t, ana(), s.ID)
		adv := spy.advancedCopy()
		if len(adv) == 0 || adv[0].Warp != 1.1 {
			t.Fatalf("recognition while the answer arrived was given %+v; want the remembered factor 1.1", adv)
		}
		got = spy.results()
		if len(got) != 3 || got[2].Warp != 1.1 || got[2].WarpProbed {
			t.Fatalf("third answer: %+v; want factor 1.1 remembered, no probe", got[2:])
		}
		if ex, err = f.Practice.Export(ctx, ana().ID); err != nil || ex.VoiceFactor == nil || ex.VoiceFactor.Answers != 2 {
			t.Fatalf("voice factor %+v, %v; want two answers counted at it", ex.VoiceFactor, err)
		}

		// After a few answers at it, the next is probed again: someone
		// else may be speaking on the account now.
		if _, err := db.SQL.ExecContext(ctx, `UPDATE practice_voices SET answers = 5`); err != nil {
			t.Fatal(err)
		}
		upload(ana, s, 3)
		if got = spy.results(); len(got) != 4 || !got[3].WarpProbed || got[3].Warp != 1.1 {
			t.Fatalf("answer after five at the remembered factor: %+v; want it probed", got[3:])
		}
		if ex, err = f.Practice.Export(ctx, ana().ID); err != nil || ex.VoiceFactor == nil || ex.VoiceFactor.Answers != 0 {
			t.Fatalf("voice factor %+v, %v; want it chosen afresh", ex.VoiceFactor, err)
		}

		// Another student's first answer is probed: factors are per student.
		other, err := f.Practice.Create(ctx, bob(), practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "random", QuestionCount: 1})
		if err != nil {
			t.Fatal(err)
		}
		upload(bob, other, 0)
		if got = spy.results(); len(got) != 5 || !got[4].WarpProbed {
			t.Fatalf("another student's first answer: %+v; want it probed", got[4:])
		}

		// Deleting the student's data deletes their factor.
		if _, err := f.Practice.DeleteUserData(ctx, db.SQL, ana().ID); err != nil {
			t.Fatal(err)
		}
		if ex, err = f.Practice.Export(ctx, ana().ID); err != nil || ex.VoiceFactor != nil {
			t.Fatalf("after deletion the export holds a voice factor: %+v, %v", ex.VoiceFactor, err)
		}
		if ex, err = f.Practice.Export(ctx, bob().ID); err != nil || ex.VoiceFactor == nil {
			t.Fatalf("another student's factor went with the deleted one's: %+v, %v", ex.VoiceFactor, err)
		}
	})
}

func (s *spyEngine) advancedCopy() []transcribe.Progress {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]transcribe.Progress(nil), s.advanced...)
}

// TestNoVoiceFactorForTheOpenAIEngine: a remote engine has no voice
// factor, so nothing is remembered about the voice.
func TestNoVoiceFactorForTheOpenAIEngine(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.New(t, db, nil)
		reload := f.User(t, "ana@example.com")
		ctx := context.Background()
		s, err := f.Practice.Create(ctx, reload(), practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "random", QuestionCount: 1})
		if err != nil {
			t.Fatal(err)
		}
		f.Upload(t, reload(), s, 0)
		if it := f.WaitProcessed(t, reload(), s.ID).Items[0]; it.Status != practice.StatusDone {
			t.Fatalf("answer: %+v", it)
		}
		if ex, err := f.Practice.Export(ctx, reload().ID); err != nil || ex.VoiceFactor != nil {
			t.Fatalf("voice factor %+v, %v; want none", ex.VoiceFactor, err)
		}
	})
}
