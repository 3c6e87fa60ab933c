package practice_test

import (
	"strings"
	"testing"

	"github.com/whitecoat/whitecoat/internal/practice/practicetest"
	"github.com/whitecoat/whitecoat/internal/question"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

// Issue 40: an answer to a bank question is judged by that question's own
// points: its feedback says, point by point, which the answer made.
func TestAnswersAreJudgedByTheirQuestionsPoints(t *testing.T) {
	t.Parallel()
	bank, err := question.Bank()
	if err != nil {
		t.Fatal(err)
	}
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.New(t, db, nil)
		ana := f.User(t, "ana@example.com")
		s := f.Start(t, ana(), 1)
		f.Upload(t, ana(), s, 0)
		it := f.WaitProcessed(t, ana(), s.ID).Items[0]
		var points []question.Point
		for _, q := range bank {
			if q.Text == it.Question && q.HasTag("dental") {
				points = q.Points
			}
		}
		if len(points) < question.MinPoints {
			t.Fatalf("the bank question %q has %d points", it.Question, len(points))
		}
		if it.Feedback == nil {
			t.Fatalf("answer %+v has no feedback", it)
		}
		judged := map[string]bool{}
		for _, e := range it.Feedback.Evidence {
			judged[e.Criterion] = true
		}
		for _, p := range points {
			if !judged[strings.TrimRight(p.Text, ".")] {
				t.Errorf("the feedback says nothing of the question's point %q: %+v", p.Text, it.Feedback.Evidence)
			}
		}
	})
}
