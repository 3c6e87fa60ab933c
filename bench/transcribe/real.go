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

// A realClip is a recording of a real person with what they said, and
// whether it belongs to the held-out part of the real recordings.
type realClip struct {
	path, text string
	heldOut    bool
}

// The real recordings are few (114 words), so decoder options and
// confidence are chosen on one part of them and reported on both: the
// tuning part is the first, third and fifth clip of each source with
// several (LibriVox, cards); the held-out part is the others and the
// whole of JFK's speech, a speaker and a recording nothing was chosen on.
// -part runs one part alone (sweeps run the tuning part).
const (
	partTuning  = "tuning"
	partHeldOut = "held-out"
	partAll     = "all"
)

// splitEveryOther puts every second clip of a source in the held-out part.
func splitEveryOther(clips []realClip) []realClip {
	for i := range clips {
		clips[i].heldOut = i%2 == 1
	}
	return clips
}

// inPart says whether c is run when the bench runs part.
func (c realClip) inPart(part string) bool {
	return part == partAll || c.heldOut == (part == partHeldOut)
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
	// Held out whole: a third speaker, recording and kind of speech.
	{"real/JFK", func() ([]realClip, error) {
		_, self, _, _ := runtime.Caller(0)
		dir := filepath.Join(filepath.Dir(self), "real")
		text, err := os.ReadFile(filepath.Join(dir, "jfk.txt"))
		return []realClip{{filepath.Join(dir, "jfk.wav"), string(text), true}}, err
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
		clips = append(clips, realClip{path: filepath.Join(dir, m[2]+".wav"), text: strings.TrimSpace(m[1])})
	}
	return splitEveryOther(clips), sc.Err()
}

// setResult is what the engine made of one set of clips.
type setResult struct {
	name          string
	clips         int
	audio, cpu    float64
	errors, words int
	heard         []transcribe.HeardWord
}

// add counts o's clips in r.
func (r *setResult) add(o setResult) {
	r.clips += o.clips
	r.audio += o.audio
	r.cpu += o.cpu
	r.words += o.words
	r.errors += o.errors
	r.heard = append(r.heard, o.heard...)
}

// realResults are the engine's results on the real recordings: by source,
// and by part (tuning, held-out).
type realResults struct {
	sets            []setResult
	tuning, heldOut setResult
}

// runReal transcribes the clips of part of every real set, printing each
// clip's errors, and returns the results.
func runReal(ctx context.Context, out io.Writer, eng transcribe.Engine, part string) (realResults, error) {
	res := realResults{tuning: setResult{name: "real, tuning part"}, heldOut: setResult{name: "real, held-out part"}}
	warm := false
	for _, set := range realSets {
		all, err := set.clips()
		if err != nil {
			return res, fmt.Errorf("%s: %w", set.name, err)
		}
		var clips []realClip
		for _, c := range all {
			if c.inPart(part) {
				clips = append(clips, c)
			}
		}
		if len(clips) == 0 {
			continue
		}
		r := setResult{name: set.name, clips: len(clips)}
		if !warm {
			warm = true
			// Load the model before timing, as a server has.
			if _, err := eng.Transcribe(ctx, transcribe.Audio{Path: clips[0].path}); err != nil {
				return res, fmt.Errorf("warm-up: %w", err)
			}
		}
		for _, c := range clips {
			cpu0 := childCPU()
			got, err := eng.Transcribe(ctx, transcribe.Audio{Path: c.path})
			if err != nil {
				return res, fmt.Errorf("%s: %w", c.path, err)
			}
			one := setResult{clips: 1, cpu: childCPU() - cpu0, audio: got.DurationSeconds}
			one.errors, one.words = transcribe.CountWordErrors(c.text, got.Text)
			one.heard = transcribe.JudgeWords(c.text, got.Words)
			r.add(one)
			if c.heldOut {
				res.heldOut.add(one)
			} else {
				res.tuning.add(one)
			}
			fmt.Fprintf(out, "  %s %s (%s): %d/%d: %s\n", set.name, filepath.Base(c.path), c.part(), one.errors, one.words, markMisheard(one.heard))
		}
		r.clips = len(clips)
		res.sets = append(res.sets, r)
	}
	return res, nil
}

// part names the part of the real recordings c belongs to.
func (c realClip) part() string {
	if c.heldOut {
		return partHeldOut
	}
	return partTuning
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
// confidence's AUROC over every real word, by part and overall.
func reportSets(out io.Writer, real realResults, voices []voiceResult) {
	fmt.Fprintln(out, "\nWord errors by set (real recordings by source, by part and all, then each synthetic voice on its clips):")
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "set\tclips\taudio s\twords\terrors\tWER\tCPU s per audio s\t")
	row := func(name string, clips int, audio, cpu float64, words, errors int) {
		fmt.Fprintf(tw, "%s\t%d\t%.0f\t%d\t%d\t%.1f%%\t%.3f\t\n", name, clips, audio, words, errors, 100*float64(errors)/float64(words), cpu/audio)
	}
	all := setResult{name: "real, all"}
	for _, r := range real.sets {
		row(r.name, r.clips, r.audio, r.cpu, r.words, r.errors)
		all.add(r)
	}
	parts := []setResult{real.tuning, real.heldOut}
	if real.tuning.clips > 0 && real.heldOut.clips > 0 {
		parts = append(parts, all)
	}
	for _, r := range parts {
		if r.clips > 0 {
			row(r.name, r.clips, r.audio, r.cpu, r.words, r.errors)
		}
	}
	for _, v := range voices {
		row(v.voice, v.clips, v.audio, v.cpu, v.words, v.errors)
	}
	tw.Flush()
	for _, r := range parts {
		if r.clips > 0 {
			reportConfidence(out, r)
		}
	}
}

// reportConfidence prints how well the word confidence picks out the
// misheard words of r.
func reportConfidence(out io.Writer, r setResult) {
	misheard := 0
	for _, w := range r.heard {
		if w.Misheard {
			misheard++
		}
	}
	if auroc, ok := transcribe.ConfidenceAUROC(r.heard); ok {
		fmt.Fprintf(out, "word confidence, %s: AUROC %.3f (target >= 0.75) for %d misheard of %d recognised words\n",
			r.name, auroc, misheard, len(r.heard))
	} else {
		fmt.Fprintf(out, "word confidence, %s: no AUROC (%d misheard of %d recognised words, confidences given: %t)\n",
			r.name, misheard, len(r.heard), len(r.heard) > 0 && r.heard[0].Confidence != nil)
	}
	reportMarks(out, r)
}

// markThresholds are the confidences under which the marks table tries
// marking a word "may be misheard"; the engine's own is marked with *.
var markThresholds = []float64{0.02, 0.05, 0.1, 0.2, 0.3, 0.5}

// reportMarks prints, for each threshold, how many words the summary
// would mark as possibly misheard and how many of those were misheard
// (precision: the marks should mostly be right) and how many of the
// misheard words it marks (recall).
func reportMarks(out io.Writer, r setResult) {
	misheard := 0
	for _, w := range r.heard {
		if w.Misheard && w.Confidence != nil {
			misheard++
		}
	}
	if misheard == 0 {
		return
	}
	engine, _ := transcribe.UncertainBelow(transcribe.ConfidenceLattice)
	fmt.Fprintf(out, "\"may be misheard\" marks, %s (%d misheard words):\n", r.name, misheard)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "below\tmarked\tmisheard\tprecision\trecall\t")
	for _, below := range markThresholds {
		marked, right := 0, 0
		for _, w := range r.heard {
			if w.Confidence != nil && *w.Confidence < below {
				marked++
				if w.Misheard {
					right++
				}
			}
		}
		star := ""
		if below == engine {
			star = "*"
		}
		fmt.Fprintf(tw, "%s%.2f\t%d\t%d\t%.0f%%\t%.0f%%\t\n", star, below, marked, right, 100*ratio(right, marked), 100*ratio(right, misheard))
	}
	tw.Flush()
}
