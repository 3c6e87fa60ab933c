package app

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/whitecoat/whitecoat/internal/config"
	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/feedback/llm"
	"github.com/whitecoat/whitecoat/internal/feedback/rubric"
	"github.com/whitecoat/whitecoat/internal/transcribe"
)

// speechConfig maps the environment onto the speech engine's settings.
func speechConfig(cfg config.Config) transcribe.Config {
	c := transcribe.DefaultConfig()
	c.Engine = cfg.Speech.Engine
	c.AnswerLimit = cfg.AnswerLimit
	c.TempDir = cfg.Speech.AudioTmpDir
	c.OpenAI.BaseURL = cfg.Speech.OpenAIBaseURL
	c.OpenAI.APIKey = cfg.Speech.OpenAIAPIKey
	c.OpenAI.Model = cfg.Speech.OpenAIModel
	c.OpenAI.Align = cfg.Speech.OpenAIAlign
	return c
}

// feedbackLLMConfig maps the environment onto the LLM engine's settings.
func feedbackLLMConfig(cfg config.Config) llm.Config {
	c := llm.DefaultConfig()
	c.BaseURL = cfg.Feedback.OpenAIBaseURL
	c.APIKey = cfg.Feedback.OpenAIAPIKey
	c.Model = cfg.Feedback.OpenAIModel
	return c
}

// feedbackEngines makes the feedback engine a name stands for: the rubric,
// or the LLM (which falls back to the rubric by itself) configured from the
// environment.
func feedbackEngines(cfg config.Config) func(name string, logger *slog.Logger) (feedback.Engine, error) {
	return func(name string, logger *slog.Logger) (feedback.Engine, error) {
		switch name {
		case feedback.EngineRubric:
			return rubric.New(), nil
		case feedback.EngineLLM:
			return llm.New(feedbackLLMConfig(cfg), logger)
		}
		return nil, fmt.Errorf("feedback: unknown engine %q (want %q or %q)", name, feedback.EngineRubric, feedback.EngineLLM)
	}
}

// checkFeedback reports whether the configured feedback engine works, for
// doctor: the LLM by one real request, the rubric by being made.
func checkFeedback(ctx context.Context, cfg config.Config) error {
	eng, err := feedbackEngines(cfg)(cfg.Feedback.Engine, slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	if model, ok := eng.(*llm.Engine); ok {
		return model.Check(ctx)
	}
	return nil
}
