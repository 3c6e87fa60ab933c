package transcribe

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// libriVox is Debian's pocketsphinx-testdata: real read speech with its
// transcription.
const libriVox = "/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-"

// The clips the alignment tests use, and what their reader says.
const (
	clip880  = libriVox + "0880.wav"
	text880  = "he was not an ill disposed young man"
	clip870  = libriVox + "0870.wav"
	text870  = "and mister john dashwood had then leisure to consider how much there might be prudently in his power to do for them"
	split880 = 1.14 // seconds: the pause before "an"
)

// requireLibriVox skips, loudly, without the real recordings (in CI, where
// the Makefile installs them, it fails).
func requireLibriVox(t *testing.T) {
	t.Helper()
	requireSpeechStack(t)
	if _, err := os.Stat(clip880); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("pocketsphinx-testdata is required in CI: %v", err)
		}
		t.Skipf("SKIPPING: pocketsphinx-testdata missing: %v", err)
	}
}

// spoken is the words of a result that the text gave (hesitations heard
// left out).
func spoken(r Result) []string {
	var out []string
	for _, w := range r.Words {
		if !isHesitation(w.Word) {
			out = append(out, w.Word)
		}
	}
	return out
}

func TestAlignKeepsTheGivenWordsInOrder(t *testing.T) {
	requireLibriVox(t)
	e := startLocal(t, localConfig(t))
	// The student's own "um" is not taken from the text: hesitations are
	// heard, and this reader says none.
	given := "And Mister John Dashwood had then, um, leisure to consider how much there might be prudently in his power to do for them."
	res, err := e.Align(context.Background(), Audio{Path: clip870}, given, AlignProgress{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := spoken(res), normalizeWords(text870); !slices.Equal(got, want) {
		t.Fatalf("words %v, want the given %v", got, want)
	}
	if res.Text != strings.Replace(given, "um, ", "", 1) {
		t.Errorf("text %q: want the given text without the typed hesitation", res.Text)
	}
	low := 0
	for i, w := range res.Words {
		if w.End <= w.Start || i > 0 && w.Start < res.Words[i-1].End {
			t.Errorf("word %d %+v out of order (previous ends %v)", i, w, res.Words[max(i-1, 0)].End)
		}
		if w.Confidence == nil {
			t.Fatalf("word %+v has no confidence", w)
		}
		if *w.Confidence < alignWordThreshold {
			low++
		}
	}
	if low > len(res.Words)/5 {
		t.Errorf("%d of %d true words under %v: %+v", low, len(res.Words), alignWordThreshold, res.Words)
	}
	if res.WordConfidence != ConfidenceAlignment || !res.VerbatimFillers || res.Engine != EngineLocal {
		t.Errorf("result %+v", res)
	}
	m := ComputeMetrics(res, 0)
	if m.WordCount != len(normalizeWords(text870)) || m.WordsPerMinute < 100 || m.WordsPerMinute > 250 || !m.PausesMeasured {
		t.Errorf("metrics from the alignment: %+v", m)
	}
}

func TestAlignScoresASwappedWordLow(t *testing.T) {
	requireLibriVox(t)
	e := startLocal(t, localConfig(t))
	res, err := e.Align(context.Background(), Audio{Path: clip880}, "he was not an ill disposed yellow man", AlignProgress{})
	if err != nil {
		t.Fatal(err)
	}
	var swapped float64
	minTrue := 1.0
	for _, w := range res.Words {
		switch {
		case w.Word == "yellow":
			swapped = *w.Confidence
		case !isHesitation(w.Word):
			minTrue = min(minTrue, *w.Confidence)
		}
	}
	if swapped >= alignWordThreshold || swapped >= minTrue {
		t.Errorf("swapped word %.3f, lowest true word %.3f: %+v", swapped, minTrue, res.Words)
	}
}

func TestAlignHearsAnInsertedUm(t *testing.T) {
	requireLibriVox(t)
	requireTools(t, "sox")
	dir := t.TempDir()
	um := filepath.Join(dir, "um.wav")
	run(t, "sh", "-c", "echo um | text2wave -o "+filepath.Join(dir, "tts.wav"))
	run(t, "sox", "-D", filepath.Join(dir, "tts.wav"), "-b", "16", um, "rate", "16k", "channels", "1",
		"silence", "1", "0.01", "1%", "reverse", "silence", "1", "0.01", "1%", "reverse")
	head, tail, gap, spliced := filepath.Join(dir, "h.wav"), filepath.Join(dir, "t.wav"), filepath.Join(dir, "g.wav"), filepath.Join(dir, "s.wav")
	run(t, "sox", "-D", clip880, "-b", "16", head, "trim", "0", "1.14", "rate", "16k")
	run(t, "sox", "-D", clip880, "-b", "16", tail, "trim", "1.14", "rate", "16k")
	run(t, "sox", "-D", "-n", "-r", "16k", "-c", "1", "-b", "16", gap, "trim", "0", "0.15")
	run(t, "sox", "-D", head, gap, um, gap, tail, spliced)

	e := startLocal(t, localConfig(t))
	res, err := e.Align(context.Background(), Audio{Path: spliced}, text880, AlignProgress{})
	if err != nil {
		t.Fatal(err)
	}
	var heard []Word
	for _, w := range res.Words {
		if isHesitation(w.Word) {
			heard = append(heard, w)
		}
	}
	if len(heard) != 1 || heard[0].Start > split880+0.15+0.3 || heard[0].End < split880 {
		t.Fatalf("hesitations heard %+v, want one at %.2f s: %+v", heard, split880+0.15, res.Words)
	}
	if f := FindFillers(res); len(f) != 1 || !strings.Contains(res.Text, heard[0].Word+",") {
		t.Errorf("fillers %+v in %q", f, res.Text)
	}
	if got := spoken(res); !slices.Equal(got, normalizeWords(text880)) {
		t.Errorf("words %v", got)
	}

	// The same recording without it: nothing heard.
	res, err = e.Align(context.Background(), Audio{Path: clip880}, text880, AlignProgress{})
	if err != nil {
		t.Fatal(err)
	}
	if len(spoken(res)) != len(res.Words) {
		t.Errorf("a hesitation invented: %+v", res.Words)
	}
}

func TestAlignReportsATextTheAudioDoesNotSupport(t *testing.T) {
	requireLibriVox(t)
	e := startLocal(t, localConfig(t))
	_, err := e.Align(context.Background(), Audio{Path: clip880}, text870, AlignProgress{})
	if !errors.Is(err, ErrTextUnsupported) {
		t.Fatalf("another clip's text: err %v, want ErrTextUnsupported", err)
	}
	if UserMessage(err) != unsupportedMessage {
		t.Errorf("message %q", UserMessage(err))
	}
	// A browser that heard only a hesitation gave no words to align.
	if _, err := e.Align(context.Background(), Audio{Path: clip880}, "Um.", AlignProgress{}); !errors.Is(err, ErrTextUnsupported) {
		t.Errorf("no words: err %v, want ErrTextUnsupported", err)
	}
	if _, err := e.Align(context.Background(), Audio{Path: clip880}, text880, AlignProgress{}); err != nil {
		t.Errorf("its own text: %v", err)
	}
}

func TestAlignPlacesAWordTheDictionaryLacks(t *testing.T) {
	requireLibriVox(t)
	e := startLocal(t, localConfig(t))
	// "disposd" has no entry and no split into known pieces: it aligns as
	// any phones, between its neighbours, with no confidence.
	res, err := e.Align(context.Background(), Audio{Path: clip880}, "he was not an ill disposd young man", AlignProgress{})
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(res.Words, func(w Word) bool { return w.Word == "disposd" })
	if i < 1 || i+1 >= len(res.Words) || res.Words[i].Confidence != nil ||
		res.Words[i].Start < res.Words[i-1].End || res.Words[i].End > res.Words[i+1].Start || res.Words[i].End-res.Words[i].Start < 0.3 {
		t.Errorf("words %+v", res.Words)
	}
}

func TestSpellFromPieces(t *testing.T) {
	d := pronunciations{"team": {"T IY M"}, "work": {"W ER K"}, "dash": {"D AE SH"}, "wood": {"W UH D"}}
	for word, want := range map[string]string{"teamwork": "T IY M W ER K", "dashwood's": "D AE SH W UH D Z", "team": "T IY M"} {
		if got, ok := d.spell(word); !ok || got != want {
			t.Errorf("spell(%q) = %q %v, want %q", word, got, ok, want)
		}
	}
	if got, ok := d.spell("teamx"); ok {
		t.Errorf("spell(teamx) = %q: a piece of one letter", got)
	}
}

func TestCLIAlignsATextFile(t *testing.T) {
	requireLibriVox(t)
	cfg := localConfig(t)
	textFile := filepath.Join(t.TempDir(), "heard.txt")
	if err := os.WriteFile(textFile, []byte("He was not an ill-disposed young man.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if err := RunCLI(context.Background(), cfg, []string{"--json", "--text-file", textFile, clip880}, &stdout, &stderr); err != nil {
		t.Fatalf("%v: %s", err, stderr.String())
	}
	var out CLIOutput
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	var words []string
	for _, w := range out.Words {
		words = append(words, w.Word)
	}
	if out.Text != "He was not an ill-disposed young man." || !slices.Equal(words, normalizeWords(text880)) ||
		out.WordConfidence != ConfidenceAlignment || out.Metrics.WordsPerMinute == 0 {
		t.Errorf("output %+v", out)
	}

	// Another clip's text: printed, and reported unsupported.
	stdout.Reset()
	other := filepath.Join(t.TempDir(), "other.txt")
	if err := os.WriteFile(other, []byte(text870), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := RunCLI(context.Background(), cfg, []string{"--json", "--text-file", other, clip880}, &stdout, &stderr); !errors.Is(err, ErrTextUnsupported) || !json.Valid(stdout.Bytes()) {
		t.Errorf("unsupported text: err %v, output %q", err, stdout.String())
	}

	// The Whisper-compatible engine aligns with pocketsphinx beside it,
	// without a call to the service; told not to, it cannot.
	cfg.Engine = EngineOpenAI
	cfg.OpenAI.APIKey = "unused"
	cfg.OpenAI.BaseURL = "http://127.0.0.1:1/v1"
	if err := RunCLI(context.Background(), cfg, []string{"--text-file", textFile, clip880}, &stdout, &stderr); err != nil {
		t.Errorf("openai with pocketsphinx beside it: %v", err)
	}
	cfg.OpenAI.Align = false
	err := RunCLI(context.Background(), cfg, []string{"--text-file", textFile, clip880}, &stdout, &stderr)
	if !errors.Is(err, ErrNoAligner) {
		t.Errorf("openai told not to align: %v, want ErrNoAligner", err)
	}
	if err := RunCLI(context.Background(), localConfig(t), []string{"--text-file", "/nonexistent", clip880}, &stdout, &stderr); err == nil {
		t.Error("a missing text file: no error")
	}
}

// The Whisper-compatible engine with pocketsphinx beside it: a service
// without word times gets them from the audio, hesitations heard and all,
// and a browser's text is aligned as the local engine aligns it (issue
// 39, item 3).
func TestOpenAIWithoutWordTimesIsAligned(t *testing.T) {
	requireLibriVox(t)
	srv, _ := fakeWhisper(t, reply{400, `{"error":{"message":"response_format 'verbose_json' is not supported"}}`, 0},
		reply{200, `{"text":"He was not an ill disposed young man."}`, 0})
	cfg := openaiConfig(srv.URL)
	cfg.TempDir = t.TempDir()
	eng, err := New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	res, err := eng.Transcribe(t.Context(), Audio{Path: clip880})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := spoken(res), normalizeWords(text880); !slices.Equal(got, want) {
		t.Fatalf("words %v, want the service's %v", got, want)
	}
	if res.WordConfidence != ConfidenceAlignment || !res.VerbatimFillers || res.Engine != eng.Name() || res.Source != "" {
		t.Errorf("result %+v: want the service's own words, timed and scored by alignment", res)
	}
	for i, w := range res.Words {
		if w.End <= w.Start || i > 0 && w.Start < res.Words[i-1].End {
			t.Errorf("word %d %+v out of order", i, w)
		}
	}

	aligner, ok := eng.(Aligner)
	if !ok {
		t.Fatal("the Whisper-compatible engine with pocketsphinx installed cannot align a browser's text")
	}
	browser, err := aligner.Align(t.Context(), Audio{Path: clip880}, text880, AlignProgress{})
	if err != nil {
		t.Fatal(err)
	}
	if browser.Source != SourceAligned || len(browser.Words) == 0 {
		t.Errorf("the browser's text aligned as %+v", browser)
	}
	assertNoTempFiles(t, cfg.TempDir)
}

// Without pocketsphinx, or told not to, the Whisper-compatible engine
// does not align: the pipeline then recognises a browser's answer and
// says so.
func TestOpenAIWithoutPocketsphinxDoesNotAlign(t *testing.T) {
	missing := openaiConfig("http://127.0.0.1:1")
	missing.Local.Batch = "no-such-pocketsphinx_batch"
	off := openaiConfig("http://127.0.0.1:1")
	off.OpenAI.Align = false
	for name, cfg := range map[string]Config{"pocketsphinx missing": missing, "SPEECH_OPENAI_ALIGN=0": off} {
		eng, err := New(cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer eng.Close()
		if _, ok := eng.(Aligner); ok {
			t.Errorf("%s: the engine offers to align", name)
		}
	}
}

func TestLoopPieces(t *testing.T) {
	quiet, loud := 0.0, 1.0
	levels := make([]float64, 40*100)
	for i := range levels {
		levels[i] = loud
	}
	for i := 2100; i < 2130; i++ {
		levels[i] = quiet // a pause a second past the middle
	}
	got := loopPieces(levels)
	if len(got) != 2 || got[0].from != 0 || got[1].to != len(levels) || got[0].to != got[1].from || got[0].to < 2100 || got[0].to >= 2130 {
		t.Errorf("40 s with a pause at 21 s: pieces %+v, want two cut in the pause", got)
	}
	if got := loopPieces(levels[:2*loopPieceFrames-1]); len(got) != 1 || got[0] != (frameRange{}) {
		t.Errorf("a short answer: pieces %+v, want the whole", got)
	}
}

// An answer long enough to have its phone loop decoded in two pieces is
// aligned as well as in one: every word placed in order, with the
// confidences the audio gives them.
func TestAlignALongAnswerInPieces(t *testing.T) {
	requireLibriVox(t)
	requireTools(t, "sox")
	long := filepath.Join(t.TempDir(), "long.wav")
	var clips []string
	var text []string
	for range 3 {
		clips = append(clips, clip870, clip880)
		text = append(text, text870, text880)
	}
	if out, err := exec.Command("sox", append(clips, long)...).CombinedOutput(); err != nil {
		t.Fatalf("sox: %v: %s", err, out)
	}
	e := startLocal(t, localConfig(t))
	res, err := e.Align(context.Background(), Audio{Path: long}, strings.Join(text, " "), AlignProgress{})
	if err != nil {
		t.Fatal(err)
	}
	if res.DurationSeconds < 2*loopPieceFrames/100 {
		t.Fatalf("%v s: too short to be cut", res.DurationSeconds)
	}
	if got, want := spoken(res), normalizeWords(strings.Join(text, " ")); !slices.Equal(got, want) {
		t.Fatalf("words %v, want %v", got, want)
	}
	low := 0
	for i, w := range res.Words {
		if w.End <= w.Start || i > 0 && w.Start < res.Words[i-1].End {
			t.Errorf("word %d %+v out of order", i, w)
		}
		if *w.Confidence < alignWordThreshold {
			low++
		}
	}
	if low > len(res.Words)/10 {
		t.Errorf("%d of %d true words below the threshold", low, len(res.Words))
	}
}

// An answer lined up while it arrives (issue 39: the student must not wait
// longer for their browser's words than for the server's): each step
// places what the browser had heard of the recording so far, short of its
// last words; when the recording ends, Align places only the rest, and the
// answer is what aligning it whole gives: the same words in order, at the
// same times, with the same marks.
func TestAlignWhileTheRecordingArrives(t *testing.T) {
	requireLibriVox(t)
	requireTools(t, "sox")
	dir := t.TempDir()
	var clips, texts []string
	var ends []float64 // where each clip ends in the answer, in seconds
	at := 0.0
	for range 3 {
		for _, c := range []struct{ path, text string }{{clip870, text870}, {clip880, text880}} {
			clips, texts = append(clips, c.path), append(texts, c.text)
			at += soxSeconds(t, c.path)
			ends = append(ends, at)
		}
	}
	long := filepath.Join(dir, "long.wav")
	if out, err := exec.Command("sox", append(clips, long)...).CombinedOutput(); err != nil {
		t.Fatalf("sox: %v: %s", err, out)
	}
	e := startLocal(t, localConfig(t))
	ctx := context.Background()
	whole, err := e.Align(ctx, Audio{Path: long}, strings.Join(texts, " "), AlignProgress{})
	if err != nil {
		t.Fatal(err)
	}

	// The recording arrives as a browser's does: its bytes appended to
	// the file as they come (a live run feeds ffmpeg only what was added).
	recording, err := os.ReadFile(long)
	if err != nil {
		t.Fatal(err)
	}
	bytesUpTo := func(sec float64) []byte {
		return recording[:min(len(recording), int(float64(len(recording))*sec/at)&^1)]
	}
	part := filepath.Join(dir, "part.wav")
	grow := func(upTo float64) Audio {
		f, err := os.OpenFile(part, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		fi, err := f.Stat()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write(bytesUpTo(upTo)[fi.Size():]); err != nil {
			t.Fatal(err)
		}
		return Audio{Path: part}
	}
	wholeAt := map[int]Word{}
	n := 0
	for _, w := range whole.Words {
		if !isHesitation(w.Word) {
			wholeAt[n] = w
			n++
		}
	}

	// A browser ahead of the pieces that arrived (its text runs two
	// seconds past them): nothing is placed out of place, nothing at all.
	early := filepath.Join(dir, "early.wav")
	if err := os.WriteFile(early, bytesUpTo(ends[2]-2), 0o600); err != nil {
		t.Fatal(err)
	}
	ahead, err := e.AdvanceAlign(ctx, Audio{Path: early}, strings.Join(texts[:3], " "), AlignProgress{})
	if err != nil {
		t.Fatal(err)
	}
	if ahead.Tokens != 0 || len(ahead.Words) != 0 {
		t.Errorf("with the browser ahead of the recording, placed %+v", ahead)
	}

	// The recording as it stands every few seconds, and what a browser had
	// written down by then: the clips that had ended half a second before.
	var p AlignProgress
	for upTo := 4.0; upTo < at; upTo += 4 {
		heard := 0
		for heard < len(ends) && ends[heard]+0.5 <= upTo {
			heard++
		}
		next, err := e.AdvanceAlign(ctx, grow(upTo), strings.Join(texts[:heard], " "), p)
		if err != nil {
			t.Fatal(err)
		}
		if next.Tokens < p.Tokens || next.Until < p.Until || next.Until > upTo {
			t.Fatalf("at %.0f s: progress went from %+v to %+v", upTo, p, next)
		}
		p = next
	}
	total := len(normalizeWords(strings.Join(texts, " ")))
	if p.Tokens < total/2 || p.Tokens >= total {
		t.Fatalf("placed %d of %d words while the recording arrived; want most but the last", p.Tokens, total)
	}

	run := e.live.take(part)
	if run == nil {
		t.Fatal("no live run: every step decoded the whole recording so far")
	}
	run.discard(e.logger)
	// A step that starts the run again, for Align to finish.
	if _, err := e.AdvanceAlign(ctx, grow(at-1), strings.Join(texts, " "), p); err != nil {
		t.Fatal(err)
	}
	res, err := e.Align(ctx, grow(at), strings.Join(texts, " "), p)
	if err != nil {
		t.Fatal(err)
	}
	if e.live.take(part) != nil {
		t.Error("Align left the recording's live run running: it decoded the recording whole")
	}
	if got, want := spoken(res), spoken(whole); !slices.Equal(got, want) {
		t.Fatalf("words %v, want %v", got, want)
	}
	n, moved, marks, wholeMarks := 0, 0, 0, 0
	for i, w := range res.Words {
		if i > 0 && w.Start < res.Words[i-1].End {
			t.Errorf("word %d %+v starts before the one before it ends (%v)", i, w, res.Words[i-1].End)
		}
		if isHesitation(w.Word) {
			continue
		}
		if math.Abs(w.Start-wholeAt[n].Start) > 0.1 || math.Abs(w.End-wholeAt[n].End) > 0.1 {
			moved++
		}
		if *w.Confidence < alignWordThreshold {
			marks++
		}
		if *wholeAt[n].Confidence < alignWordThreshold {
			wholeMarks++
		}
		n++
	}
	t.Logf("placed %d of %d words up to %.2f s while it arrived; %d moved, %d marks (whole: %d)", p.Tokens, total, p.Until, moved, marks, wholeMarks)
	if moved > total/20 {
		t.Errorf("%d of %d words more than 0.1 s from where aligning the whole recording puts them", moved, total)
	}
	if marks > wholeMarks+total/20 {
		t.Errorf("%d words under the threshold, against %d aligned whole", marks, wholeMarks)
	}

	// The browser changed its mind about a word already placed: the
	// recording is aligned whole again, with the new words.
	changed := strings.Replace(strings.Join(texts, " "), "leisure", "pleasure", 1)
	res, err = e.Align(ctx, Audio{Path: long}, changed, p)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := spoken(res), normalizeWords(changed); !slices.Equal(got, want) {
		t.Fatalf("after a change: words %v, want %v", got, want)
	}
}

// soxSeconds is the length of a sound file.
func soxSeconds(t *testing.T, path string) float64 {
	t.Helper()
	out, err := exec.Command("soxi", "-D", path).Output()
	if err != nil {
		t.Fatalf("soxi %s: %v", path, err)
	}
	d, err := strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
