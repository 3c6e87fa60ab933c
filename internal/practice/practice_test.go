package practice_test

import (
	"context"
	"math"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/practice/practicetest"
	"github.com/whitecoat/whitecoat/internal/question"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

func yes() *bool { b := true; return &b }

func TestCreateChoosesQuestionsOnTheServer(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.New(t, db, nil)
		u := f.User(t, "ana@example.com")()
		ctx := context.Background()
		s, err := f.Practice.Create(ctx, u, practice.CreateInput{Profession: "Dental", Mode: "audio", InterviewType: "random", QuestionCount: 5, Big3: yes()})
		if err != nil {
			t.Fatal(err)
		}
		if s.Profession != "dental" || len(s.Items) != 5 || s.QuestionCount != 5 || !s.Big3 || s.AnswerLimitSeconds != 180 {
			t.Fatalf("session %+v", s)
		}
		for i, want := range []int{1, 2, 3, 0, 0} {
			if s.Items[i].Big3Order != want || s.Items[i].Status != practice.StatusPending || s.Items[i].Question == "" {
				t.Fatalf("item %d: %+v", i, s.Items[i])
			}
		}
		if s.Items[1].Question != "Why do you want to become a dentist?" {
			t.Fatalf("second Big 3 question %q", s.Items[1].Question)
		}

		custom, err := f.Practice.Create(ctx, u, practice.CreateInput{Profession: "medical", Mode: "video", InterviewType: "custom", Big3: yes(),
			Questions: []practice.CustomQuestion{{"  Tell me about a  failure. "}, {""}, {"tell me about a failure."}, {"Why medicine?"}}})
		if err != nil {
			t.Fatal(err)
		}
		if custom.Big3 || custom.QuestionCount != 2 || custom.Items[0].Question != "Tell me about a failure." {
			t.Fatalf("custom session %+v", custom)
		}

		// A guide's "Practice an ethics scenario" asks for ethics questions.
		no := false
		ethics, err := f.Practice.Create(ctx, u, practice.CreateInput{Profession: "pa", Mode: "audio", InterviewType: "random", QuestionCount: 3, Big3: &no, Focus: question.Ethical})
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range ethics.Items {
			if it.Subtag != string(question.Ethical) {
				t.Fatalf("a session focused on ethics asked %q (%s)", it.Question, it.Subtag)
			}
		}

		for _, tc := range []struct {
			in   practice.CreateInput
			kind apperr.Kind
			msg  string
		}{
			{practice.CreateInput{Profession: "astronaut", Mode: "audio", InterviewType: "random"}, apperr.KindInvalid, "Unknown profession"},
			{practice.CreateInput{Profession: "dental", Mode: "hologram", InterviewType: "random"}, apperr.KindInvalid, "video or audio"},
			{practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "random", QuestionCount: 11}, apperr.KindInvalid, "between 1 and 10"},
			{practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "chaos"}, apperr.KindInvalid, "random or custom"},
			{practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "random", Focus: "Gossip"}, apperr.KindInvalid, `Unknown question focus "Gossip"`},
			{practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "custom", Questions: []practice.CustomQuestion{{" "}}}, apperr.KindInvalid, "at least one"},
			{practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "custom", Questions: eleven()}, apperr.KindInvalid, "at most 10"},
		} {
			_, err := f.Practice.Create(ctx, u, tc.in)
			practicetest.WantKind(t, err, tc.kind, tc.msg)
		}
	})
}

func eleven() []practice.CustomQuestion {
	var qs []practice.CustomQuestion
	for i := range 11 {
		qs = append(qs, practice.CustomQuestion{Text: "Question number " + string(rune('A'+i))})
	}
	return qs
}

func TestEachAnswerIsProcessedAndStatsApplyOnce(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.New(t, db, nil)
		reload := f.User(t, "ana@example.com")
		ctx := context.Background()
		s, err := f.Practice.Create(ctx, reload(), practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "random", QuestionCount: 3})
		if err != nil {
			t.Fatal(err)
		}
		f.Upload(t, reload(), s, 0)
		f.Upload(t, reload(), s, 1)
		if _, err := f.Practice.Skip(ctx, reload(), s.ID, s.Items[2].ID); err != nil {
			t.Fatal(err)
		}
		// The first answers are processed while the session is still going.
		mid := f.WaitProcessed(t, reload(), s.ID)
		if mid.Status != practice.SessionActive || mid.Items[0].Status != practice.StatusDone {
			t.Fatalf("answers not processed before completion: %+v", mid.Items)
		}
		done, err := f.Practice.Complete(ctx, reload(), s.ID, 321)
		if err != nil {
			t.Fatal(err)
		}
		if done.Status != practice.SessionCompleted || done.TotalSessionTime != 321 {
			t.Fatalf("completed session %+v", done)
		}
		final := f.WaitProcessed(t, reload(), s.ID)
		// A client stops polling here: the average and the stats must be in.
		if final.AverageScore == nil || f.Stats(t, reload()).SessionsCompleted != 1 {
			t.Fatalf("no longer processing, but average %v and %d sessions completed", final.AverageScore, f.Stats(t, reload()).SessionsCompleted)
		}
		for _, it := range final.Items[:2] {
			if it.Status != practice.StatusDone || it.Transcript == nil || *it.Transcript != practicetest.Spoken || it.Feedback == nil || it.Metrics == nil ||
				it.Meaningful == nil || !*it.Meaningful || len(it.Feedback.Suggestions) == 0 {
				t.Fatalf("processed item %+v", it)
			}
		}
		if final.Items[2].Status != practice.StatusSkipped {
			t.Fatalf("skipped item %+v", final.Items[2])
		}
		if entries, _ := os.ReadDir(f.Audio); len(entries) != 0 {
			t.Fatalf("%d recordings left in the temp directory", len(entries))
		}

		// Stats: once, even when finalisation runs many times at once.
		f.WaitStats(t, reload, 1)
		var wg sync.WaitGroup
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := f.Practice.Finalize(ctx, s.ID); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		if _, err := f.Practice.Complete(ctx, reload(), s.ID, 999); err != nil {
			t.Fatal(err)
		}
		u := reload()
		if st := f.Stats(t, u); st.SessionsCompleted != 1 || st.QuestionsPracticed != 2 || u.UsageCount != 2 {
			t.Fatalf("stats after repeated finalisation: completed=%d practiced=%d usage=%d", st.SessionsCompleted, st.QuestionsPracticed, u.UsageCount)
		}
		wantAvg := int(math.Round(float64(final.Items[0].Feedback.OverallScore+final.Items[1].Feedback.OverallScore) / 2))
		d, err := f.History.Dashboard(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		if d.Stats.AverageScore != wantAvg {
			t.Fatalf("dashboard average %d, want %d", d.Stats.AverageScore, wantAvg)
		}
	})
}

// The summary compares a session with the one completed before it that
// has an average: a weaker session after a stronger one shows the drop,
// a session after one whose answers all failed has nothing to compare,
// and a third session compares with the second, not the first.
func TestImprovementComparesWithThePreviousScoredSession(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.New(t, db, nil)
		reload := f.User(t, "ana@example.com")
		ctx := context.Background()
		f.GivePass(t, "ana@example.com")
		in := practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "random", QuestionCount: 1}
		run := func(audio []byte) practice.Session {
			s, err := f.Practice.Create(ctx, reload(), in)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.Practice.Upload(ctx, reload(), s.ID, s.Items[0].ID, "audio/webm", strings.NewReader(string(audio))); err != nil {
				t.Fatal(err)
			}
			if _, err := f.Practice.Complete(ctx, reload(), s.ID, 60); err != nil {
				t.Fatal(err)
			}
			return f.WaitProcessed(t, reload(), s.ID)
		}
		if failed := run(practicetest.Recording(t)[:200]); failed.AverageScore != nil || failed.Improvement != nil {
			t.Fatalf("session without a scored answer: average %v, improvement %v", failed.AverageScore, failed.Improvement)
		}
		first := run(practicetest.Recording(t))
		if first.Items[0].Feedback == nil || first.Improvement != nil {
			t.Fatalf("first scored session: improvement %v, item %+v", first.Improvement, first.Items[0])
		}
		f.Whisper.SetText("I like teeth. Um, I think dentists are good, you know, and um I want a job.")
		second := run(practicetest.Recording(t))
		if second.Items[0].Feedback == nil {
			t.Fatalf("answer not scored: %+v", second.Items[0])
		}
		before, after := first.Items[0].Feedback.OverallScore, second.Items[0].Feedback.OverallScore
		if before == after {
			t.Fatalf("both answers scored %d: the test needs different scores", before)
		}
		if second.Improvement == nil || *second.Improvement != after-before {
			t.Fatalf("improvement %v after %d then %d, want %d", second.Improvement, before, after, after-before)
		}
		// The third compares with the second, not with the first: the
		// oldest and the previous scored sessions differ only from now on.
		f.Whisper.SetText(practicetest.Spoken)
		third := run(practicetest.Recording(t))
		if third.Items[0].Feedback == nil {
			t.Fatalf("answer not scored: %+v", third.Items[0])
		}
		latest := third.Items[0].Feedback.OverallScore
		if third.Improvement == nil {
			t.Fatal("no improvement after two scored sessions")
		}
		if *third.Improvement != latest-after {
			t.Fatalf("improvement %d after %d, %d then %d, want %d (against the previous session, not the oldest)",
				*third.Improvement, before, after, latest, latest-after)
		}
	})
}

// A bank question picked in the custom builder is the bank's question, not
// only its words: it keeps its subtag, tip and Big 3 kind, so the same
// answer scores the same whether the question was drawn or picked
// (issue 29 item 7).
func TestABankQuestionPickedInTheBuilderKeepsWhatItIs(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.New(t, db, nil)
		no := false
		const answer = "I would not keep it quiet. I would ask the resident to correct the note, and if she would not, I would tell the attending."
		for name, drawn := range map[string]practice.CreateInput{
			"big 3":   {Profession: "dental", Mode: "audio", InterviewType: "random", QuestionCount: 1, Big3: yes()},
			"ethical": {Profession: "dental", Mode: "audio", InterviewType: "random", QuestionCount: 1, Big3: &no, Focus: question.Ethical},
		} {
			ana := f.User(t, strings.ReplaceAll(name, " ", "")+"@example.com") // two free sessions each
			random := f.Practise(t, ana, answer, drawn)
			want := random.Items[0]
			if want.Subtag == "" && want.Big3Order == 0 || want.Tip == "" || want.Feedback == nil {
				t.Fatalf("%s: the drawn question has nothing to lose: %+v", name, want)
			}
			// As the builder sends it: the bank's words, spaced and cased as typed.
			picked := f.Practise(t, ana, answer, practicetest.CustomSession("dental", "  "+strings.ToUpper(want.Question[:1])+want.Question[1:]+" "))
			got := picked.Items[0]
			if got.Question != want.Question || got.Subtag != want.Subtag || got.Tip != want.Tip || got.Scenario != want.Scenario || got.Big3Order != want.Big3Order {
				t.Errorf("%s: picked %q as subtag %q, tip %q, Big 3 %d; drawn it is subtag %q, tip %q, Big 3 %d", name, got.Question,
					got.Subtag, got.Tip, got.Big3Order, want.Subtag, want.Tip, want.Big3Order)
			}
			if got.Feedback == nil {
				t.Fatalf("%s: the picked question's answer was not scored: %+v", name, got)
			}
			if got.Feedback.OverallScore != want.Feedback.OverallScore {
				t.Errorf("%s: the same answer scored %d picked and %d drawn", name, got.Feedback.OverallScore, want.Feedback.OverallScore)
			}
		}
	})
}
