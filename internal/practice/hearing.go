package practice

import (
	"context"
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/danielgtaylor/huma/v2"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/httpx"
	"github.com/whitecoat/whitecoat/internal/transcribe"
)

// How a student is heard (issue 39). By default the server's speech
// engine transcribes the recording. A student may instead let their own
// browser's recogniser listen beside the recorder, on the device or on the
// browser vendor's service; its text then travels with the recording (the
// finish call's BrowserTranscript) and the server aligns it to the audio
// when its engine can (transcribe.Aligner).

// Hearing is how the student chose to be heard.
type Hearing string

const (
	// HearingDevice is the browser's recogniser running on the device:
	// the audio does not leave it for recognition.
	HearingDevice Hearing = "device"
	// HearingBrowser is the browser's speech service: the browser sends
	// the audio to its vendor (Google for Chrome, Microsoft for Edge,
	// Apple for Safari).
	HearingBrowser Hearing = "browser"
	// HearingServer is Whitecoat's own speech engine, the default.
	HearingServer Hearing = "server"
)

// HearingMeanings says what each choice means for the student's audio, for
// their data export (the privacy page says the same).
var HearingMeanings = map[Hearing]string{
	HearingDevice: "Your browser recognized your answers on your device; the recording was also sent to Whitecoat, " +
		"which lined the browser's words up with it and deleted it once done.",
	HearingBrowser: "Your browser sent your answers' audio to its own speech service (Google for Chrome, Microsoft for Edge, " +
		"Apple for Safari) under that company's terms; the recording was also sent to Whitecoat, which lined the words up with it and deleted it once done.",
	HearingServer: "Whitecoat's server transcribed your recordings and deleted them once done; no one else heard them.",
}

// Preferences are the student's choices about how they are heard.
type Preferences struct {
	Hearing Hearing `json:"hearing" enum:"device,browser,server" doc:"How the student is heard: their browser's recognizer on the device, their browser's speech service, or Whitecoat's server (the default)."`
	// Captions shows what the browser hears while the student speaks.
	Captions bool `json:"captions" doc:"Show live captions of what the browser hears while the student speaks."`
	// WatchVideo lets the browser measure a video answer's presence on
	// camera (issue 42); only numbers leave the device.
	WatchVideo bool `json:"watchVideo" doc:"In video sessions, let the browser measure eye contact, framing and steadiness on the device; only the numbers are sent, never an image."`
}

// DefaultPreferences are a student's until they choose.
var DefaultPreferences = Preferences{Hearing: HearingServer, Captions: true, WatchVideo: true}

// PreferencesExport is the preferences in the data export, with what the
// hearing choice means.
type PreferencesExport struct {
	Preferences
	HearingMeans string `json:"hearingMeans"`
}

// MaxBrowserTranscriptLen is the longest browser transcript, in
// characters: an answer's words, like a corrected transcript.
const MaxBrowserTranscriptLen = MaxTranscriptLen

// BrowserTranscript is what the student's browser heard of an answer.
type BrowserTranscript struct {
	Text string `json:"text" minLength:"1" doc:"The recognizer's final text for the whole answer, its sessions joined."`
	// Confidence is the recogniser's own, 0 to 1, averaged over its
	// results; absent when it gave none (Chrome often reports 0).
	Confidence *float64 `json:"confidence,omitempty" minimum:"0" maximum:"1" doc:"The recognizer's own confidence, 0 to 1, when it gave one."`
	OnDevice   bool     `json:"onDevice" doc:"Whether the recognizer ran on the device (processLocally) rather than on the browser's speech service."`
}

// TransformSchema implements huma.SchemaTransformer.
func (BrowserTranscript) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	httpx.SetMaxLength(s, "text", MaxBrowserTranscriptLen)
	return s
}

func (bt *BrowserTranscript) check() error {
	if bt == nil {
		return nil
	}
	bt.Text = strings.TrimSpace(bt.Text)
	switch {
	case bt.Text == "":
		return apperr.Invalid("browserTranscript.text", "The browser's transcript is empty.")
	case utf8.RuneCountInString(bt.Text) > MaxBrowserTranscriptLen:
		return apperr.Invalid("browserTranscript.text", "The browser's transcript is longer than %d characters.", MaxBrowserTranscriptLen)
	case bt.Confidence != nil && (*bt.Confidence < 0 || *bt.Confidence > 1):
		return apperr.Invalid("browserTranscript.confidence", "The confidence must be between 0 and 1.")
	}
	return nil
}

// SpeechInfo tells the web what the server's speech engine is, so it can
// tell the student what to expect before they record.
type SpeechInfo struct {
	Engine string `json:"engine" enum:"local,service" doc:"local: the offline engine on Whitecoat's server (pocketsphinx), which mishears more; service: a Whisper-compatible speech service."`
	// AlignsBrowserText reports whether the server lines a browser's
	// transcript up with the audio (transcribe.Aligner); without it a
	// browser's text is kept but the server transcribes the recording.
	AlignsBrowserText bool `json:"alignsBrowserText"`
}

// Speech describes the configured engine.
func (s *Service) Speech() SpeechInfo {
	info := SpeechInfo{Engine: "service"}
	if s.speech.Name() == "local" || strings.HasPrefix(s.speech.Name(), "local") {
		info.Engine = "local"
	}
	_, info.AlignsBrowserText = transcribe.AsAligner(s.speech)
	return info
}

// PreferencesOf reads the user's preferences, the defaults until they choose.
func (s *Service) PreferencesOf(ctx context.Context, userID string) (Preferences, error) {
	return userPreferences(ctx, s.db.SQL, userID)
}

// SetPreferences remembers the user's choices.
func (s *Service) SetPreferences(ctx context.Context, u auth.User, p Preferences) (Preferences, error) {
	if _, ok := HearingMeanings[p.Hearing]; !ok {
		return Preferences{}, apperr.Invalid("hearing", "Choose device, browser or server.")
	}
	if err := savePreferences(ctx, s.db.SQL, u.ID, p, s.clock()); err != nil {
		return Preferences{}, err
	}
	return p, nil
}

// alignOrRecognise transcribes the item's recording: by aligning the
// browser's text to it when there is one, otherwise as the server always
// does. When the browser's text cannot be used (the engine cannot align,
// or the recording does not support the text) the server recognises the
// recording and the result says so (SourceRecognisedInstead), for the
// student to be told.
func (s *Service) alignOrRecognise(ctx context.Context, it Item, local string) (transcribe.Result, error) {
	bt, err := browserTranscriptOf(ctx, s.db.SQL, it.ID)
	if err != nil {
		return transcribe.Result{}, err
	}
	if bt == nil {
		return s.recognise(ctx, it, local)
	}
	if aligner, ok := transcribe.AsAligner(s.speech); ok {
		var placed transcribe.AlignProgress
		if it.progress != nil {
			placed = it.progress.Aligned
		}
		res, err := aligner.Align(ctx, transcribe.Audio{Path: local, MIMEType: it.audioMIME, Limit: it.answerLimit()}, bt.Text, placed)
		if err == nil || errors.Is(err, transcribe.ErrBadAudio) {
			return res, err
		}
		s.logger.Info("could not align the browser's transcript; recognizing the recording", "item", it.ID, "err", err)
	}
	res, err := s.recognise(ctx, it, local)
	res.Source = transcribe.SourceRecognisedInstead
	return res, err
}
