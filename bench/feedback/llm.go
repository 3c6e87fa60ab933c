package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sort"
	"strings"
	"sync"

	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/feedback/llm"
)

// llmWorkers is how many answers are sent to the model at once: enough to
// keep a run of a few hundred requests to minutes, few enough for the rate
// limits of a small account.
const llmWorkers = 4

// llmConfig is the LLM engine as the server would configure it, from the
// same variables; ok is false without an API key.
func llmConfig(getenv func(string) string) (cfg llm.Config, ok bool) {
	cfg = llm.DefaultConfig()
	cfg.APIKey = getenv("FEEDBACK_OPENAI_API_KEY")
	if v := getenv("FEEDBACK_OPENAI_BASE_URL"); v != "" {
		cfg.BaseURL = v
	}
	if v := getenv("FEEDBACK_OPENAI_MODEL"); v != "" {
		cfg.Model = v
	}
	return cfg, cfg.APIKey != ""
}

// runLLM scores the calibration sets with the LLM engine and prints the
// same report as the rubric's, or one line saying it was skipped.
func runLLM(ctx context.Context, out io.Writer, as []answer, opts reportOptions) error {
	cfg, ok := llmConfig(os.Getenv)
	if !ok {
		fmt.Fprintln(out, "\nLLM engine: skipped (set FEEDBACK_OPENAI_API_KEY, and FEEDBACK_OPENAI_BASE_URL and FEEDBACK_OPENAI_MODEL if not OpenAI's gpt-4o-mini, to score the calibration sets with it)")
		return nil
	}
	eng, err := llm.New(cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	ss, err := scoreConcurrently(ctx, eng, as)
	if err != nil {
		return err
	}
	heard, err := scoreConcurrently(ctx, eng, transcribed(as))
	if err != nil {
		return err
	}
	reasons := map[string]int{}
	fellBack := 0
	for _, s := range append(append([]scored(nil), ss...), heard...) {
		if s.fb.Fallback {
			fellBack++
			reasons[s.fb.FallbackReason]++
		}
	}
	total := len(ss) + len(heard)
	if fellBack == total {
		return fmt.Errorf("bench: the LLM engine (model %s at %s) could not score a single answer: %s", cfg.Model, cfg.BaseURL, reasonList(reasons))
	}
	fmt.Fprintf(out, "\nLLM engine: model %s at %s\n", cfg.Model, cfg.BaseURL)
	if fellBack > 0 {
		fmt.Fprintf(out, "%d of %d scorings fell back to the rubric and are counted with its scores: %s\n", fellBack, total, reasonList(reasons))
	}
	return printReport(ctx, out, as, ss, heard, opts)
}

func reasonList(reasons map[string]int) string {
	var rs []string
	for r, n := range reasons {
		rs = append(rs, fmt.Sprintf("%s (%d)", r, n))
	}
	sort.Strings(rs)
	return strings.Join(rs, "; ")
}

// scoreConcurrently is scoreAll with llmWorkers requests in flight; the
// results keep the answers' order.
func scoreConcurrently(ctx context.Context, eng feedback.Engine, as []answer) ([]scored, error) {
	out := make([]scored, len(as))
	errs := make([]error, len(as))
	next := make(chan int)
	var wg sync.WaitGroup
	for range llmWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fb, err := eng.Score(ctx, as[i].input)
				if err != nil {
					errs[i] = fmt.Errorf("bench: %s: %w", as[i].id, err)
					continue
				}
				out[i] = scored{answer: as[i], fb: fb}
			}
		}()
	}
	for i := range as {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
