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
	"github.com/whitecoat/whitecoat/internal/feedback/rubric"
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
	all := fset.Bool("answers", false, "list every answer's scores")
	spokenStep := fset.Int("spoken", 0, "also read every Nth answer of the second set aloud with festival voices through the local speech engine (0: not)")
	explain := fset.String("explain", "", "print the criteria, flags and suggestions behind the answers whose id contains this")
	unseal := fset.Bool("unseal", false, "also show holdout and fresh answers one by one (in -answers, -explain, inversions and the worst list); once looked at they are no longer a never-tuned estimate")
	engine := fset.String("engine", "", "rubric, llm, or empty: the rubric, then the LLM engine when FEEDBACK_OPENAI_API_KEY is set")
	if err := fset.Parse(args); err != nil {
		return err
	}
	switch *engine {
	case "", feedback.EngineRubric, feedback.EngineLLM:
	default:
		return fmt.Errorf("bench: -engine must be %s or %s, got %q", feedback.EngineRubric, feedback.EngineLLM, *engine)
	}
	as, err := loadAnswers()
	if err != nil {
		return err
	}
	opts := reportOptions{worst: *worst, all: *all, explain: *explain, spokenStep: *spokenStep, unseal: *unseal}
	if *engine != feedback.EngineLLM {
		ss, err := scoreAll(ctx, rubric.New(), as)
		if err != nil {
			return err
		}
		heard, err := scoreAll(ctx, rubric.New(), transcribed(as))
		if err != nil {
			return err
		}
		if err := printReport(ctx, out, as, ss, heard, opts); err != nil {
			return err
		}
	}
	if *engine != feedback.EngineRubric {
		// The spoken subset is read by the rubric; it is not repeated.
		opts.spokenStep = 0
		return runLLM(ctx, out, as, opts)
	}
	return nil
}

// reportOptions are the flags that shape a report.
type reportOptions struct {
	worst, spokenStep int
	// unseal shows holdout and fresh answers one by one too.
	unseal  bool
	all     bool
	explain string
}

// shown reports whether an answer may be shown on its own: a dev answer,
// or any once the report is unsealed. Holdout and fresh answers count
// only in aggregate, so that whoever tunes the rubric cannot tune on them
// by reading them in a report.
func (o reportOptions) shown(s scored) bool { return o.unseal || s.split == "dev" }

// shownOnly are the answers that may be shown one by one.
func (o reportOptions) shownOnly(ss []scored) []scored {
	var out []scored
	for _, s := range ss {
		if o.shown(s) {
			out = append(out, s)
		}
	}
	return out
}

// printReport prints one engine's agreement with the labels: the answers
// asked for (explain, all), the agreement table, the categories, the
// spoken subset and the worst misses.
func printReport(ctx context.Context, out io.Writer, as []answer, ss, heard []scored, o reportOptions) error {
	if o.explain != "" {
		for _, s := range o.shownOnly(ss) {
			if strings.Contains(s.id, o.explain) {
				explainOne(out, s)
			}
		}
		return nil
	}
	if o.all {
		tw := tabwriter.NewWriter(out, 2, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "answer\tsplit\tcategory\tlabel\toverall\tas transcribed\timpression\tstructure\tcontent\tflags\toff band")
		for i, s := range ss {
			if !o.shown(s) {
				continue
			}
			sc := s.fb.SectionScores
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%s\t%s\n", s.id, s.split, s.category, s.label, s.fb.OverallScore, heard[i].fb.OverallScore,
				sc.OverallImpression, sc.ClarityStructure, sc.Content, flagList(s.fb), offBand(s))
		}
		if err := tw.Flush(); err != nil {
			return fmt.Errorf("bench: %w", err)
		}
		fmt.Fprintln(out)
	}

	fmt.Fprintln(out, "Agreement with the interviewers' labels (dev: looked at while tuning; holdout: aggregates only; fresh: written after the rubric was frozen, never tuned on)")
	tw := tabwriter.NewWriter(out, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "set\tsplit\tanswers\tspearman\tas transcribed\tmean strong\tmean adequate\tmean weak\tweak>=strong on a question")
	for _, g := range groups(ss) {
		r, h := summarize(g.pick(ss)), summarize(g.pick(heard))
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.3f\t%.3f\t%.1f\t%.1f\t%.1f\t%d\n", g.set, g.split, r.n, r.spearman, h.spearman,
			r.meanByLbl["strong"], r.meanByLbl["adequate"], r.meanByLbl["weak"], len(r.inversions))
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	for _, inv := range summarize(o.shownOnly(ss)).inversions {
		fmt.Fprintln(out, "  inversion:", inv)
	}

	fmt.Fprintf(out, "\nBy category (targets: red flags and falsified records below 60 with a flag raised, concise strong answers 75 or more, answers to another question, strings of keywords, signpost lists and answers walking into their question's trap below 60, rejected or reported red flags not raised and in the label's band, vague answers to the question in their band with no flag)\n")
	tw = tabwriter.NewWriter(out, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "set\tcategory\ttext\tanswers\tmean\tmin\tmax\ton target\tflag as labelled")
	// The first set has no categories.
	for _, set := range answerSets[1:] {
		for _, cat := range categories {
			for _, v := range []struct {
				name string
				ss   []scored
			}{{"clean", ss}, {"as transcribed", heard}} {
				c := byCategory(v.ss, set.name, cat)
				if c.n == 0 {
					continue
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%.1f\t%d\t%d\t%d/%d\t%s\n", set.name, cat, v.name, c.n, c.mean, c.min, c.max, c.onTarget, c.n, c.flagged)
			}
		}
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	if err := printBankAnswers(out, "Answers to the bank's own questions (v3, issue 40; the rubric may be tuned on three folds, split by question, and judged on the fourth)",
		(group{"v3", "all"}).pick(ss), true); err != nil {
		return err
	}
	if err := printBankAnswers(out, "Answers to 28 more of the bank's questions (v4, issue 40; never tuned on)", (group{"v4", "all"}).pick(ss), false); err != nil {
		return err
	}

	if o.spokenStep > 0 {
		subset := spokenSubset(as, o.spokenStep)
		fmt.Fprintf(out, "\nRead aloud: every %dth answer of the second set (%d), spoken by festival voices, encoded as WebM and transcribed by the local engine\n", o.spokenStep, len(subset))
		if err := spoken(ctx, out, subset); err != nil {
			return err
		}
	}

	fmt.Fprintf(out, "\nworst disagreements (distance outside the label's band: strong 80-100, adequate 55-84, weak 0-59; or a category target missed)\n")
	sorted := o.shownOnly(ss)
	sort.SliceStable(sorted, func(i, j int) bool { return disagreement(sorted[i]) > disagreement(sorted[j]) })
	for _, s := range sorted[:min(o.worst, len(sorted))] {
		if disagreement(s) == 0 {
			break
		}
		fmt.Fprintf(out, "  %-48s %-8s %-16s scored %3d (off by %d) — %s\n    interviewer: %s\n", s.id, s.label, s.category, s.fb.OverallScore,
			disagreement(s), s.fb.Summary, s.note)
	}
	return nil
}

func flagList(fb feedback.Feedback) string {
	var keys []string
	for _, f := range fb.RedFlags {
		keys = append(keys, string(f.Key))
	}
	return strings.Join(keys, ",")
}

func offBand(s scored) string {
	if d := disagreement(s); d > 0 {
		return strings.Repeat("*", min(5, 1+d/5))
	}
	return ""
}

// explainOne prints what a score rests on, for looking into a disagreement.
func explainOne(out io.Writer, s scored) {
	fmt.Fprintf(out, "%s (%s, %s): %d — %s\n  interviewer: %s\n", s.id, s.label, s.category, s.fb.OverallScore, s.fb.Summary, s.note)
	for _, e := range s.fb.Evidence {
		if e.Level > 0 {
			fmt.Fprintf(out, "  %-18s %-32s %d/7 %q %s\n", e.Section, e.Criterion, e.Level, e.Quote, e.Note)
		} else {
			fmt.Fprintf(out, "    %-32s met=%v %q %s\n", e.Criterion, e.Met, e.Quote, e.Note)
		}
	}
	for _, f := range s.fb.RedFlags {
		fmt.Fprintf(out, "  FLAG %s: %q\n", f.Key, f.Quote)
	}
	fmt.Fprintf(out, "  competencies %v\n\n", s.fb.Competencies)
}
