package feedback_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/feedback/feedbacktest"
	"github.com/whitecoat/whitecoat/internal/feedback/rubric"
)

// rubricOnly makes the rubric engine and refuses every other name, as the
// app's engine maker refuses names it does not know.
func rubricOnly(name string, _ *slog.Logger) (feedback.Engine, error) {
	if name != feedback.EngineRubric {
		return nil, fmt.Errorf("feedback: unknown engine %q", name)
	}
	return rubric.New(), nil
}

func runCLI(t *testing.T, stdin string, args ...string) (string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := feedback.RunCLI(context.Background(), feedback.EngineRubric, rubricOnly, args, strings.NewReader(stdin), &out, &errOut)
	return out.String(), err
}

func TestCLIPrintsFeedbackJSON(t *testing.T) {
	file := filepath.Join(t.TempDir(), "answer.txt")
	if err := os.WriteFile(file, []byte(feedbacktest.StarAnswer), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := runCLI(t, "", "--profession", "dental", "--question", "Tell me about a time you helped a patient.", "--subtag", "Behavioral",
		"--duration", "60", "--transcript-file", file, "--engine", "rubric", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &fields); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	for _, k := range []string{"overallScore", "sectionScores", "summary", "suggestions", "rubricVersion", "engine", "evidence", "fallback"} {
		if _, ok := fields[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	again, err := runCLI(t, "", "--profession", "dental", "--question", "Tell me about a time you helped a patient.", "--subtag", "Behavioral",
		"--duration", "60", "--transcript-file", file, "--json")
	if err != nil || again != out {
		t.Errorf("second run differs (err %v)", err)
	}
}

func TestCLIReadsStdinAndPrintsAReport(t *testing.T) {
	out, err := runCLI(t, feedbacktest.StarAnswer, "--profession", "dental", "--question", "Tell me about a time you helped a patient.", "--transcript-file", "-")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"overall", "Suggestions:", "Evidence:", "estimated from the word count"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

func TestCLIErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"nothing", nil, "missing --profession, --question, --transcript-file"},
		{"no transcript", []string{"--profession", "dental", "--question", "Why?"}, "missing --transcript-file"},
		{"unknown flag", []string{"--colour", "red"}, "flag provided but not defined"},
		{"unknown profession", []string{"--profession", "nursing", "--question", "Why?", "--transcript-file", "-"}, `unknown profession "nursing"`},
		{"unknown engine", []string{"--profession", "dental", "--question", "Why?", "--transcript-file", "-", "--engine", "magic"}, `unknown engine "magic"`},
		{"missing file", []string{"--profession", "dental", "--question", "Why?", "--transcript-file", "/nonexistent/answer.txt"}, "read transcript"},
		{"negative duration", []string{"--profession", "dental", "--question", "Why?", "--transcript-file", "-", "--duration", "-3"}, "must not be negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := runCLI(t, "an answer", tt.args...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err %v, want it to mention %q", err, tt.want)
			}
		})
	}
}
