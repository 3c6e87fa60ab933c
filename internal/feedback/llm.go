package feedback

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"
	"unicode"

	openai "github.com/sashabaranov/go-openai"
)

// llmEngine scores with an OpenAI-compatible chat model and falls back to
// the rubric — marking the result — whenever the model cannot be used.
type llmEngine struct {
	client *openai.Client
	cfg    Config
	logger *slog.Logger
}

func newLLM(cfg Config, logger *slog.Logger) *llmEngine {
	oc := openai.DefaultConfig(cfg.APIKey)
	oc.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	oc.HTTPClient = &http.Client{}
	return &llmEngine{client: openai.NewClientWithConfig(oc), cfg: cfg, logger: logger}
}

// errMalformed marks a reply that is not usable Feedback; it is the only
// failure worth asking the model again for.
var errMalformed = errors.New("malformed reply")

// llmAttempts is one try and one retry on malformed output.
const llmAttempts = 2

// Score implements Engine.
func (e *llmEngine) Score(ctx context.Context, in Input) (Feedback, error) {
	if err := in.validate(); err != nil {
		return Feedback{}, err
	}
	// The rubric always runs: it measures delivery, guards against answers
	// that talk to the scorer, and is the fallback.
	base := assess(in)
	callCtx, cancel := context.WithTimeout(ctx, e.cfg.Timeout)
	defer cancel()
	fb, err := e.ask(callCtx, in, base)
	if err == nil {
		return fb, nil
	}
	if ctx.Err() != nil {
		// The caller gave up; nobody is waiting for a fallback.
		return Feedback{}, fmt.Errorf("feedback: llm: %w", ctx.Err())
	}
	reason := fallbackReason(err, e.cfg.Timeout)
	e.logger.WarnContext(ctx, "feedback: llm unusable, scored by the rubric", "model", e.cfg.Model, "reason", reason, "err", err)
	out := base.feedback()
	out.Fallback = true
	out.FallbackReason = reason
	return out, nil
}

func fallbackReason(err error, timeout time.Duration) string {
	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Sprintf("the AI reviewer did not answer within %s", timeout)
	case errors.Is(err, errMalformed):
		return "the AI reviewer's reply was unusable twice"
	case errors.As(err, &apiErr):
		return fmt.Sprintf("the AI reviewer returned an error (HTTP %d)", apiErr.HTTPStatusCode)
	case errors.As(err, &reqErr):
		return fmt.Sprintf("the AI reviewer returned an error (HTTP %d)", reqErr.HTTPStatusCode)
	}
	return "the AI reviewer could not be reached"
}

func (e *llmEngine) ask(ctx context.Context, in Input, base *assessment) (Feedback, error) {
	user, err := userMessage(in, base.qt)
	if err != nil {
		return Feedback{}, err
	}
	req := openai.ChatCompletionRequest{
		Model: e.cfg.Model,
		Messages: []openai.ChatCompletionMessage{
			{Role: openai.ChatMessageRoleSystem, Content: systemPrompt(in, base.qt)},
			{Role: openai.ChatMessageRoleUser, Content: user},
		},
		ResponseFormat: &openai.ChatCompletionResponseFormat{
			Type: openai.ChatCompletionResponseFormatTypeJSONSchema,
			JSONSchema: &openai.ChatCompletionResponseFormatJSONSchema{
				Name:   "interview_feedback",
				Schema: json.RawMessage(feedbackSchema),
				Strict: true,
			},
		},
	}
	var lastErr error
	for attempt := 1; attempt <= llmAttempts; attempt++ {
		resp, err := e.client.CreateChatCompletion(ctx, req)
		if err != nil {
			// Transport and API errors are not retried: a second call would
			// mostly double the wait before the fallback.
			return Feedback{}, fmt.Errorf("feedback: llm: %w", err)
		}
		if len(resp.Choices) == 0 {
			lastErr = fmt.Errorf("%w: no choices", errMalformed)
		} else {
			var fb Feedback
			fb, lastErr = parseReply(resp.Choices[0].Message.Content, in.Transcript)
			if lastErr == nil {
				return e.finish(fb, base), nil
			}
		}
		e.logger.WarnContext(ctx, "feedback: llm reply unusable", "attempt", attempt, "err", lastErr)
	}
	return Feedback{}, fmt.Errorf("feedback: llm: %w", lastErr)
}

// llmReply is the model's JSON before validation: scores are raw so that a
// non-numeric one becomes 0 rather than failing the whole reply (spec).
type llmReply struct {
	OverallScore  json.RawMessage            `json:"overallScore"`
	SectionScores map[string]json.RawMessage `json:"sectionScores"`
	Summary       string                     `json:"summary"`
	Suggestions   []string                   `json:"suggestions"`
	Evidence      []Evidence                 `json:"evidence"`
}

// Evidence and suggestions kept from a model reply.
const (
	maxModelEvidence    = 12
	maxModelSuggestions = 5
)

func parseReply(content, transcript string) (Feedback, error) {
	var r llmReply
	if err := json.Unmarshal([]byte(strings.TrimSpace(content)), &r); err != nil {
		return Feedback{}, fmt.Errorf("%w: %v", errMalformed, err)
	}
	if r.OverallScore == nil || strings.TrimSpace(r.Summary) == "" {
		return Feedback{}, fmt.Errorf("%w: overallScore or summary missing", errMalformed)
	}
	for _, k := range []string{SectionOverallImpression, SectionClarityStructure, SectionContent} {
		if r.SectionScores[k] == nil {
			return Feedback{}, fmt.Errorf("%w: sectionScores.%s missing", errMalformed, k)
		}
	}
	fb := Feedback{
		OverallScore: scoreFromJSON(r.OverallScore),
		SectionScores: SectionScores{
			OverallImpression: scoreFromJSON(r.SectionScores[SectionOverallImpression]),
			ClarityStructure:  scoreFromJSON(r.SectionScores[SectionClarityStructure]),
			Content:           scoreFromJSON(r.SectionScores[SectionContent]),
		},
		Summary:     strings.TrimSpace(r.Summary),
		Suggestions: []string{},
		Evidence:    []Evidence{},
	}
	for _, s := range r.Suggestions {
		if s = strings.TrimSpace(s); s != "" && len(fb.Suggestions) < maxModelSuggestions {
			fb.Suggestions = append(fb.Suggestions, s)
		}
	}
	haystack := normalizeForMatch(transcript)
	for _, ev := range r.Evidence {
		switch ev.Section {
		case SectionOverallImpression, SectionClarityStructure, SectionContent:
		default:
			continue
		}
		// A quote that is not in the transcript is not evidence; models do
		// paraphrase, and a paraphrase shown as a quote would mislead.
		if q := strings.Trim(strings.TrimSpace(ev.Quote), `"'“”‘’…. `); q != "" {
			if !strings.Contains(haystack, normalizeForMatch(q)) {
				continue
			}
		}
		if len(fb.Evidence) < maxModelEvidence {
			fb.Evidence = append(fb.Evidence, ev)
		}
	}
	return fb, nil
}

// normalizeForMatch lowercases and collapses whitespace and curly quotes so
// that verbatim quotes match despite cosmetic differences.
func normalizeForMatch(s string) string {
	s = strings.NewReplacer("’", "'", "‘", "'", "“", `"`, "”", `"`).Replace(strings.ToLower(s))
	return strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ")
}

// finish applies what is measured rather than judged: delivery from the
// speech metrics, and the rubric's ceiling for answers that address the
// scorer (a model can be talked into a score; the rubric cannot).
func (e *llmEngine) finish(fb Feedback, base *assessment) Feedback {
	fb.RubricVersion = RubricVersion
	fb.Engine = EngineLLM
	fb.Model = e.cfg.Model

	// The model judges the words only; delivery is blended in as the rubric does.
	textImpression := fb.SectionScores.OverallImpression
	fb.SectionScores.OverallImpression = clampScore(impressionOf(base.delivery.score, float64(textImpression)))
	fb.OverallScore = clampScore(float64(fb.OverallScore) + weightImpression*float64(fb.SectionScores.OverallImpression-textImpression))
	fb.Evidence = append(fb.Evidence, base.delivery.evidence()...)
	for _, s := range base.delivery.suggestions() {
		if len(fb.Suggestions) < maxModelSuggestions {
			fb.Suggestions = append(fb.Suggestions, s.text)
		}
	}

	// Red flags are checked, not judged: a model can be talked out of one.
	fb.RedFlags = base.redFlags()
	fb.Competencies = base.competencies(base.judge())
	if len(base.flags) > 0 {
		fb.OverallScore = min(fb.OverallScore, redFlagCap)
	}
	if base.hasFlag(FlagAddressesScorer) {
		ro, rs := base.scores(base.judge())
		fb.OverallScore = min(fb.OverallScore, ro)
		fb.SectionScores.OverallImpression = min(fb.SectionScores.OverallImpression, rs.OverallImpression)
		fb.SectionScores.ClarityStructure = min(fb.SectionScores.ClarityStructure, rs.ClarityStructure)
		fb.SectionScores.Content = min(fb.SectionScores.Content, rs.Content)
	}
	return fb
}
