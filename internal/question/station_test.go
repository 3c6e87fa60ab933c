package question

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/whitecoat/whitecoat/internal/profession"
)

func station(prompts ...string) Question {
	return Question{Scenario: "A patient asks you to keep a diagnosis from her husband.", Text: "What would you do?",
		FollowUps: prompts, Subtag: Ethical, MainTags: []string{"medical"}}
}

func TestStationProblems(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		q     Question
		field string
	}{
		{"follow-ups without a scenario", Question{Text: "Why medicine?", FollowUps: []string{"Why not nursing?"}, MainTags: []string{"medical"}}, "followUps"},
		{"too many follow-ups", station("One?", "Two?", "Three?", "Four?", "Five?"), "followUps"},
		{"a follow-up too long", station(strings.Repeat("why ", MaxFollowUpLen/4+1) + "?"), "followUps"},
		{"a scenario too long", Question{Scenario: strings.Repeat("a", MaxScenarioLen+1), Text: "What now?", MainTags: []string{"pa"}}, "scenario"},
		{"a Big 3 station", func() Question { q := station(); q.Big3, q.Big3Order = true, 1; return q }(), "big3"},
	}
	for _, tc := range tests {
		ps := tc.q.Normalize().Problems()
		if len(ps) != 1 || ps[0].Field != tc.field {
			t.Errorf("%s: problems %v, want one with %s", tc.name, ps, tc.field)
		}
	}
	if ps := station("What if she asks you to lie?", " ", "Who else would you involve?").Normalize().Problems(); len(ps) != 0 {
		t.Errorf("a valid station has problems: %v", ps)
	}
	if got := station("  What if she asks \n  you to lie? ", "", " ").Normalize().FollowUps; !reflect.DeepEqual(got, []string{"What if she asks you to lie?"}) {
		t.Errorf("normalised follow-ups %q", got)
	}
}

func TestStationRoundTripsThroughEveryFormat(t *testing.T) {
	t.Parallel()
	want := station("What if she asks you to lie?", "Who else would you involve?").Normalize()
	for _, f := range []Format{FormatJSON, FormatCSV} {
		var buf bytes.Buffer
		if err := Encode(&buf, f, []Question{want}); err != nil {
			t.Fatal(err)
		}
		got, err := Decode(&buf, f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if len(got) != 1 || !reflect.DeepEqual(got[0], want) {
			t.Errorf("%s round trip: got %+v, want %+v", f, got, want)
		}
	}
}

// Stations often share a prompt: they are different questions when their
// scenarios differ, and an import of the same station twice is refused.
func TestStationsSharingAPromptAreDifferentQuestions(t *testing.T) {
	t.Parallel()
	a, b := station(), station()
	b.Scenario = "A colleague asks you to cover for him."
	var buf bytes.Buffer
	if err := Encode(&buf, FormatJSON, []Question{a, b}); err != nil {
		t.Fatal(err)
	}
	if _, err := Decode(&buf, FormatJSON); err != nil {
		t.Errorf("two stations with one prompt: %v", err)
	}
	buf.Reset()
	if err := Encode(&buf, FormatJSON, []Question{a, a}); err != nil {
		t.Fatal(err)
	}
	if _, err := Decode(&buf, FormatJSON); err == nil || !strings.Contains(err.Error(), "duplicates row 1") {
		t.Errorf("the same station twice: %v", err)
	}
}

func TestBankStations(t *testing.T) {
	t.Parallel()
	bank, err := Bank()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range profession.All() {
		stations, err := SelectStations(bank, p.Slug, MaxCount, "", rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		if len(stations) < 8 {
			t.Errorf("%s has %d stations, want at least 8", p.Slug, len(stations))
		}
		subtags := map[Subtag]bool{}
		for _, q := range stations {
			subtags[q.Subtag] = true
			if !q.IsStation() || !q.HasTag(p.Slug) || len(q.FollowUps) == 0 || q.Tip == "" {
				t.Errorf("%s station %s: %+v", p.Slug, q.SeedKey, q)
			}
		}
		if len(subtags) < 3 {
			t.Errorf("%s stations cover only %v", p.Slug, subtags)
		}
		// Questions asked on their own never draw a station, and stations
		// never draw one.
		for seed := range uint64(20) {
			qs, err := Select(bank, p.Slug, MaxCount, true, "", rand.New(rand.NewPCG(seed, 7)))
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range qs {
				if q.IsStation() {
					t.Fatalf("%s: Select drew the station %s", p.Slug, q.SeedKey)
				}
			}
		}
	}
}
