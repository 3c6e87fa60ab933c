// Package transcribe turns one recorded interview answer into text with word
// timings, and measures how it was spoken.
//
// Two engines implement Engine: the local engine (Debian's pocketsphinx, works
// offline, the default) and an engine for any OpenAI-compatible
// /audio/transcriptions endpoint. Both decode the upload with ffmpeg first, so
// a bad file is rejected the same way whichever engine is configured, and the
// remote service never receives more than the answer limit allows.
package transcribe

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"time"

	"github.com/whitecoat/whitecoat/internal/transcribe/sphinx"
)

// Engine transcribes one answer. Implementations are safe for concurrent use.
type Engine interface {
	Transcribe(ctx context.Context, in Audio) (Result, error)
	// Name identifies the engine in results and logs, e.g. "local" or "openai:whisper-1".
	Name() string
	// Close releases long-lived resources (the local engine's decoder processes).
	Close() error
	// SweepTemp removes the per-answer working directories older than age
	// that a crashed process left in the engine's temporary directory, and
	// nothing the running engine still uses.
	SweepTemp(age time.Duration) (removed int, err error)
}

// Incremental is implemented by engines that can work on a recording while
// the student is still making it, so that little is left to do when it ends.
type Incremental interface {
	Engine
	// Advance recognises the growing recording in beyond p, up to a pause
	// near its end, and returns the extended progress; p itself when too
	// little has been added to be worth a decoder's time.
	Advance(ctx context.Context, in Audio, p Progress) (Progress, error)
	// FirstStep is how much sound a recording must hold before Advance can
	// recognise any of it. A caller that knows how long the recording has
	// been going need not call before then: the call could only measure.
	FirstStep() time.Duration
	// Finish transcribes the complete recording in, recognising only what p
	// does not already cover. Finish with an empty Progress is Transcribe.
	Finish(ctx context.Context, in Audio, p Progress) (Result, error)
}

// Aligner is implemented by engines that can place a given text on the
// recording: each of the text's words with its times and a confidence from
// how well the audio supports it, pauses and hesitations heard between
// them. The pipeline uses it when the student's browser recognised the
// answer (issue 39); engines without it transcribe the recording as usual.
//
// While a recording arrives, AdvanceAlign places what the browser has heard
// of it so far, up to a pause a few words before that text's end, so that
// when the recording ends Align is left with its last few seconds: the
// student waits no longer than for the server's own recognition.
type Aligner interface {
	// AdvanceAlign places text, what the browser heard of the growing
	// recording in so far, beyond p; p itself when too little was added
	// to be worth a decoder's time, or a fresh start when text does not
	// begin with the words p placed (the browser changed its mind).
	AdvanceAlign(ctx context.Context, in Audio, text string, p AlignProgress) (AlignProgress, error)
	// Align places text on the complete recording in, beyond the words p
	// placed when text begins with them (all of it otherwise).
	Align(ctx context.Context, in Audio, text string, p AlignProgress) (Result, error)
}

// AlignProgress is what AdvanceAlign placed of a recording still arriving:
// the first Tokens words of the browser's text (hesitations it heard
// between them among Words), covering the recording up to Until seconds.
type AlignProgress struct {
	Words  []Word  `json:"words"`
	Until  float64 `json:"until"`
	Tokens int     `json:"tokens"`
}

// AsAligner is engine's Aligner, looking through wrappers (an engine with
// an Unwrap method, such as the metrics' timing) to the engine they wrap.
func AsAligner(engine Engine) (Aligner, bool) {
	for engine != nil {
		if a, ok := engine.(Aligner); ok {
			return a, true
		}
		w, ok := engine.(interface{ Unwrap() Engine })
		if !ok {
			return nil, false
		}
		engine = w.Unwrap()
	}
	return nil, false
}

// LoadAdaptive is implemented by engines that recognise with a cheaper
// search while the box is short of CPU (the local engine), so that
// operators can see how often that happens.
type LoadAdaptive interface {
	// SpeechBySearch is how much audio each search, by name, has
	// recognised since the engine started.
	SpeechBySearch() map[string]time.Duration
	// DecoderWaits is how long recognition waited for a decoder, by the
	// priority of its request (a student's finished answer, a recording
	// still arriving, spare work), since the engine started.
	DecoderWaits() map[string]sphinx.Waits
}

// Progress is what has been recognised of a recording still being made: the
// words before Until seconds, a pause where it could be cut, and the
// engine's choices about the speaker that the rest should follow.
type Progress struct {
	Words []Word  `json:"words"`
	Until float64 `json:"until"`
	// Warp is the local engine's voice scaling factor (see warp.go); 0
	// before it is chosen. A caller that knows the speaker's factor (from
	// their earlier answers) may start a recording with it, Until 0 and no
	// words: the engine then uses it instead of probing.
	Warp float64 `json:"warp,omitempty"`
	// Probed reports that the engine chose Warp on this recording, rather
	// than being given it.
	Probed bool `json:"probed,omitempty"`
	// DecodedBytes and DecodedSeconds are what the last decode of the
	// recording found: so many bytes held so many seconds of sound. From
	// them the next step tells, by the file's size alone, whether enough
	// has arrived to recognise, without starting the decoder for nothing.
	DecodedBytes   int64   `json:"decodedBytes,omitempty"`
	DecodedSeconds float64 `json:"decodedSeconds,omitempty"`
	// Aligned is what the browser's text heard so far placed on the
	// recording (Aligner.AdvanceAlign), for a student heard by their
	// browser; the recognition above goes on beside it, for when the
	// recording does not support that text.
	Aligned AlignProgress `json:"aligned,omitzero"`
}

// Learned reports whether q knows more about the recording than p: a step
// recognised more of it, or a decode measured it again. A caller keeps q
// only then.
func (q Progress) Learned(p Progress) bool {
	return q.Until != p.Until || q.DecodedBytes != p.DecodedBytes || q.Aligned.Until != p.Aligned.Until || q.Aligned.Tokens != p.Aligned.Tokens
}

// Audio is one uploaded recording. Exactly one of Path and Reader is set.
// MIMEType is the client's claim; it is only used to refuse uploads that are
// not even claimed to be audio or video, the container is decided from the
// bytes themselves.
type Audio struct {
	Path     string
	Reader   io.Reader
	MIMEType string
	// Limit is the answer's own time limit when it differs from the
	// engine's AnswerLimit (an MMI station runs longer than 3 minutes);
	// audio past it and the margin is not decoded. 0 means AnswerLimit.
	Limit time.Duration
	// Spare marks recognition no student waits for (a visitor's try):
	// the local engine decodes it only on idle decoders, one piece at a
	// time, after every student's answer; and with either engine its
	// ffmpeg runs at the lowest priority, under a CPU limit of its own
	// (spareDecodeCPU), reading no more of the recording than its limit.
	Spare bool
}

// Word is one recognised word with its position in the recording, in seconds.
type Word struct {
	Word  string  `json:"word"`
	Start float64 `json:"start"`
	End   float64 `json:"end"`
	// Confidence is how sure the engine is that the word was said, 0 to 1
	// (low: likely misheard); null when the engine gives no measure of it.
	// The local engine's is the word's posterior in the decoder's lattice,
	// an OpenAI-compatible engine's the probability its server reports.
	Confidence *float64 `json:"confidence"`
}

// confidence is a measure in [0, 1] as a Word's Confidence, rounded to
// what a reader can use.
func confidence(p float64) *float64 {
	c := math.Round(min(max(p, 0), 1)*1000) / 1000
	return &c
}

// Result is an engine's transcript of one answer.
type Result struct {
	Text string `json:"text"`
	// Words is empty when the engine gives no word timings.
	Words           []Word  `json:"words"`
	DurationSeconds float64 `json:"durationSeconds"`
	Engine          string  `json:"engine"`
	// Truncated reports that the recording ran past the duration cap and only
	// its beginning was transcribed.
	Truncated bool `json:"truncated,omitempty"`
	// VerbatimFillers reports that the engine writes hesitations ("um", "uh")
	// into the transcript. Whisper-style engines mostly drop them.
	VerbatimFillers bool `json:"verbatimFillers"`
	// Warp is the voice scaling factor the local engine recognised the
	// answer at (0: the engine has none, or the answer no speech), and
	// WarpProbed whether it chose that factor on this answer (see
	// warp.go) rather than taking the one it was given.
	Warp       float64 `json:"warp,omitempty"`
	WarpProbed bool    `json:"warpProbed,omitempty"`
	// WordConfidence says where the words' Confidence comes from, one of
	// the Confidence* constants: ConfidenceNone when the engine gave none,
	// and every word's Confidence is null.
	WordConfidence string `json:"wordConfidence"`
	// Source is whose words Text holds, one of the Source* constants:
	// empty (SourceRecognised) unless the engine aligned a given text.
	Source string `json:"source,omitempty"`
}

// Whose words a transcript holds (Result.Source, Metrics.Source).
const (
	// SourceRecognised: the engine recognised the recording.
	SourceRecognised = "recognised"
	// SourceAligned: a text given with the recording (the student's
	// browser heard it), lined up with the audio by an Aligner.
	SourceAligned = "aligned"
	// SourceRecognisedInstead: a text was given, but the recording did not
	// support it (or the engine cannot align), so the engine recognised
	// the recording; the student is told.
	SourceRecognisedInstead = "recognisedInstead"
)

// Where a Result's word confidences come from.
const (
	// ConfidenceLattice: the local decoder's posterior of each word in its
	// word lattice.
	ConfidenceLattice = "lattice"
	// ConfidenceWord: the remote server's probability of each word.
	ConfidenceWord = "word"
	// ConfidenceSegment: the remote server gave none per word; each word
	// has its segment's mean token probability times the probability that
	// the segment holds speech, so words of one segment share it.
	ConfidenceSegment = "segment"
	// ConfidenceNone: the engine gave no measure; no word has one.
	ConfidenceNone = "none"
)

var (
	// ErrBadAudio marks the user's problem: the upload is not a recording we
	// accept, is damaged, or holds no audio. The Error's Message says which.
	ErrBadAudio = errors.New("bad or empty audio")
	// ErrUnavailable marks a failure of the engine itself (missing binary,
	// crashed decoder, unreachable or overloaded API, timeout): retry later.
	ErrUnavailable = errors.New("speech engine unavailable")
)

// Error carries a kind (ErrBadAudio or ErrUnavailable), a message that is safe
// to show to the user, and the underlying cause for the logs.
type Error struct {
	Kind    error
	Message string
	Err     error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("transcribe: %s: %v", e.Message, e.Err)
	}
	return "transcribe: " + e.Message
}

func (e *Error) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.Err}
}

// UserMessage returns the message to show the user for err: the specific
// reason for bad audio or a transcript the recording did not support, a
// generic retry hint otherwise.
func UserMessage(err error) string {
	var te *Error
	if errors.As(err, &te) && (errors.Is(te.Kind, ErrBadAudio) || errors.Is(te.Kind, ErrTextUnsupported)) {
		return te.Message
	}
	return "Transcription is temporarily unavailable. Please try again."
}

func badAudio(msg string, cause error) error {
	return &Error{Kind: ErrBadAudio, Message: msg, Err: cause}
}

func unavailable(msg string, cause error) error {
	return &Error{Kind: ErrUnavailable, Message: msg, Err: cause}
}

// New builds the engine cfg.Engine names.
func New(cfg Config, logger *slog.Logger) (Engine, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	switch cfg.Engine {
	case EngineLocal:
		e, err := newLocal(cfg, logger.With("engine", EngineLocal))
		if err != nil {
			return nil, err
		}
		return e, nil
	case EngineOpenAI:
		e := newOpenAI(cfg, logger.With("engine", EngineOpenAI))
		if !cfg.OpenAI.Align {
			return e, nil
		}
		if !alignerInstalled(cfg) {
			logger.Warn("transcribe: pocketsphinx is not installed: browser transcripts are not aligned, and answers have no word times where the service gives none")
			return e, nil
		}
		return &alignedOpenAI{openaiEngine: e, textAligner: newTextAligner(cfg, logger.With("engine", "align"))}, nil
	}
	return nil, fmt.Errorf("transcribe: unknown engine %q", cfg.Engine)
}

// Check reports whether the configured engine can work on this machine, and
// if not, why. It is what `whitecoat doctor` prints.
func Check(ctx context.Context, cfg Config) error {
	if err := cfg.validate(); err != nil {
		return err
	}
	if err := checkFFmpeg(ctx, cfg); err != nil {
		return err
	}
	switch cfg.Engine {
	case EngineLocal:
		return checkLocal(ctx, cfg)
	case EngineOpenAI:
		return checkOpenAI(ctx, cfg)
	}
	return fmt.Errorf("transcribe: unknown engine %q", cfg.Engine)
}
