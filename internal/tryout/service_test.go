package tryout_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"github.com/whitecoat/whitecoat/internal/answer"
	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/feedback/rubric"
	"github.com/whitecoat/whitecoat/internal/jobs"
	"github.com/whitecoat/whitecoat/internal/ratelimit"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
	"github.com/whitecoat/whitecoat/internal/transcribe"
	"github.com/whitecoat/whitecoat/internal/transcribe/whispertest"
	"github.com/whitecoat/whitecoat/internal/tryout"
)

const spoken = "I want to become a dentist because shadowing Dr. Patel showed me how much trust matters. " +
	"When a nervous patient relaxed because she explained every step, I saw that dentistry is care as much as skill, " +
	"and I want a career where I build that trust with families for years."

type fixture struct {
	svc     *tryout.Service
	now     *atomic.Int64 // the service's clock, in Unix nanoseconds
	whisper *whispertest.Server
}

// newFixture runs tries on db with a Whisper-compatible server that hears
// spoken, the rubric engine and, when work is true, the job workers.
func newFixture(t *testing.T, db *store.DB, limits tryout.Limits, work bool) *fixture {
	t.Helper()
	return newFixtureScoring(t, db, limits, work, rubric.New())
}

// newFixtureScoring is newFixture with scorer as the feedback engine.
func newFixtureScoring(t *testing.T, db *store.DB, limits tryout.Limits, work bool, scorer feedback.Engine) *fixture {
	t.Helper()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	whisper := whispertest.Start(t, spoken)
	sc := transcribe.DefaultConfig()
	sc.Engine, sc.TempDir = transcribe.EngineOpenAI, t.TempDir()
	sc.OpenAI.BaseURL, sc.OpenAI.APIKey, sc.OpenAI.MaxRetries = whisper.URL, "test-key", 0
	speech, err := transcribe.New(sc, logger)
	if err != nil {
		t.Fatal(err)
	}
	var now atomic.Int64
	now.Store(time.Now().UnixNano())
	clock := func() time.Time { return time.Unix(0, now.Load()) }
	opts := jobs.Options{}
	if work {
		opts = jobs.Options{Workers: river.NewWorkers(), MaxWorkers: 1, Queues: map[string]int{tryout.Queue: tryout.Workers},
			PollInterval: 50 * time.Millisecond, JobTimeout: 30 * time.Second, RescueAfter: time.Minute}
	}
	client, err := jobs.New(db, logger, opts)
	if err != nil {
		t.Fatal(err)
	}
	svc := tryout.NewService(db, client, ratelimit.New(db, clock), speech, scorer, logger, clock, limits)
	if work {
		tryout.AddWorkers(opts.Workers, svc)
		if err := client.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_ = jobs.Stop(ctx, client)
		})
	}
	return &fixture{svc: svc, now: &now, whisper: whisper}
}

// record admits a recording from address to slug's question and stores
// it, as the record endpoint does.
func (f *fixture) record(t *testing.T, address, slug string, audio []byte) (tryout.Try, error) {
	t.Helper()
	ctx := context.Background()
	a, err := f.svc.Admit(ctx, address, slug, answer.KindSpoken)
	if err != nil {
		return tryout.Try{}, err
	}
	return f.svc.Record(ctx, a, "audio/webm", audio)
}

var roomy = tryout.Limits{PerAddressPerHour: 100, PerBlockPerHour: 100, OverallPerHour: 100, OverallTypedPerHour: 100, InProgressOverall: 100}

func (f *fixture) waitScored(t *testing.T, token string) tryout.Try {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		tr, err := f.svc.Get(context.Background(), token)
		if err != nil {
			t.Fatal(err)
		}
		if tr.Status == answer.StatusDone || tr.Status == answer.StatusFailed {
			return tr
		}
		if time.Now().After(deadline) {
			t.Fatal("the try was not scored within a minute")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// failingOnce is a feedback engine that fails its first call, as an LLM
// that timed out would, and is the rubric engine after that.
type failingOnce struct {
	calls atomic.Int32
}

func (e *failingOnce) Score(ctx context.Context, in feedback.Input) (feedback.Feedback, error) {
	if e.calls.Add(1) == 1 {
		return feedback.Feedback{}, errors.New("the model timed out")
	}
	return rubric.New().Score(ctx, in)
}

// A try moves by the answer pipeline's steps: transcribed once, then
// scored, and a scoring retry scores the transcript kept instead of
// transcribing the recording again (issue 38: the try job transcribed
// and scored in one attempt, so a scoring retry transcribed again).
func TestATryScoringRetryDoesNotTranscribeAgain(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		scorer := &failingOnce{}
		f := newFixtureScoring(t, db, roomy, true, scorer)
		tr, err := f.record(t, "203.0.113.7", "dental", whispertest.Recording(t))
		if err != nil {
			t.Fatal(err)
		}
		done := f.waitScored(t, tr.ID)
		if done.Status != answer.StatusDone || done.Feedback == nil || scorer.calls.Load() != 2 {
			t.Fatalf("status %s, feedback %v, %d scoring calls", done.Status, done.Feedback != nil, scorer.calls.Load())
		}
		if n := f.whisper.Requests(); n != 1 {
			t.Fatalf("the recording was transcribed %d times", n)
		}
	})
}

// A visitor's recording is transcribed and scored like a student's
// answer, and read back only with the token the visitor holds.
func TestARecordedTryIsTranscribedAndScored(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db, roomy, true)
		tr, err := f.record(t, "203.0.113.7", "Dental", whispertest.Recording(t))
		if err != nil {
			t.Fatal(err)
		}
		if tr.Status != answer.StatusQueued || tr.Question != "Why do you want to become a dentist?" || len(tr.ID) < 43 {
			t.Fatalf("%+v", tr)
		}
		done := f.waitScored(t, tr.ID)
		if done.Status != answer.StatusDone || done.Question != tr.Question || done.Transcript == nil || *done.Transcript != spoken || done.Metrics == nil ||
			done.Meaningful == nil || !*done.Meaningful || done.Feedback == nil || done.Feedback.Engine != "rubric" {
			t.Fatalf("%+v", done)
		}
		if !done.ExpiresAt.After(time.Now().Add(23 * time.Hour)) {
			t.Errorf("kept until %v, want a day", done.ExpiresAt)
		}
		if _, err := f.svc.Get(context.Background(), "not-"+tr.ID); apperr.KindOf(err) != apperr.KindNotFound {
			t.Errorf("another token read the try: %v", err)
		}
		if _, err := f.record(t, "203.0.113.8", "dental", []byte("#!/bin/sh\nrm -rf /\n")); apperr.KindOf(err) != apperr.KindInvalid {
			t.Errorf("a script was taken for a recording: %v", err)
		}
	})
}

func failureOf(err error) string {
	if e, ok := apperr.As(err); ok && e.Kind == apperr.KindRateLimited {
		return e.Failure
	}
	return ""
}

// One address may try a few times an hour and one at a time; everyone
// together is bounded too, and each refusal says which.
func TestTriesAreBounded(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		// No workers: every try stays in progress.
		f := newFixture(t, db, tryout.Limits{PerAddressPerHour: 3, PerBlockPerHour: 100, OverallPerHour: 100, OverallTypedPerHour: 100, InProgressOverall: 2}, false)
		if _, err := f.svc.Type(ctx, "198.51.100.1", "dental", "My first answer."); err != nil {
			t.Fatal(err)
		}
		_, err := f.svc.Type(ctx, "198.51.100.1", "dental", "My second answer, while the first is scored.")
		if got := failureOf(err); got != tryout.FailureTooManyFromNetwork.Name {
			t.Fatalf("a second try in progress from one address: %v", err)
		}
		if _, err := f.svc.Type(ctx, "198.51.100.2", "dental", "Another network's answer."); err != nil {
			t.Fatal(err)
		}
		_, err = f.svc.Type(ctx, "198.51.100.3", "dental", "A third network, with two tries in progress.")
		if got := failureOf(err); got != tryout.FailureTooManyOverall.Name {
			t.Fatalf("a third try in progress overall: %v", err)
		}
	})
}

// The tries in progress stay within their caps under parallel requests,
// on both databases: one a network, InProgressOverall for everyone.
func TestTriesInProgressHoldTheirCapsUnderParallelRequests(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		// No workers: every try stays in progress.
		f := newFixture(t, db, tryout.Limits{PerAddressPerHour: 100, PerBlockPerHour: 1000, OverallPerHour: 1000, OverallTypedPerHour: 1000, InProgressOverall: 10}, false)
		accepted := func(n int, address func(i int) string) int {
			var ok atomic.Int32
			var wg sync.WaitGroup
			start := make(chan struct{})
			for i := range n {
				wg.Go(func() {
					<-start
					_, err := f.svc.Type(context.Background(), address(i), "dental", "I want to care for people's health and smiles.")
					switch {
					case err == nil:
						ok.Add(1)
					case failureOf(err) == "":
						t.Errorf("a try: %v", err)
					}
				})
			}
			close(start)
			wg.Wait()
			return int(ok.Load())
		}
		if n := accepted(12, func(int) string { return "198.51.100.1" }); n != 1 {
			t.Errorf("%d tries in progress from one network of 1", n)
		}
		if n := accepted(30, func(i int) string { return fmt.Sprintf("198.51.%d.1", i+1) }); n != 9 {
			t.Errorf("%d more tries in progress beside 1, of 10 overall", n)
		}
	})
}

// One actor cannot spend everyone's tries (issue 38): 63 addresses of one
// /24 trying five times each spent the overall hourly cap of 300 in 30 s,
// every attempt counted, also those refused while their first was still
// scored. Now only admitted tries count toward it, a /24 (an IPv6 /48)
// has a budget of its own, and a visitor from elsewhere still tries, by
// voice or typing.
func TestOneActorCannotSpendEveryonesTries(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		// No workers: every admitted try stays in progress, as a flood's do.
		limits := tryout.DefaultLimits
		limits.PerAddressPerHour, limits.InProgressOverall = 5, 1000
		f := newFixture(t, db, limits, false)
		flood := func(addresses []string, attempts int) (admitted int) {
			for range attempts {
				for _, address := range addresses {
					_, err := f.svc.Type(ctx, address, "dental", "Spam.")
					switch {
					case err == nil:
						admitted++
					case failureOf(err) == "":
						t.Fatal(err)
					}
				}
			}
			return admitted
		}
		var v4, v6 []string
		for i := range 63 {
			v4 = append(v4, fmt.Sprintf("203.0.113.%d", i+1))
		}
		for i := range 100 {
			v6 = append(v6, fmt.Sprintf("2001:db8:5:%x::1", i))
		}
		n4, n6 := flood(v4, 5), flood(v6, 1)
		t.Logf("admitted: %d of 315 attempts from 63 addresses of one /24, %d of 100 from /64s of one /48", n4, n6)
		if n4 > limits.PerBlockPerHour || n6 > limits.PerBlockPerHour {
			t.Errorf("one /24 had %d tries admitted, one /48 %d; a block's budget is %d", n4, n6, limits.PerBlockPerHour)
		}
		if _, err := f.record(t, "198.51.100.20", "dental", whispertest.Recording(t)); err != nil {
			t.Errorf("a visitor from another network could not record a try: %v", err)
		}
		if _, err := f.svc.Type(ctx, "2001:db8:6::1", "dental", "I want to care for people."); err != nil {
			t.Errorf("a visitor from another /48 could not type a try: %v", err)
		}
	})
}

// A few tries an hour from one address, each scored before the next.
func TestTriesPerAddressPerHour(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db, tryout.Limits{PerAddressPerHour: 2, PerBlockPerHour: 100, OverallPerHour: 100, OverallTypedPerHour: 100, InProgressOverall: 100}, true)
		for range 2 {
			tr, err := f.svc.Type(ctx, "198.51.100.1", "dental", "I want to care for people's health and smiles.")
			if err != nil {
				t.Fatal(err)
			}
			f.waitScored(t, tr.ID)
		}
		_, err := f.svc.Type(ctx, "198.51.100.1", "dental", "A third answer this hour.")
		e, _ := apperr.As(err)
		if failureOf(err) != tryout.FailureTooManyFromNetwork.Name || e.RetryAfter <= 0 ||
			e.Message != "Too many tries from your network right now — sign up to keep practicing. You can try again in "+apperr.HumanDuration(e.RetryAfter)+"." {
			t.Fatalf("a third try in an hour: %v", err)
		}
		if _, err := f.svc.Type(ctx, "198.51.100.2", "dental", "Another network's answer."); err != nil {
			t.Errorf("another network was refused: %v", err)
		}
		f.now.Add(int64(time.Hour))
		if _, err := f.svc.Type(ctx, "198.51.100.1", "dental", "An hour later."); err != nil {
			t.Errorf("an hour later: %v", err)
		}
	})
}

// The addresses of one IPv6 /64, one subscriber's block, are one network:
// moving to the next address does not start a new count.
func TestTriesFromOneIPv6BlockShareTheirLimit(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db, tryout.Limits{PerAddressPerHour: 2, PerBlockPerHour: 100, OverallPerHour: 100, OverallTypedPerHour: 100, InProgressOverall: 100}, true)
		for _, address := range []string{"2001:db8:7:1::1", "2001:db8:7:1::2"} {
			tr, err := f.svc.Type(ctx, address, "dental", "I want to care for people's health and smiles.")
			if err != nil {
				t.Fatal(err)
			}
			f.waitScored(t, tr.ID)
		}
		if _, err := f.svc.Type(ctx, "2001:db8:7:1:ffff::3", "dental", "A third try from the same block."); failureOf(err) != tryout.FailureTooManyFromNetwork.Name {
			t.Fatalf("a third try from the same /64: %v", err)
		}
		if _, err := f.svc.Type(ctx, "2001:db8:7:2::1", "dental", "The next block's answer."); err != nil {
			t.Errorf("another /64 was refused: %v", err)
		}
	})
}

// A try lives for a day, then the sweep deletes it.
func TestTriesAreSweptAfterADay(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db, roomy, false)
		tr, err := f.svc.Type(ctx, "192.0.2.9", "medical", "I want to help people.")
		if err != nil {
			t.Fatal(err)
		}
		f.now.Add(int64(tryout.Lifetime - time.Minute))
		if n, err := f.svc.Sweep(ctx); err != nil || n != 0 {
			t.Fatalf("swept %d before its time: %v", n, err)
		}
		f.now.Add(int64(time.Minute))
		if _, err := f.svc.Get(ctx, tr.ID); apperr.KindOf(err) != apperr.KindNotFound {
			t.Errorf("an expired try is still read: %v", err)
		}
		if n, err := f.svc.Sweep(ctx); err != nil || n != 1 {
			t.Fatalf("swept %d: %v", n, err)
		}
	})
}

// tryout writes its own table and no other package's: carrying a try
// into an account goes through practice's API, wired by app.
func TestTryoutWritesOnlyItsOwnTable(t *testing.T) {
	t.Parallel()
	var tables []string
	for _, file := range []string{"store.go", "service.go", "jobs.go", "http.go", "tryout.go", "example.go"} {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		// The SQL is in raw strings; the words around it are not SQL.
		for _, sql := range regexp.MustCompile("`[^`]*`").FindAllString(string(src), -1) {
			for _, m := range regexp.MustCompile(`(?i)\b(?:FROM|INTO|UPDATE|JOIN|TABLE)\s+([a-z_]+)`).FindAllStringSubmatch(sql, -1) {
				if !slices.Contains(tables, m[1]) {
					tables = append(tables, m[1])
				}
			}
		}
	}
	if !slices.Equal(tables, []string{"tryout_answers"}) {
		t.Errorf("tryout's SQL names %v", tables)
	}
}

// A try is as honest as practice about what the engine may have misheard:
// the words are marked, and an answer it mostly could not hear has its
// content left unjudged instead of judged from misheard words.
func TestATrysMisheardWordsAreMarkedAndNotJudged(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db, roomy, true)
		f.whisper.SetWordProbabilities(0.1)
		tr, err := f.record(t, "203.0.113.9", "dental", whispertest.Recording(t))
		if err != nil {
			t.Fatal(err)
		}
		done := f.waitScored(t, tr.ID)
		var text strings.Builder
		marked := 0
		for _, p := range done.TranscriptParts {
			text.WriteString(p.Text)
			if p.Uncertain {
				marked++
			}
		}
		words := len(strings.Fields(spoken))
		if done.UncertainWords != words || marked != words || text.String() != spoken {
			t.Fatalf("%d uncertain words, %d marked, of %d; parts make %q", done.UncertainWords, marked, words, text.String())
		}
		if done.Feedback == nil || !done.Feedback.ContentUnjudged {
			t.Fatalf("every word in doubt, yet the content was judged: %+v", done.Feedback)
		}
	})
}

// Keeping a try that fails to reach the account loses nothing: the try is
// still there, and kept by the next attempt; once kept it is gone.
func TestATryThatCouldNotBeKeptCanBeKeptAgain(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db, roomy, true)
		ctx := context.Background()
		tr, err := f.svc.Type(ctx, "203.0.113.10", "dental", spoken)
		if err != nil {
			t.Fatal(err)
		}
		f.waitScored(t, tr.ID)
		broken := errors.New("the account's database is away")
		err = f.svc.Keep(ctx, auth.User{}, tr.ID, func(context.Context, auth.User, tryout.Kept) error { return broken })
		if !errors.Is(err, broken) {
			t.Fatalf("keep: %v, want the keeper's error", err)
		}
		var kept []string
		if err := f.svc.Keep(ctx, auth.User{}, tr.ID, func(_ context.Context, _ auth.User, k tryout.Kept) error {
			kept = append(kept, *k.Transcript)
			return nil
		}); err != nil {
			t.Fatalf("keep again: %v", err)
		}
		if len(kept) != 1 || kept[0] != spoken {
			t.Fatalf("kept %q", kept)
		}
		if _, err := f.svc.Get(ctx, tr.ID); apperr.KindOf(err) != apperr.KindNotFound {
			t.Errorf("a kept try is still here: %v", err)
		}
	})
}
