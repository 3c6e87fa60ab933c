package transcribe

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

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
	// noHesitation is the grammar's probability of no hesitation between
	// two words (a hesitation's is 1), so that the alignment puts one only
	// where the audio asks for it. These are the probabilities the policy
	// above was measured with, in a JSGF grammar written
	// "( /0.3/ <NULL> | /0.7/ ( um | uh ) )": pocketsphinx compiled it to
	// an empty move of probability 0.3 and left the 0.7 out.
	noHesitation = 0.3
)

// The aligner's grammars are FSG files (the long-lived decoders read
// nothing else per request), whose probabilities pocketsphinx_batch
// raises to its language weight cut to a whole number (-lw 6.5: 6), while
// a JSGF grammar's it took as written and the silence and filler words it
// added at every state it raised to 6.5. The FSG grammars are written, and
// the decoders started, so that a decoding is the same as with the JSGF
// grammar (bench/align's figures did not move).
const (
	fsgLanguageWeight     = 6.0
	decoderLanguageWeight = 6.5
	decoderSilenceProb    = 0.005 // pocketsphinx's -silprob
	decoderFillerProb     = 1e-8  // and -fillprob
)

// fsgProb is the probability to write in an FSG file for p as a JSGF
// grammar had it.
func fsgProb(p float64) float64 { return math.Pow(p, 1/fsgLanguageWeight) }

// alignDecoderArgs are the aligner's decoder options: silence and filler
// words as likely as with a JSGF grammar.
var alignDecoderArgs = []string{
	"-silprob", strconv.FormatFloat(math.Pow(decoderSilenceProb, decoderLanguageWeight/fsgLanguageWeight), 'g', -1, 64),
	"-fillprob", strconv.FormatFloat(math.Pow(decoderFillerProb, decoderLanguageWeight/fsgLanguageWeight), 'g', -1, 64),
}

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
	// pool and its directory: see decoders.
	poolOnce sync.Once
	pool     *sphinx.Pool
	poolDir  string
	poolErr  error
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
func (e *textAligner) Align(ctx context.Context, in Audio, text string, p AlignProgress) (Result, error) {
	dict, err := e.dictionary()
	if err != nil {
		return Result{}, err
	}
	words := textWords(dict, text)
	if !p.begins(words) || p.Tokens == len(words) {
		// A text that changed, or that ended where the steps did (a
		// grammar needs a word): aligned whole.
		p = AlignProgress{}
	}
	pc, _, err := e.decodeFinished(ctx, in, nil)
	if err != nil {
		return Result{}, err
	}
	defer e.cleanup(pc)
	res := Result{Engine: EngineLocal, DurationSeconds: pc.seconds(), Truncated: pc.truncated, Words: []Word{},
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

// runAlignment decodes the answer's frames r twice at once: forced
// through the text's grammar, and through the free phone loop that scores
// each word's frames against whatever phones fit them best. Both run on
// the aligner's long-lived decoders (decoders) but for a text with a word
// spelt from its pieces, which is not in their dictionary: its forced
// alignment runs in a decoder of its own, with the answer's dictionary.
func (e *textAligner) runAlignment(ctx context.Context, pc *pcm, dict pronunciations, words []alignWord, r frameRange, open bool) (forced, loop sphinx.Hyp, err error) {
	ctx, cancel := context.WithTimeout(ctx, e.cfg.Local.RecognizeTimeout)
	defer cancel()
	// At most Workers alignments at once, as many as recognitions: each
	// runs two or three decodings for a moment, and a burst of browser
	// transcripts must not start them for every answer at once.
	select {
	case e.aligning <- struct{}{}:
		defer func() { <-e.aligning }()
	case <-ctx.Done():
		return forced, loop, decoderFailed(ctx, ctx.Err())
	}
	pool, err := e.decoders()
	if err != nil {
		return forced, loop, err
	}
	// The grammar is this alignment's own: a recording's live run keeps
	// one directory for all its steps, and a step being stopped may still
	// be writing there when the answer's Align starts.
	work, err := os.MkdirTemp(pc.dir, "align-")
	if err != nil {
		return forced, loop, fmt.Errorf("transcribe: align: %w", err)
	}
	defer os.RemoveAll(work)
	grammar := forcedGrammar(words, open)
	// A step of a recording still arriving waits behind the answers whose
	// students wait for their feedback.
	priority := sphinx.Awaited
	if open {
		priority = sphinx.Ahead
	}
	base := strings.TrimSuffix(pc.rawPath, ".raw")
	decodeWith := func(grammar string, r frameRange) (sphinx.Hyp, error) {
		end := r.to
		if r == (frameRange{}) {
			end = -1
		}
		return pool.Decode(ctx, sphinx.Request{Priority: priority, Grammar: grammar}, base, r.from, end)
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
	wg.Go(func() {
		if ownDictionary(dict, words) {
			forced, errs[0] = e.runOwnDecoder(ctx, pc, work, dict, words, grammar, r)
		} else {
			forced, errs[0] = decodeWith(grammar, r)
		}
	})
	for i, r := range pieces {
		wg.Go(func() { loops[i], errs[i+1] = decodeWith(phoneLoopGrammar, r) })
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

// alignReserved is how many of the aligner's decoders are kept for the
// alignments students wait for: an alignment's forced decoding and its
// phone loop's first piece.
const alignReserved = 2

// decoders are the aligner's pocketsphinx_batch workers, started on its
// first alignment: a grammar pool (sphinx.Options.Grammar) holding the
// acoustic model and Debian's whole dictionary with the phone loop's
// pseudo-words, so that an alignment loads neither (a decoder's start
// took longer than the answer's last seconds to align).
func (e *textAligner) decoders() (*sphinx.Pool, error) {
	e.poolOnce.Do(func() {
		dir, err := os.MkdirTemp(e.cfg.TempDir, "whitecoat-sphinx-align-")
		if err != nil {
			e.poolErr = fmt.Errorf("transcribe: aligner dir: %w", err)
			return
		}
		dictPath, loopPath := filepath.Join(dir, "align.dict"), filepath.Join(dir, "loop.fsg")
		if err := writeDecoderDictionary(e.cfg.Local.Dict, dictPath); err != nil {
			e.poolErr = err
		} else if err := os.WriteFile(loopPath, []byte(phoneLoopGrammar), 0o600); err != nil {
			e.poolErr = fmt.Errorf("transcribe: align: %w", err)
		}
		if e.poolErr != nil {
			os.RemoveAll(dir)
			return
		}
		e.poolDir = dir
		e.pool = sphinx.New(sphinx.Options{
			Batch: e.cfg.Local.Batch, HMM: e.cfg.Local.HMM, Grammar: loopPath, Dict: dictPath, Args: alignDecoderArgs,
			// The steps of recordings still arriving share Workers decoders;
			// alignReserved more wait, loaded, for the alignment a student
			// waits for, which would otherwise find them busy with steps or
			// just killed with one stopped for it (a decoder's start, with
			// the whole dictionary, costs more than the alignment).
			Workers: e.cfg.Local.Workers + alignReserved, Reserved: alignReserved,
			Memory: e.cfg.Local.WorkerMemory, Logger: e.logger.With("decoders", "align"),
		})
	})
	return e.pool, e.poolErr
}

// closeDecoders stops the aligner's decoders, for its engine's Close.
func (e *textAligner) closeDecoders() error {
	e.poolOnce.Do(func() { e.poolErr = sphinx.ErrClosed })
	if e.pool == nil {
		return nil
	}
	err := e.pool.Close()
	if rmErr := os.RemoveAll(e.poolDir); rmErr != nil {
		err = errors.Join(err, fmt.Errorf("transcribe: remove aligner dir: %w", rmErr))
	}
	return err
}

// writeDecoderDictionary writes Debian's dictionary with the phone loop's
// pseudo-words to path.
func writeDecoderDictionary(debian, path string) error {
	body, err := os.ReadFile(debian)
	if err != nil {
		return fmt.Errorf("transcribe: dictionary: %w (apt-get install pocketsphinx-en-us)", err)
	}
	var b bytes.Buffer
	b.Write(body)
	if len(body) > 0 && body[len(body)-1] != '\n' {
		b.WriteByte('\n')
	}
	for _, p := range alignPhones {
		fmt.Fprintf(&b, "%s %s\n", phoneWord(p), p)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
		return fmt.Errorf("transcribe: dictionary: %w", err)
	}
	return nil
}

// phoneWord is the phone loop's pseudo-word for a phone.
func phoneWord(phone string) string { return phoneLoopPrefix + strings.ToLower(phone) }

// ownDictionary reports whether the text has a word the decoders'
// dictionary lacks but its pieces spell ("teamwork"): its forced
// alignment needs a dictionary of its own.
func ownDictionary(dict pronunciations, words []alignWord) bool {
	for _, w := range words {
		if _, ok := dict[w.tok.word]; w.known && !ok {
			return true
		}
	}
	return false
}

// runOwnDecoder aligns frames r with the grammar in a pocketsphinx_batch
// of its own, whose dictionary holds the text's words (every
// pronunciation Debian's has, and those spelt from pieces), the
// hesitations and the phone loop's pseudo-words. The result's frames count
// from the answer's start.
func (e *textAligner) runOwnDecoder(ctx context.Context, pc *pcm, work string, dict pronunciations, words []alignWord, grammar string, r frameRange) (sphinx.Hyp, error) {
	var d strings.Builder
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
	for _, p := range alignPhones {
		entry(phoneWord(p), p)
	}
	for _, w := range words {
		if !w.known {
			continue
		}
		if ps, ok := dict[w.tok.word]; ok {
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
	}
	dictPath, grammarPath := filepath.Join(work, "own.dict"), filepath.Join(work, "forced.fsg")
	if err := os.WriteFile(dictPath, []byte(d.String()), 0o600); err != nil {
		return sphinx.Hyp{}, fmt.Errorf("transcribe: align: %w", err)
	}
	if err := os.WriteFile(grammarPath, []byte(grammar), 0o600); err != nil {
		return sphinx.Hyp{}, fmt.Errorf("transcribe: align: %w", err)
	}
	base := strings.TrimSuffix(rawName, ".raw")
	uttid, entryLine := base, base
	if r != (frameRange{}) {
		uttid = fmt.Sprintf("forced-%d", r.from)
		entryLine = fmt.Sprintf("%s %d %d %s", base, r.from, r.to, uttid)
	}
	out := filepath.Join(work, "forced.seg")
	ctl := filepath.Join(work, "forced.ctl")
	if err := os.WriteFile(ctl, []byte(entryLine+"\n"), 0o600); err != nil {
		return sphinx.Hyp{}, fmt.Errorf("transcribe: align: %w", err)
	}
	cmd, err := rlimit.Command(ctx, rlimit.Limits{Data: e.cfg.Local.WorkerMemory}, e.cfg.Local.Batch, append([]string{
		"-hmm", e.cfg.Local.HMM, "-dict", dictPath, "-fsg", grammarPath,
		"-adcin", "yes", "-cepext", ".raw", "-cepdir", pc.dir, "-ctl", ctl, "-hypseg", out,
		"-remove_silence", "no", "-logfn", os.DevNull}, alignDecoderArgs...)...)
	if err != nil {
		return sphinx.Hyp{}, err
	}
	if msg, err := cmd.CombinedOutput(); err != nil {
		return sphinx.Hyp{}, fmt.Errorf("transcribe: align: %w: %s", err, msg)
	}
	line, err := os.ReadFile(out)
	if err != nil {
		return sphinx.Hyp{}, fmt.Errorf("transcribe: align: %w", err)
	}
	hyp, err := sphinx.ParseHypseg(strings.TrimSpace(string(line)), uttid)
	for i := range hyp.Segs {
		hyp.Segs[i].Start += r.from
		hyp.Segs[i].End += r.from
	}
	return hyp, err
}

// fsg builds a grammar in pocketsphinx's FSG format: numbered states and
// transitions, each with its probability and a word (or none: a move that
// hears nothing).
type fsg struct {
	states int
	trans  strings.Builder
}

func (g *fsg) state() int { g.states++; return g.states - 1 }

func (g *fsg) move(from, to int, prob float64, word string) {
	fmt.Fprintf(&g.trans, "TRANSITION %d %d %g", from, to, prob)
	if word != "" {
		g.trans.WriteString(" " + word)
	}
	g.trans.WriteByte('\n')
}

// phones lets any phones, one or more, lead from one state to another,
// through states of their own as a JSGF grammar's "( … )+" compiles: a
// phone, then an empty move back for the next or on.
func (g *fsg) phones(from, to int) {
	entry, exit := g.state(), g.state()
	g.move(from, entry, 1, "")
	for _, p := range alignPhones {
		g.move(entry, exit, 1, phoneWord(p))
	}
	g.move(exit, entry, 1, "")
	g.move(exit, to, 1, "")
}

func (g *fsg) String(name string, start, final int) string {
	return fmt.Sprintf("FSG_BEGIN %s\nNUM_STATES %d\nSTART_STATE %d\nFINAL_STATE %d\n%sFSG_END\n", name, g.states, start, final, g.trans.String())
}

// forcedGrammar is the text's words in order with an optional hesitation
// before, between and after them (see noHesitation), any phones for a word
// the dictionary lacks, and, when open, any phones after them: speech the
// text does not hold yet.
func forcedGrammar(words []alignWord, open bool) string {
	var g fsg
	start := g.state()
	at := start
	hesitation := func() {
		next := g.state()
		g.move(at, next, fsgProb(noHesitation), "")
		for _, h := range alignHesitations {
			g.move(at, next, 1, h)
		}
		at = next
	}
	hesitation()
	for _, w := range words {
		next := g.state()
		if w.known {
			g.move(at, next, 1, w.tok.word)
		} else {
			g.phones(at, next)
		}
		at = next
		hesitation()
	}
	if open {
		next := g.state()
		g.move(at, next, 1, "")
		g.phones(at, next)
		at = next
	}
	return g.String("forced", start, at)
}

// phoneLoopGrammar is any phones, or none.
var phoneLoopGrammar = func() string {
	var g fsg
	start, final := g.state(), g.state()
	g.move(start, final, 1, "")
	g.phones(start, final)
	return g.String("loop", start, final)
}()

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
