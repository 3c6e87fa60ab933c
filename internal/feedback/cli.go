package feedback

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"text/tabwriter"
)

// RunCLI implements `whitecoat feedback`: score one transcript and print the
// Feedback, as JSON with --json, otherwise as a short report. engine is the
// configured engine's name, which --engine overrides; newEngine makes the
// engine a name stands for (the app knows how).
func RunCLI(ctx context.Context, engine string, newEngine func(name string, logger *slog.Logger) (Engine, error), args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("feedback", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: whitecoat feedback --profession P --question Q [--subtag S] [--big3 B] [--duration SECONDS] --transcript-file F [--engine rubric|llm] [--json]")
		fs.PrintDefaults()
	}
	var (
		in       Input
		duration float64
		file     string
		asJSON   bool
	)
	fs.StringVar(&in.Profession, "profession", "", "profession slug: dental, medical, pt, pa, pharmacy, ot, veterinary")
	fs.StringVar(&in.Question, "question", "", "the question that was answered")
	fs.StringVar(&in.Subtag, "subtag", "", "question subtag: Ethical, Behavioral, Teamwork, Leadership, Communication")
	fs.StringVar(&in.Big3, "big3", "", "Big 3 question: tell-me-about-yourself, why-profession, why-school")
	fs.Float64Var(&duration, "duration", 0, "answer length in seconds; without it length is estimated from the word count")
	fs.StringVar(&file, "transcript-file", "", `file holding the transcript ("-" for standard input)`)
	fs.StringVar(&engine, "engine", engine, "engine: rubric or llm")
	fs.BoolVar(&asJSON, "json", false, "print the Feedback as JSON")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return fmt.Errorf("feedback: %w", err)
	}
	var missing []string
	for _, f := range []struct{ name, v string }{{"--profession", in.Profession}, {"--question", in.Question}, {"--transcript-file", file}} {
		if strings.TrimSpace(f.v) == "" {
			missing = append(missing, f.name)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("feedback: missing %s (see whitecoat feedback -h)", strings.Join(missing, ", "))
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("feedback: unexpected arguments %q", fs.Args())
	}
	if duration < 0 {
		return fmt.Errorf("feedback: --duration must not be negative")
	}
	transcript, err := readTranscript(file, stdin)
	if err != nil {
		return err
	}
	in.Transcript = transcript
	if duration > 0 {
		in.Delivery = &Delivery{DurationSeconds: duration}
	}

	eng, err := newEngine(engine, slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	if err != nil {
		return err
	}
	fb, err := eng.Score(ctx, in)
	if err != nil {
		return err
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(fb); err != nil {
			return fmt.Errorf("feedback: write: %w", err)
		}
		return nil
	}
	return printReport(stdout, fb)
}

func readTranscript(file string, stdin io.Reader) (string, error) {
	var (
		b   []byte
		err error
	)
	if file == "-" {
		b, err = io.ReadAll(stdin)
	} else {
		b, err = os.ReadFile(file)
	}
	if err != nil {
		return "", fmt.Errorf("feedback: read transcript: %w", err)
	}
	return string(b), nil
}

func printReport(w io.Writer, fb Feedback) error {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	engine := fb.Engine
	if fb.Fallback {
		engine += " (scored offline: " + fb.FallbackReason + ")"
	}
	if o, ok := fb.Overall(); ok {
		fmt.Fprintf(tw, "overall\t%d\n", o)
	} else {
		fmt.Fprintf(tw, "overall\tnone: content not judged\n")
	}
	fmt.Fprintf(tw, "overall impression\t%d\n", fb.SectionScores.OverallImpression)
	fmt.Fprintf(tw, "clarity & structure\t%d\n", fb.SectionScores.ClarityStructure)
	fmt.Fprintf(tw, "content\t%d\n", fb.SectionScores.Content)
	fmt.Fprintf(tw, "engine\t%s (rubric %s)\n", engine, fb.RubricVersion)
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("feedback: write: %w", err)
	}
	fmt.Fprintf(w, "\n%s\n\nSuggestions:\n", fb.Summary)
	for _, s := range fb.Suggestions {
		fmt.Fprintf(w, "  - %s\n", s)
	}
	fmt.Fprintln(w, "\nEvidence:")
	for _, e := range fb.Evidence {
		mark := "✗"
		if e.Met {
			mark = "✓"
		}
		fmt.Fprintf(w, "  %s %-18s %s", mark, e.Section, e.Criterion)
		if e.Note != "" {
			fmt.Fprintf(w, " — %s", e.Note)
		}
		if e.Quote != "" {
			fmt.Fprintf(w, "\n      “%s”", e.Quote)
		}
		fmt.Fprintln(w)
	}
	return nil
}
