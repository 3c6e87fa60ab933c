package question

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/whitecoat/whitecoat/internal/profession"
)

func TestBankCounts(t *testing.T) {
	t.Parallel()
	qs, err := Bank()
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) < 210 {
		t.Errorf("bank has %d questions, want at least 210", len(qs))
	}
	seedKeys := map[string]bool{}
	for _, q := range qs {
		if seedKeys[q.SeedKey] {
			t.Errorf("seedKey %q appears twice", q.SeedKey)
		}
		seedKeys[q.SeedKey] = true
		if q.Tip == "" {
			t.Errorf("%s has no tip", q.SeedKey)
		}
		if !strings.HasSuffix(q.Text, "?") && !strings.HasSuffix(q.Text, ".") {
			t.Errorf("%s text %q does not end a sentence", q.SeedKey, q.Text)
		}
	}

	for _, p := range profession.All() {
		t.Run(p.Slug, func(t *testing.T) {
			var (
				total    int
				subtags  = map[Subtag]int{}
				big3     []Question
				texts    = map[string]string{}
				specific int
			)
			for _, q := range qs {
				if !q.HasTag(p.Slug) {
					continue
				}
				total++
				subtags[q.Subtag]++
				if q.Big3 {
					big3 = append(big3, q)
				}
				if len(q.MainTags) == 1 {
					specific++
				}
				if other, dup := texts[q.askKey()]; dup {
					t.Errorf("%s repeats the text of %s", q.SeedKey, other)
				}
				texts[q.askKey()] = q.SeedKey
			}
			if total < 30 {
				t.Errorf("%d questions, want at least 30", total)
			}
			if specific < 30 {
				t.Errorf("%d questions only for %s, want at least 30", specific, p.Slug)
			}
			for _, st := range Subtags() {
				if subtags[st] == 0 {
					t.Errorf("no %s questions", st)
				}
			}
			slices.SortFunc(big3, func(a, b Question) int { return a.Big3Order - b.Big3Order })
			if len(big3) != 3 {
				t.Fatalf("%d Big 3 questions, want 3", len(big3))
			}
			for i, q := range big3 {
				if q.Big3Order != i+1 {
					t.Errorf("Big 3 #%d (%s) has big3Order %d", i+1, q.SeedKey, q.Big3Order)
				}
			}
			if big3[0].Text != "Tell me about yourself." {
				t.Errorf("Big 3 #1 is %q", big3[0].Text)
			}
			if big3[1].Text != p.DefaultQuestion {
				t.Errorf("Big 3 #2 is %q, want the profession's default question %q", big3[1].Text, p.DefaultQuestion)
			}
			if !strings.HasPrefix(big3[2].Text, "Why do you want to attend our ") {
				t.Errorf("Big 3 #3 is %q", big3[2].Text)
			}
			t.Log(countLine(total, subtags))
		})
	}
}

func countLine(total int, subtags map[Subtag]int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "total %d:", total)
	for _, st := range append(Subtags(), "") {
		name := string(st)
		if name == "" {
			name = "none"
		}
		fmt.Fprintf(&b, " %s %d", name, subtags[st])
	}
	return b.String()
}

func TestBankReturnsFreshCopies(t *testing.T) {
	t.Parallel()
	first, err := Bank()
	if err != nil {
		t.Fatal(err)
	}
	first[0].Text = "changed"
	first[0].MainTags[0] = "changed"
	second, err := Bank()
	if err != nil {
		t.Fatal(err)
	}
	if second[0].Text == "changed" || second[0].MainTags[0] == "changed" {
		t.Fatal("changing one Bank result changed the next")
	}
}

// Every bank question carries its own points, and every ethical question
// and station the traps it must avoid (issue 40).
func TestBankQuestionsHavePointsAndTraps(t *testing.T) {
	bank, err := Bank()
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range bank {
		if len(q.Points) < MinPoints || len(q.Points) > MaxPoints {
			t.Errorf("%s has %d points, want %d to %d", q.SeedKey, len(q.Points), MinPoints, MaxPoints)
		}
		if (q.Subtag == Ethical || q.IsStation()) && len(q.Traps) == 0 {
			t.Errorf("%s (%s) names no trap", q.SeedKey, q.Subtag)
		}
		for _, p := range append(q.Points, q.Traps...) {
			if len(p.Cues) < 3 {
				t.Errorf("%s: %q has %d cues, want at least 3", q.SeedKey, p.Text, len(p.Cues))
			}
		}
	}
}
