package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/whitecoat/whitecoat/bench/internal/synth"
	"github.com/whitecoat/whitecoat/internal/transcribe"
)

// fillerVoices speak the filler texts: festival's female and two male US
// English voices, and four of flite's.
var fillerVoices = []string{
	"cmu_us_slt_arctic_hts", "kal_diphone", "ked_diphone",
	"flite:awb", "flite:rms", "flite:slt", "flite:kal",
}

// fillerMark is how a filler is marked in the texts of fillers/: "{um}",
// "{you know}". Unmarked "like", "you know" and "basically" are grammar.
var fillerMark = regexp.MustCompile(`\{([^}]*)\}`)

// spokenAs are the spellings the synthesizers read as the hesitation: both
// say "um" (AH M), "uh" (AH), "er" (ER) and "erm" (ER M) from their
// dictionaries, but spell "hmm" out letter by letter; "hum" is the nearest
// word they say in one syllable.
var spokenAs = map[string]string{"hmm": "hum"}

// fillerText is one text of fillers/<set>: the words as the reference, the
// positions of the marked fillers among them, and what the voices read.
type fillerText struct {
	name    string
	words   []string
	fillers map[int]string // word index -> filler ("um", "you know")
	spoken  string
}

func readFillerTexts(dir string) ([]fillerText, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil || len(paths) == 0 {
		return nil, fmt.Errorf("no filler texts in %s (%v)", dir, err)
	}
	var out []fillerText
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		ft := fillerText{name: strings.TrimSuffix(filepath.Base(p), ".txt"), fillers: map[int]string{}}
		text := string(b)
		rest := text
		for {
			loc := fillerMark.FindStringSubmatchIndex(rest)
			if loc == nil {
				ft.words = append(ft.words, transcribe.NormalizeWords(rest)...)
				break
			}
			ft.words = append(ft.words, transcribe.NormalizeWords(rest[:loc[0]])...)
			filler := strings.Join(transcribe.NormalizeWords(rest[loc[2]:loc[3]]), " ")
			ft.fillers[len(ft.words)] = filler
			ft.words = append(ft.words, transcribe.NormalizeWords(filler)...)
			rest = rest[loc[1]:]
		}
		ft.spoken = fillerMark.ReplaceAllStringFunc(text, func(m string) string {
			inner := m[1 : len(m)-1]
			if s, ok := spokenAs[strings.ToLower(inner)]; ok {
				return s
			}
			return inner
		})
		out = append(out, ft)
	}
	return out, nil
}

// fillerScore is what one clip or voice scored.
type fillerScore struct {
	hits, missed, false_ int // fillers found, not found, found where none was said
	errs, words          int // word errors against the text, fillers included
	audio                float64
}

func (s *fillerScore) add(o fillerScore) {
	s.hits += o.hits
	s.missed += o.missed
	s.false_ += o.false_
	s.errs += o.errs
	s.words += o.words
	s.audio += o.audio
}

func (s fillerScore) recall() float64    { return ratio(s.hits, s.hits+s.missed) }
func (s fillerScore) precision() float64 { return ratio(s.hits, s.hits+s.false_) }
func (s fillerScore) wer() float64       { return ratio(s.errs, s.words) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// sameKind says whether a filler found matches one said: any hesitation
// for any hesitation (the count is what the metrics report; "um" heard as
// "uh" is still a filler counted), otherwise the same words.
func sameKind(said, found string) bool {
	return said == found || isHesitation(said) && isHesitation(found)
}

func isHesitation(w string) bool {
	return !strings.Contains(w, " ") && w != "like" && w != "basically"
}

// scoreFillers aligns the transcript with the text word by word and counts
// a filler found as a hit when a filler of its kind was said at the same
// place, give or take a word (the recogniser may hear "um" as two words or
// merge it with a neighbour).
func scoreFillers(ft fillerText, res transcribe.Result) fillerScore {
	hyp := transcribe.NormalizeWords(res.Text)
	at := alignRef(ft.words, hyp)
	used := map[int]bool{}
	var s fillerScore
	for _, f := range transcribe.FindFillers(res) {
		r := at[f.Index]
		hit := false
		for _, d := range []int{0, -1, 1} {
			if said, ok := ft.fillers[r+d]; ok && !used[r+d] && sameKind(said, f.Word) {
				used[r+d], hit = true, true
				break
			}
		}
		if hit {
			s.hits++
		} else {
			s.false_++
		}
	}
	s.missed = len(ft.fillers) - s.hits
	s.errs, s.words = transcribe.WordErrors(ft.words, hyp), len(ft.words)
	s.audio = res.DurationSeconds
	return s
}

// alignRef maps each hypothesis word to the reference position it aligns
// with in a minimum edit alignment: the word it matches or replaces, or,
// for an inserted word, the reference word that follows it.
func alignRef(ref, hyp []string) []int {
	d := make([][]int, len(ref)+1)
	for i := range d {
		d[i] = make([]int, len(hyp)+1)
		d[i][0] = i
	}
	for j := range hyp {
		d[0][j+1] = j + 1
	}
	for i := 1; i <= len(ref); i++ {
		for j := 1; j <= len(hyp); j++ {
			cost := 1
			if ref[i-1] == hyp[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
		}
	}
	at := make([]int, len(hyp))
	i, j := len(ref), len(hyp)
	for j > 0 {
		switch {
		case i > 0 && d[i][j] == d[i-1][j-1]+map[bool]int{true: 0, false: 1}[ref[i-1] == hyp[j-1]]:
			at[j-1] = i - 1
			i, j = i-1, j-1
		case i > 0 && d[i][j] == d[i-1][j]+1:
			i--
		default:
			at[j-1] = i
			j--
		}
	}
	return at
}

// runFillers is -fillers: every text of fillers/<set> spoken by every
// voice of fillerVoices, through the engine, scored for fillers and words.
func runFillers(ctx context.Context, set string, cfg transcribe.Config, keep bool, out io.Writer) error {
	_, self, _, _ := runtime.Caller(0)
	texts, err := readFillerTexts(filepath.Join(filepath.Dir(self), "fillers", set))
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "bench-fillers-")
	if err != nil {
		return err
	}
	if keep {
		fmt.Fprintln(out, "clips kept in", work)
	} else {
		defer os.RemoveAll(work)
	}
	start := time.Now()
	type job struct {
		voice string
		text  int
		path  string
	}
	var jobs []job
	for _, v := range fillerVoices {
		for i := range texts {
			jobs = append(jobs, job{voice: v, text: i})
		}
	}
	errs := make([]error, len(jobs))
	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	for k := range jobs {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			j := &jobs[k]
			base := filepath.Join(work, fmt.Sprintf("%02d", k))
			if err := os.WriteFile(base+".txt", []byte(texts[j.text].spoken), 0o600); err != nil {
				errs[k] = err
				return
			}
			if err := synth.Speak(ctx, j.voice, base+".txt", base+".wav"); err != nil {
				errs[k] = fmt.Errorf("%s: %w", j.voice, err)
				return
			}
			format := []string{"webm", "mp4"}[k%2]
			j.path = base + "." + format
			errs[k] = synth.Encode(ctx, base+".wav", j.path, format)
		})
	}
	wg.Wait()
	for k, err := range errs {
		if err != nil {
			return fmt.Errorf("prepare %s %s: %w", jobs[k].voice, texts[jobs[k].text].name, err)
		}
	}
	fmt.Fprintf(out, "synthesized and encoded %d clips (%d texts x %d voices) in %.0f s\n", len(jobs), len(texts), len(fillerVoices), time.Since(start).Seconds())
	fmt.Fprintf(out, "decoder options: %q\n", cfg.Local.Args)
	cfg.TempDir = filepath.Join(work, "tmp")
	if err := os.Mkdir(cfg.TempDir, 0o700); err != nil {
		return err
	}
	eng, err := transcribe.New(cfg, slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	if err != nil {
		return err
	}
	defer eng.Close()

	decodeStart := time.Now()
	perVoice := map[string]*fillerScore{}
	var total fillerScore
	sources := map[string]int{}
	verbose := os.Getenv("BENCH_FILLERS_VERBOSE") != ""
	for _, j := range jobs {
		res, err := eng.Transcribe(ctx, transcribe.Audio{Path: j.path})
		if err != nil {
			return fmt.Errorf("%s %s: %w", j.voice, texts[j.text].name, err)
		}
		sources[transcribe.ComputeMetrics(res, cfg.AnswerLimit).FillersSource]++
		s := scoreFillers(texts[j.text], res)
		if perVoice[j.voice] == nil {
			perVoice[j.voice] = &fillerScore{}
		}
		perVoice[j.voice].add(s)
		total.add(s)
		if verbose {
			fmt.Fprintf(out, "%s %s: hits %d missed %d false %d\n  %s\n", j.voice, texts[j.text].name, s.hits, s.missed, s.false_, res.Text)
		}
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "voice\taudio s\tfillers said\tfound\tfalse\trecall\tprecision\tWER\terrors/words\t")
	row := func(name string, s fillerScore) {
		fmt.Fprintf(tw, "%s\t%.0f\t%d\t%d\t%d\t%.1f%%\t%.1f%%\t%.1f%%\t%d/%d\t\n", name, s.audio, s.hits+s.missed, s.hits, s.false_,
			100*s.recall(), 100*s.precision(), 100*s.wer(), s.errs, s.words)
	}
	for _, v := range fillerVoices {
		row(v, *perVoice[v])
	}
	row("TOTAL", total)
	tw.Flush()
	keys := make([]string, 0, len(sources))
	for k := range sources {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var src []string
	for _, k := range keys {
		src = append(src, fmt.Sprintf("%s %d", k, sources[k]))
	}
	fmt.Fprintf(out, "fillersSource: %s; recognition %.0f s wall for %.0f s of audio; whole run %.0f s\n",
		strings.Join(src, ", "), time.Since(decodeStart).Seconds(), total.audio, time.Since(start).Seconds())
	return nil
}
