package practice_test

import (
	"context"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/history"
	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/practice/practicetest"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

// A student corrects what the engine heard: the answer is scored again on
// their words, the engine's transcript is kept, the session's average, the
// dashboard's average, the next session's comparison and the saved copy
// follow, and nothing is counted twice.
func TestCorrectingATranscriptScoresItAgainAndCountsNothingTwice(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.New(t, db, nil)
		reload := f.User(t, "ana@example.com")
		ctx := context.Background()
		f.GivePass(t, "ana@example.com")
		in := practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "random", QuestionCount: 1}
		run := func(text string) practice.Session { return f.Practise(t, reload, text, in) }
		first := run(practicetest.Misheard)
		second := run(practicetest.Corrected)
		if first.AverageScore == nil || second.AverageScore == nil {
			t.Fatalf("unscored: %+v %+v", first.Items[0], second.Items[0])
		}
		if _, err := f.History.Save(ctx, reload(), first.ID, "First"); err != nil {
			t.Fatal(err)
		}
		before := f.Stats(t, reload())
		dashboardAverage := func() int {
			t.Helper()
			d, err := f.History.Dashboard(ctx, reload())
			if err != nil {
				t.Fatal(err)
			}
			return d.Stats.AverageScore
		}
		if got, want := dashboardAverage(), int(math.Round(float64(*first.AverageScore+*second.AverageScore)/2)); got != want {
			t.Fatalf("dashboard average %d before the correction, want %d", got, want)
		}

		got, err := f.Practice.CorrectTranscript(ctx, reload(), first.ID, first.Items[0].ID, "  "+practicetest.Corrected+"\n")
		if err != nil {
			t.Fatal(err)
		}
		item := got.Items[0]
		if item.Transcript == nil || *item.Transcript != practicetest.Corrected || item.Correction == nil || item.Correction.OriginalTranscript != practicetest.Misheard {
			t.Fatalf("corrected item: transcript %v, correction %+v", item.Transcript, item.Correction)
		}
		if item.Feedback == nil || item.Feedback.OverallScore <= first.Items[0].Feedback.OverallScore {
			t.Fatalf("the corrected answer scored %v, the misheard one %d", item.Feedback, first.Items[0].Feedback.OverallScore)
		}
		newAvg := item.Feedback.OverallScore
		if got.AverageScore == nil || *got.AverageScore != newAvg {
			t.Fatalf("session average %v, want %d", got.AverageScore, newAvg)
		}

		after := f.Stats(t, reload())
		if after.SessionsCompleted != before.SessionsCompleted || after.QuestionsPracticed != before.QuestionsPracticed {
			t.Fatalf("counted again: %d sessions, %d questions; before %d, %d", after.SessionsCompleted, after.QuestionsPracticed,
				before.SessionsCompleted, before.QuestionsPracticed)
		}
		if got, want := dashboardAverage(), int(math.Round(float64(newAvg+*second.AverageScore)/2)); got != want {
			t.Fatalf("dashboard average %d after the correction, want %d", got, want)
		}
		next, err := f.Practice.Get(ctx, reload(), second.ID)
		if err != nil {
			t.Fatal(err)
		}
		if next.Improvement == nil || *next.Improvement != *second.AverageScore-newAvg {
			t.Fatalf("the next session's improvement %v, want %d (against the corrected average)", next.Improvement, *second.AverageScore-newAvg)
		}
		history, err := f.History.List(ctx, reload(), history.Query{})
		if err != nil || len(history.Sessions) != 1 {
			t.Fatalf("history %+v, %v", history, err)
		}
		saved, err := f.History.GetSaved(ctx, reload(), history.Sessions[0].ID)
		if err != nil {
			t.Fatal(err)
		}
		if si := saved.Items[0]; practicetest.TextOf(si.Transcript) != practicetest.Corrected || si.Correction == nil || si.ItemID != item.ID || saved.OverallAvg != float64(newAvg) {
			t.Fatalf("the saved copy: avg %v, item %+v", saved.OverallAvg, si)
		}

		// A second correction keeps what the engine heard, not the first correction.
		again, err := f.Practice.CorrectTranscript(ctx, reload(), first.ID, first.Items[0].ID, practicetest.Corrected+" Thank you.")
		if err != nil {
			t.Fatal(err)
		}
		if c := again.Items[0].Correction; c == nil || c.OriginalTranscript != practicetest.Misheard {
			t.Fatalf("after a second correction: %+v", c)
		}
		if f.Stats(t, reload()).SessionsCompleted != before.SessionsCompleted {
			t.Fatal("the second correction counted the session again")
		}
	})
}

func TestACorrectionMustBeAScoredAnswerOfOnesOwn(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.New(t, db, nil)
		ana := f.User(t, "ana@example.com")
		ben := f.User(t, "ben@example.com")
		ctx := context.Background()
		s, err := f.Practice.Create(ctx, ana(), practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "random", QuestionCount: 2})
		if err != nil {
			t.Fatal(err)
		}
		f.Upload(t, ana(), s, 0)
		if _, err := f.Practice.Skip(ctx, ana(), s.ID, s.Items[1].ID); err != nil {
			t.Fatal(err)
		}
		if _, err := f.Practice.Complete(ctx, ana(), s.ID, 60); err != nil {
			t.Fatal(err)
		}
		done := f.WaitProcessed(t, ana(), s.ID)
		for _, c := range []struct {
			name string
			user auth.User
			item string
			text string
			kind apperr.Kind
		}{
			{"empty", ana(), s.Items[0].ID, "   ", apperr.KindInvalid},
			{"only fillers", ana(), s.Items[0].ID, "um uh", apperr.KindInvalid},
			{"too long", ana(), s.Items[0].ID, strings.Repeat("word ", practice.MaxTranscriptLen/5+1), apperr.KindInvalid},
			{"skipped question", ana(), s.Items[1].ID, practicetest.Corrected, apperr.KindConflict},
			{"someone else's session", ben(), s.Items[0].ID, practicetest.Corrected, apperr.KindNotFound},
			{"no such item", ana(), "nope", practicetest.Corrected, apperr.KindNotFound},
		} {
			_, err := f.Practice.CorrectTranscript(ctx, c.user, s.ID, c.item, c.text)
			if e, ok := apperr.As(err); !ok || e.Kind != c.kind {
				t.Errorf("%s: %v, want kind %d", c.name, err, c.kind)
			}
		}
		// Refused is not enough: Ben's text must not have reached Ana's answer.
		after, err := f.Practice.Get(ctx, ana(), s.ID)
		if err != nil {
			t.Fatal(err)
		}
		was, is := done.Items[0], after.Items[0]
		if is.Transcript == nil || *is.Transcript != *was.Transcript || is.Correction != nil || is.Feedback.OverallScore != was.Feedback.OverallScore ||
			*after.AverageScore != *done.AverageScore {
			t.Fatalf("a refused correction changed the answer: transcript %q, correction %+v, score %d (was %d), average %d (was %d)",
				*is.Transcript, is.Correction, is.Feedback.OverallScore, was.Feedback.OverallScore, *after.AverageScore, *done.AverageScore)
		}
	})
}

// A timed typed answer was rewritten after the session through the
// correction meant for what the speech engine misheard (scored 4, then
// 95). A typed answer is the student's own text as submitted in time:
// nothing was misheard, so there is nothing to correct.
func TestATypedAnswerCannotBeCorrected(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.New(t, db, nil)
		ana := f.User(t, "ana@example.com")
		ctx := context.Background()
		s, err := f.Practice.Create(ctx, ana(), practice.CreateInput{Profession: "veterinary", Mode: "audio", InterviewType: "random", Format: practice.FormatCasper})
		if err != nil {
			t.Fatal(err)
		}
		typed := -1
		for i, it := range s.Items {
			if it.Kind == practice.KindTyped {
				typed = i
				break
			}
		}
		if typed < 0 {
			t.Fatal("a Casper-style session without a typed part")
		}
		const written = "I would ask the owner."
		if _, err := f.Practice.AnswerInWriting(ctx, ana(), s.ID, s.Items[typed].ID, written); err != nil {
			t.Fatal(err)
		}
		if _, err := f.Practice.Complete(ctx, ana(), s.ID, 300); err != nil {
			t.Fatal(err)
		}
		before := f.WaitProcessed(t, ana(), s.ID).Items[typed]
		if before.Status != practice.StatusDone || before.Feedback == nil {
			t.Fatalf("the typed answer was not scored: %+v", before)
		}
		if _, err := f.History.Save(ctx, ana(), s.ID, ""); err != nil {
			t.Fatal(err)
		}

		_, err = f.Practice.CorrectTranscript(ctx, ana(), s.ID, before.ID, practicetest.Corrected)
		practicetest.WantKind(t, err, apperr.KindConflict, practice.MsgTypedAnswerFinal)

		after, err := f.Practice.Get(ctx, ana(), s.ID)
		if err != nil {
			t.Fatal(err)
		}
		it := after.Items[typed]
		if it.Transcript == nil || *it.Transcript != written || it.Correction != nil || it.Feedback.OverallScore != before.Feedback.OverallScore {
			t.Fatalf("the typed answer changed: transcript %v, correction %+v, score %d (was %d)", it.Transcript, it.Correction,
				it.Feedback.OverallScore, before.Feedback.OverallScore)
		}
		history, err := f.History.List(ctx, ana(), history.Query{})
		if err != nil || len(history.Sessions) != 1 {
			t.Fatalf("history %+v, %v", history, err)
		}
		saved, err := f.History.GetSaved(ctx, ana(), history.Sessions[0].ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, si := range saved.Items {
			if si.ItemID == it.ID && (practicetest.TextOf(si.Transcript) != written || si.Correction != nil) {
				t.Fatalf("the saved copy of the typed answer changed: %+v", si)
			}
		}
	})
}

// The words the speech engine may have misheard are marked in the answer
// and kept out of its feedback; an answer mostly misheard has its content
// left unjudged. The student checks them — here finding every word right
// and saving the same text — and the answer is scored again with every
// word certain (issue 29 item 4).
func TestMisheardWordsAreMarkedUntilTheStudentChecksThem(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.New(t, db, nil)
		reload := f.User(t, "ana@example.com")
		ctx := context.Background()
		f.GivePass(t, "ana@example.com")
		in := practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "random", QuestionCount: 1}
		words := strings.Fields(practicetest.Corrected)

		// Three words under an even chance: marked, in the transcript's words.
		probs := make([]float64, len(words))
		for i := range probs {
			probs[i] = 0.95
		}
		probs[3], probs[10], probs[20] = 0.2, 0.1, 0.3
		f.Whisper.SetWordProbabilities(probs...)
		first := f.Practise(t, reload, practicetest.Corrected, in)
		item := first.Items[0]
		var text strings.Builder
		var marked []string
		for _, p := range item.TranscriptParts {
			text.WriteString(p.Text)
			if p.Uncertain {
				marked = append(marked, p.Text)
			}
		}
		want := []string{strings.Trim(words[3], ".,"), strings.Trim(words[10], ".,"), strings.Trim(words[20], ".,")}
		if item.UncertainWords != 3 || text.String() != practicetest.Corrected || strings.Join(marked, "|") != strings.Join(want, "|") {
			t.Fatalf("%d uncertain words, marked %q (want %q), parts make %q", item.UncertainWords, marked, want, text.String())
		}
		if item.Feedback == nil || item.Feedback.ContentUnjudged {
			t.Fatalf("three words in doubt: content unjudged %+v", item.Feedback)
		}

		// Saved, the answer keeps its marks: a saved session shows the
		// same answer (issue 38 item 1).
		saved, err := f.History.Save(ctx, reload(), first.ID, "Marked")
		if err != nil {
			t.Fatal(err)
		}
		if got := saved.Items[0].Answer; got.UncertainWords != item.UncertainWords || !reflect.DeepEqual(got.TranscriptParts, item.TranscriptParts) {
			t.Fatalf("saved, the answer has %d uncertain words, parts %v; live it had %d, %v", got.UncertainWords, got.TranscriptParts, item.UncertainWords, item.TranscriptParts)
		}

		// Every word in doubt: the content is not judged.
		f.Whisper.SetWordProbabilities(0.1)
		sess := f.Practise(t, reload, practicetest.Corrected, in)
		item = sess.Items[0]
		if item.UncertainWords != len(words) || item.Feedback == nil || !item.Feedback.ContentUnjudged || item.Feedback.SectionScores.Content != 0 {
			t.Fatalf("all %d words in doubt: %d marked, feedback %+v", len(words), item.UncertainWords, item.Feedback)
		}

		checked, err := f.Practice.CorrectTranscript(ctx, reload(), sess.ID, item.ID, practicetest.Corrected)
		if err != nil {
			t.Fatal(err)
		}
		item = checked.Items[0]
		if item.UncertainWords != 0 || item.TranscriptParts != nil || item.Correction == nil || item.Feedback == nil ||
			item.Feedback.ContentUnjudged || item.Feedback.SectionScores.Content == 0 {
			t.Fatalf("checked by the student: %d uncertain, parts %v, correction %v, feedback %+v",
				item.UncertainWords, item.TranscriptParts, item.Correction, item.Feedback)
		}
		if *checked.AverageScore != item.Feedback.OverallScore {
			t.Errorf("session average %d, the checked answer scored %d", *checked.AverageScore, item.Feedback.OverallScore)
		}
	})
}
