package practice

import (
	"encoding/csv"
	"strings"
	"testing"

	"github.com/whitecoat/whitecoat/internal/answer"
	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/transcribe"
)

// Issue 39 item 4: an answer whose content was not judged has no overall
// score, so it counts in no average — the session's, and through it the
// student's averages and a saved session's overall — nor in the progress
// trends or the earlier attempts a new answer is compared with, until the
// transcript is corrected and scored. Rows saved before this rule kept a
// score for such an answer: it is not counted either.
func TestAnAnswerWhoseContentWasNotJudgedCountsInNoAverage(t *testing.T) {
	scored := func(n int, unjudged bool) Item {
		it := Item{Answer: answer.Answer{Status: StatusDone, Feedback: &feedback.Feedback{OverallScore: n, ContentUnjudged: unjudged}}}
		it.score = &n
		return it
	}
	if avg, ok := AverageScore([]Item{scored(80, false), scored(40, true)}); !ok || avg != 80 {
		t.Errorf("session average %v (%v), want 80: the unjudged answer's 40 counted", avg, ok)
	}
	if avg, ok := AverageScore([]Item{scored(40, true)}); ok {
		t.Errorf("a session of one unjudged answer has an average, %v", avg)
	}
	if score := storedScore(feedback.Feedback{OverallScore: 40, ContentUnjudged: true}); score.Valid {
		t.Errorf("an unjudged answer is stored with the score %d", score.Int64)
	}
	if score := storedScore(feedback.Feedback{OverallScore: 0}); !score.Valid || score.Int64 != 0 {
		t.Errorf("a judged 0 is stored as %+v", score)
	}
	answers := judgedOnly([]ScoredAnswer{{ItemID: "a", Feedback: feedback.Feedback{OverallScore: 70}}, {ItemID: "b", Feedback: feedback.Feedback{OverallScore: 40, ContentUnjudged: true}}})
	if len(answers) != 1 || answers[0].ItemID != "a" {
		t.Errorf("the progress and earlier attempts read %+v, want only the judged answer", answers)
	}
}

// Issue 39 item 4: the export keeps the "may be misheard" marks the
// screens show — a column of the words the student is asked to check —
// and an answer with no overall score has an empty cell, not a number.
func TestTheCSVExportKeepsTheMisheardMarksAndNoScoreForUnjudgedContent(t *testing.T) {
	text := "I want to project the practice"
	it := Item{Answer: answer.Answer{Kind: answer.KindSpoken, Status: StatusDone, Transcript: &text,
		Feedback:        &feedback.Feedback{OverallScore: 40, ContentUnjudged: true},
		TranscriptParts: []transcribe.TranscriptPart{{Text: "I want to "}, {Text: "project", Uncertain: true}, {Text: " the "}, {Text: "practice", Uncertain: true}}}}
	var b strings.Builder
	if err := (Export{Sessions: []Session{{ID: "s1", Items: []Item{it}}}}).WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(strings.NewReader(b.String())).ReadAll()
	if err != nil || len(rows) != 2 {
		t.Fatalf("rows %q, %v", rows, err)
	}
	cell := map[string]string{}
	for i, name := range rows[0] {
		cell[name] = rows[1][i]
	}
	if got := cell["possibly_misheard"]; got != "project\npractice" {
		t.Errorf("possibly_misheard %q, want the two marked words (header %q)", got, rows[0])
	}
	if got := cell["overall_score"]; got != "" {
		t.Errorf("overall_score %q for an answer whose content was not judged", got)
	}
}
