package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/whitecoat/whitecoat/internal/transcribe"
)

// boundaries scores the sentence ends the engine's punctuation puts into
// its transcripts against the corpus texts' own, word-aligned (see
// transcribe.CountSentenceBoundaries). Festival pauses at every full stop,
// so the clips hold the pause cue at its clearest: a speaker who runs
// sentences together leaves only the language cues, and fares worse.
type boundaries struct {
	rows  []boundaryCount
	total boundaryCount
}

type boundaryCount struct {
	clip                  string
	matched, inHyp, inRef int
}

func (b *boundaries) add(clip, ref, hyp string) {
	m, h, r := transcribe.CountSentenceBoundaries(ref, hyp)
	b.rows = append(b.rows, boundaryCount{clip, m, h, r})
	b.total = boundaryCount{"TOTAL", b.total.matched + m, b.total.inHyp + h, b.total.inRef + r}
}

// ratioText is a ratio for a table: "-" when there was nothing to divide by.
func ratioText(a, b int) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", ratio(a, b))
}

func (b *boundaries) print(out io.Writer) {
	fmt.Fprintln(out, "\nsentence boundaries of the punctuated transcripts against the texts' own:")
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "clip\tmatched\tguessed\tin text\tprecision\trecall\t")
	for _, r := range append(b.rows, b.total) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%s\t%s\t\n", r.clip, r.matched, r.inHyp, r.inRef, ratioText(r.matched, r.inHyp), ratioText(r.matched, r.inRef))
	}
	tw.Flush()
}
