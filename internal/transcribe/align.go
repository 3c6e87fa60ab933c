package transcribe

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/whitecoat/whitecoat/internal/transcribe/rlimit"
	"github.com/whitecoat/whitecoat/internal/transcribe/sphinx"
)

// ConfidenceAlignment: each word's confidence says how much better the
// audio under it fits the word than it fits any sequence of phones (a
// free phone loop over the same frames); a word the student did not say
// fits worse than the phones that were said.
const ConfidenceAlignment = "alignment"

// ErrTextUnsupported marks an alignment whose audio does not support most
// of the given text (another answer's text, a recogniser that heard
// something else): the caller recognises the recording itself and tells
// the student. Align returns it in an *Error, with the alignment it made.
var ErrTextUnsupported = errors.New("the recording does not support the given text")

// unsupportedMessage is what the student reads when their browser's words
// were set aside.
const unsupportedMessage = "Your browser's transcript did not match the recording, so Whitecoat's own recognition was used."

// Alignment policy, measured on the LibriVox clips (bench/transcribe
// -align, bench/transcribe/align/README.md).
const (
	// alignSupportedShare: a text with fewer of its words above
	// alignWordThreshold than this is not what was said.
	alignSupportedShare = 0.5
	// alignWordThreshold is the confidence under which an aligned word is
	// unsupported by the audio (the marks' threshold for "lattice" too).
	alignWordThreshold = 0.5
	// alignScale and alignBias map a word's fit against the phone loop
	// (decoder score units per frame, see fitPerFrame) to a confidence:
	// the logistic of (fit-alignBias)/alignScale.
	alignScale = 5.0
	alignBias  = -10.0
	// hesitationMinFrames: a hesitation the grammar let in is heard only
	// when it lasts this long (a filled pause is longer than a schwa
	// between two words) and fits the audio as well as a word must.
	hesitationMinFrames = 12
	// hesitationMaxFrames: anything longer the grammar let in as a
	// hesitation is speech the text left out (a recogniser that dropped
	// words), not a filled pause.
	hesitationMaxFrames = 120
	// hesitationWeight is the grammar's weight of a hesitation between
	// two words against none, so that the alignment puts one only where
	// the audio asks for it.
	hesitationWeight = 0.7
)

// alignHesitations are the hesitations the grammar lets stand between any
// two words of the text (both are in Debian's dictionary, not in its
// filler dictionary); the student's own text never places them, so every
// one reported was heard.
var alignHesitations = []string{"um", "uh"}

// phoneLoopPrefix names the phone loop's pseudo-words: no dictionary
// word begins with it.
const phoneLoopPrefix = "_"

// alignPhones are the en-us model's phones but silence, the pseudo-words
// of the free phone loop (and of words the dictionary lacks).
var alignPhones = strings.Fields("AA AE AH AO AW AY B CH D DH EH ER EY F G HH IH IY JH K L M N NG OW OY P R S SH T TH UH UW V W Y Z ZH")

// pronunciations is Debian's dictionary, read once per process: a word's
// pronunciations, the first its usual one.
type pronunciations map[string][]string

func readPronunciations(path string) (pronunciations, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("transcribe: dictionary: %w", err)
	}
	defer f.Close()
	d := pronunciations{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		word, phones, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			continue
		}
		if i := strings.IndexByte(word, '('); i > 0 {
			word = word[:i]
		}
		d[word] = append(d[word], strings.TrimSpace(phones))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("transcribe: dictionary: %w", err)
	}
	return d, nil
}

// spell gives a word the dictionary lacks a pronunciation from the words
// it is made of ("teamwork": team + work; "dashwood's": dashwood + 's),
// longest known first piece first; false when no split into pieces of
// two letters or more exists, and the word aligns as any phones instead.
func (d pronunciations) spell(word string) (string, bool) {
	if p, ok := d[word]; ok {
		return p[0], true
	}
	if s, ok := strings.CutSuffix(word, "'s"); ok {
		if p, ok := d.spell(s); ok {
			return p + " Z", true
		}
	}
	for cut := len(word) - 2; cut >= 2; cut-- {
		head, ok := d[word[:cut]]
		if !ok {
			continue
		}
		if tail, ok := d.spell(word[cut:]); ok {
			return head[0] + " " + tail, true
		}
	}
	return "", false
}

// alignWord is a word of the given text as the grammar has it.
type alignWord struct {
	tok   token
	known bool // in the dictionary, or spelt from its pieces
}

// textAligner places a given text on a recording with pocketsphinx's
// acoustic model alone (no language model, no decoder pool): the local
// engine's Align, and the Whisper-compatible engine's where pocketsphinx
// is installed beside it.
type textAligner struct {
	cfg    Config
	logger *slog.Logger
	// dict is Debian's whole dictionary, read on the first alignment.
	dictOnce sync.Once
	dict     pronunciations
	dictErr  error
	// aligning holds a token per alignment running (see runAlignment).
	aligning chan struct{}
	// live decodes the recordings in progress as they arrive, for the
	// steps of AdvanceAlign (and of the local engine's Advance): once the
	// student stops, Align finds all but the last moment decoded.
	live liveRuns
}

func newTextAligner(cfg Config, logger *slog.Logger) *textAligner {
	return &textAligner{cfg: cfg, logger: logger, aligning: make(chan struct{}, max(cfg.Local.Workers, 1))}
}

// alignerInstalled reports whether pocketsphinx and its English model are
// on this machine, so that an engine other than the local one can align.
func alignerInstalled(cfg Config) bool {
	if _, err := exec.LookPath(cfg.Local.Batch); err != nil {
		return false
	}
	for _, path := range []string{cfg.Local.HMM + "/mdef", cfg.Local.Dict} {
		if _, err := os.Stat(path); err != nil {
			return false
		}
	}
	return true
}

// Align places text on the recording (see Aligner). Its result's engine
// is the local one, whichever engine asked.
func (e *textAligner) Align(ctx context.Context, in Audio, text string, p AlignProgress) (res Result, err error) {
	dict, err := e.dictionary()
	if err != nil {
		return Result{}, err
	}
	words := textWords(dict, text)
	stepped := p.Tokens
	if !p.begins(words) || p.Tokens == len(words) {
		// A text that changed, or that ended where the steps did (a
		// grammar needs a word): aligned whole.
		p = AlignProgress{}
	}
	start := time.Now()
	pc, since, err := e.decodeFinished(ctx, in, nil)
	if err != nil {
		return Result{}, err
	}
	defer e.cleanup(pc)
	decoded := time.Since(start)
	// Where the wait after Stop goes, per answer (bench/latency): the
	// words the steps had placed, whether the live run stood, and what
	// was left to align.
	defer func() {
		e.logger.Info("transcribe: aligned the given text", "words", len(words), "stepped", stepped, "kept", p.Tokens,
			"live", !since.IsZero(), "decode", decoded.Round(time.Millisecond), "align", (time.Since(start) - decoded).Round(time.Millisecond),
			"supported", err == nil)
	}()
	res = Result{Engine: EngineLocal, DurationSeconds: pc.seconds(), Truncated: pc.truncated, Words: []Word{},
		WordConfidence: ConfidenceAlignment, VerbatimFillers: true, Source: SourceAligned}
	switch speech := hasSpeech(frameLevels(pc.samples)); {
	case len(words) == 0 && !speech:
		return res, nil
	case len(words) == 0:
		return res, &Error{Kind: ErrTextUnsupported, Message: unsupportedMessage, Err: errors.New("no words given for a recording with speech")}
	case !speech:
		return res, &Error{Kind: ErrTextUnsupported, Message: unsupportedMessage, Err: errors.New("the recording holds no speech")}
	}
	r := frameRange{}
	if p.Tokens > 0 {
		r = frameRange{from: frameAt(p.Until), to: len(frameLevels(pc.samples))}
	}
	var placed []Word
	if r.from < r.to || r == (frameRange{}) {
		if placed, err = e.alignRange(ctx, pc, dict, words[p.Tokens:], r, false); err != nil {
			return Result{}, err
		}
	}
	res.Words = append(slices.Clone(p.Words), placed...)
	res.Text = alignedText(text, res.Words, words)
	if !supported(res.Words, len(words)) {
		return res, &Error{Kind: ErrTextUnsupported, Message: unsupportedMessage,
			Err: fmt.Errorf("%d of %d words placed with confidence", alignConfident(res.Words), len(words))}
	}
	return res, nil
}

// Incremental alignment (Aligner.AdvanceAlign), measured in bench/latency.
const (
	// alignStepWords: a step places text only once this many of its words
	// wait to be placed; fewer are not worth a decoder's start.
	alignStepWords = 8
	// alignHeldWords: the last words of the text so far are never placed
	// by a step. A browser writes a word down as its sound ends, and the
	// recording's pieces arrive a little behind what was said: the end of
	// what it heard may not be in the recording yet.
	alignHeldWords = 3
	// alignCutGapFrames: a step ends its placed words at a pause at least
	// this long when there is one, so that the next step starts in silence.
	alignCutGapFrames = 10
)

// AdvanceAlign places the browser's text so far on the recording so far,
// beyond p (see Aligner): the words of text p has not placed, from where
// p ends, followed by whatever speech the text does not hold yet; it keeps
// them up to a cut between two words before the last alignHeldWords. When
// the text is ahead of the recording (words whose sound has not arrived),
// the grammar cannot end in what arrived and the step places nothing: a
// later one, with more of the recording, does.
func (e *textAligner) AdvanceAlign(ctx context.Context, in Audio, text string, p AlignProgress) (AlignProgress, error) {
	dict, err := e.dictionary()
	if err != nil {
		return p, err
	}
	words := textWords(dict, text)
	if !p.begins(words) {
		p = AlignProgress{}
	}
	rest := words[p.Tokens:]
	if len(rest) < max(alignStepWords, alignHeldWords+1) {
		return p, nil
	}
	pc, _, release, err := e.decodeSoFar(ctx, in, nil)
	if err != nil {
		return p, err
	}
	defer release()
	r := frameRange{from: frameAt(p.Until), to: len(frameLevels(pc.samples))}
	if r.to-r.from < loopPieceFrames/3 {
		return p, nil
	}
	placed, err := e.alignRange(ctx, pc, dict, rest, r, true)
	if err != nil {
		return p, err
	}
	keep, cut := alignCut(placed, len(rest)-alignHeldWords)
	if keep == 0 {
		return p, nil
	}
	next := AlignProgress{Words: slices.Clone(p.Words), Until: seconds(cut), Tokens: p.Tokens}
	for _, w := range placed {
		if w.End > seconds(cut) {
			break
		}
		next.Words = append(next.Words, w)
		if !isHesitation(w.Word) {
			next.Tokens++
		}
	}
	return next, nil
}

// alignCut chooses where a step's placed words end: after at most limit of
// the text's words, at the last pause of alignCutGapFrames or more between
// two of them, or else between the last two of them. It returns how many
// text words are kept and the frame at which the next step starts (the
// middle of the gap after the last one kept); 0 kept when none can be.
func alignCut(placed []Word, limit int) (keep, cut int) {
	type gap struct{ words, from, to int }
	var gaps []gap
	n := 0
	lastEnd := -1
	for _, w := range placed {
		if isHesitation(w.Word) {
			lastEnd = frameAt(w.End)
			continue
		}
		if n > 0 && n <= limit {
			gaps = append(gaps, gap{words: n, from: lastEnd, to: frameAt(w.Start)})
		}
		n++
		lastEnd = frameAt(w.End)
	}
	if len(gaps) == 0 {
		return 0, 0
	}
	best := gaps[len(gaps)-1]
	for i := len(gaps) - 1; i >= 0; i-- {
		if gaps[i].to-gaps[i].from >= alignCutGapFrames {
			best = gaps[i]
			break
		}
	}
	return best.words, (best.from + max(best.from, best.to)) / 2
}

// begins reports whether words start with the text words p placed.
func (p AlignProgress) begins(words []alignWord) bool {
	if p.Tokens > len(words) {
		return false
	}
	n := 0
	for _, w := range p.Words {
		if isHesitation(w.Word) {
			continue
		}
		if n >= p.Tokens || words[n].tok.word != w.Word {
			return false
		}
		n++
	}
	return n == p.Tokens
}

// textWords are the words of a given text the grammar places: all but the
// hesitations, which are heard from the audio, never taken from the text.
func textWords(dict pronunciations, text string) []alignWord {
	var words []alignWord
	for _, t := range tokenize(text) {
		if hesitations[t.word] {
			continue
		}
		_, known := dict.spell(t.word)
		words = append(words, alignWord{tok: t, known: known})
	}
	return words
}

func frameAt(sec float64) int { return int(math.Round(sec * sphinx.FrameRate)) }

func (e *textAligner) cleanup(pc *pcm) {
	if err := pc.cleanup(); err != nil {
		e.logger.Error("transcribe: cleanup", "err", err)
	}
}

// alignRange places words on frames r of the answer (all of it for the
// zero range), their times from the answer's start. An open range is a
// recording still arriving: speech the words do not hold may follow them.
func (e *textAligner) alignRange(ctx context.Context, pc *pcm, dict pronunciations, words []alignWord, r frameRange, open bool) ([]Word, error) {
	forced, loop, err := e.runAlignment(ctx, pc, dict, words, r, open)
	if err != nil {
		return nil, err
	}
	return alignedWords(forced, loop, words), nil
}

// dictionary is Debian's full dictionary (not the engine's vocabulary:
// the student's words are given, so every word it knows helps).
func (e *textAligner) dictionary() (pronunciations, error) {
	e.dictOnce.Do(func() { e.dict, e.dictErr = readPronunciations(e.cfg.Local.Dict) })
	return e.dict, e.dictErr
}

// runAlignment writes the answer's grammar and dictionary beside its
// samples and decodes them twice at once: forced through the text, and
// through the free phone loop that scores each word's frames against
// whatever phones fit them best.
func (e *textAligner) runAlignment(ctx context.Context, pc *pcm, dict pronunciations, words []alignWord, r frameRange, open bool) (forced, loop sphinx.Hyp, err error) {
	ctx, cancel := context.WithTimeout(ctx, e.cfg.Local.RecognizeTimeout)
	defer cancel()
	// At most Workers alignments at once, as many as recognitions: each
	// runs two or three decoders for a moment, and a burst of browser
	// transcripts must not start them for every answer at once.
	select {
	case e.aligning <- struct{}{}:
		defer func() { <-e.aligning }()
	case <-ctx.Done():
		return forced, loop, decoderFailed(ctx, ctx.Err())
	}
	// The grammars are this alignment's own: a recording's live run keeps
	// one directory for all its steps, and a step being stopped may still
	// be writing there when the answer's Align starts.
	work, err := os.MkdirTemp(pc.dir, "align-")
	if err != nil {
		return forced, loop, fmt.Errorf("transcribe: align: %w", err)
	}
	defer os.RemoveAll(work)
	if err := writeAlignFiles(work, dict, words, open); err != nil {
		return forced, loop, err
	}
	// The phone loop costs about twice the forced alignment per second of
	// speech and needs no text, so it runs in pieces cut at pauses, each
	// about as long to decode as the forced alignment of the whole: the
	// student waits for the forced alignment alone.
	levels := frameLevels(pc.samples)
	if r != (frameRange{}) {
		levels = levels[r.from:r.to]
	}
	pieces := loopPieces(levels)
	for i := range pieces {
		if pieces[i] == (frameRange{}) {
			pieces[i] = r
		} else {
			pieces[i].from, pieces[i].to = pieces[i].from+r.from, pieces[i].to+r.from
		}
	}
	loops := make([]sphinx.Hyp, len(pieces))
	errs := make([]error, len(pieces)+1)
	var wg sync.WaitGroup
	wg.Go(func() { forced, errs[0] = e.runGrammar(ctx, pc, work, "forced", r) })
	for i, r := range pieces {
		wg.Go(func() { loops[i], errs[i+1] = e.runGrammar(ctx, pc, work, "loop", r) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return forced, loop, decoderFailed(ctx, err)
	}
	for _, l := range loops {
		loop.Segs, loop.Acoustic = append(loop.Segs, l.Segs...), loop.Acoustic+l.Acoustic
	}
	return forced, loop, nil
}

// frameRange is frames [from, to) of an answer; the zero range is all of it.
type frameRange struct{ from, to int }

// loopPieceFrames is the shortest piece of an answer the phone loop is cut
// into: below it a decoder's start-up outweighs what is saved.
const loopPieceFrames = 15 * sphinx.FrameRate

// loopPieces cuts an answer of len(levels) frames into the pieces its
// phone loop is decoded in: two, cut at the quietest moment near the
// middle, when both are long enough; otherwise the whole.
func loopPieces(levels []float64) []frameRange {
	n := len(levels)
	if n < 2*loopPieceFrames {
		return []frameRange{{}}
	}
	cut := newPauseFinder(levels).quietest(n/2-pauseSearchFrames, n/2+pauseSearchFrames, n/2)
	return []frameRange{{0, cut}, {cut, n}}
}

// writeAlignFiles writes the dictionary (the text's words, the
// hesitations and the phone loop's pseudo-words) and the two grammars:
// "forced", the text's words in order with an optional hesitation
// between any two (and, when open, any phones after them: speech the text
// does not hold yet), and "loop", any phones.
func writeAlignFiles(dir string, dict pronunciations, words []alignWord, open bool) error {
	var d, forced strings.Builder
	seen := map[string]bool{}
	entry := func(word, phones string) {
		if !seen[word] {
			seen[word] = true
			fmt.Fprintf(&d, "%s %s\n", word, phones)
		}
	}
	for _, h := range alignHesitations {
		entry(h, dict[h][0])
	}
	var phones []string
	for _, p := range alignPhones {
		w := phoneLoopPrefix + strings.ToLower(p)
		entry(w, p)
		phones = append(phones, w)
	}
	hes := fmt.Sprintf("( /%g/ <NULL> | /%g/ <hes> )", 1-hesitationWeight, hesitationWeight)
	forced.WriteString("#JSGF V1.0;\ngrammar forced;\n")
	fmt.Fprintf(&forced, "<hes> = %s;\n<any> = ( %s )+;\npublic <s> = %s", strings.Join(alignHesitations, " | "), strings.Join(phones, " | "), hes)
	for _, w := range words {
		if w.known {
			if ps, ok := dict[w.tok.word]; ok {
				// Every pronunciation the dictionary has: the decoder
				// takes the one the student said.
				for i, p := range ps {
					name := w.tok.word
					if i > 0 {
						name = fmt.Sprintf("%s(%d)", name, i+1)
					}
					entry(name, p)
				}
			} else {
				p, _ := dict.spell(w.tok.word)
				entry(w.tok.word, p)
			}
			fmt.Fprintf(&forced, " %s %s", w.tok.word, hes)
		} else {
			fmt.Fprintf(&forced, " <any> %s", hes)
		}
	}
	if open {
		forced.WriteString(" [ <any> ]")
	}
	forced.WriteString(";\n")
	loop := fmt.Sprintf("#JSGF V1.0;\ngrammar loop;\npublic <s> = ( %s )*;\n", strings.Join(phones, " | "))
	for name, body := range map[string]string{"align.dict": d.String(), "forced.gram": forced.String(), "loop.gram": loop} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			return fmt.Errorf("transcribe: align: %w", err)
		}
	}
	return nil
}

// runGrammar decodes frames r of the answer's samples with one of the
// grammars in work in a pocketsphinx_batch of its own (a grammar is the answer's,
// so the pool's long-lived decoders, loaded with the language model,
// cannot serve it; loading the acoustic model alone costs about a tenth of
// a CPU second). The result's frames count from the answer's start.
func (e *textAligner) runGrammar(ctx context.Context, pc *pcm, work, grammar string, r frameRange) (sphinx.Hyp, error) {
	base := strings.TrimSuffix(rawName, ".raw")
	uttid, entry := base, base
	if r != (frameRange{}) {
		uttid = fmt.Sprintf("%s-%d", grammar, r.from)
		entry = fmt.Sprintf("%s %d %d %s", base, r.from, r.to, uttid)
	}
	out := filepath.Join(work, uttid+"-"+grammar+".seg")
	ctl := filepath.Join(work, uttid+"-"+grammar+".ctl")
	if err := os.WriteFile(ctl, []byte(entry+"\n"), 0o600); err != nil {
		return sphinx.Hyp{}, fmt.Errorf("transcribe: align: %w", err)
	}
	cmd, err := rlimit.Command(ctx, rlimit.Limits{Data: e.cfg.Local.WorkerMemory}, e.cfg.Local.Batch,
		"-hmm", e.cfg.Local.HMM, "-dict", filepath.Join(work, "align.dict"), "-jsgf", filepath.Join(work, grammar+".gram"),
		"-adcin", "yes", "-cepext", ".raw", "-cepdir", pc.dir, "-ctl", ctl, "-hypseg", out,
		"-remove_silence", "no", "-logfn", os.DevNull)
	if err != nil {
		return sphinx.Hyp{}, err
	}
	msg, err := cmd.CombinedOutput()
	rlimit.Account(rlimit.PurposeAlign, cmd.ProcessState)
	if err != nil {
		return sphinx.Hyp{}, fmt.Errorf("transcribe: align %s: %w: %s", grammar, err, msg)
	}
	line, err := os.ReadFile(out)
	if err != nil {
		return sphinx.Hyp{}, fmt.Errorf("transcribe: align %s: %w", grammar, err)
	}
	hyp, err := sphinx.ParseHypseg(strings.TrimSpace(string(line)), uttid)
	for i := range hyp.Segs {
		hyp.Segs[i].Start += r.from
		hyp.Segs[i].End += r.from
	}
	return hyp, err
}

// alignedWords are the text's words at the forced alignment's times, with
// the hesitations heard between them, each with its confidence from the
// phone loop over the same frames. The grammar has a single path, so the
// alignment's words are the text's in order; a word the dictionary lacks
// spans the phones it aligned as, and has no confidence (they fit any
// phones).
func alignedWords(forced, loop sphinx.Hyp, words []alignWord) []Word {
	out := []Word{}
	next := 0     // the text's next word
	anyFrom := -1 // the first frame of the unknown word's phones
	anyEnd := 0
	flushAny := func() {
		if anyFrom >= 0 && next == len(words) {
			anyFrom = -1 // an open grammar's speech after the text's words
		}
		if anyFrom >= 0 {
			out = append(out, Word{Word: words[next].tok.word, Start: seconds(anyFrom), End: seconds(anyEnd)})
			next++
			anyFrom = -1
		}
	}
	for _, s := range forced.Segs {
		name := s.Word
		if i := strings.IndexByte(name, '('); i > 0 {
			name = name[:i]
		}
		switch {
		case strings.HasPrefix(name, phoneLoopPrefix):
			if anyFrom < 0 {
				anyFrom = s.Start
			}
			anyEnd = s.End
		case name == "(NULL)" || sphinx.Filler(name):
			continue
		case isHesitation(name):
			flushAny()
			if n := s.End - s.Start; n >= hesitationMinFrames && n <= hesitationMaxFrames {
				c := fitConfidence(s, loop)
				if c >= alignWordThreshold {
					out = append(out, Word{Word: name, Start: seconds(s.Start), End: seconds(s.End), Confidence: confidence(c)})
				}
			}
		default:
			flushAny()
			if next < len(words) {
				out = append(out, Word{Word: words[next].tok.word, Start: seconds(s.Start), End: seconds(s.End), Confidence: confidence(fitConfidence(s, loop))})
				next++
			}
		}
	}
	flushAny()
	return out
}

func isHesitation(w string) bool {
	for _, h := range alignHesitations {
		if w == h {
			return true
		}
	}
	return false
}

func seconds(frame int) float64 { return float64(frame) / sphinx.FrameRate }

// fitConfidence is the logistic of how much better, per frame, the word s
// fits its frames than the phone loop's best phones there do (in nats).
func fitConfidence(s sphinx.Seg, loop sphinx.Hyp) float64 {
	n := s.End - s.Start
	if n <= 0 {
		return 0
	}
	return 1 / (1 + math.Exp(-(fitPerFrame(s, loop)-alignBias)/alignScale))
}

// fitPerFrame is s's acoustic score less the phone loop's over the same
// frames (each loop phone counted for the share of it that overlaps),
// per frame, in the decoder's score units (hypseg's acoustic scores, in
// its log base).
func fitPerFrame(s sphinx.Seg, loop sphinx.Hyp) float64 {
	var ref float64
	for _, l := range loop.Segs {
		o := min(l.End, s.End) - max(l.Start, s.Start)
		if o > 0 && l.End > l.Start {
			ref += float64(l.Acoustic) * float64(o) / float64(l.End-l.Start)
		}
	}
	return (float64(s.Acoustic) - ref) / float64(s.End-s.Start)
}

// alignedText is the student's text as they gave it, with the hesitations
// heard inserted before the word they preceded, and those they typed left
// out: hesitations are judged from the audio alone.
func alignedText(text string, aligned []Word, words []alignWord) string {
	type edit struct {
		from, to int // text[from:to] is replaced by put
		put      string
	}
	var edits []edit
	for _, t := range tokenize(text) {
		if hesitations[t.word] {
			to := t.to
			for to < len(text) && strings.ContainsRune(",.;:!?…-", rune(text[to])) {
				to++
			}
			edits = append(edits, edit{t.from, to, ""})
		}
	}
	next := 0
	for _, w := range aligned {
		if !isHesitation(w.Word) {
			next++
			continue
		}
		if next < len(words) {
			edits = append(edits, edit{words[next].tok.from, words[next].tok.from, w.Word + ", "})
		} else {
			edits = append(edits, edit{len(text), len(text), " " + w.Word})
		}
	}
	slices.SortStableFunc(edits, func(a, b edit) int { return a.from - b.from })
	var b strings.Builder
	pos := 0
	for _, ed := range edits {
		b.WriteString(text[pos:max(pos, ed.from)])
		b.WriteString(ed.put)
		pos = max(pos, ed.to)
	}
	b.WriteString(text[pos:])
	return strings.Join(strings.Fields(b.String()), " ")
}

// alignConfident counts the text's words the audio supports.
func alignConfident(words []Word) int {
	n := 0
	for _, w := range words {
		if !isHesitation(w.Word) && w.Confidence != nil && *w.Confidence >= alignWordThreshold {
			n++
		}
	}
	return n
}

// supported says whether the audio supports most of the text's n words:
// the alignment placed every one of them (it reached the grammar's end)
// and most of those it could measure fit the audio.
func supported(words []Word, n int) bool {
	placed, measured := 0, 0
	for _, w := range words {
		if isHesitation(w.Word) {
			continue
		}
		placed++
		if w.Confidence != nil {
			measured++
		}
	}
	return placed == n && float64(alignConfident(words)) >= alignSupportedShare*float64(measured)
}
