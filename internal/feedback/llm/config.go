package llm

import (
	"context"
	"fmt"
	"time"

	"github.com/whitecoat/whitecoat/internal/feedback"
)

// Config configures the engine. The app layer fills it from
// FEEDBACK_OPENAI_BASE_URL, FEEDBACK_OPENAI_API_KEY and
// FEEDBACK_OPENAI_MODEL.
type Config struct {
	// BaseURL of an OpenAI-compatible API, including the version path
	// (https://api.openai.com/v1, http://localhost:11434/v1, ...).
	BaseURL string
	APIKey  string
	Model   string
	// Timeout bounds one scoring by the model, retry included; past it the
	// answer is scored by the rubric and marked as a fallback.
	Timeout time.Duration
}

// DefaultConfig holds sensible settings for when someone switches the
// engine to "llm".
func DefaultConfig() Config {
	return Config{
		BaseURL: "https://api.openai.com/v1",
		Model:   "gpt-4o-mini",
		Timeout: 30 * time.Second,
	}
}

func (c Config) validate() error {
	if c.BaseURL == "" {
		return fmt.Errorf("feedback: llm engine needs a base URL (FEEDBACK_OPENAI_BASE_URL)")
	}
	if c.Model == "" {
		return fmt.Errorf("feedback: llm engine needs a model (FEEDBACK_OPENAI_MODEL)")
	}
	if c.Timeout <= 0 {
		return fmt.Errorf("feedback: llm engine needs a positive timeout")
	}
	return nil
}

// checkInput is a short, well-formed answer used to prove the engine works.
var checkInput = feedback.Input{
	Profession: "dental",
	Question:   "Why do you want to become a dentist?",
	Big3:       feedback.Big3WhyProfession,
	Transcript: "I shadowed a dentist at a community clinic for two summers and saw how she calmed anxious patients. " +
		"That taught me that dentistry is about trust as much as teeth, and I want to build that trust with patients of my own.",
}

// Check reports whether the model can score an answer, for `whitecoat
// doctor`. It makes one real, small request: a fallback to the rubric
// counts as failure, because that is what doctor is there to find.
func (e *Engine) Check(ctx context.Context) error {
	fb, err := e.Score(ctx, checkInput)
	if err != nil {
		return fmt.Errorf("feedback: check: %w", err)
	}
	if fb.Fallback {
		return fmt.Errorf("feedback: check: %s engine at %s (model %s) unusable: %s", feedback.EngineLLM, e.cfg.BaseURL, e.cfg.Model, fb.FallbackReason)
	}
	return nil
}
