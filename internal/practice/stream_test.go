package practice_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river/rivertype"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/jobs"
	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/practice/practicetest"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
	"github.com/whitecoat/whitecoat/internal/transcribe"
)

// audioFiles lists what is in the temporary audio directory.
func audioFiles(t *testing.T, f *practicetest.Fixture) []string {
	t.Helper()
	entries, err := os.ReadDir(f.Audio)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, filepath.Join(f.Audio, e.Name()))
	}
	return names
}

func TestAnswerArrivesInPieces(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.New(t, db, func(c *practice.Config) { c.MaxAudioBytes = 64 << 10 })
		ana, bob := f.User(t, "ana@example.com"), f.User(t, "bob@example.com")
		ctx := context.Background()
		s, err := f.Practice.Create(ctx, ana(), practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "random", QuestionCount: 3})
		if err != nil {
			t.Fatal(err)
		}
		rec := practicetest.Recording(t)
		q := len(rec) / 4
		item := s.Items[0].ID
		appendAt := func(offset int, piece []byte) (int64, error) {
			return f.Practice.AppendAudio(ctx, ana(), s.ID, item, int64(offset), "audio/webm;codecs=opus", piece)
		}
		want := func(n int64, err error, received int) {
			t.Helper()
			if err != nil || n != int64(received) {
				t.Fatalf("got %d, %v; want %d bytes received", n, err, received)
			}
		}

		_, err = appendAt(0, []byte("just some text pretending to be audio"))
		practicetest.WantKind(t, err, apperr.KindInvalid, "not a recording")
		_, err = appendAt(q, rec[q:2*q])
		practicetest.WantKind(t, err, apperr.KindConflict, "offset 0")
		_, err = f.Practice.AppendAudio(ctx, bob(), s.ID, item, 0, "audio/webm", rec[:q])
		practicetest.WantKind(t, err, apperr.KindNotFound, "No such practice session")
		if files := audioFiles(t, f); len(files) != 0 {
			t.Fatalf("refused pieces left files: %v", files)
		}

		n, err := appendAt(0, rec[:q])
		want(n, err, q)
		_, err = appendAt(2*q, rec[2*q:3*q])
		practicetest.WantKind(t, err, apperr.KindConflict, "missing")
		n, err = appendAt(q, rec[q:2*q])
		want(n, err, 2*q)
		n, err = appendAt(q, rec[q:2*q]) // its answer was lost; sent again
		want(n, err, 2*q)
		n, err = appendAt(q+q/2, rec[q+q/2:3*q]) // overlaps what arrived
		want(n, err, 3*q)
		_, err = f.Practice.FinishAudio(ctx, ana(), s.ID, item, int64(len(rec)), practice.Observed{})
		practicetest.WantKind(t, err, apperr.KindConflict, "did not arrive")
		n, err = appendAt(3*q, rec[3*q:])
		want(n, err, len(rec))

		files := audioFiles(t, f)
		if len(files) != 1 {
			t.Fatalf("files while recording: %v", files)
		}
		if got, _ := os.ReadFile(files[0]); !bytes.Equal(got, rec) {
			t.Fatalf("the pieces were stored as %d bytes, not the %d-byte recording", len(got), len(rec))
		}
		if u := ana(); u.UsageCount != 1 {
			t.Fatalf("usage %d while the answer arrives: it counts from its first piece, once", u.UsageCount)
		}
		if _, err := f.Practice.FinishAudio(ctx, ana(), s.ID, item, int64(len(rec)), practice.Observed{}); err != nil {
			t.Fatal(err)
		}
		_, err = appendAt(len(rec), rec[:10])
		practicetest.WantKind(t, err, apperr.KindConflict, "already has an answer")
		if again, err := f.Practice.FinishAudio(ctx, ana(), s.ID, item, int64(len(rec)), practice.Observed{}); err != nil || again.Status == practice.StatusPending {
			t.Fatalf("finishing again, as after a lost response: %+v %v", again, err)
		}

		// The second question: too large, then skipped while arriving.
		item = s.Items[1].ID
		n, err = appendAt(0, rec)
		want(n, err, len(rec))
		_, err = appendAt(len(rec), make([]byte, 64<<10))
		practicetest.WantKind(t, err, apperr.KindTooLarge, "too large")
		_, err = f.Practice.FinishAudio(ctx, ana(), s.ID, s.Items[2].ID, int64(len(rec)), practice.Observed{})
		practicetest.WantKind(t, err, apperr.KindConflict, "No recording was uploaded")
		if _, err := f.Practice.Skip(ctx, ana(), s.ID, item); err != nil {
			t.Fatal(err)
		}
		_, err = f.Practice.FinishAudio(ctx, ana(), s.ID, item, int64(len(rec)), practice.Observed{})
		practicetest.WantKind(t, err, apperr.KindConflict, "skipped")

		got := f.WaitProcessed(t, ana(), s.ID)
		if it := got.Items[0]; it.Status != practice.StatusDone || it.Transcript == nil || *it.Transcript != practicetest.Spoken {
			t.Fatalf("answer uploaded in pieces: %+v", it)
		}
		if got.Items[1].Status != practice.StatusSkipped {
			t.Fatalf("skipped answer: %+v", got.Items[1])
		}
		if files := audioFiles(t, f); len(files) != 0 {
			t.Fatalf("recordings left after processing and skipping: %v", files)
		}
		if u := ana(); u.UsageCount != 2 {
			t.Fatalf("usage count %d after one finished answer and one begun, then skipped", u.UsageCount)
		}
	})
}

// speak synthesizes text with festival and encodes it as Chrome's
// MediaRecorder would (WebM/Opus).
func speak(t *testing.T, text string) []byte {
	t.Helper()
	for _, tool := range []string{"text2wave", "ffmpeg"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is required in CI: %v", tool, err)
			}
			t.Skipf("SKIPPING: %s not installed (make test installs it)", tool)
		}
	}
	dir := t.TempDir()
	txt, wav, webm := filepath.Join(dir, "a.txt"), filepath.Join(dir, "a.wav"), filepath.Join(dir, "a.webm")
	if err := os.WriteFile(txt, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range [][]string{
		{"text2wave", "-eval", "(voice_cmu_us_slt_arctic_hts)", txt, "-o", wav},
		{"ffmpeg", "-nostdin", "-loglevel", "error", "-i", wav, "-c:a", "libopus", "-b:a", "32k", webm},
	} {
		if out, err := exec.Command(cmd[0], cmd[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", cmd, err, out)
		}
	}
	b, err := os.ReadFile(webm)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// dentistAnswer is about ten seconds of speech.
const dentistAnswer = "I want to become a dentist because I enjoy working with my hands. " +
	"At a community clinic I saw how a healthy smile can change the confidence of a patient."

// requireLocalEngine skips the test where Debian's speech model is
// missing, and fails it in CI, which installs it.
func requireLocalEngine(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(transcribe.DefaultConfig().Local.LM); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("pocketsphinx-en-us is required in CI: %v", err)
		}
		t.Skip("SKIPPING: pocketsphinx-en-us not installed")
	}
}

// localEngine is the offline speech engine, for one test.
func localEngine(t *testing.T) transcribe.Incremental {
	t.Helper()
	sc := transcribe.DefaultConfig()
	sc.TempDir = t.TempDir()
	speech, err := transcribe.New(sc, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { speech.Close() })
	return speech.(transcribe.Incremental)
}

// finished are the states of a job that will not run (again).
var finished = []rivertype.JobState{rivertype.JobStateCompleted, rivertype.JobStateCancelled, rivertype.JobStateDiscarded}

func TestRecordingIsRecognisedWhileItArrives(t *testing.T) {
	rec := speak(t, dentistAnswer)
	requireLocalEngine(t)
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f, reload, s := recognisingEachPiece(t, db)
		ctx := context.Background()
		item := s.Items[0].ID
		progress := func() *transcribe.Progress { return itemProgress(t, db, item) }
		stepped := func() { stepped(t, db) }

		// Send the recording as a browser would, in pieces, each once the
		// server has caught up with the one before, as the student's
		// speaking would let it. From three quarters on, the recording can
		// hold a step; a step whose decoder lagged (a busy box) recognises
		// less, which the next piece's takes up.
		const pieces = 8
		size := len(rec)/pieces + 1
		for off := 0; off < len(rec); off += size {
			piece := rec[off:min(off+size, len(rec))]
			if _, err := f.Practice.AppendAudio(ctx, reload(), s.ID, item, int64(off), "audio/webm;codecs=opus", piece); err != nil {
				t.Fatal(err)
			}
			stepped()
		}
		p := progress()
		if p == nil || p.Until < 3 || len(p.Words) < 3 {
			t.Fatalf("nothing was recognised while the recording arrived: %+v", p)
		}
		if _, err := f.Practice.FinishAudio(ctx, reload(), s.ID, item, int64(len(rec)), practice.Observed{}); err != nil {
			t.Fatal(err)
		}
		it := f.WaitProcessed(t, reload(), s.ID).Items[0]
		if it.Status != practice.StatusDone || it.Transcript == nil {
			t.Fatalf("answer: %+v", it)
		}
		var early []string
		for _, w := range p.Words {
			early = append(early, w.Word)
		}
		// The local engine punctuates its transcript: compare the words.
		words := strings.Fields(strings.ToLower(strings.NewReplacer(".", "", ",", "", "?", "").Replace(*it.Transcript)))
		if !strings.HasPrefix(strings.Join(words, " "), strings.Join(early, " ")) || len(words) <= len(early) {
			t.Fatalf("the transcript %q does not continue what was recognised early, %q", *it.Transcript, early)
		}
		for _, w := range []string{"dentist", "community", "clinic", "patient"} {
			if !strings.Contains(strings.Join(words, " "), w) {
				t.Errorf("transcript %q lacks %q", *it.Transcript, w)
			}
		}
		if progress() != nil {
			t.Fatal("the progress was kept after the answer was transcribed")
		}
	})
}

// recognisingEachPiece is a fixture on the local engine that recognises
// the recording at every piece, and ana's session of one question.
func recognisingEachPiece(t *testing.T, db *store.DB) (*practicetest.Fixture, func() auth.User, practice.Session) {
	t.Helper()
	f := practicetest.NewWith(t, db, localEngine(t), func(c *practice.Config) { c.AdvanceEvery = 0 })
	reload := f.User(t, "ana@example.com")
	s, err := f.Practice.Create(context.Background(), reload(), practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "random", QuestionCount: 1})
	if err != nil {
		t.Fatal(err)
	}
	return f, reload, s
}

// itemProgress is what was recognised (and placed) of item's recording
// while it arrived; nil when nothing is kept.
func itemProgress(t *testing.T, db *store.DB, item string) *transcribe.Progress {
	t.Helper()
	var raw sql.NullString
	if err := db.SQL.QueryRowContext(context.Background(), `SELECT progress FROM practice_items WHERE id = $1`, item).Scan(&raw); err != nil {
		t.Fatal(err)
	}
	if !raw.Valid {
		return nil
	}
	var p transcribe.Progress
	if err := json.Unmarshal([]byte(raw.String), &p); err != nil {
		t.Fatal(err)
	}
	return &p
}

// stepped waits until the recognition step the last piece queued has run:
// steps of one recording at once skip each other, and the one that ran
// must have seen what had arrived.
func stepped(t *testing.T, db *store.DB) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		counts, _, err := jobs.Stats(context.Background(), db, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		waiting := 0
		for _, c := range counts {
			if c.Kind == (practice.AdvanceArgs{}).Kind() && !slices.Contains(finished, c.State) {
				waiting += c.Jobs
			}
		}
		if waiting == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("a recognition step has not run in 60 s: %+v", counts)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// The student's browser hears them (issue 39): what it heard so far comes
// with each piece, and the server lines it up with the recording while it
// arrives, so that when the answer ends only its last words are left to
// place. The answer holds the browser's words, lined up with the audio,
// and nothing of what the browser heard so far is kept after it.
func TestBrowserWordsAreLinedUpWhileTheRecordingArrives(t *testing.T) {
	rec := speak(t, dentistAnswer)
	requireLocalEngine(t)
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f, reload, s := recognisingEachPiece(t, db)
		ctx := context.Background()
		item := s.Items[0].ID
		said := strings.Fields(strings.ToLower(strings.NewReplacer(".", "", ",", "").Replace(dentistAnswer)))
		// Each piece carries the words a browser had written down by then:
		// those said before the last second or so of what has arrived.
		const pieces = 8
		size := len(rec)/pieces + 1
		var p *transcribe.Progress
		for off := 0; off < len(rec); off += size {
			end := min(off+size, len(rec))
			if end == len(rec) {
				// Before the last piece: the recording so far is cut off
				// mid-packet, as a growing one is.
				p = itemProgress(t, db, item)
			}
			heard := strings.Join(said[:max(0, len(said)*end/len(rec)-4)], " ")
			if _, err := f.Practice.AppendAudioHeard(ctx, reload(), s.ID, item, int64(off), "audio/webm;codecs=opus", rec[off:end], heard); err != nil {
				t.Fatal(err)
			}
			stepped(t, db)
		}
		if p == nil || p.Aligned.Tokens < 5 || p.Aligned.Until <= 0 {
			t.Fatalf("nothing the browser heard was lined up while the recording arrived: %+v", p)
		}
		for i, w := range p.Aligned.Words {
			if w.Word != said[i] && w.Word != "um" && w.Word != "uh" {
				t.Fatalf("placed %+v, want the browser's words in order: %q", p.Aligned.Words, said)
			}
		}
		heard := &practice.BrowserTranscript{Text: dentistAnswer}
		if _, err := f.Practice.FinishAudio(ctx, reload(), s.ID, item, int64(len(rec)), practice.Observed{Heard: heard}); err != nil {
			t.Fatal(err)
		}
		it := f.WaitProcessed(t, reload(), s.ID).Items[0]
		if it.Status != practice.StatusDone || practicetest.TextOf(it.Transcript) != dentistAnswer {
			t.Fatalf("answer %q (%s), want the browser's words %q", practicetest.TextOf(it.Transcript), it.Status, dentistAnswer)
		}
		wantSource(t, it, transcribe.SourceAligned)
		var kept sql.NullString
		if err := db.SQL.QueryRowContext(ctx, `SELECT heard_so_far FROM practice_items WHERE id = $1`, item).Scan(&kept); err != nil {
			t.Fatal(err)
		}
		if kept.Valid {
			t.Errorf("what the browser heard so far was kept after the answer was finished: %q", kept.String)
		}
	})
}

// TestFirstRecognitionWaitsUntilTheRecordingCanHoldAStep: pieces arrive as
// the student speaks, so until the recording has been going for the
// engine's first step, a decoder run could only measure it (and starting
// ffmpeg costs a tenth of a CPU second): no recognition is queued before
// then, every AdvanceEvery after.
func TestFirstRecognitionWaitsUntilTheRecordingCanHoldAStep(t *testing.T) {
	rec := speak(t, dentistAnswer)
	requireLocalEngine(t)
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		speech := localEngine(t)
		firstStep := speech.FirstStep()
		const advanceEvery = 3 * time.Second
		if firstStep <= advanceEvery {
			t.Fatalf("the engine's first step, %v, is not longer than AdvanceEvery: this test shows nothing", firstStep)
		}
		var (
			mu  sync.Mutex
			now = time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)
		)
		clock := func() time.Time {
			mu.Lock()
			defer mu.Unlock()
			return now
		}
		f := practicetest.NewAt(t, db, speech, clock, func(c *practice.Config) { c.AdvanceEvery = advanceEvery })
		reload := f.User(t, "ana@example.com")
		ctx := context.Background()
		s, err := f.Practice.Create(ctx, reload(), practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "random", QuestionCount: 1})
		if err != nil {
			t.Fatal(err)
		}
		queued := func() int {
			counts, _, err := jobs.Stats(ctx, db, clock())
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, c := range counts {
				if c.Kind == (practice.AdvanceArgs{}).Kind() {
					n += c.Jobs
				}
			}
			return n
		}

		// A piece a second, as the browser sends them.
		const pieces = 12
		size := len(rec)/pieces + 1
		start := clock()
		for k, off := 0, 0; off < len(rec); k, off = k+1, off+size {
			mu.Lock()
			now = start.Add(time.Duration(k) * time.Second)
			mu.Unlock()
			if _, err := f.Practice.AppendAudio(ctx, reload(), s.ID, s.Items[0].ID, int64(off), "audio/webm;codecs=opus", rec[off:min(off+size, len(rec))]); err != nil {
				t.Fatal(err)
			}
			if elapsed := time.Duration(k) * time.Second; elapsed < firstStep && queued() > 0 {
				t.Fatalf("recognition was queued %v into the recording, before it can hold the first step (%v)", elapsed, firstStep)
			}
		}
		if n := queued(); n == 0 {
			t.Fatalf("no recognition was queued in %d s of recording", pieces-1)
		}
		// On a queue of its own: on a busy box its steps wait for a
		// decoder, and must not hold the workers finished answers need.
		table := "river_job"
		if db.Schema != "" {
			table = db.Schema + "." + table
		}
		var elsewhere int
		if err := db.SQL.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+table+` WHERE kind = $1 AND queue <> $2`,
			(practice.AdvanceArgs{}).Kind(), practice.AdvanceQueue).Scan(&elsewhere); err != nil {
			t.Fatal(err)
		}
		if elsewhere > 0 {
			t.Errorf("%d recognition steps were queued outside %s", elsewhere, practice.AdvanceQueue)
		}
	})
}
