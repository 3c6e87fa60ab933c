package transcribe

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
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

// RunCLI implements `whitecoat transcribe [--engine local|openai] [--json] [--text-file T] FILE`.
func RunCLI(ctx context.Context, cfg Config, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("transcribe", flag.ContinueOnError)
	fs.SetOutput(stderr)
	engine := fs.String("engine", cfg.Engine, "speech engine: local or openai")
	asJSON := fs.Bool("json", false, "print text, word timings, duration, engine and speech metrics as JSON")
	textFile := fs.String("text-file", "", "align the words in this file (what a browser heard) to the recording instead of recognizing it")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: whitecoat transcribe [--engine local|openai] [--json] [--text-file T] FILE")
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
	var res Result
	if *textFile != "" {
		res, err = alignFile(ctx, eng, fs.Arg(0), *textFile)
	} else {
		res, err = eng.Transcribe(ctx, Audio{Path: fs.Arg(0)})
	}
	// An alignment the recording does not support is still printed, for
	// the operator to see where it went wrong, and then reported.
	unsupported := errors.Is(err, ErrTextUnsupported)
	if err != nil && !unsupported {
		return err
	}
	if perr := printResult(stdout, stderr, res, *asJSON, cfg); perr != nil {
		return perr
	}
	return err // nil, or the unsupported alignment just printed
}

// printResult prints res as text or, asJSON, as CLIOutput.
func printResult(stdout, stderr io.Writer, res Result, asJSON bool, cfg Config) error {
	meaningful := Meaningful(res.Text)
	if !asJSON {
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

// ErrNoAligner is the CLI's answer for --text-file with an engine that
// cannot align a given text.
var ErrNoAligner = errors.New("transcribe: this engine cannot align a given text (use --engine local, or install pocketsphinx with SPEECH_OPENAI_ALIGN=1)")

// alignFile aligns the text in textFile to the recording at path.
func alignFile(ctx context.Context, eng Engine, path, textFile string) (Result, error) {
	al, ok := eng.(Aligner)
	if !ok {
		return Result{}, ErrNoAligner
	}
	text, err := os.ReadFile(textFile)
	if err != nil {
		return Result{}, fmt.Errorf("transcribe: %w", err)
	}
	return al.Align(ctx, Audio{Path: path}, string(text), AlignProgress{})
}
