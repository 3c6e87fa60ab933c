package question

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func q(id, text, tag string) Question {
	return Question{ID: id, Text: text, Tip: "tip", MainTags: []string{tag}}
}

func b3(id, text, tag string, order int) Question {
	out := q(id, text, tag)
	out.Big3, out.Big3Order = true, order
	return out
}

// testPool has dental's Big 3 stored out of order, four ordinary dental
// questions, one medical question and a duplicate text with another id.
func testPool() []Question {
	return []Question{
		q("d4", "Dental four?", "dental"),
		b3("b3", "Why our school?", "dental", 3),
		q("d1", "Dental one?", "dental"),
		b3("b1", "Tell me about yourself.", "dental", 1),
		q("m1", "Medical one?", "medical"),
		q("d2", "Dental two?", "dental"),
		b3("b2", "Why dentistry?", "dental", 2),
		q("d3", "Dental three?", "dental"),
		q("d1-copy", "  dental ONE? ", "dental"),
		b3("mb1", "Tell me about yourself.", "medical", 1),
	}
}

func ids(qs []Question) []string {
	out := make([]string, len(qs))
	for i, q := range qs {
		out[i] = q.ID
	}
	return out
}

func TestSelect(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		profession string
		count      int
		big3       bool
		wantLen    int
		wantPrefix []string
		wantErr    string
	}{
		{name: "big3 first in order then randoms", profession: "dental", count: 5, big3: true, wantLen: 5, wantPrefix: []string{"b1", "b2", "b3"}},
		{name: "count below three cuts the Big 3", profession: "dental", count: 2, big3: true, wantLen: 2, wantPrefix: []string{"b1", "b2"}},
		{name: "exactly the Big 3", profession: "dental", count: 3, big3: true, wantLen: 3, wantPrefix: []string{"b1", "b2", "b3"}},
		{name: "zero count means default five", profession: "dental", count: 0, big3: true, wantLen: 5, wantPrefix: []string{"b1", "b2", "b3"}},
		{name: "more than available returns all distinct", profession: "dental", count: 10, big3: true, wantLen: 7, wantPrefix: []string{"b1", "b2", "b3"}},
		{name: "big3 off excludes Big 3", profession: "dental", count: 10, big3: false, wantLen: 4},
		{name: "profession is case-insensitive", profession: "MEDICAL", count: 5, big3: true, wantLen: 2, wantPrefix: []string{"mb1", "m1"}},
		{name: "profession with no questions", profession: "ot", count: 5, big3: true, wantLen: 0},
		{name: "count above ten", profession: "dental", count: 11, big3: true, wantErr: "count 11 is outside 1-10"},
		{name: "negative count", profession: "dental", count: -1, big3: true, wantErr: "count -1 is outside 1-10"},
		{name: "unknown profession", profession: "nursing", count: 5, big3: true, wantErr: `unknown profession "nursing"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Select(testPool(), tt.profession, tt.count, tt.big3, "", rand.New(rand.NewPCG(1, 2)))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != tt.wantLen {
				t.Fatalf("got %d questions %v, want %d", len(got), ids(got), tt.wantLen)
			}
			if !slices.Equal(ids(got)[:len(tt.wantPrefix)], tt.wantPrefix) {
				t.Errorf("got %v, want it to start with %v", ids(got), tt.wantPrefix)
			}
			seenID, seenText := map[string]bool{}, map[string]bool{}
			for i, q := range got {
				if seenID[q.ID] || seenText[textKey(q.Text)] {
					t.Errorf("question %s (%q) repeated", q.ID, q.Text)
				}
				seenID[q.ID], seenText[textKey(q.Text)] = true, true
				if !q.HasTag(tt.profession) {
					t.Errorf("question %s is not tagged %s", q.ID, tt.profession)
				}
				if i >= len(tt.wantPrefix) && q.Big3 {
					t.Errorf("Big 3 question %s drawn at random position %d", q.ID, i)
				}
			}
		})
	}
}

func TestSelectDeterministicUnderSeed(t *testing.T) {
	t.Parallel()
	bank, err := Bank()
	if err != nil {
		t.Fatal(err)
	}
	for i := range bank {
		bank[i].ID = bank[i].SeedKey
	}
	reversed := slices.Clone(bank)
	slices.Reverse(reversed)

	tests := []struct {
		name string
		seed uint64
		pool []Question
	}{
		{"seed 1", 1, bank},
		{"seed 1 with pool in another order", 1, reversed},
		{"seed 42", 42, bank},
	}
	var first []string
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := Select(tt.pool, "pharmacy", 10, true, "", rand.New(rand.NewPCG(tt.seed, 0)))
			if err != nil {
				t.Fatal(err)
			}
			b, err := Select(tt.pool, "pharmacy", 10, true, "", rand.New(rand.NewPCG(tt.seed, 0)))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(ids(a), ids(b)) {
				t.Fatalf("same seed gave %v then %v", ids(a), ids(b))
			}
			switch {
			case first == nil:
				first = ids(a)
			case tt.seed == 1 && !slices.Equal(ids(a), first):
				t.Errorf("pool order changed the result: %v vs %v", ids(a), first)
			case tt.seed != 1 && slices.Equal(ids(a), first):
				t.Errorf("seeds 1 and %d gave the same selection %v", tt.seed, first)
			}
		})
	}
}

func TestSelectNilRandUsesGlobalSource(t *testing.T) {
	t.Parallel()
	got, err := Select(testPool(), "dental", 5, true, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 5 || got[0].ID != "b1" {
		t.Fatalf("got %v", ids(got))
	}
}

func TestSelectCoversWholePoolOverManySeeds(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for seed := range uint64(50) {
		got, err := Select(testPool(), "dental", 4, true, "", rand.New(rand.NewPCG(seed, seed)))
		if err != nil {
			t.Fatal(err)
		}
		seen[got[3].ID] = true
	}
	// d1 and d1-copy share a text, so either may stand for it.
	if len(seen) < 4 {
		t.Fatalf("the random slot only ever held %v", seen)
	}
}

func TestSelectPutsTheFocusFirst(t *testing.T) {
	t.Parallel()
	pool := testPool()
	for i := range pool {
		if pool[i].ID == "d2" || pool[i].ID == "d4" {
			pool[i].Subtag = Ethical
		}
	}
	for seed := range uint64(20) {
		got, err := Select(pool, "dental", 4, true, Ethical, rand.New(rand.NewPCG(seed, 1)))
		if err != nil {
			t.Fatal(err)
		}
		if ids := ids(got); !slices.Equal(ids[:3], []string{"b1", "b2", "b3"}) || (ids[3] != "d2" && ids[3] != "d4") {
			t.Fatalf("seed %d: %v; after the Big 3 an Ethical question must come first", seed, ids)
		}
		got, _ = Select(pool, "dental", 3, false, Ethical, rand.New(rand.NewPCG(seed, 1)))
		if ids := ids(got); !slices.Contains(ids[:2], "d2") || !slices.Contains(ids[:2], "d4") || len(ids) != 3 {
			t.Fatalf("seed %d: %v; both Ethical questions first, then the others", seed, ids)
		}
	}
}
