package practice_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/practice/practicetest"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
	"github.com/whitecoat/whitecoat/internal/transcribe"
	"github.com/whitecoat/whitecoat/internal/transcribe/whispertest"
)

// aligningWhisper is the fake Whisper engine that can also place a given
// text on the recording, standing in for the local engine's aligner
// (issue 39, item 3) until it arrives: each word of the text, evenly
// spaced, and the text it was given remembered.
type aligningWhisper struct {
	transcribe.Engine
	mu    sync.Mutex
	given []string
	// unsupported: the recording never supports the text given.
	unsupported bool
}

// AdvanceAlign places nothing while a recording arrives: Align does it all.
func (a *aligningWhisper) AdvanceAlign(_ context.Context, _ transcribe.Audio, _ string, p transcribe.AlignProgress) (transcribe.AlignProgress, error) {
	return p, nil
}

func (a *aligningWhisper) Align(_ context.Context, _ transcribe.Audio, text string, _ transcribe.AlignProgress) (transcribe.Result, error) {
	a.mu.Lock()
	a.given = append(a.given, text)
	a.mu.Unlock()
	if a.unsupported {
		return transcribe.Result{}, &transcribe.Error{Kind: transcribe.ErrTextUnsupported, Message: "no match", Err: errors.New("no word placed")}
	}
	res := transcribe.Result{Text: text, Engine: "aligned", DurationSeconds: 10, WordConfidence: transcribe.ConfidenceNone, Source: transcribe.SourceAligned}
	for i, w := range strings.Fields(text) {
		res.Words = append(res.Words, transcribe.Word{Word: w, Start: float64(i) * 0.4, End: float64(i)*0.4 + 0.3})
	}
	return res, nil
}

func (a *aligningWhisper) texts() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.given...)
}

// whisperFixture is practicetest.New with its engine wrapped by wrap.
func whisperFixture(t *testing.T, db *store.DB, wrap func(transcribe.Engine) transcribe.Engine) *practicetest.Fixture {
	t.Helper()
	whisper := whispertest.Start(t, practicetest.Spoken)
	sc := transcribe.DefaultConfig()
	sc.Engine = transcribe.EngineOpenAI
	sc.TempDir = t.TempDir()
	sc.OpenAI.BaseURL, sc.OpenAI.APIKey = whisper.URL, "test-key"
	sc.OpenAI.MaxRetries = 0
	sc.OpenAI.Align = false // aligningWhisper aligns
	speech, err := transcribe.New(sc, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	f := practicetest.NewWith(t, db, wrap(speech), func(c *practice.Config) { c.AudioDir = sc.TempDir })
	f.Whisper = whisper
	return f
}

// finishInPieces sends the recording as the answer to question i of s in
// two pieces and finishes it with heard.
func finishInPieces(t *testing.T, f *practicetest.Fixture, u auth.User, s practice.Session, i int, heard *practice.BrowserTranscript) error {
	t.Helper()
	ctx := context.Background()
	rec := practicetest.Recording(t)
	half := len(rec) / 2
	for _, p := range [][2]int{{0, half}, {half, len(rec)}} {
		if _, err := f.Practice.AppendAudio(ctx, u, s.ID, s.Items[i].ID, int64(p[0]), "audio/webm;codecs=opus", rec[p[0]:p[1]]); err != nil {
			t.Fatal(err)
		}
	}
	_, err := f.Practice.FinishAudio(ctx, u, s.ID, s.Items[i].ID, int64(len(rec)), practice.Observed{Heard: heard})
	return err
}

const browserHeard = "I want to be a dentist because my grandmother's dentist listened to her when no one else did"

// An answer finished with what the browser heard keeps the browser's
// words: the engine aligns them to the recording instead of recognising
// it. Without an aligner the server transcribes as it always did.
func TestBrowserTranscriptIsAlignedToTheRecording(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		var aligner *aligningWhisper
		f := whisperFixture(t, db, func(e transcribe.Engine) transcribe.Engine {
			aligner = &aligningWhisper{Engine: e}
			return aligner
		})
		ana := f.User(t, "ana@example.com")
		s := f.Start(t, ana(), 3)
		conf := 0.91
		heard := &practice.BrowserTranscript{Text: "  " + browserHeard + " ", Confidence: &conf, OnDevice: true}

		err := finishInPieces(t, f, ana(), s, 0, &practice.BrowserTranscript{Text: "   "})
		practicetest.WantKind(t, err, apperr.KindInvalid, "empty")
		err = finishInPieces(t, f, ana(), s, 0, &practice.BrowserTranscript{Text: strings.Repeat("a", practice.MaxBrowserTranscriptLen+1)})
		practicetest.WantKind(t, err, apperr.KindInvalid, "longer than")
		if err := finishInPieces(t, f, ana(), s, 0, heard); err != nil {
			t.Fatal(err)
		}
		// The second answer has no browser text (a whole upload): the server hears it.
		f.Upload(t, ana(), s, 1)
		got := f.WaitProcessed(t, ana(), s.ID)

		if text := practicetest.TextOf(got.Items[0].Transcript); text != browserHeard {
			t.Errorf("the answer with the browser's words was transcribed as %q, want them: %q", text, browserHeard)
		}
		if text := practicetest.TextOf(got.Items[1].Transcript); text != practicetest.Spoken {
			t.Errorf("the answer without the browser's words was transcribed as %q, want the server's %q", text, practicetest.Spoken)
		}
		if given := aligner.texts(); len(given) != 1 || given[0] != browserHeard {
			t.Errorf("the aligner was given %q, want the browser's text once", given)
		}
		wantSource(t, got.Items[0], transcribe.SourceAligned)
		wantSource(t, got.Items[1], transcribe.SourceRecognised)
	})
}

// wantSource fails unless the answer's metrics say whose words it holds.
func wantSource(t *testing.T, a practice.Item, want string) {
	t.Helper()
	switch {
	case a.Metrics == nil:
		t.Errorf("answer %q has no metrics, want source %q", practicetest.TextOf(a.Transcript), want)
	case a.Metrics.Source != want:
		t.Errorf("answer %q: source %q, want %q", practicetest.TextOf(a.Transcript), a.Metrics.Source, want)
	}
}

// When the recording does not support what the browser heard, the server
// recognises it, and the answer says so: the student is told their
// browser's words were set aside (issue 39, item 3).
func TestBrowserTranscriptTheRecordingDoesNotSupport(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := whisperFixture(t, db, func(e transcribe.Engine) transcribe.Engine {
			return &aligningWhisper{Engine: e, unsupported: true}
		})
		ana := f.User(t, "ana@example.com")
		s := f.Start(t, ana(), 1)
		if err := finishInPieces(t, f, ana(), s, 0, &practice.BrowserTranscript{Text: "the quarterly figures are in"}); err != nil {
			t.Fatal(err)
		}
		got := f.WaitProcessed(t, ana(), s.ID)
		if text := practicetest.TextOf(got.Items[0].Transcript); text != practicetest.Spoken {
			t.Errorf("transcribed as %q, want the server's %q", text, practicetest.Spoken)
		}
		wantSource(t, got.Items[0], transcribe.SourceRecognisedInstead)
	})
}

// Without an aligner the browser's text is kept with the answer but the
// server recognises the recording, as before.
func TestBrowserTranscriptWithoutAnAligner(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.New(t, db, nil)
		ana := f.User(t, "ana@example.com")
		s := f.Start(t, ana(), 3)
		if err := finishInPieces(t, f, ana(), s, 0, &practice.BrowserTranscript{Text: browserHeard}); err != nil {
			t.Fatal(err)
		}
		got := f.WaitProcessed(t, ana(), s.ID)
		if text := practicetest.TextOf(got.Items[0].Transcript); text != practicetest.Spoken {
			t.Errorf("transcribed as %q, want the server's %q", text, practicetest.Spoken)
		}
		wantSource(t, got.Items[0], transcribe.SourceRecognisedInstead)
	})
}

// The student's choice of how they are heard is remembered, exported with
// what it means, and refused when it is not one of the three.
func TestHearingPreferences(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.NewIdle(t, db)
		ana := f.User(t, "ana@example.com")
		ctx := context.Background()
		p, err := f.Practice.PreferencesOf(ctx, ana().ID)
		if err != nil || p != practice.DefaultPreferences || p.Hearing != practice.HearingServer {
			t.Fatalf("before choosing: %+v %v, want the server and captions", p, err)
		}
		_, err = f.Practice.SetPreferences(ctx, ana(), practice.Preferences{Hearing: "telepathy"})
		practicetest.WantKind(t, err, apperr.KindInvalid, "Choose")
		want := practice.Preferences{Hearing: practice.HearingBrowser, Captions: false}
		if _, err := f.Practice.SetPreferences(ctx, ana(), want); err != nil {
			t.Fatal(err)
		}
		if p, err := f.Practice.PreferencesOf(ctx, ana().ID); err != nil || p != want {
			t.Fatalf("after choosing: %+v %v, want %+v", p, err, want)
		}
		want.Hearing = practice.HearingDevice
		if _, err := f.Practice.SetPreferences(ctx, ana(), want); err != nil {
			t.Fatal(err)
		}
		exp, err := f.Practice.Export(ctx, ana().ID)
		if err != nil {
			t.Fatal(err)
		}
		if exp.Preferences.Preferences != want || !strings.Contains(exp.Preferences.HearingMeans, "on your device") {
			t.Fatalf("exported %+v", exp.Preferences)
		}
	})
}
