package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"text/tabwriter"

	"github.com/whitecoat/whitecoat/internal/transcribe"
)

// A realClip is a recording of a real person with what they said.
type realClip struct {
	path, text string
}

// A realSet is recordings of real people from one source (real/README.md
// says where each comes from and under which licence).
type realSet struct {
	name  string
	clips func() ([]realClip, error)
}

// testdata is Debian's pocketsphinx-testdata.
const testdata = "/usr/share/pocketsphinx/test/data"

var realSets = []realSet{
	{"real/LibriVox", func() ([]realClip, error) { return sphinxTranscription(testdata+"/librivox", "transcription") }},
	{"real/cards", func() ([]realClip, error) { return sphinxTranscription(testdata+"/cards", "cards.transcription") }},
	{"real/JFK", func() ([]realClip, error) {
		_, self, _, _ := runtime.Caller(0)
		dir := filepath.Join(filepath.Dir(self), "real")
		text, err := os.ReadFile(filepath.Join(dir, "jfk.txt"))
		return []realClip{{filepath.Join(dir, "jfk.wav"), string(text)}}, err
	}},
}

// sphinxLine is a line of a CMU Sphinx transcription file:
// "<s> words </s> (file id)".
var sphinxLine = regexp.MustCompile(`^\s*(?:<s>)?(.*?)(?:</s>)?\s*\(([^)]+)\)\s*$`)

// sphinxTranscription reads the clips of a directory of Debian's
// pocketsphinx test data: name lists "<s> words </s> (id)" for each id.wav.
func sphinxTranscription(dir, name string) ([]realClip, error) {
	f, err := os.Open(filepath.Join(dir, name))
	if err != nil {
		return nil, fmt.Errorf("%w (apt-get install pocketsphinx-testdata)", err)
	}
	defer f.Close()
	var clips []realClip
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := sphinxLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		clips = append(clips, realClip{filepath.Join(dir, m[2]+".wav"), strings.TrimSpace(m[1])})
	}
	return clips, sc.Err()
}

// setResult is what the engine made of one set of clips.
type setResult struct {
	name          string
	clips         int
	audio, cpu    float64
	errors, words int
	heard         []transcribe.HeardWord
}

func (r setResult) wer() float64 { return float64(r.errors) / float64(r.words) }

// runReal transcribes every real set, printing each clip's errors, and
// returns each set's result.
func runReal(ctx context.Context, out io.Writer, eng transcribe.Engine) ([]setResult, error) {
	var results []setResult
	for _, set := range realSets {
		clips, err := set.clips()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", set.name, err)
		}
		r := setResult{name: set.name, clips: len(clips)}
		if len(results) == 0 && len(clips) > 0 {
			// Load the model before timing, as a server has.
			if _, err := eng.Transcribe(ctx, transcribe.Audio{Path: clips[0].path}); err != nil {
				return nil, fmt.Errorf("warm-up: %w", err)
			}
		}
		for _, c := range clips {
			cpu0 := childCPU()
			res, err := eng.Transcribe(ctx, transcribe.Audio{Path: c.path})
			if err != nil {
				return nil, fmt.Errorf("%s: %w", c.path, err)
			}
			r.cpu += childCPU() - cpu0
			r.audio += res.DurationSeconds
			errs, words := transcribe.CountWordErrors(c.text, res.Text)
			r.errors += errs
			r.words += words
			heard := transcribe.JudgeWords(c.text, res.Words)
			r.heard = append(r.heard, heard...)
			fmt.Fprintf(out, "  %s %s: %d/%d: %s\n", set.name, filepath.Base(c.path), errs, words, markMisheard(heard))
		}
		results = append(results, r)
	}
	return results, nil
}

// markMisheard writes the words with their confidence, the misheard ones
// in capitals.
func markMisheard(heard []transcribe.HeardWord) string {
	var b strings.Builder
	for i, w := range heard {
		if i > 0 {
			b.WriteByte(' ')
		}
		word := w.Word
		if w.Misheard {
			word = strings.ToUpper(word)
		}
		b.WriteString(word)
		if w.Confidence != nil {
			fmt.Fprintf(&b, "(%.2f)", *w.Confidence)
		}
	}
	return b.String()
}

// reportSets prints the table of sets, the real ones first, and the
// confidence's AUROC over every real word.
func reportSets(out io.Writer, real []setResult, voices []voiceResult) {
	fmt.Fprintln(out, "\nWord errors by set (real recordings, then each synthetic voice on its clips):")
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "set\tclips\taudio s\twords\terrors\tWER\tCPU s per audio s\t")
	var all setResult
	for _, r := range real {
		fmt.Fprintf(tw, "%s\t%d\t%.0f\t%d\t%d\t%.1f%%\t%.3f\t\n", r.name, r.clips, r.audio, r.words, r.errors, 100*r.wer(), r.cpu/r.audio)
		all.clips += r.clips
		all.audio += r.audio
		all.cpu += r.cpu
		all.words += r.words
		all.errors += r.errors
		all.heard = append(all.heard, r.heard...)
	}
	if len(real) > 0 {
		fmt.Fprintf(tw, "real, all\t%d\t%.0f\t%d\t%d\t%.1f%%\t%.3f\t\n", all.clips, all.audio, all.words, all.errors, 100*all.wer(), all.cpu/all.audio)
	}
	for _, v := range voices {
		fmt.Fprintf(tw, "%s\t%d\t%.0f\t%d\t%d\t%.1f%%\t%.3f\t\n", v.voice, v.clips, v.audio, v.words, v.errors, 100*v.wer(), v.cpu/v.audio)
	}
	tw.Flush()
	if len(real) == 0 {
		return
	}
	misheard := 0
	for _, w := range all.heard {
		if w.Misheard {
			misheard++
		}
	}
	if auroc, ok := transcribe.ConfidenceAUROC(all.heard); ok {
		fmt.Fprintf(out, "word confidence on the real recordings: AUROC %.3f (target >= 0.75) for %d misheard of %d recognised words\n",
			auroc, misheard, len(all.heard))
	} else {
		fmt.Fprintf(out, "word confidence on the real recordings: no AUROC (%d misheard of %d recognised words, confidences given: %t)\n",
			misheard, len(all.heard), len(all.heard) > 0 && all.heard[0].Confidence != nil)
	}
}
