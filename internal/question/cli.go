package question

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// ErrUsage marks a command-line mistake, so the caller can exit with its
// usage status.
var ErrUsage = errors.New("question: usage")

// CLIUsage lists the subcommands for the program's help text.
const CLIUsage = `  whitecoat questions seed             add built-in bank questions never added before
  whitecoat questions export [--format json|csv] [--out FILE]
  whitecoat questions import [--format json|csv] [--as NAME] FILE   ("-" reads stdin)
`

// RunCLI implements `whitecoat questions seed|export|import`.
func RunCLI(ctx context.Context, svc *Service, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: whitecoat questions seed|export|import", ErrUsage)
	}
	fs := flag.NewFlagSet("questions "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	formatFlag := fs.String("format", "", "file format: json or csv (import: guessed from the file name when omitted; export: json)")
	switch args[0] {
	case "seed":
		if err := parseFlags(fs, args[1:], 0); err != nil {
			return err
		}
		n, err := svc.Seed(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "seeded %d new question(s)\n", n)
		return nil
	case "export":
		out := fs.String("out", "", "write to this file instead of standard output")
		if err := parseFlags(fs, args[1:], 0); err != nil {
			return err
		}
		format, err := ParseFormat(cmp.Or(*formatFlag, string(FormatJSON)))
		if err != nil {
			return fmt.Errorf("%w: %v", ErrUsage, err)
		}
		return export(ctx, svc, format, *out, stdout, stderr)
	case "import":
		actor := fs.String("as", "cli-import", "author recorded on rows that name none")
		if err := parseFlags(fs, args[1:], 1); err != nil {
			return err
		}
		file := fs.Arg(0)
		format, err := importFormat(*formatFlag, file)
		if err != nil {
			return err
		}
		r := stdin
		if file != "-" {
			f, err := os.Open(file)
			if err != nil {
				return fmt.Errorf("question: import: %w", err)
			}
			defer f.Close()
			r = f
		}
		res, err := svc.Import(ctx, *actor, r, format)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "imported %d new and %d updated question(s)\n", res.Inserted, res.Updated)
		return nil
	}
	return fmt.Errorf("%w: unknown questions command %q (want seed, export or import)", ErrUsage, args[0])
}

func parseFlags(fs *flag.FlagSet, args []string, positional int) error {
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", ErrUsage, err)
	}
	if fs.NArg() != positional {
		return fmt.Errorf("%w: whitecoat %s takes %d argument(s), got %q", ErrUsage, fs.Name(), positional, fs.Args())
	}
	return nil
}

func importFormat(flagValue, file string) (Format, error) {
	if flagValue == "" {
		flagValue = strings.TrimPrefix(filepath.Ext(file), ".")
	}
	format, err := ParseFormat(flagValue)
	if err != nil {
		return "", fmt.Errorf("%w: %v (pass --format for %s)", ErrUsage, err, file)
	}
	return format, nil
}

func export(ctx context.Context, svc *Service, format Format, path string, stdout, stderr io.Writer) error {
	if path == "" {
		_, err := svc.Export(ctx, stdout, format)
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("question: export: %w", err)
	}
	n, err := svc.Export(ctx, f, format)
	// A failed close can lose the end of the file; it must not pass silently.
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("question: export: %w", cerr)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "exported %d question(s) to %s\n", n, path)
	return nil
}
