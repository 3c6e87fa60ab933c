package tryout_test

import (
	"context"
	"reflect"
	"testing"
	"testing/fstest"

	"github.com/whitecoat/whitecoat/content"
	"github.com/whitecoat/whitecoat/internal/answer"
	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/feedback/rubric"
	"github.com/whitecoat/whitecoat/internal/profession"
	"github.com/whitecoat/whitecoat/internal/tryout"
)

// Every profession's landing page shows its example answer to its own
// default question, scored: an answer the engine found nothing in, or
// one that raised a red flag, would teach the wrong thing.
func TestEveryProfessionHasAnExampleWorthShowing(t *testing.T) {
	t.Parallel()
	examples, err := tryout.ScoreExamples(context.Background(), content.FS, rubric.New())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range profession.All() {
		ex, ok := examples[p.Slug]
		switch {
		case !ok:
			t.Errorf("%s has no example", p.Slug)
		case ex.Question != p.DefaultQuestion:
			t.Errorf("%s: the example answers %q, not the default question %q", p.Slug, ex.Question, p.DefaultQuestion)
		case ex.Feedback.OverallScore < 70 || len(ex.Feedback.RedFlags) > 0 || len(ex.Feedback.Suggestions) == 0:
			t.Errorf("%s: score %d, red flags %v, suggestions %v: not an example to show", p.Slug, ex.Feedback.OverallScore, ex.Feedback.RedFlags, ex.Feedback.Suggestions)
		}
	}
}

// The example's feedback is the engine's, for the answer as a student
// would give it to that question: another engine's verdict shows.
func TestTheExampleIsTheEnginesVerdict(t *testing.T) {
	t.Parallel()
	src := fstest.MapFS{}
	for _, slug := range profession.Slugs() {
		src["examples/"+slug+".txt"] = &fstest.MapFile{Data: []byte("I want to help people.\n\nThat is   all.")}
	}
	examples, err := tryout.ScoreExamples(context.Background(), src, judge{})
	if err != nil {
		t.Fatal(err)
	}
	transcript, meaningful := "I want to help people. That is all.", true
	want := answer.Answer{Kind: answer.KindSpoken, Question: "Why do you want to become a dentist?", FollowUps: []string{}, Status: answer.StatusDone,
		Transcript: &transcript, Meaningful: &meaningful,
		Feedback: &feedback.Feedback{OverallScore: 41, Summary: "dental|Why do you want to become a dentist?|why-profession|I want to help people. That is all."}}
	if got := examples["dental"]; !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	if _, err := tryout.ScoreExamples(context.Background(), fstest.MapFS{}, judge{}); err == nil {
		t.Error("a profession without an example file loaded")
	}
}

// judge scores every answer 41 and writes what it was asked to judge.
type judge struct{}

func (judge) Score(_ context.Context, in feedback.Input) (feedback.Feedback, error) {
	return feedback.Feedback{OverallScore: 41, Summary: in.Profession + "|" + in.Question + "|" + in.Big3 + "|" + in.Transcript}, nil
}
