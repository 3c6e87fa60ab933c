package transcribe

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"strconv"
	"strings"
	"time"
)

// maxRetryAfter caps how long a server's Retry-After can hold an answer back.
const maxRetryAfter = 30 * time.Second

// openaiEngine calls POST {base}/audio/transcriptions, the protocol of
// OpenAI's Whisper API that self-hosted Whisper servers also speak. It sends
// the answer as 16 kHz mono WAV decoded by ffmpeg rather than the upload:
// a video answer would exceed the 25 MB request limit, and bad files are
// refused here instead of being paid for.
type openaiEngine struct {
	cfg    Config
	logger *slog.Logger
	client *http.Client
}

func newOpenAI(cfg Config, logger *slog.Logger) *openaiEngine {
	return &openaiEngine{cfg: cfg, logger: logger, client: &http.Client{}}
}

func (e *openaiEngine) Name() string { return EngineOpenAI + ":" + e.cfg.OpenAI.Model }

func (e *openaiEngine) SweepTemp(age time.Duration) (int, error) { return sweepTemp(e.cfg, age) }

func (e *openaiEngine) Close() error {
	e.client.CloseIdleConnections()
	return nil
}

// APIError is a non-success answer from the transcription service.
type APIError struct {
	StatusCode int
	Message    string
}

func (e *APIError) Error() string {
	hint := ""
	switch e.StatusCode {
	case http.StatusUnauthorized, http.StatusForbidden:
		hint = " (check SPEECH_OPENAI_API_KEY)"
	case http.StatusNotFound:
		hint = " (check SPEECH_OPENAI_BASE_URL and SPEECH_OPENAI_MODEL)"
	}
	return fmt.Sprintf("service answered %d: %s%s", e.StatusCode, e.Message, hint)
}

// Retryable reports whether trying again later can succeed.
func (e *APIError) Retryable() bool {
	return e.StatusCode == http.StatusTooManyRequests || e.StatusCode >= 500
}

func (e *openaiEngine) Transcribe(ctx context.Context, in Audio) (Result, error) {
	// No denoising: Whisper-style models are trained on noisy audio.
	p, err := decode(ctx, e.cfg, e.logger, in, decodeOptions{})
	if err != nil {
		return Result{}, err
	}
	defer func() {
		if err := p.cleanup(); err != nil {
			e.logger.Error("transcribe: cleanup", "err", err)
		}
	}()
	res := Result{Engine: e.Name(), DurationSeconds: p.seconds(), Truncated: p.truncated, Words: []Word{}, WordConfidence: ConfidenceNone}
	if !hasSpeech(frameLevels(p.samples)) {
		// Whisper invents "Thank you." for silence; don't pay for that.
		return res, nil
	}
	wav := wavFile(p.samples)
	body, err := e.request(ctx, wav, true)
	var apiErr *APIError
	if errors.As(err, &apiErr) && apiErr.StatusCode == http.StatusBadRequest &&
		(strings.Contains(apiErr.Message, "response_format") || strings.Contains(apiErr.Message, "timestamp_granularities")) {
		// Some models and servers have no verbose_json: settle for text alone.
		e.logger.Info("transcribe: server has no word timestamps, retrying with json", "model", e.cfg.OpenAI.Model)
		body, err = e.request(ctx, wav, false)
	}
	if err != nil {
		return Result{}, err
	}
	var out verboseTranscript
	if err := json.Unmarshal(body, &out); err != nil {
		return Result{}, unavailable("the transcription service sent an unreadable answer", err)
	}
	res.Text = strings.TrimSpace(out.Text)
	res.Words, res.WordConfidence = out.words()
	return res, nil
}

// alignedOpenAI is the Whisper-compatible engine with pocketsphinx beside
// it: a browser's transcript is aligned to the recording as the local
// engine aligns it, and where the service gives no word times (a server
// without verbose_json) its own text is aligned for them, so pauses,
// pace and hesitations are measured from the audio all the same.
type alignedOpenAI struct {
	*openaiEngine
	*textAligner // Align and AdvanceAlign
}

func (e *alignedOpenAI) SweepTemp(age time.Duration) (int, error) {
	e.live.sweep(e.textAligner.logger)
	return e.openaiEngine.SweepTemp(age)
}

func (e *alignedOpenAI) Close() error {
	e.live.endAll(e.textAligner.logger)
	return e.openaiEngine.Close()
}

func (e *alignedOpenAI) Transcribe(ctx context.Context, in Audio) (Result, error) {
	res, err := e.openaiEngine.Transcribe(ctx, in)
	if err != nil || len(res.Words) > 0 || strings.TrimSpace(res.Text) == "" {
		return res, err
	}
	aligned, err := e.textAligner.Align(ctx, in, res.Text, AlignProgress{})
	if err != nil {
		// The service's text stands, without times.
		e.openaiEngine.logger.Info("transcribe: could not align the service's text for word times", "err", err)
		return res, nil
	}
	res.Text, res.Words, res.WordConfidence, res.VerbatimFillers = aligned.Text, aligned.Words, aligned.WordConfidence, aligned.VerbatimFillers
	return res, nil
}

// verboseTranscript is a verbose_json answer: OpenAI's words carry only
// timings and its segments the decoder's average token log-probability
// and the probability that they hold no speech; servers built on
// faster-whisper or whisper.cpp also give each word its probability.
type verboseTranscript struct {
	Text  string `json:"text"`
	Words []struct {
		Word        string   `json:"word"`
		Start       float64  `json:"start"`
		End         float64  `json:"end"`
		Probability *float64 `json:"probability"`
	} `json:"words"`
	Segments []struct {
		Start        float64  `json:"start"`
		End          float64  `json:"end"`
		AvgLogprob   *float64 `json:"avg_logprob"`
		NoSpeechProb float64  `json:"no_speech_prob"`
	} `json:"segments"`
}

// words are the answer's words with the server's confidence in each, and
// where it came from: the word's own probability; else the segment's that
// holds the word, its mean token probability exp(avg_logprob) times the
// probability that it holds speech at all; else none (nil, and
// ConfidenceNone).
func (v verboseTranscript) words() ([]Word, string) {
	words := make([]Word, 0, len(v.Words))
	source := ConfidenceWord
	for _, w := range v.Words {
		word := Word{Word: strings.TrimSpace(w.Word), Start: w.Start, End: w.End}
		if w.Probability != nil {
			word.Confidence = confidence(*w.Probability)
		} else {
			source = ConfidenceSegment
			word.Confidence = v.segmentConfidence(w.Start, w.End)
			if word.Confidence == nil {
				source = ConfidenceNone
			}
		}
		words = append(words, word)
	}
	if source == ConfidenceNone || len(words) == 0 {
		for i := range words {
			words[i].Confidence = nil
		}
		return words, ConfidenceNone
	}
	return words, source
}

// segmentConfidence is the confidence of the segment that holds the
// middle of the word [start, end]; nil when none does or it has no
// log-probability.
func (v verboseTranscript) segmentConfidence(start, end float64) *float64 {
	mid := (start + end) / 2
	for _, seg := range v.Segments {
		if seg.AvgLogprob != nil && seg.Start <= mid && mid <= seg.End {
			return confidence(math.Exp(*seg.AvgLogprob) * (1 - seg.NoSpeechProb))
		}
	}
	return nil
}

func (e *openaiEngine) request(ctx context.Context, wav []byte, verbose bool) ([]byte, error) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	h := make(textproto.MIMEHeader)
	h.Set("Content-Disposition", `form-data; name="file"; filename="answer.wav"`)
	h.Set("Content-Type", "audio/wav")
	fw, err := mw.CreatePart(h)
	if err != nil {
		return nil, fmt.Errorf("transcribe: openai: build request: %w", err)
	}
	fw.Write(wav)
	fields := [][2]string{{"model", e.cfg.OpenAI.Model}, {"response_format", "json"}}
	if verbose {
		// Segments carry the log-probabilities that word confidence falls
		// back on; asking for words alone leaves them out.
		fields = [][2]string{{"model", e.cfg.OpenAI.Model}, {"response_format", "verbose_json"},
			{"timestamp_granularities[]", "word"}, {"timestamp_granularities[]", "segment"}}
	}
	if e.cfg.OpenAI.Language != "" {
		fields = append(fields, [2]string{"language", e.cfg.OpenAI.Language})
	}
	if e.cfg.OpenAI.Prompt != "" {
		fields = append(fields, [2]string{"prompt", e.cfg.OpenAI.Prompt})
	}
	for _, f := range fields {
		if err := mw.WriteField(f[0], f[1]); err != nil {
			return nil, fmt.Errorf("transcribe: openai: build request: %w", err)
		}
	}
	if err := mw.Close(); err != nil {
		return nil, fmt.Errorf("transcribe: openai: build request: %w", err)
	}

	backoff := e.cfg.OpenAI.RetryBackoff
	for attempt := 0; ; attempt++ {
		body, retryAfter, err := e.attempt(ctx, buf.Bytes(), mw.FormDataContentType())
		if err == nil {
			return body, nil
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("transcribe: openai: %w", ctx.Err())
		}
		var apiErr *APIError
		if errors.As(err, &apiErr) && !apiErr.Retryable() {
			return nil, fmt.Errorf("transcribe: openai: %w", err)
		}
		if attempt >= e.cfg.OpenAI.MaxRetries {
			return nil, unavailable("the transcription service is unavailable", err)
		}
		wait := backoff + rand.N(backoff/2+1) // jitter keeps workers from retrying in step
		if retryAfter > 0 {
			wait = min(retryAfter, maxRetryAfter)
		}
		e.logger.Warn("transcribe: openai attempt failed, retrying", "attempt", attempt+1, "wait", wait, "err", err)
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return nil, fmt.Errorf("transcribe: openai: %w", ctx.Err())
		}
		backoff *= 2
	}
}

// attempt makes one HTTP call; retryAfter is the server's Retry-After, if any.
func (e *openaiEngine) attempt(ctx context.Context, body []byte, contentType string) (_ []byte, retryAfter time.Duration, _ error) {
	ctx, cancel := context.WithTimeout(ctx, e.cfg.OpenAI.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(e.cfg.OpenAI.BaseURL, "/")+"/audio/transcriptions", bytes.NewReader(body))
	if err != nil {
		return nil, 0, err
	}
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Accept", "application/json")
	if e.cfg.OpenAI.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+e.cfg.OpenAI.APIKey)
	}
	resp, err := e.client.Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return nil, 0, err
	}
	if resp.StatusCode == http.StatusOK {
		return data, 0, nil
	}
	if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 {
		retryAfter = time.Duration(s) * time.Second
	}
	return nil, retryAfter, &APIError{StatusCode: resp.StatusCode, Message: errorMessage(data)}
}

// errorMessage extracts OpenAI's {"error":{"message":...}}, or a short
// excerpt of whatever else a compatible server sent.
func errorMessage(body []byte) string {
	var e struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &e) == nil && e.Error.Message != "" {
		return e.Error.Message
	}
	s := strings.TrimSpace(string(body))
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	if s == "" {
		s = "(empty body)"
	}
	return s
}

// wavFile wraps samples in a canonical 44-byte WAV header.
func wavFile(samples []int16) []byte {
	data := 2 * len(samples)
	buf := bytes.NewBuffer(make([]byte, 0, 44+data))
	le := binary.LittleEndian
	buf.WriteString("RIFF")
	binary.Write(buf, le, uint32(36+data))
	buf.WriteString("WAVEfmt ")
	// PCM format chunk: size 16, format 1 (PCM), mono, rate, byte rate, block align, bits.
	for _, v := range []any{uint32(16), uint16(1), uint16(1), uint32(sampleRate), uint32(2 * sampleRate), uint16(2), uint16(16)} {
		binary.Write(buf, le, v)
	}
	buf.WriteString("data")
	binary.Write(buf, le, uint32(data))
	binary.Write(buf, le, samples)
	return buf.Bytes()
}

func checkOpenAI(ctx context.Context, cfg Config) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(cfg.OpenAI.BaseURL, "/")+"/models", nil)
	if err != nil {
		return fmt.Errorf("transcribe: openai check: %w", err)
	}
	if cfg.OpenAI.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+cfg.OpenAI.APIKey)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("transcribe: %s unreachable: %w", cfg.OpenAI.BaseURL, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	switch {
	case resp.StatusCode == http.StatusOK:
		return nil
	case resp.StatusCode == http.StatusNotFound:
		// Self-hosted servers often do not list models; reachable is all we can tell.
		return nil
	}
	return fmt.Errorf("transcribe: openai check: %w", &APIError{StatusCode: resp.StatusCode, Message: errorMessage(data)})
}
