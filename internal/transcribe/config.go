package transcribe

import (
	"fmt"
	"net/url"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/whitecoat/whitecoat/internal/transcribe/rlimit"
)

// Engine names accepted in Config.Engine (env SPEECH_ENGINE).
const (
	EngineLocal  = "local"
	EngineOpenAI = "openai"
)

// AnswerLimit is the spec's recording limit per answer.
const AnswerLimit = 3 * time.Minute

// Config selects and tunes an engine. Start from DefaultConfig.
type Config struct {
	// Engine is EngineLocal or EngineOpenAI.
	Engine string
	// AnswerLimit is the longest answer the product records; metrics report
	// the share of it used. Tests of the practice flow shorten it.
	AnswerLimit time.Duration
	// DurationMargin is how far past AnswerLimit audio is still decoded: the
	// browser stops at the limit, but encoders pad and clocks drift.
	DurationMargin time.Duration
	// TempDir is where private per-answer directories are made ("" = os.TempDir()).
	TempDir string
	// MaxInputBytes refuses larger uploads before they are copied to disk.
	MaxInputBytes int64
	// FFmpeg is the ffmpeg binary (a name looked up in PATH, or a path).
	FFmpeg string
	// DecodeTimeout bounds one ffmpeg run, in wall-clock and in CPU time.
	DecodeTimeout time.Duration
	// DecodeMemory caps what one ffmpeg run may allocate (its RLIMIT_DATA).
	// A file as small as 57 KB can declare 50 million samples, whose index
	// ffmpeg allocates up front: 1.2 GB. Decoding an answer needs about 50
	// MB, and ffmpeg's shared libraries add about 45 MB resident on top of
	// the limit, so one decode stays under 256 MB.
	DecodeMemory int64

	Local  LocalConfig
	OpenAI OpenAIConfig
}

// LocalConfig configures the pocketsphinx engine.
type LocalConfig struct {
	// Batch is pocketsphinx_batch, kept running as a decoder worker so the
	// model is loaded once per worker rather than once per answer.
	Batch string
	// HMM, LM and Dict are the acoustic model directory, the n-gram language
	// model and the pronunciation dictionary (Debian's pocketsphinx-en-us).
	HMM  string
	LM   string
	Dict string
	// Vocabulary is how many of the most probable general English words the
	// decoder searches, besides health-profession terms (see vocab.go);
	// 0 searches Debian's whole dictionary as it is (the hesitations'
	// look-alikes too, see writeDictionary). At most MaxVocabulary.
	Vocabulary int
	// AudioFilter is an ffmpeg filter chain applied before recognition, for
	// installations with noisy microphones (e.g. "afftdn"). Off by default:
	// the FFT denoiser gained 1.1 points of WER on the noisier development
	// clips but lost 0.9 on the benchmark's cleaner ones.
	AudioFilter string
	// Workers is the number of decoder processes (each holds ~120 MB).
	Workers int
	// WorkerMemory caps what one decoder process may allocate (its
	// RLIMIT_DATA). A worker holds 105 MB with the model loaded, and 140 MB
	// while decoding a whole 3-minute answer in one piece (answers are cut
	// into pieces of at most 40 s).
	WorkerMemory int64
	// RecognizeTimeout bounds the decoding of one answer.
	RecognizeTimeout time.Duration
	// Args are extra pocketsphinx options appended after the defaults.
	Args []string
	// QuickArgs replace Args while the box is short of CPU: a step of
	// recognition that starts while requests already wait for a decoder
	// searches with these (see localEngine.search). nil: always Args.
	QuickArgs []string
}

// OpenAIConfig configures the OpenAI-compatible engine.
type OpenAIConfig struct {
	// BaseURL ends before /audio/transcriptions, e.g. https://api.openai.com/v1.
	BaseURL string
	APIKey  string
	Model   string
	// Language is an ISO-639-1 hint; "" lets the server detect it.
	Language string
	// Prompt nudges Whisper-style models to keep hesitations in the text.
	Prompt string
	// Timeout bounds one HTTP attempt.
	Timeout time.Duration
	// MaxRetries is how many times a 429, 5xx or network failure is retried.
	MaxRetries int
	// RetryBackoff is the first wait between attempts; it doubles each time.
	RetryBackoff time.Duration
	// Align lines a given text (a student's browser transcript), and the
	// service's own where it gives no word times, up with the recording
	// using pocketsphinx, when it is installed (see alignedOpenAI).
	Align bool
}

const debianModel = "/usr/share/pocketsphinx/model/en-us"

// The decoder's options, chosen on development clips kept apart from the
// benchmark (bench/transcribe/dev/README.md).
var (
	// sharedSearchArgs serve both searches. topn 2: fewer Gaussians per
	// frame; maxhmmpf 1500: a tighter first pass (with the voice scaling
	// of warp.go it lost nothing against 2000 and saves 4% CPU); lw 5.5: a
	// little less weight on the language model in it; maxwpf 10: fewer
	// word exits per frame, at no cost in words. pip 0.5 and fillprob
	// 1e-4: cheaper phones and fillers, a small gain each. (The model's
	// feat.params fixes batch CMN without variance normalisation: -cmn
	// and -varnorm on the command line change nothing.) ascale 2: the
	// word posteriors that are the words' confidence weigh the acoustic
	// scores ten times more than by default (20), which ranks misheard
	// words lower on the real recordings (AUROC 0.718 against 0.672;
	// 5: 0.694, 1: 0.688); it changes only the posteriors, not the words.
	sharedSearchArgs = []string{"-topn", "2", "-maxhmmpf", "1500", "-lw", "5.5", "-maxwpf", "10", "-pip", "0.5", "-fillprob", "1e-4",
		"-ascale", "2"}
	// thoroughSearchArgs add the second, flat-lexicon pass (fwdflat, on by
	// default), which fixed more words than any other option; fwdflatlw
	// 7.5 weighs the language model there, fwdflatsfwin 15 keeps it cheap
	// at no cost in words.
	thoroughSearchArgs = []string{"-fwdflatlw", "7.5", "-fwdflatsfwin", "15"}
	// quickSearchArgs leave the second pass out, a third of the CPU, and
	// narrow the first pass's word-exit and last-phone beams, which cost
	// no words on the development clips.
	quickSearchArgs = []string{"-fwdflat", "no", "-wbeam", "1e-25", "-lpbeam", "1e-35"}
)

// DefaultConfig is the offline local engine with Debian's paths.
func DefaultConfig() Config {
	return Config{
		Engine:         EngineLocal,
		AnswerLimit:    AnswerLimit,
		DurationMargin: 15 * time.Second,
		MaxInputBytes:  512 << 20,
		FFmpeg:         "ffmpeg",
		DecodeTimeout:  60 * time.Second,
		DecodeMemory:   192 << 20,
		Local: LocalConfig{
			Batch: "pocketsphinx_batch",
			HMM:   debianModel + "/en-us",
			LM:    debianModel + "/en-us.lm.bin",
			Dict:  debianModel + "/cmudict-en-us.dict",
			// 30,000 stays (issue 29): every word of the model
			// (MaxVocabulary) made 10 errors instead of 17 on the real
			// recordings' tuning part, but festival's kal_diphone voice
			// made 337 instead of 293 and JFK's held-out speech 12
			// instead of 6 (bench/transcribe/real/README.md).
			Vocabulary:       30000,
			Workers:          runtime.NumCPU(),
			WorkerMemory:     256 << 20,
			RecognizeTimeout: 120 * time.Second,
			Args:             slices.Concat(sharedSearchArgs, thoroughSearchArgs),
			QuickArgs:        slices.Concat(sharedSearchArgs, quickSearchArgs),
		},
		OpenAI: OpenAIConfig{
			BaseURL:      "https://api.openai.com/v1",
			Model:        "whisper-1",
			Language:     "en",
			Prompt:       "Umm, let me think, like, hmm... Okay, so, uh, here's what I'm, you know, thinking.",
			Timeout:      90 * time.Second,
			MaxRetries:   3,
			RetryBackoff: time.Second,
			Align:        true,
		},
	}
}

// spareDecodeCPU bounds the CPU of one ffmpeg run on spare work (see
// Audio.Spare: a visitor's try, at most two minutes). Decoding two minutes
// of Opus with its scaled copy takes about 0.3 s of CPU on the 2-core
// development machine: 5 s leaves a slow machine room, while a hostile
// recording can take a student's answer little.
const spareDecodeCPU = 5 * time.Second

// spareNice is the priority spare work's ffmpeg runs at: the lowest, so it
// runs on what students' answers leave of the processors.
const spareNice = 19

// decoderLimits are what one ffmpeg run may use; spare is for spare work.
func (c Config) decoderLimits(spare bool) rlimit.Limits {
	l := rlimit.Limits{Data: c.DecodeMemory, CPU: c.DecodeTimeout}
	if spare {
		l.CPU, l.Nice = min(l.CPU, spareDecodeCPU), spareNice
	}
	return l
}

// MaxDuration is the longest stretch of audio that is decoded.
func (c Config) MaxDuration() time.Duration { return c.AnswerLimit + c.DurationMargin }

func (c Config) validate() error {
	switch {
	case c.Engine != EngineLocal && c.Engine != EngineOpenAI:
		return fmt.Errorf("transcribe: engine %q: want %q or %q", c.Engine, EngineLocal, EngineOpenAI)
	case c.AnswerLimit <= 0 || c.DurationMargin < 0:
		return fmt.Errorf("transcribe: answer limit %v and margin %v must be positive", c.AnswerLimit, c.DurationMargin)
	case c.MaxInputBytes <= 0 || c.DecodeTimeout <= 0 || c.DecodeMemory <= 0:
		return fmt.Errorf("transcribe: max input bytes, decode timeout and decode memory must be positive")
	case strings.ContainsAny(c.TempDir, " \t\n"):
		// pocketsphinx_batch splits its control lines on white space.
		return fmt.Errorf("transcribe: temp dir %q must not contain white space", c.TempDir)
	}
	if c.Engine == EngineLocal && (c.Local.Workers < 1 || c.Local.WorkerMemory <= 0 || c.Local.RecognizeTimeout <= 0 || c.Local.Vocabulary < 0 || c.Local.Vocabulary > MaxVocabulary) {
		return fmt.Errorf("transcribe: local engine needs at least one worker, a worker memory limit, a timeout and a vocabulary of 0-%d words", MaxVocabulary)
	}
	if c.Engine == EngineOpenAI {
		u, err := url.Parse(c.OpenAI.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("transcribe: OpenAI base URL %q is not an http(s) URL", c.OpenAI.BaseURL)
		}
		if c.OpenAI.Model == "" || c.OpenAI.Timeout <= 0 || c.OpenAI.MaxRetries < 0 {
			return fmt.Errorf("transcribe: OpenAI engine needs a model, a timeout and a retry count >= 0")
		}
	}
	return nil
}
