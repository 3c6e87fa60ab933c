package rubric

import (
	"slices"
	"testing"

	"github.com/whitecoat/whitecoat/internal/feedback"
)

// judgedFraction is the fraction the rubric gives one criterion of in.
func judgedFraction(t *testing.T, in feedback.Input, key feedback.CriterionKey) float64 {
	t.Helper()
	for _, j := range Assess(in).Judge() {
		if j.Criterion.Key == key {
			return j.Fraction
		}
	}
	t.Fatalf("no criterion %s", key)
	return 0
}

func TestDeedsAreClausesThatDoSomething(t *testing.T) {
	for _, tt := range []struct {
		transcript string
		want       []string
	}{
		{"I shadowed a general dentist at a community clinic for 200 hours.", []string{"shadowed"}},
		{"I knelt down, asked him what hurt, and showed him the chair.", []string{"knelt", "asked", "showed"}},
		{"Dr. Okafor fitted a partial for him, and he came back a week later.", []string{"fitted", "came"}},
		{"I'd thank the grandson and call a professional interpreter.", []string{"thank"}},
		// Being, feeling, wanting and knowing are not doing; nor is a
		// verb negated.
		{"I felt nervous and I wanted to help. I realized it mattered. I didn't call her.", nil},
		{"First, shadowing. Second, a community clinic with patients.", nil},
	} {
		var got []string
		for _, d := range newText(tt.transcript).deeds() {
			got = append(got, d.text)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q: deeds %q, want %q", tt.transcript, got, tt.want)
		}
	}
}

// Issue 29 item 5: the same details count in full where someone did
// something with them, and only in part where they are named on their own.
func TestDetailsCountWhenSomeoneDidSomething(t *testing.T) {
	const (
		told = "I shadowed Dr. Lee at a community clinic for 200 hours last summer. One morning she talked a scared 7-year-old through his first filling, " +
			"and I held the mirror for him. I volunteered at a food bank every Saturday for two years as well, and I still think about that boy."
		named = "Shadowing, Dr. Lee and a community clinic: 200 hours last summer is my experience. One morning is the example that matters to me, a scared " +
			"7-year-old and his first filling, with the mirror for him. The food bank every Saturday for two years is my service, and the boy is my reason."
	)
	doing, naming := judgedFraction(t, whyDentistry(told), feedback.CriterionEvidence), judgedFraction(t, whyDentistry(named), feedback.CriterionEvidence)
	if doing <= naming {
		t.Errorf("specific evidence %.2f told as deeds, %.2f named on its own; want the deeds to count for more", doing, naming)
	}
}

// A reason is a clause of purpose or consequence, whatever its words:
// "so she has some control" says why, as "because" does.
func TestAClauseOfPurposeIsAReason(t *testing.T) {
	in := feedback.Input{Profession: "dental", Question: "How would you communicate with a frightened seven-year-old who needs a filling?",
		Transcript: "I'd sit at her eye level and ask her name. Then tell-show-do: this tooth has a little hole, so we're going to clean it. " +
			"I'd show her the mirror and the water, and I'd give her a signal to raise her hand so she has some control. " +
			"Her mom would stay where she can see her, otherwise she panics. At the end I'd tell her she was brave.",
		Delivery: &feedback.Delivery{DurationSeconds: 40, WordsPerMinute: 145}}
	if got := judgedFraction(t, in, feedback.CriterionInsight); got == 0 {
		t.Errorf("insight %.2f for an answer that says why at each step, want above 0", got)
	}
}
