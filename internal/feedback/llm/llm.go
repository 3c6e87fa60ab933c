// Package llm is the feedback engine that asks an OpenAI-compatible chat
// model for the criteria levels; the rubric measures delivery and red
// flags beside it and scores the answer when the model cannot be used.
package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	openai "github.com/sashabaranov/go-openai"

	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/feedback/rubric"
)

// Engine scores with an OpenAI-compatible chat model and falls back to the
// rubric — marking the result — whenever the model cannot be used.
type Engine struct {
	client *openai.Client
	cfg    Config
	logger *slog.Logger
}

// New returns the engine, or why cfg cannot work.
func New(cfg Config, logger *slog.Logger) (*Engine, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	oc := openai.DefaultConfig(cfg.APIKey)
	oc.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	oc.HTTPClient = &http.Client{}
	return &Engine{client: openai.NewClientWithConfig(oc), cfg: cfg, logger: logger}, nil
}

// errMalformed marks a reply that is not usable Feedback; it is the only
// failure worth asking the model again for.
var errMalformed = errors.New("malformed reply")

// llmAttempts is one try and one retry on malformed output.
const llmAttempts = 2

// Score implements feedback.Engine.
func (e *Engine) Score(ctx context.Context, in feedback.Input) (feedback.Feedback, error) {
	if err := in.Validate(); err != nil {
		return feedback.Feedback{}, err
	}
	// The rubric always runs: it measures delivery, guards against answers
	// that talk to the scorer, and is the fallback.
	base := rubric.Assess(in)
	callCtx, cancel := context.WithTimeout(ctx, e.cfg.Timeout)
	defer cancel()
	fb, err := e.ask(callCtx, in, base)
	if err == nil {
		return fb, nil
	}
	if ctx.Err() != nil {
		// The caller gave up; nobody is waiting for a fallback.
		return feedback.Feedback{}, fmt.Errorf("feedback: llm: %w", ctx.Err())
	}
	reason := fallbackReason(err, e.cfg.Timeout)
	e.logger.WarnContext(ctx, "feedback: llm unusable, scored by the rubric", "model", e.cfg.Model, "reason", reason, "err", err)
	out := base.Feedback()
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

func (e *Engine) ask(ctx context.Context, in feedback.Input, base *rubric.Assessment) (feedback.Feedback, error) {
	user, err := userMessage(in, base.QuestionType())
	if err != nil {
		return feedback.Feedback{}, err
	}
	req := openai.ChatCompletionRequest{
		Model: e.cfg.Model,
		Messages: []openai.ChatCompletionMessage{
			{Role: openai.ChatMessageRoleSystem, Content: systemPrompt(in, base.QuestionType())},
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
			return feedback.Feedback{}, fmt.Errorf("feedback: llm: %w", err)
		}
		if len(resp.Choices) == 0 {
			lastErr = fmt.Errorf("%w: no choices", errMalformed)
		} else {
			var mj modelJudgement
			mj, lastErr = parseReply(resp.Choices[0].Message.Content, in.Transcript)
			if lastErr == nil {
				return e.finish(mj, base), nil
			}
		}
		e.logger.WarnContext(ctx, "feedback: llm reply unusable", "attempt", attempt, "err", lastErr)
	}
	return feedback.Feedback{}, fmt.Errorf("feedback: llm: %w", lastErr)
}

// llmReply is the model's JSON before validation: levels are raw so that a
// non-numeric one becomes the lowest level rather than failing the whole
// reply, as the spec has it for scores.
type llmReply struct {
	RedFlags []struct {
		Key   string `json:"key"`
		Quote string `json:"quote"`
	} `json:"redFlags"`
	Criteria    map[string]*llmCriterion `json:"criteria"`
	Summary     string                   `json:"summary"`
	Suggestions []string                 `json:"suggestions"`
}

type llmCriterion struct {
	Quote  string          `json:"quote"`
	Reason string          `json:"reason"`
	Level  json.RawMessage `json:"level"`
}

// modelJudgement is a validated reply: a level for every criterion the model
// judges, quotes that are in the transcript, and red flags with known keys.
type modelJudgement struct {
	levels      map[feedback.CriterionKey]int
	quotes      map[feedback.CriterionKey]string
	reasons     map[feedback.CriterionKey]string
	flags       []feedback.RedFlag
	summary     string
	suggestions []string
}

// Suggestions kept from a model reply, the most words kept of a quote, and
// the fewest words a model's red-flag quote must have: "I" is in every
// transcript.
const (
	maxModelSuggestions = 5
	maxModelQuoteWords  = 30
	minFlagQuoteWords   = 3
)

func parseReply(content, transcript string) (modelJudgement, error) {
	var r llmReply
	if err := json.Unmarshal([]byte(strings.TrimSpace(content)), &r); err != nil {
		return modelJudgement{}, fmt.Errorf("%w: %v", errMalformed, err)
	}
	if strings.TrimSpace(r.Summary) == "" {
		return modelJudgement{}, fmt.Errorf("%w: summary missing", errMalformed)
	}
	mj := modelJudgement{
		levels:      map[feedback.CriterionKey]int{},
		quotes:      map[feedback.CriterionKey]string{},
		reasons:     map[feedback.CriterionKey]string{},
		flags:       []feedback.RedFlag{},
		summary:     strings.TrimSpace(r.Summary),
		suggestions: []string{},
	}
	for _, c := range modelCriteria {
		j := r.Criteria[string(c.Key)]
		if j == nil || j.Level == nil {
			return modelJudgement{}, fmt.Errorf("%w: criteria.%s.level missing", errMalformed, c.Key)
		}
		mj.levels[c.Key] = levelFromJSON(j.Level)
		// A quote that is not in the transcript is not evidence; models do
		// paraphrase, and a paraphrase shown as a quote would mislead.
		if q, ok := findQuote(transcript, j.Quote); ok {
			mj.quotes[c.Key] = q
		}
		mj.reasons[c.Key] = strings.TrimSpace(j.Reason)
	}
	for _, f := range r.RedFlags {
		key := feedback.FlagKey(strings.TrimSpace(f.Key))
		if !slices.Contains(feedback.FlagKeys, key) || slices.ContainsFunc(mj.flags, func(g feedback.RedFlag) bool { return g.Key == key }) {
			continue
		}
		// A flag is an accusation: without the applicant's own words it is
		// not raised.
		q, ok := findQuote(transcript, f.Quote)
		if !ok || len(quoteWords(q)) < minFlagQuoteWords {
			continue
		}
		mj.flags = append(mj.flags, rubric.DescribeFlag(key, q))
	}
	for _, s := range r.Suggestions {
		if s = strings.TrimSpace(s); s != "" && len(mj.suggestions) < maxModelSuggestions {
			mj.suggestions = append(mj.suggestions, s)
		}
	}
	return mj, nil
}

// levelFromJSON reads a level as scoreFromJSON reads a score: numbers and
// numeric strings are rounded and clamped to 1-7; anything else is the
// lowest level.
func levelFromJSON(raw json.RawMessage) int {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return 1
	}
	var f float64
	switch x := v.(type) {
	case float64:
		f = x
	case string:
		var err error
		if f, err = strconv.ParseFloat(strings.TrimSpace(x), 64); err != nil {
			return 1
		}
	default:
		return 1
	}
	if math.IsNaN(f) {
		return 1
	}
	return int(math.Round(math.Max(1, math.Min(feedback.MaxLevel, f))))
}

// quoteWord is one word of a transcript, lower-cased, with where it is.
type quoteWord struct {
	w        string
	from, to int
}

// quoteWords splits s into words: letters, digits and apostrophes, lower
// case, curly apostrophes made straight.
func quoteWords(s string) []quoteWord {
	var out []quoteWord
	start := -1
	var b strings.Builder
	flush := func(end int) {
		if start >= 0 {
			out = append(out, quoteWord{b.String(), start, end})
			start = -1
			b.Reset()
		}
	}
	for i, r := range s {
		switch {
		case r == '’' || r == '‘' || r == '\'':
			if start >= 0 {
				b.WriteByte('\'')
			}
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if start < 0 {
				start = i
			}
			b.WriteRune(unicode.ToLower(r))
		default:
			flush(i)
		}
	}
	flush(len(s))
	return out
}

// findQuote looks for the words of quote, in order, in the transcript, and
// returns that stretch of the transcript as it was said: case, punctuation
// and spacing are not what makes a quote verbatim, the words are (a speech
// engine may not punctuate, and a model may add commas).
func findQuote(transcript, quote string) (string, bool) {
	q := quoteWords(quote)
	if len(q) == 0 {
		return "", false
	}
	t := quoteWords(transcript)
	for i := 0; i+len(q) <= len(t); i++ {
		ok := true
		for j := range q {
			if t[i+j].w != q[j].w {
				ok = false
				break
			}
		}
		if ok {
			// The schema asks for 25 words at most; a model that quotes
			// half the answer is cut to what fits beside a score.
			return transcript[t[i].from:t[i+min(len(q), maxModelQuoteWords)-1].to], true
		}
	}
	return "", false
}

// finish turns the model's levels into Feedback with the formula the
// rubric uses (feedback.Score): section scores are weighted means of the
// criteria, the overall the weighted mean of the sections, under the same
// caps. What is measured rather than judged comes from the rubric:
// delivery from the speech metrics, red flags from its deterministic check
// (a model can be talked out of one), and the ceiling for answers that
// address the scorer (a model can be talked into a score; the rubric
// cannot).
func (e *Engine) finish(mj modelJudgement, base *rubric.Assessment) feedback.Feedback {
	rubricJudged := base.Judge()

	// Red flags: the rubric's, then the model's that the rubric did not
	// raise. Both cap: a flag only ever lowers a score, so an answer cannot
	// use one to buy a better one, and a model's flag comes with the
	// applicant's own words for the student to see.
	flags := base.RedFlags()
	var modelRaised []feedback.FlagKey
	for _, f := range mj.flags {
		modelRaised = append(modelRaised, f.Key)
		if !slices.ContainsFunc(flags, func(g feedback.RedFlag) bool { return g.Key == f.Key }) {
			flags = append(flags, f)
		}
	}
	flagged := len(flags) > 0

	js := make([]feedback.Judged, 0, len(feedback.Criteria))
	for _, c := range feedback.Criteria {
		if c.Key == feedback.CriterionDelivery {
			for _, j := range rubricJudged {
				if j.Criterion.Key == feedback.CriterionDelivery {
					js = append(js, j)
				}
			}
			continue
		}
		l := mj.levels[c.Key]
		j := feedback.Judged{Criterion: c, Quote: mj.quotes[c.Key], Note: mj.reasons[c.Key]}
		if flagged {
			// A red flag is a failure of judgement whatever else the answer
			// does, and a concern about professionalism: the rubric's own
			// floors (judgement 0, presence at most 0.2, level 2).
			switch c.Key {
			case feedback.CriterionJudgement:
				l, j.Quote, j.Note = 1, flags[0].Quote, "red flag: "+flags[0].Name
			case feedback.CriterionPresence:
				l = min(l, 2)
			}
		}
		j.Fraction = feedback.LevelFraction(l)
		js = append(js, j)
	}

	overall, sections := feedback.Score(js, feedback.Caps{
		Words: base.Words(),
		// The model's own verdict that the answer is to another question
		// ("answers a different question", levels 1-2) caps it as the
		// rubric's off-topic check does.
		OffTopic:   mj.levels[feedback.CriterionRelevance] <= 2,
		RedFlagged: flagged,
	})
	fb := feedback.Feedback{
		OverallScore:  overall,
		SectionScores: sections,
		Summary:       mj.summary,
		Suggestions:   []string{},
		RubricVersion: feedback.RubricVersion,
		Engine:        feedback.EngineLLM,
		Model:         e.cfg.Model,
		Evidence:      make([]feedback.Evidence, 0, len(js)+4),
		RedFlags:      flags,
	}
	for _, j := range js {
		fb.Evidence = append(fb.Evidence, j.Evidence())
	}
	fb.Evidence = append(fb.Evidence, base.DeliveryEvidence()...)

	// A flag the model did not see itself is named first, in the summary and
	// the suggestions, so a glowing summary cannot sit beside a capped score
	// unexplained.
	var unseen []string
	for _, f := range flags {
		if slices.Contains(modelRaised, f.Key) {
			continue
		}
		unseen = append(unseen, f.Name)
		fb.Suggestions = append(fb.Suggestions, rubric.FlagSuggestion(f))
	}
	if len(unseen) > 0 {
		fb.Summary = fmt.Sprintf("This answer raises a red flag: %s. %s", rubric.JoinList(unseen), fb.Summary)
	}
	fb.Suggestions = append(fb.Suggestions, mj.suggestions...)
	fb.Suggestions = append(fb.Suggestions, base.DeliverySuggestions()...)
	fb.Suggestions = fb.Suggestions[:min(len(fb.Suggestions), maxModelSuggestions)]

	// Competencies come from the rubric's tagger — the same words and the
	// same thresholds whichever engine scored, so the progress views do not
	// shift when an operator switches engines or a reply falls back — but
	// gated on the model's levels and on every red flag raised.
	fb.Competencies = base.Competencies(js, modelRaised...)

	if base.HasFlag(feedback.FlagAddressesScorer) {
		ro, rs := base.Scores(rubricJudged)
		fb.OverallScore = min(fb.OverallScore, ro)
		fb.SectionScores.OverallImpression = min(fb.SectionScores.OverallImpression, rs.OverallImpression)
		fb.SectionScores.ClarityStructure = min(fb.SectionScores.ClarityStructure, rs.ClarityStructure)
		fb.SectionScores.Content = min(fb.SectionScores.Content, rs.Content)
	}
	return fb
}
