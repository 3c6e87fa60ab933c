package rubric

import (
	"fmt"
	"strings"
	"testing"

	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/question"
)

// Every bank question's points can be made in the words of their cues:
// an answer saying the first cue of its first three points makes those
// three and no other, and is told the fourth as the change that would
// lift it most (web/e2e/points.spec.ts answers a random bank question so).
func TestEveryBankQuestionsPointsCanBeMade(t *testing.T) {
	bank, err := question.Bank()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, q := range bank {
		if len(q.Points) < 4 || len(q.MainTags) == 0 {
			continue
		}
		checked++
		var said []string
		for i, p := range q.Points[:3] {
			said = append(said, fmt.Sprintf("%s, I think it matters that I %s.", []string{"First", "Then", "Finally"}[i], p.Cues[0]))
		}
		in := feedback.Input{Profession: q.MainTags[0], Question: q.Text, Subtag: string(q.Subtag), Transcript: strings.Join(said, " "), Points: q.Points, Traps: q.Traps}
		fb := score(t, in)
		ev := pointEvidence(fb, q.Points)
		for i, p := range q.Points {
			if made := i < 3; ev[p.Text].Met != made {
				t.Errorf("%s: point %d %q made %v, want %v, by %q", q.SeedKey, i+1, p.Text, ev[p.Text].Met, made, in.Transcript)
			}
		}
		if len(fb.RedFlags) > 0 || len(fb.Suggestions) == 0 || fb.Suggestions[0] != q.Points[3].Text {
			t.Errorf("%s: first suggestion %q, red flags %v; want the fourth point", q.SeedKey, fb.Suggestions, fb.RedFlags)
		}
	}
	if checked < len(bank)/2 {
		t.Fatalf("checked %d of the bank's %d questions", checked, len(bank))
	}
}
