package app

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/whitecoat/whitecoat/internal/config"
	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/feedback/llm"
	"github.com/whitecoat/whitecoat/internal/feedback/rubric"
)

// Each engine name makes its engine; a name the app does not know, or an
// LLM without a model, is an error rather than a silent rubric.
func TestFeedbackEngines(t *testing.T) {
	var cfg config.Config
	cfg.Feedback.Engine = feedback.EngineRubric
	cfg.Feedback.OpenAIBaseURL = "http://127.0.0.1:1/v1"
	cfg.Feedback.OpenAIModel = "m"
	engines := feedbackEngines(cfg)
	logger := slog.New(slog.DiscardHandler)
	if eng, err := engines(feedback.EngineRubric, logger); err != nil {
		t.Errorf("rubric: %v", err)
	} else if _, ok := eng.(*rubric.Engine); !ok {
		t.Errorf("rubric made %T", eng)
	}
	if eng, err := engines(feedback.EngineLLM, logger); err != nil {
		t.Errorf("llm: %v", err)
	} else if _, ok := eng.(*llm.Engine); !ok {
		t.Errorf("llm made %T", eng)
	}
	if _, err := engines("magic", logger); err == nil || !strings.Contains(err.Error(), `unknown engine "magic"`) {
		t.Errorf("magic: %v, want an unknown engine", err)
	}
	cfg.Feedback.OpenAIModel = ""
	if _, err := feedbackEngines(cfg)(feedback.EngineLLM, logger); err == nil {
		t.Error("an LLM without a model was made")
	}
	if err := checkFeedback(context.Background(), cfg); err != nil {
		t.Errorf("checkFeedback(rubric): %v", err)
	}
}
