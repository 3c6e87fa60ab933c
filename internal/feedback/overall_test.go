package feedback

import (
	"encoding/json"
	"strings"
	"testing"
)

// Issue 39 item 4: an answer whose content was not judged has no overall
// score — not a number formed without its content — until the transcript
// is corrected and scored again; the contract says so by leaving it out.
func TestAnAnswerWhoseContentWasNotJudgedHasNoOverallScore(t *testing.T) {
	unjudged := Feedback{OverallScore: 40, ContentUnjudged: true, SectionScores: SectionScores{ClarityStructure: 50, OverallImpression: 30}}
	b, err := json.Marshal(unjudged)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), `"overallScore"`) {
		t.Errorf("unjudged feedback carries an overall score: %s", b)
	}
	if _, ok := unjudged.Overall(); ok {
		t.Error("Overall() of unjudged feedback is a score")
	}
	var back Feedback
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if _, ok := back.Overall(); ok || !back.ContentUnjudged || back.SectionScores.ClarityStructure != 50 {
		t.Errorf("read back as %+v", back)
	}

	judged := Feedback{OverallScore: 72}
	b, _ = json.Marshal(judged)
	if !strings.Contains(string(b), `"overallScore":72`) {
		t.Errorf("judged feedback lost its overall score: %s", b)
	}
	if o, ok := judged.Overall(); !ok || o != 72 {
		t.Errorf("Overall() = %d, %v", o, ok)
	}
	// A judged 0 is a score, not an absence.
	if b, _ := json.Marshal(Feedback{}); !strings.Contains(string(b), `"overallScore":0`) {
		t.Errorf("a judged 0 left out: %s", b)
	}
}
