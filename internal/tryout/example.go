// Package tryout is trying Whitecoat before signing up: the example
// answer each profession's landing page shows scored, and one question a
// visitor answers there without an account.
package tryout

import (
	"context"
	"fmt"
	"io/fs"
	"strings"

	"github.com/whitecoat/whitecoat/internal/answer"
	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/profession"
)

// Examples are every profession's example answer, by slug: an answer to
// the profession's default question with the feedback the rubric engine
// gives it, what the landing page shows a visitor before they answer
// anything, as every other answer is shown.
type Examples map[string]answer.Answer

// ScoreExamples reads examples/<slug>.txt from src for every profession
// and scores each with engine, as practice scores a spoken answer to the
// same question with no delivery figures. The feedback is the engine's
// own, made when the server starts and when the web build prerenders the
// landing pages, so it cannot drift from the engine; the prerendered page
// is served only while its fingerprint, which covers this feedback,
// matches the running server's.
func ScoreExamples(ctx context.Context, src fs.FS, engine feedback.Engine) (Examples, error) {
	out := Examples{}
	for _, p := range profession.All() {
		raw, err := fs.ReadFile(src, "examples/"+p.Slug+".txt")
		if err != nil {
			return nil, fmt.Errorf("tryout: example for %s: %w", p.Slug, err)
		}
		text := strings.Join(strings.Fields(string(raw)), " ")
		fb, err := engine.Score(ctx, defaultQuestionInput(p, text))
		if err != nil {
			return nil, fmt.Errorf("tryout: score the example for %s: %w", p.Slug, err)
		}
		meaningful := true
		out[p.Slug] = answer.Answer{Kind: answer.KindSpoken, Question: p.DefaultQuestion, FollowUps: []string{}, Status: answer.StatusDone,
			Transcript: &text, Meaningful: &meaningful, Feedback: &fb}
	}
	return out, nil
}

// defaultQuestionInput is what the feedback engine judges an answer to
// p's default question by: the Big 3's "why this profession", with the
// spec's answer time.
func defaultQuestionInput(p profession.Profession, transcript string) feedback.Input {
	return feedback.Input{Profession: p.Slug, Question: p.DefaultQuestion, Big3: feedback.Big3WhyProfession, Transcript: transcript}
}

// ExamplePath is where a profession's example is served; the landing
// page's first render reads it.
func ExamplePath(slug string) string { return "/api/tryout/examples/" + slug }
