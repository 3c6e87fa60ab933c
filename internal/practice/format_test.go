package practice_test

import (
	"context"
	"strings"
	"testing"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/history"
	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/practice/practicetest"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

func TestFormatsBuildTheirSessions(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.New(t, db, nil)
		u := f.User(t, "ana@example.com")()
		ctx := context.Background()

		mmi, err := f.Practice.Create(ctx, u, practice.CreateInput{Profession: "medical", Mode: "audio", InterviewType: "random", Format: practice.FormatMMI})
		if err != nil {
			t.Fatal(err)
		}
		if mmi.Format != practice.FormatMMI || mmi.Extension != practice.ExtensionNone || len(mmi.Items) != 6 || mmi.Big3 ||
			mmi.Timings != (practice.Timings{PrepSeconds: 120, AnswerSeconds: 420}) {
			t.Fatalf("MMI session %+v", mmi)
		}
		for _, it := range mmi.Items {
			if it.Scenario == "" || len(it.FollowUps) == 0 || it.PrepSeconds != 120 || it.AnswerSeconds != 420 || !it.AutoStart ||
				it.Kind != practice.KindSpoken || it.Big3Order != 0 {
				t.Fatalf("MMI station %+v", it)
			}
		}

		kira, err := f.Practice.Create(ctx, u, practice.CreateInput{Profession: "dental", Mode: "video", InterviewType: "random", Format: practice.FormatKira, Big3: yes()})
		if err != nil {
			t.Fatal(err)
		}
		for i, it := range kira.Items {
			if it.Scenario != "" || it.PrepSeconds != 45 || it.AnswerSeconds != 90 || !it.AutoStart {
				t.Fatalf("Kira question %d %+v", i, it)
			}
		}
		if kira.Items[0].Big3Order != 1 {
			t.Fatalf("a Kira session keeps the Big 3 first: %+v", kira.Items[0])
		}

		casper, err := f.Practice.Create(ctx, u, practice.CreateInput{Profession: "pharmacy", Mode: "audio", InterviewType: "random", Format: practice.FormatCasper})
		if err != nil {
			t.Fatal(err)
		}
		// Two scenarios: a video part (two spoken questions on one
		// scenario, read once) and a typed part (both questions, one limit).
		if len(casper.Items) != 3 || casper.QuestionCount != 3 {
			t.Fatalf("Casper session has %d items: %+v", len(casper.Items), casper.Items)
		}
		first, second, typed := casper.Items[0], casper.Items[1], casper.Items[2]
		if first.Kind != practice.KindSpoken || first.PrepSeconds != 30 || first.AnswerSeconds != 60 || len(first.FollowUps) != 0 {
			t.Fatalf("Casper video question 1 %+v", first)
		}
		if second.Scenario != first.Scenario || second.Question == first.Question || second.PrepSeconds != 0 || second.AnswerSeconds != 60 {
			t.Fatalf("Casper video question 2 %+v", second)
		}
		if typed.Kind != practice.KindTyped || typed.Scenario == first.Scenario || len(typed.FollowUps) != 1 || typed.AnswerSeconds != 210 || typed.AutoStart {
			t.Fatalf("Casper typed part %+v", typed)
		}

		traditional, err := f.Practice.Create(ctx, u, practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "random", QuestionCount: 10})
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range traditional.Items {
			if it.Scenario != "" || it.AnswerSeconds != 180 || it.PrepSeconds != 0 || it.AutoStart {
				t.Fatalf("a traditional session asked %+v", it)
			}
		}
	})
}

func TestExtendedTimingsScaleEveryLimit(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.New(t, db, nil)
		u := f.User(t, "ana@example.com")()
		ctx := context.Background()
		timings := &practice.Timings{PrepSeconds: 40, AnswerSeconds: 80, TypedSeconds: 200}
		create := func(e practice.Extension) practice.Session {
			t.Helper()
			s, err := f.Practice.Create(ctx, u, practice.CreateInput{Profession: "ot", Mode: "audio", InterviewType: "random",
				Format: practice.FormatCasper, QuestionCount: 4, Timings: timings, Extension: e})
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
		base := create(practice.ExtensionNone)
		// The session keeps the timings as chosen; the items carry them extended.
		if doubled := create(practice.ExtensionDouble); doubled.Timings != *timings {
			t.Fatalf("a doubled session keeps %+v, want %+v", doubled.Timings, *timings)
		}
		for _, tc := range []struct {
			extension practice.Extension
			factor    float64
		}{{practice.ExtensionQuarter, 1.25}, {practice.ExtensionHalf, 1.5}, {practice.ExtensionDouble, 2}} {
			s := create(tc.extension)
			if len(s.Items) != len(base.Items) || s.Extension != tc.extension {
				t.Fatalf("%s: %+v", tc.extension, s)
			}
			for i, it := range s.Items {
				b := base.Items[i]
				if float64(it.PrepSeconds) != float64(b.PrepSeconds)*tc.factor || float64(it.AnswerSeconds) != float64(b.AnswerSeconds)*tc.factor {
					t.Fatalf("%s item %d: prep %d answer %d, from %d and %d", tc.extension, i, it.PrepSeconds, it.AnswerSeconds, b.PrepSeconds, b.AnswerSeconds)
				}
			}
		}

		// Off: preparation ends when the student says, a recording stops
		// only at the ceiling, and typing never.
		off := create(practice.ExtensionOff)
		for i, it := range off.Items {
			want := practice.UntimedAnswerSeconds
			if it.Kind == practice.KindTyped {
				want = 0
			}
			if it.AnswerSeconds != want || it.PrepSeconds != base.Items[i].PrepSeconds {
				t.Fatalf("untimed item %d: %+v", i, it)
			}
		}
	})
}

func TestFormatChoicesAreChecked(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.New(t, db, nil)
		u := f.User(t, "ana@example.com")()
		ctx := context.Background()
		for _, tc := range []struct {
			name  string
			in    practice.CreateInput
			field string
		}{
			{"unknown format", practice.CreateInput{Format: "panel"}, "format"},
			{"unknown extension", practice.CreateInput{Extension: "3"}, "extension"},
			{"custom stations", practice.CreateInput{Format: practice.FormatMMI, InterviewType: "custom",
				Questions: []practice.CustomQuestion{{"Why medicine?"}}}, "interviewType"},
			{"answer too short", practice.CreateInput{Format: practice.FormatKira, Timings: &practice.Timings{PrepSeconds: 30, AnswerSeconds: 5}}, "timings.answerSeconds"},
			{"preparation too long", practice.CreateInput{Format: practice.FormatMMI, Timings: &practice.Timings{PrepSeconds: 601, AnswerSeconds: 60}}, "timings.prepSeconds"},
			{"typing outside Casper", practice.CreateInput{Format: practice.FormatKira, Timings: &practice.Timings{AnswerSeconds: 60, TypedSeconds: 60}}, "timings.typedSeconds"},
			{"Casper without typing time", practice.CreateInput{Format: practice.FormatCasper, Timings: &practice.Timings{AnswerSeconds: 60}}, "timings.typedSeconds"},
		} {
			in := tc.in
			in.Profession, in.Mode = "dental", "audio"
			if in.InterviewType == "" {
				in.InterviewType = "random"
			}
			_, err := f.Practice.Create(ctx, u, in)
			e, ok := apperr.As(err)
			if !ok || e.Kind != apperr.KindInvalid || e.Field != tc.field {
				t.Errorf("%s: got %v, want a problem with %s", tc.name, err, tc.field)
			}
		}
	})
}

func TestTypedAnswerIsScoredWithoutSpeechFigures(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.New(t, db, nil)
		who := f.User(t, "ana@example.com")
		ctx := context.Background()
		s, err := f.Practice.Create(ctx, who(), practice.CreateInput{Profession: "veterinary", Mode: "audio", InterviewType: "random", Format: practice.FormatCasper})
		if err != nil {
			t.Fatal(err)
		}
		spokenItem, typed := s.Items[0], s.Items[2]

		_, err = f.Practice.AnswerInWriting(ctx, who(), s.ID, spokenItem.ID, "I would talk to the owner.")
		practicetest.WantKind(t, err, apperr.KindConflict, practice.MsgNotTyped)
		_, err = f.Practice.Upload(ctx, who(), s.ID, typed.ID, "audio/webm;codecs=opus", strings.NewReader(string(practicetest.Recording(t))))
		practicetest.WantKind(t, err, apperr.KindConflict, practice.MsgNotSpoken)
		_, err = f.Practice.AppendAudio(ctx, who(), s.ID, typed.ID, 0, "audio/webm;codecs=opus", practicetest.Recording(t))
		practicetest.WantKind(t, err, apperr.KindConflict, practice.MsgNotSpoken)
		_, err = f.Practice.AnswerInWriting(ctx, who(), s.ID, typed.ID, "  \n ")
		practicetest.WantKind(t, err, apperr.KindInvalid, practice.MsgTypedEmpty)
		_, err = f.Practice.AnswerInWriting(ctx, who(), s.ID, typed.ID, strings.Repeat("a", practice.MaxTranscriptLen+1))
		practicetest.WantKind(t, err, apperr.KindInvalid, "at most")

		answer := "1. I would first speak privately with the owner to understand why they want this, and listen without judging. " +
			"I would explain the options, including a payment plan or a charity fund, and be honest about the animal's prognosis.\n\n" +
			"2. If my colleague disagreed, I would ask for their reasoning, check the clinic's policy, and involve the senior vet so that " +
			"the animal's welfare and the owner's trust both come first."
		got, err := f.Practice.AnswerInWriting(ctx, who(), s.ID, typed.ID, answer)
		if err != nil {
			t.Fatal(err)
		}
		if got.Status != practice.StatusScoring {
			t.Fatalf("typed answer went to %s", got.Status)
		}
		_, err = f.Practice.AnswerInWriting(ctx, who(), s.ID, typed.ID, answer)
		practicetest.WantKind(t, err, apperr.KindConflict, "already has an answer")

		if _, err := f.Practice.Complete(ctx, who(), s.ID, 300); err != nil {
			t.Fatal(err)
		}
		done := f.WaitProcessed(t, who(), s.ID)
		it := done.Items[2]
		if it.Status != practice.StatusDone || it.Transcript == nil || *it.Transcript != strings.TrimSpace(answer) || it.Metrics != nil ||
			it.Feedback == nil || it.Feedback.OverallScore == 0 {
			t.Fatalf("typed answer after processing: %+v", it)
		}
		if n := f.Stats(t, who()).SessionsCompleted; n != 1 {
			t.Fatalf("a session with only a typed answer counted %d sessions", n)
		}
		saved, err := f.History.Save(ctx, who(), s.ID, "Casper practice")
		if err != nil {
			t.Fatal(err)
		}
		var kept *history.SavedItem
		for i := range saved.Items {
			if saved.Items[i].Kind == practice.KindTyped {
				kept = &saved.Items[i]
			}
		}
		if kept == nil || kept.Scenario != typed.Scenario || len(kept.FollowUps) != 1 || practicetest.TextOf(kept.Transcript) != strings.TrimSpace(answer) || kept.Metrics != nil {
			t.Fatalf("saved typed answer %+v", kept)
		}
	})
}
