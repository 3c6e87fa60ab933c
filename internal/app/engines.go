package app

import (
	"github.com/whitecoat/whitecoat/internal/config"
	"github.com/whitecoat/whitecoat/internal/feedback"
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
	return c
}

// feedbackConfig maps the environment onto the feedback engine's settings.
func feedbackConfig(cfg config.Config) feedback.Config {
	c := feedback.DefaultConfig()
	c.Engine = cfg.Feedback.Engine
	c.BaseURL = cfg.Feedback.OpenAIBaseURL
	c.APIKey = cfg.Feedback.OpenAIAPIKey
	c.Model = cfg.Feedback.OpenAIModel
	return c
}
