package history

import (
	"testing"

	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/practice"
)

// An answer whose content could not be judged (too much of it may have
// been misheard) has a content score of 0 that stands for nothing: the
// session's content trend is the mean of the answers that were judged.
func TestTheContentTrendLeavesOutContentThatWasNotJudged(t *testing.T) {
	judged := practice.ScoredAnswer{SessionID: "s1", Feedback: feedback.Feedback{OverallScore: 70, SectionScores: feedback.SectionScores{Content: 80, ClarityStructure: 60}}}
	unjudged := practice.ScoredAnswer{SessionID: "s1", Feedback: feedback.Feedback{OverallScore: 50, ContentUnjudged: true, SectionScores: feedback.SectionScores{ClarityStructure: 40}}}
	points := trend([]practice.ScoredAnswer{judged, unjudged})
	if len(points) != 1 {
		t.Fatalf("points %+v, want one session", points)
	}
	if p := points[0]; p.Sections.Content != 80 || p.Sections.ClarityStructure != 50 || p.OverallScore != 60 || p.Answers != 2 {
		t.Errorf("point %+v: want content 80 (the judged answer's), structure 50 and overall 60 (both answers')", p)
	}
}
