package feedback

import (
	"context"
	"fmt"
	"log/slog"
	"time"
)

// Config chooses and configures the engine. The app layer fills it from
// FEEDBACK_ENGINE, FEEDBACK_OPENAI_BASE_URL, FEEDBACK_OPENAI_API_KEY and
// FEEDBACK_OPENAI_MODEL.
type Config struct {
	// Engine is EngineRubric or EngineLLM.
	Engine string
	// BaseURL of an OpenAI-compatible API, including the version path
	// (https://api.openai.com/v1, http://localhost:11434/v1, ...).
	BaseURL string
	APIKey  string
	Model   string
	// Timeout bounds one scoring by the model, retry included; past it the
	// answer is scored by the rubric and marked as a fallback.
	Timeout time.Duration
}

// DefaultConfig works on a fresh machine: the rubric engine, and sensible
// LLM settings for when someone switches the engine to "llm".
func DefaultConfig() Config {
	return Config{
		Engine:  EngineRubric,
		BaseURL: "https://api.openai.com/v1",
		Model:   "gpt-4o-mini",
		Timeout: 30 * time.Second,
	}
}

func (c Config) validate() error {
	switch c.Engine {
	case EngineRubric:
		return nil
	case EngineLLM:
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
	return fmt.Errorf("feedback: unknown engine %q (want %q or %q)", c.Engine, EngineRubric, EngineLLM)
}

// New returns the configured engine.
func New(cfg Config, logger *slog.Logger) (Engine, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if cfg.Engine == EngineLLM {
		return newLLM(cfg, logger), nil
	}
	return NewRubric(), nil
}

// checkInput is a short, well-formed answer used to prove an engine works.
var checkInput = Input{
	Profession: "dental",
	Question:   "Why do you want to become a dentist?",
	Big3:       Big3WhyProfession,
	Transcript: "I shadowed a dentist at a community clinic for two summers and saw how she calmed anxious patients. " +
		"That taught me that dentistry is about trust as much as teeth, and I want to build that trust with patients of my own.",
}

// Check reports whether the configured engine can score an answer, for
// `whitecoat doctor`. For the LLM engine this makes one real, small request:
// a fallback to the rubric counts as failure, because that is what doctor is
// there to find.
func Check(ctx context.Context, cfg Config) error {
	eng, err := New(cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	fb, err := eng.Score(ctx, checkInput)
	if err != nil {
		return fmt.Errorf("feedback: check: %w", err)
	}
	if fb.Fallback {
		return fmt.Errorf("feedback: check: %s engine at %s (model %s) unusable: %s", cfg.Engine, cfg.BaseURL, cfg.Model, fb.FallbackReason)
	}
	return nil
}
