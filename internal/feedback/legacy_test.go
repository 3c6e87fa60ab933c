package feedback

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestStoredReadsObjectsAndLegacyStrings(t *testing.T) {
	tests := []struct {
		name        string
		json        string
		wantLegacy  string
		wantOverall int
		wantSection SectionScores
		wantVersion string
	}{
		{name: "structured", json: `{"overallScore":82,"sectionScores":{"overallImpression":80,"clarityStructure":85,"content":79},"summary":"s","suggestions":["a"],"rubricVersion":"v2","engine":"rubric","evidence":[]}`,
			wantOverall: 82, wantSection: SectionScores{80, 85, 79}, wantVersion: "v2"},
		{name: "old object without version, out-of-range and non-numeric scores",
			json:        `{"overallScore":"91","sectionScores":{"overallImpression":130,"clarityStructure":"good","content":-4},"summary":"s"}`,
			wantOverall: 91, wantSection: SectionScores{100, 0, 0}, wantVersion: "v1"},
		{name: "plain legacy text", json: `"Good answer overall.\nWork on structure."`, wantLegacy: "Good answer overall.\nWork on structure."},
		{name: "legacy HTML", json: `"<h3>Feedback</h3><p>Nice <b>STAR</b> answer &amp; clear.</p><ul><li>Add a result</li><li>Cut fillers</li></ul><script>alert(1)</script>"`,
			wantLegacy: "Feedback\nNice STAR answer & clear.\n\n- Add a result\n- Cut fillers"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s Stored
			if err := json.Unmarshal([]byte(tt.json), &s); err != nil {
				t.Fatal(err)
			}
			if tt.wantLegacy != "" {
				if !s.IsLegacy() || s.Legacy != tt.wantLegacy {
					t.Errorf("legacy %v %q, want %q", s.IsLegacy(), s.Legacy, tt.wantLegacy)
				}
				return
			}
			if s.IsLegacy() {
				t.Fatal("structured feedback read as legacy")
			}
			fb := s.Feedback
			if fb.OverallScore != tt.wantOverall || fb.SectionScores != tt.wantSection || fb.RubricVersion != tt.wantVersion {
				t.Errorf("got %d %+v %q", fb.OverallScore, fb.SectionScores, fb.RubricVersion)
			}
			if fb.Suggestions == nil || fb.Evidence == nil {
				t.Error("nil lists would marshal as null")
			}
		})
	}
	var s Stored
	if err := json.Unmarshal([]byte(`42`), &s); err == nil {
		t.Error("a bare number was accepted as feedback")
	}
}

func TestStoredRoundTrip(t *testing.T) {
	v3 := `{"overallScore":50,"sectionScores":{"overallImpression":60,"clarityStructure":55,"content":40},"summary":"s","suggestions":["x"],"rubricVersion":"v3","engine":"rubric","evidence":[{"section":"content","criterion":"Judgement","met":false,"quote":"q","level":1,"anchor":"a"}],"redFlags":[{"key":"deception","name":"n","quote":"q","why":"w","instead":"i"}],"competencies":["teamwork"],"fallback":false}`
	tests := []struct{ in, want string }{
		{`"legacy text"`, `"legacy text"`},
		// Feedback before v3 comes back with no flags and no competencies.
		{`{"overallScore":70,"sectionScores":{"overallImpression":70,"clarityStructure":70,"content":70},"summary":"s","suggestions":[],"rubricVersion":"v2","engine":"llm","model":"m","evidence":[],"fallback":false}`,
			`{"overallScore":70,"sectionScores":{"overallImpression":70,"clarityStructure":70,"content":70},"summary":"s","suggestions":[],"rubricVersion":"v2","engine":"llm","model":"m","evidence":[],"redFlags":[],"competencies":[],"fallback":false}`},
		{v3, v3},
	}
	for _, tt := range tests {
		var s Stored
		if err := json.Unmarshal([]byte(tt.in), &s); err != nil {
			t.Fatal(err)
		}
		out, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != tt.want {
			t.Errorf("round trip\n got %s\nwant %s", out, tt.want)
		}
	}
}

func TestSanitizeLegacyLeavesNoMarkup(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text stays", "plain text stays"},
		{`<img src=x onerror="alert(1)">Score: 7/10`, "Score: 7/10"},
		{"&lt;script&gt;alert(1)&lt;/script&gt; tricky", "‹script›alert(1)‹/script› tricky"},
		{"<style>p{color:red}</style><p>one</p><p>two</p>", "one\ntwo"},
		{"<!-- hidden --><div>a<br>b</div>", "a\nb"},
		{"unclosed <a href='javascript:x'", "unclosed"},
		{"  lots   of \t space  ", "lots of space"},
	}
	for _, tt := range tests {
		got := SanitizeLegacy(tt.in)
		if got != tt.want {
			t.Errorf("SanitizeLegacy(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if strings.ContainsAny(got, "<>") {
			t.Errorf("SanitizeLegacy(%q) left angle brackets: %q", tt.in, got)
		}
	}
}

func FuzzSanitizeLegacy(f *testing.F) {
	f.Add("<p>hi</p>")
	f.Add("&lt;b&gt;")
	f.Add("<scr<script>ipt>x</script>")
	f.Fuzz(func(t *testing.T, s string) {
		if got := SanitizeLegacy(s); strings.ContainsAny(got, "<>") {
			t.Errorf("markup survived: %q -> %q", s, got)
		}
	})
}

// An answer's feedback stored before v3 reads back with empty lists: the
// contract has no null lists.
func TestFeedbackBeforeV3ReadsWithEmptyLists(t *testing.T) {
	var fb Feedback
	if err := json.Unmarshal([]byte(`{"overallScore":70,"sectionScores":{"overallImpression":70,"clarityStructure":70,"content":70},"summary":"s","rubricVersion":"v2","engine":"rubric","fallback":false}`), &fb); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(fb)
	if err != nil {
		t.Fatal(err)
	}
	for _, field := range []string{`"suggestions":[]`, `"evidence":[]`, `"redFlags":[]`, `"competencies":[]`} {
		if !strings.Contains(string(out), field) {
			t.Errorf("%s missing from %s", field, out)
		}
	}
}
