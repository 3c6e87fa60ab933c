package transcribe

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
)

// CLIOutput is what `whitecoat transcribe --json` prints.
type CLIOutput struct {
	Text  string `json:"text"`
	Words []Word `json:"words"`
	// WordConfidence says where words[].confidence comes from (see Result).
	WordConfidence  string  `json:"wordConfidence"`
	DurationSeconds float64 `json:"durationSeconds"`
	Engine          string  `json:"engine"`
	Truncated       bool    `json:"truncated"`
	Meaningful      bool    `json:"meaningful"`
	Metrics         Metrics `json:"metrics"`
}

// RunCLI implements `whitecoat transcribe [--engine local|openai] [--json] FILE`.
func RunCLI(ctx context.Context, cfg Config, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("transcribe", flag.ContinueOnError)
	fs.SetOutput(stderr)
	engine := fs.String("engine", cfg.Engine, "speech engine: local or openai")
	asJSON := fs.Bool("json", false, "print text, word timings, duration, engine and speech metrics as JSON")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: whitecoat transcribe [--engine local|openai] [--json] FILE")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return fmt.Errorf("transcribe: %w", err)
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return errors.New("transcribe: need exactly one FILE")
	}
	cfg.Engine = *engine
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	eng, err := New(cfg, logger)
	if err != nil {
		return err
	}
	defer eng.Close()
	res, err := eng.Transcribe(ctx, Audio{Path: fs.Arg(0)})
	if err != nil {
		return err
	}
	meaningful := Meaningful(res.Text)
	if !*asJSON {
		if !meaningful {
			fmt.Fprintln(stderr, NoMeaningfulResponse)
		}
		_, err := fmt.Fprintln(stdout, res.Text)
		return err
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(CLIOutput{
		Text: res.Text, Words: res.Words, WordConfidence: res.WordConfidence, DurationSeconds: res.DurationSeconds, Engine: res.Engine,
		Truncated: res.Truncated, Meaningful: meaningful, Metrics: ComputeMetrics(res, cfg.AnswerLimit),
	})
}
