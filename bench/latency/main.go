// Command latency measures time to feedback: how long a student waits,
// after the last answer of a session is uploaded, until the summary is
// complete. It drives the real server binary over HTTP with the local
// engines (pocketsphinx, rubric) on SQLite, the embedded defaults.
//
// Each session has five festival-spoken answers of about a minute, sent
// the way the browser sends them: in pieces as they are recorded, then
// finished. The last answer's pieces arrive at speaking pace, a second of
// recording each second, so the server can recognise it while the student
// speaks; the earlier ones arrive at once, and before each next answer the
// benchmark waits while the server works, as it would while the student
// speaks the next answer (never longer than that answer would take to say).
// The clock runs from the moment the last piece is accepted until every
// answer has its feedback. Beside it: the spec's way, the same five answers transcribed
// and scored one after another only after the session ends.
//
// Each session is run twice (issue 39), once per way the student can be
// heard: "server recognition", the server's engine recognising each
// recording (in pieces as it arrives), and "browser text (aligned)", each
// piece carrying what the browser had heard so far (its words up to
// browserLag before) and each finish call the browser's transcript, which
// the server lines up with the recording instead (transcribe.Aligner),
// the words heard so far while the recording arrives. The browser's text
// is what the voice said, lower-case and unpunctuated as a recogniser
// writes it. The two alternate which goes first; the table gives both
// medians and their ratio, which must not exceed 1: letting the browser
// listen must not make the student wait longer.
//
// With -tries N (issue 31), the sessions are measured twice: alone, then
// with N visitors trying a question without an account (a minute's
// recording each, from N networks) at once as each last answer starts;
// the time to feedback with them must stay within 20 % of the time
// without them. With -hostile too (issue 38) each try is an attacker's: an
// 8 MB WAV declaring one sample a second (mediatest.LowRateWAV). These
// sessions are heard by server recognition only.
//
// Usage: go run ./bench/latency [-bin bin/whitecoat] [-sessions 10] [-tries 10] [-hostile]
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/whitecoat/whitecoat/bench/internal/benchserver"
	"github.com/whitecoat/whitecoat/bench/internal/synth"
	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/feedback/rubric"
	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/transcribe"
	"github.com/whitecoat/whitecoat/internal/transcribe/mediatest"
)

// answers are corpus texts of about a minute each when spoken.
var answers = []string{"07-failure", "08-difficult-patient", "09-leadership", "10-physical-therapy", "11-stress"}

// recording is one answer as the benchmark's student gives it.
type recording struct {
	file     string        // WebM/Opus, as the browser's recorder makes it
	duration time.Duration // how long it takes to say
	said     string        // the corpus text the voice spoke
}

// hearing is how the server hears a session's answers (issue 39).
type hearing struct {
	name string
	// browser: each finish call carries the browser's transcript, which
	// the server aligns to the recording instead of recognising it.
	browser bool
}

var (
	byServer  = hearing{name: "server recognition"}
	byBrowser = hearing{name: "browser text (aligned)", browser: true}
)

// browserLag is how far behind the student's voice a browser's final
// words come: it writes a phrase down once it is over.
const browserLag = 1500 * time.Millisecond

// heardSoFar is what the browser had heard of r when a share of it was
// sent, for the pieces' Heard-So-Far header: the words said up to
// browserLag before then (the voice's pace taken as even). Nil when the
// server hears the student.
func (h hearing) heardSoFar(r recording) func(share float64) string {
	if !h.browser {
		return nil
	}
	words := transcribe.NormalizeWords(r.said)
	return func(share float64) string {
		said := share - float64(browserLag)/float64(r.duration)
		return strings.Join(words[:max(0, int(said*float64(len(words))))], " ")
	}
}

// finishBody is the finish call's body: the recording's size and, when
// the browser listened, what it heard.
func (h hearing) finishBody(r recording, size int) []byte {
	body := struct {
		Size              int                         `json:"size"`
		BrowserTranscript *practice.BrowserTranscript `json:"browserTranscript,omitempty"`
	}{Size: size}
	if h.browser {
		// As a browser's recogniser writes it: lower-case, unpunctuated.
		confidence := 0.9
		body.BrowserTranscript = &practice.BrowserTranscript{
			Text: strings.Join(transcribe.NormalizeWords(r.said), " "), Confidence: &confidence}
	}
	return benchserver.MustJSON(body)
}

func main() {
	bin := flag.String("bin", "bin/whitecoat", "the whitecoat binary")
	sessions := flag.Int("sessions", 10, "sessions to measure")
	tries := flag.Int("tries", 0, "if > 0: measure again with this many anonymous tries at once during each session")
	hostile := flag.Bool("hostile", false, "with -tries: each try is an 8 MB WAV declaring 1 Hz instead of a spoken answer")
	flag.Parse()
	var err error
	if *tries > 0 {
		err = runWithTries(context.Background(), *bin, *sessions, *tries, *hostile, os.Stdout)
	} else {
		err = run(context.Background(), *bin, *sessions, os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "latency:", err)
		os.Exit(1)
	}
}

// warmServer speaks the answers into a fresh directory and starts the
// server there, with a first session run per hearing to load what each
// loads once (the speech models, the aligner's dictionary; a student's
// session would not). stop ends the server and removes the directory.
func warmServer(ctx context.Context, bin string, hearings ...hearing) (srv *server, recs []recording, stop func(), err error) {
	work, err := os.MkdirTemp("", "whitecoat-latency-")
	if err != nil {
		return nil, nil, nil, err
	}
	if recs, err = prepare(ctx, work); err == nil {
		srv, err = start(ctx, bin, work)
	}
	if err != nil {
		os.RemoveAll(work)
		return nil, nil, nil, err
	}
	stop = func() { srv.Stop(); os.RemoveAll(work) }
	if slices.Contains(hearings, byBrowser) {
		// A server that cannot align would recognise the recordings and
		// the browser's row would measure recognition under its name.
		var formats struct {
			Speech practice.SpeechInfo `json:"speech"`
		}
		if err := srv.Call(http.MethodGet, "/api/practice/formats", "", nil, http.StatusOK, &formats); err != nil {
			stop()
			return nil, nil, nil, err
		}
		if !formats.Speech.AlignsBrowserText {
			stop()
			return nil, nil, nil, errors.New("the server does not align a browser's transcript (GET /api/practice/formats: speech.alignsBrowserText is false), " +
				"so the browser's row would measure its recognition")
		}
	}
	for _, h := range hearings {
		if _, _, err := srv.session(recs, h); err != nil {
			stop()
			return nil, nil, nil, fmt.Errorf("warm-up session, %s: %w", h.name, err)
		}
	}
	return srv, recs, stop, nil
}

// measured is one hearing's sessions: the waits and the last answer's
// word errors.
type measured struct {
	waits         []time.Duration
	errors, words int
}

func run(ctx context.Context, bin string, sessions int, out io.Writer) error {
	hearings := []hearing{byServer, byBrowser}
	srv, recs, stop, err := warmServer(ctx, bin, hearings...)
	if err != nil {
		return err
	}
	defer stop()
	reference := recs[len(recs)-1].said
	results := make([]measured, len(hearings))
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(out, "last upload -> summary complete (s)")
	fmt.Fprint(tw, "session\t")
	for _, h := range hearings {
		fmt.Fprintf(tw, "%s\t", h.name)
	}
	fmt.Fprintln(tw)
	for i := range sessions {
		// Each hearing goes first in turn, so that neither always meets
		// what the other left running.
		waits := make([]time.Duration, len(hearings))
		for k := range hearings {
			h := (i + k) % len(hearings)
			d, transcript, err := srv.session(recs, hearings[h])
			if err != nil {
				return fmt.Errorf("session %d, %s: %w", i+1, hearings[h].name, err)
			}
			waits[h] = d
			e, w := transcribe.CountWordErrors(reference, transcript)
			results[h].waits = append(results[h].waits, d)
			results[h].errors, results[h].words = results[h].errors+e, results[h].words+w
		}
		fmt.Fprintf(tw, "%d\t", i+1)
		for _, d := range waits {
			fmt.Fprintf(tw, "%.2f\t", d.Seconds())
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	srv.Stop()

	specWay, whole, err := sequential(ctx, recs)
	if err != nil {
		return err
	}
	wholeErrs, wholeWords := transcribe.CountWordErrors(reference, whole[len(whole)-1])
	server, browser := results[0], results[1]
	med, p95 := benchserver.Percentile(server.waits, 50), benchserver.Percentile(server.waits, 95)
	bMed, bP95 := benchserver.Percentile(browser.waits, 50), benchserver.Percentile(browser.waits, 95)
	fmt.Fprintln(out)
	tw = tabwriter.NewWriter(out, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "measure\t%s\t%s\ttarget\t\n", byServer.name, byBrowser.name)
	fmt.Fprintf(tw, "time to feedback, median (s)\t%.2f\t%.2f\t<= 2\t\n", med.Seconds(), bMed.Seconds())
	fmt.Fprintf(tw, "time to feedback, p95 (s)\t%.2f\t%.2f\t<= 4\t\n", p95.Seconds(), bP95.Seconds())
	fmt.Fprintf(tw, "spec's way (5 answers one after another after the end) (s)\t%.2f\t\t\t\n", specWay.Seconds())
	fmt.Fprintf(tw, "ratio spec's way / median\t%.1f\t%.1f\t>= 10\t\n", specWay.Seconds()/med.Seconds(), specWay.Seconds()/bMed.Seconds())
	fmt.Fprintf(tw, "ratio median / server recognition's median\t\t%.2f\t<= 1\t\n", bMed.Seconds()/med.Seconds())
	fmt.Fprintln(tw, "\t\t\t\t")
	fmt.Fprintln(tw, "last answer's word error rate (%)\t\t\t\t")
	fmt.Fprintf(tw, "recognised in pieces while it arrived\t%.2f\t\t\t\n", 100*float64(server.errors)/float64(server.words))
	fmt.Fprintf(tw, "recognised whole after the end\t%.2f\t\t\t\n", 100*float64(wholeErrs)/float64(wholeWords))
	// Near 0 when the server used the browser's text; a recognition's
	// figure when it set the text aside and recognised the recording.
	fmt.Fprintf(tw, "the browser's text aligned\t\t%.2f\t\t\n", 100*float64(browser.errors)/float64(browser.words))
	tw.Flush()
	return nil
}

// prepare speaks each answer and encodes it as WebM/Opus.
func prepare(ctx context.Context, work string) ([]recording, error) {
	var recs []recording
	for _, name := range answers {
		text := filepath.Join("bench", "transcribe", "corpus", name+".txt")
		said, err := os.ReadFile(text)
		if err != nil {
			return nil, err
		}
		wav := filepath.Join(work, name+".wav")
		if err := synth.Speak(ctx, synth.Voice, text, wav); err != nil {
			return nil, err
		}
		webm := filepath.Join(work, name+".webm")
		if err := synth.Encode(ctx, wav, webm, "webm"); err != nil {
			return nil, err
		}
		d, err := synth.Duration(ctx, wav)
		if err != nil {
			return nil, err
		}
		recs = append(recs, recording{file: webm, duration: d, said: string(said)})
	}
	return recs, nil
}

// server is the benchmark's whitecoat process, with the practice calls
// the benchmark makes.
type server struct{ *benchserver.Server }

func start(ctx context.Context, bin, work string) (*server, error) {
	// The tries come from many networks through the one proxy the
	// benchmark stands for.
	s, err := benchserver.Start(ctx, bin, work, "SPEECH_ENGINE=local", "FEEDBACK_ENGINE=rubric", "RATE_LIMIT_PER_IP=10000",
		"TRUSTED_PROXY_HEADER=X-Forwarded-For", "TRUSTED_PROXIES=127.0.0.1/32")
	if err != nil {
		return nil, err
	}
	return &server{s}, nil
}

func (s *server) get(id string) (benchserver.SessionBody, error) {
	var v benchserver.SessionBody
	err := s.Call(http.MethodGet, "/api/practice/sessions/"+id, "", nil, http.StatusOK, &v)
	return v, err
}

// session runs one five-answer session heard as h and returns the wait
// after the last upload and the last answer's transcript.
func (s *server) session(recs []recording, h hearing) (time.Duration, string, error) {
	return s.sessionBeside(recs, h, nil)
}

// sessionBeside is session, with beside started as the last answer starts
// (nil: nothing beside it).
func (s *server) sessionBeside(recs []recording, h hearing, beside func()) (time.Duration, string, error) {
	var created benchserver.SessionBody
	if err := s.Call(http.MethodPost, "/api/practice/sessions", "application/json",
		benchserver.MustJSON(map[string]any{"profession": "dental", "mode": "audio", "interviewType": "random", "questionCount": len(recs)}),
		http.StatusCreated, &created); err != nil {
		return 0, "", err
	}
	id := created.Session.ID
	var uploaded time.Time
	for i, r := range recs {
		audio, err := os.ReadFile(r.file)
		if err != nil {
			return 0, "", err
		}
		last := i == len(recs)-1
		// Only the last answer's pace matters to the wait measured; the
		// others arrive at once, so the session takes a minute, not five.
		pace := time.Duration(0)
		if last {
			pace = r.duration
			if beside != nil {
				beside()
			}
		}
		if err := s.StreamAnswer(id, created.Session.Items[i].ID, audio, pace, h.heardSoFar(r)); err != nil {
			return 0, "", err
		}
		uploaded = time.Now()
		if err := s.Call(http.MethodPost, "/api/practice/sessions/"+id+"/items/"+created.Session.Items[i].ID+"/audio/finish",
			"application/json", h.finishBody(r, len(audio)), http.StatusAccepted, nil); err != nil {
			return 0, "", err
		}
		if last {
			break
		}
		// The student now speaks the next answer; the server works meanwhile.
		speaking := time.Now().Add(recs[i+1].duration)
		for time.Now().Before(speaking) {
			v, err := s.get(id)
			if err != nil {
				return 0, "", err
			}
			if st := v.Session.Items[i].Status; st == "done" || st == "failed" {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	for {
		v, err := s.get(id)
		if err != nil {
			return 0, "", err
		}
		if !v.Session.Processing {
			wait := time.Since(uploaded)
			for _, it := range v.Session.Items {
				if it.Status != "done" {
					return 0, "", fmt.Errorf("answer %s ended %s", it.ID, it.Status)
				}
			}
			last := v.Session.Items[len(v.Session.Items)-1].Transcript
			return wait, last, s.Call(http.MethodPost, "/api/practice/sessions/"+id+"/complete", "application/json",
				benchserver.MustJSON(map[string]int{"totalSessionTime": 300}), http.StatusOK, nil)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// sequential is the spec's way: after the session, each answer in turn is
// transcribed, checked and scored. It returns the time and the transcripts.
func sequential(ctx context.Context, recs []recording) (time.Duration, []string, error) {
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	speech, err := transcribe.New(transcribe.DefaultConfig(), logger)
	if err != nil {
		return 0, nil, err
	}
	defer speech.Close()
	scorer := rubric.New()
	var transcripts []string
	startAt := time.Now()
	for _, r := range recs {
		res, err := speech.Transcribe(ctx, transcribe.Audio{Path: r.file, MIMEType: "audio/webm"})
		if err != nil {
			return 0, nil, err
		}
		transcripts = append(transcripts, res.Text)
		if !transcribe.Meaningful(res.Text) {
			continue
		}
		if _, err := scorer.Score(ctx, feedback.Input{Profession: "dental", Question: "Tell me about a time you failed.", Transcript: res.Text}); err != nil {
			return 0, nil, err
		}
	}
	return time.Since(startAt), transcripts, nil
}

// runWithTries measures time to feedback alone and with a burst of tries
// beside each session, and prints both.
func runWithTries(ctx context.Context, bin string, sessions, tries int, hostile bool, out io.Writer) error {
	srv, recs, stop, err := warmServer(ctx, bin, byServer)
	if err != nil {
		return err
	}
	defer stop()
	tryAudio, err := os.ReadFile(recs[0].file)
	if err != nil {
		return err
	}
	if hostile {
		tryAudio = mediatest.LowRateWAV(8_000_000) // the 8 MB, within the 8 MiB cap
	}
	var alone, beside []time.Duration
	var triesDone, triesRefused int
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "session	alone (s)	with %d tries (s)	\n", tries)
	for i := range sessions {
		a, _, err := srv.session(recs, byServer)
		if err != nil {
			return fmt.Errorf("session %d alone: %w", i+1, err)
		}
		burst := make(chan tryOutcome, tries)
		b, _, err := srv.sessionBeside(recs, byServer, func() {
			for n := range tries {
				go func() { burst <- srv.try(fmt.Sprintf("198.51.%d.%d", 100+i, n+1), tryAudio) }()
			}
		})
		if err != nil {
			return fmt.Errorf("session %d with tries: %w", i+1, err)
		}
		// Every try is answered before the next pair, so each burst meets
		// an empty queue.
		for range tries {
			o := <-burst
			if o.err != nil {
				return o.err
			}
			if o.refused {
				triesRefused++
			} else {
				triesDone++
			}
		}
		alone, beside = append(alone, a), append(beside, b)
		fmt.Fprintf(tw, "%d\t%.2f\t%.2f\t\n", i+1, a.Seconds(), b.Seconds())
	}
	tw.Flush()
	medAlone, medBeside := benchserver.Percentile(alone, 50), benchserver.Percentile(beside, 50)
	fmt.Fprintln(out)
	tw = tabwriter.NewWriter(out, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "measure\tvalue\ttarget\t")
	fmt.Fprintf(tw, "time to feedback alone, median (s)\t%.2f\t\t\n", medAlone.Seconds())
	fmt.Fprintf(tw, "time to feedback with %d tries at once, median (s)\t%.2f\t\t\n", tries, medBeside.Seconds())
	// Hostile tries must cost the students less: their decode, the part
	// an attacker controls, runs behind the students' work.
	target := 20
	if hostile {
		target = 10
	}
	fmt.Fprintf(tw, "slower with the tries (%%)\t%.1f\t<= %d\t\n", 100*(medBeside.Seconds()/medAlone.Seconds()-1), target)
	fmt.Fprintf(tw, "tries scored / refused by the limits\t%d / %d\t\t\n", triesDone, triesRefused)
	tw.Flush()
	if medBeside.Seconds() > (1+float64(target)/100)*medAlone.Seconds() {
		return fmt.Errorf("time to feedback with %d tries is %.0f%% above the time without them", tries, 100*(medBeside.Seconds()/medAlone.Seconds()-1))
	}
	return nil
}

// tryOutcome is how one anonymous try ended.
type tryOutcome struct {
	refused bool
	err     error
}

// try sends one anonymous try from network and waits for its feedback.
func (s *server) try(network string, audio []byte) tryOutcome {
	visitor := benchserver.NewClient(s.Base)
	req, err := http.NewRequest(http.MethodPost, s.Base+"/api/tryout/recordings/dental", bytes.NewReader(audio))
	if err != nil {
		return tryOutcome{err: err}
	}
	req.Header.Set("Content-Type", "audio/webm")
	req.Header.Set("X-Forwarded-For", network)
	resp, err := visitor.HTTP.Do(req)
	if err != nil {
		return tryOutcome{err: err}
	}
	var started struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	}
	err = json.NewDecoder(resp.Body).Decode(&started)
	resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusTooManyRequests:
		return tryOutcome{refused: true}
	case resp.StatusCode != http.StatusAccepted || err != nil:
		return tryOutcome{err: fmt.Errorf("try: %d %v", resp.StatusCode, err)}
	}
	for {
		var t struct {
			Status string `json:"status"`
		}
		if err := visitor.Call(http.MethodGet, "/api/tryout/tries/"+started.ID, "", nil, http.StatusOK, &t); err != nil {
			return tryOutcome{err: err}
		}
		if t.Status != "queued" {
			return tryOutcome{}
		}
		time.Sleep(250 * time.Millisecond)
	}
}
