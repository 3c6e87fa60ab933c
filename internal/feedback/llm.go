package feedback

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
			var mj modelJudgement
			mj, lastErr = parseReply(resp.Choices[0].Message.Content, in.Transcript)
			if lastErr == nil {
				return e.finish(mj, base), nil
			}
		}
		e.logger.WarnContext(ctx, "feedback: llm reply unusable", "attempt", attempt, "err", lastErr)
	}
	return Feedback{}, fmt.Errorf("feedback: llm: %w", lastErr)
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
	levels      map[criterionKey]int
	quotes      map[criterionKey]string
	reasons     map[criterionKey]string
	flags       []RedFlag
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
		levels:      map[criterionKey]int{},
		quotes:      map[criterionKey]string{},
		reasons:     map[criterionKey]string{},
		flags:       []RedFlag{},
		summary:     strings.TrimSpace(r.Summary),
		suggestions: []string{},
	}
	for _, c := range modelCriteria {
		j := r.Criteria[string(c.key)]
		if j == nil || j.Level == nil {
			return modelJudgement{}, fmt.Errorf("%w: criteria.%s.level missing", errMalformed, c.key)
		}
		mj.levels[c.key] = levelFromJSON(j.Level)
		// A quote that is not in the transcript is not evidence; models do
		// paraphrase, and a paraphrase shown as a quote would mislead.
		if q, ok := findQuote(transcript, j.Quote); ok {
			mj.quotes[c.key] = q
		}
		mj.reasons[c.key] = strings.TrimSpace(j.Reason)
	}
	for _, f := range r.RedFlags {
		key := FlagKey(strings.TrimSpace(f.Key))
		if !slices.Contains(FlagKeys, key) || slices.ContainsFunc(mj.flags, func(g RedFlag) bool { return g.Key == key }) {
			continue
		}
		// A flag is an accusation: without the applicant's own words it is
		// not raised.
		q, ok := findQuote(transcript, f.Quote)
		if !ok || len(quoteWords(q)) < minFlagQuoteWords {
			continue
		}
		t := flagTexts[key]
		mj.flags = append(mj.flags, RedFlag{Key: key, Name: t.name, Quote: q, Why: t.why, Instead: strings.TrimSpace(t.instead)})
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
	return int(math.Round(math.Max(1, math.Min(maxLevel, f))))
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

// finish turns the model's levels into Feedback the way the rubric turns
// its own: section scores are weighted means of the criteria, the overall
// the weighted mean of the sections, with the rubric's caps. What is
// measured rather than judged comes from the rubric: delivery from the
// speech metrics, red flags from its deterministic check (a model can be
// talked out of one), and the ceiling for answers that address the scorer
// (a model can be talked into a score; the rubric cannot).
func (e *llmEngine) finish(mj modelJudgement, base *assessment) Feedback {
	rubricJudged := base.judge()

	// Red flags: the rubric's, then the model's that the rubric did not
	// raise. Both cap: a flag only ever lowers a score, so an answer cannot
	// use one to buy a better one, and a model's flag comes with the
	// applicant's own words for the student to see.
	flags := base.redFlags()
	modelRaised := map[FlagKey]bool{}
	for _, f := range mj.flags {
		modelRaised[f.Key] = true
		if !slices.ContainsFunc(flags, func(g RedFlag) bool { return g.Key == f.Key }) {
			flags = append(flags, f)
		}
	}
	flagged := len(flags) > 0

	js := make([]judged, 0, len(criteria))
	for _, c := range criteria {
		if c.key == critDelivery {
			for _, j := range rubricJudged {
				if j.c.key == critDelivery {
					js = append(js, j)
				}
			}
			continue
		}
		l := mj.levels[c.key]
		j := judged{c: c, quote: mj.quotes[c.key], note: mj.reasons[c.key]}
		if flagged {
			// A red flag is a failure of judgement whatever else the answer
			// does, and a concern about professionalism: the rubric's own
			// floors (judgement 0, presence at most 0.2, level 2).
			switch c.key {
			case critJudgement:
				l, j.quote, j.note = 1, flags[0].Quote, "red flag: "+flags[0].Name
			case critPresence:
				l = min(l, 2)
			}
		}
		j.f = float64(l-1) / (maxLevel - 1)
		js = append(js, j)
	}

	content := sectionScore(js, SectionContent)
	structure := sectionScore(js, SectionClarityStructure)
	impression := sectionScore(js, SectionOverallImpression)
	overall := weightContent*content + weightStructure*structure + weightImpression*impression
	if base.words < oneLinerWords {
		overall = math.Min(overall, base.brevityCap())
	}
	// The model's own verdict that the answer is to another question
	// ("answers a different question", levels 1-2) caps it as the rubric's
	// off-topic check does.
	if mj.levels[critRelevance] <= 2 {
		overall = math.Min(overall, offTopicCap)
	}
	if flagged {
		overall = math.Min(overall, redFlagCap)
	}
	fb := Feedback{
		OverallScore: clampScore(overall),
		SectionScores: SectionScores{
			OverallImpression: clampScore(impression),
			ClarityStructure:  clampScore(structure),
			Content:           clampScore(content),
		},
		Summary:       mj.summary,
		Suggestions:   []string{},
		RubricVersion: RubricVersion,
		Engine:        EngineLLM,
		Model:         e.cfg.Model,
		Evidence:      make([]Evidence, 0, len(js)+4),
		RedFlags:      flags,
	}
	for _, j := range js {
		l := level(j.f)
		fb.Evidence = append(fb.Evidence, Evidence{Section: j.c.section, Criterion: j.c.name, Met: l >= 5, Quote: j.quote, Note: j.note, Level: l, Anchor: j.c.anchor(l)})
	}
	fb.Evidence = append(fb.Evidence, base.delivery.evidence()...)

	// A flag the model did not see itself is named first, in the summary and
	// the suggestions, so a glowing summary cannot sit beside a capped score
	// unexplained.
	var unseen []string
	for _, f := range flags {
		if modelRaised[f.Key] {
			continue
		}
		unseen = append(unseen, f.Name)
		text := f.Instead
		if f.Quote != "" {
			text = fmt.Sprintf("Rethink “%s”: %s", f.Quote, lowerFirst(f.Instead))
		}
		fb.Suggestions = append(fb.Suggestions, text)
	}
	if len(unseen) > 0 {
		fb.Summary = fmt.Sprintf("This answer raises a red flag: %s. %s", joinList(unseen), fb.Summary)
	}
	for _, s := range mj.suggestions {
		fb.Suggestions = append(fb.Suggestions, s)
	}
	for _, s := range base.delivery.suggestions() {
		fb.Suggestions = append(fb.Suggestions, s.text)
	}
	fb.Suggestions = fb.Suggestions[:min(len(fb.Suggestions), maxModelSuggestions)]

	// Competencies come from the rubric's tagger — the same words and the
	// same thresholds whichever engine scored, so the progress views do not
	// shift when an operator switches engines or a reply falls back — but
	// gated on the model's levels and on every red flag raised.
	tagger := *base
	tagger.flags = slices.Clone(base.flags)
	for _, f := range mj.flags {
		if !tagger.hasFlag(f.Key) {
			tagger.flags = append(tagger.flags, flagHit{key: f.Key})
		}
	}
	fb.Competencies = tagger.competencies(js)

	if base.hasFlag(FlagAddressesScorer) {
		ro, rs := base.scores(rubricJudged)
		fb.OverallScore = min(fb.OverallScore, ro)
		fb.SectionScores.OverallImpression = min(fb.SectionScores.OverallImpression, rs.OverallImpression)
		fb.SectionScores.ClarityStructure = min(fb.SectionScores.ClarityStructure, rs.ClarityStructure)
		fb.SectionScores.Content = min(fb.SectionScores.Content, rs.Content)
	}
	return fb
}
