// Command feedback is the rubric engine's calibration benchmark: it scores the
// labelled answers in answers/ and reports how well the scores agree with an
// experienced interviewer's labels. Run it with `make bench-feedback`.
//
// The answers are split three ways. "dev" answers were looked at while the
// rubric was tuned. "holdout" answers were written at the same time but only
// their aggregate figures were watched (one general fix — Big 3 relevance —
// came from a holdout answer). "fresh" answers were written after the rubric
// was frozen and never tuned against: their figures are the honest estimate
// of how the rubric does on answers it has not seen.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/whitecoat/whitecoat/internal/feedback"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, out io.Writer) error {
	fset := flag.NewFlagSet("bench-feedback", flag.ContinueOnError)
	worst := fset.Int("worst", 8, "how many of the worst disagreements to list")
	if err := fset.Parse(args); err != nil {
		return err
	}
	as, err := loadAnswers()
	if err != nil {
		return err
	}
	ss, err := scoreAll(ctx, feedback.NewRubric(), as)
	if err != nil {
		return err
	}

	tw := tabwriter.NewWriter(out, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "answer\tsplit\tlabel\toverall\timpression\tstructure\tcontent\toff band")
	for _, s := range ss {
		sc := s.fb.SectionScores
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\t%d\t%s\n", s.id, s.split, s.label, s.fb.OverallScore,
			sc.OverallImpression, sc.ClarityStructure, sc.Content, offBand(s))
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("bench: %w", err)
	}

	fmt.Fprintln(out)
	tw = tabwriter.NewWriter(out, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "set\tanswers\tspearman\tmean strong\tmean adequate\tmean weak\tweak>=strong on a question")
	for _, split := range []string{"all", "dev", "holdout", "fresh"} {
		r := summarize(filterSplit(ss, split))
		fmt.Fprintf(tw, "%s\t%d\t%.3f\t%.1f\t%.1f\t%.1f\t%d\n", split, r.n, r.spearman,
			r.meanByLbl["strong"], r.meanByLbl["adequate"], r.meanByLbl["weak"], len(r.inversions))
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	for _, inv := range summarize(ss).inversions {
		fmt.Fprintln(out, "  inversion:", inv)
	}

	fmt.Fprintf(out, "\nworst disagreements (distance outside the label's band: strong 80-100, adequate 55-84, weak 0-59)\n")
	sorted := append([]scored(nil), ss...)
	sort.SliceStable(sorted, func(i, j int) bool { return disagreement(sorted[i]) > disagreement(sorted[j]) })
	for _, s := range sorted[:min(*worst, len(sorted))] {
		if disagreement(s) == 0 {
			break
		}
		fmt.Fprintf(out, "  %-42s %-8s scored %3d (off by %d) — %s\n    interviewer: %s\n", s.id, s.label, s.fb.OverallScore,
			disagreement(s), s.fb.Summary, s.note)
	}
	return nil
}

func filterSplit(ss []scored, split string) []scored {
	if split == "all" {
		return ss
	}
	var out []scored
	for _, s := range ss {
		if s.split == split {
			out = append(out, s)
		}
	}
	return out
}

func offBand(s scored) string {
	if d := disagreement(s); d > 0 {
		return strings.Repeat("*", min(5, 1+d/5))
	}
	return ""
}
