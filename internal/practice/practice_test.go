package practice_test

import (
	"context"
	"io"
	"log/slog"
	"math"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/billing"
	"github.com/whitecoat/whitecoat/internal/feedback/rubric"
	"github.com/whitecoat/whitecoat/internal/jobs"
	"github.com/whitecoat/whitecoat/internal/mail"
	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/question"
	"github.com/whitecoat/whitecoat/internal/ratelimit"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
	"github.com/whitecoat/whitecoat/internal/transcribe"
	"github.com/whitecoat/whitecoat/internal/transcribe/whispertest"
)

const spoken = "I want to become a dentist because shadowing Dr. Patel showed me how much trust matters. " +
	"When a nervous patient came in, I learned that explaining each step calmed her, and I realised communication is half the work."

// bankSource serves the built-in question bank, the same data the store
// seeds, so selection runs on real questions.
type bankSource struct{}

func (bankSource) Questions(_ context.Context, slug string) ([]question.Question, error) {
	all, err := question.Bank()
	if err != nil {
		return nil, err
	}
	var out []question.Question
	for i, q := range all {
		if q.HasTag(slug) {
			q.ID = q.SeedKey + "-" + string(rune('a'+i%26))
			out = append(out, q)
		}
	}
	return out, nil
}

type fixture struct {
	db      *store.DB
	svc     *practice.Service
	auth    *auth.Service
	whisper *whispertest.Server
	audio   string
}

func newFixture(t *testing.T, db *store.DB, tweak func(*practice.Config)) *fixture {
	t.Helper()
	return newFixtureClocked(t, db, time.Now, tweak)
}

// newFixtureClocked is newFixture with the service's clock.
func newFixtureClocked(t *testing.T, db *store.DB, now func() time.Time, tweak func(*practice.Config)) *fixture {
	t.Helper()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	whisper := whispertest.Start(t, spoken)
	sc := transcribe.DefaultConfig()
	sc.Engine = transcribe.EngineOpenAI
	// As in the app, the engine works in the directory the recordings wait in.
	sc.TempDir = t.TempDir()
	sc.OpenAI.BaseURL, sc.OpenAI.APIKey = whisper.URL, "test-key"
	sc.OpenAI.MaxRetries = 0 // River retries; the engine should not hide outages
	speech, err := transcribe.New(sc, logger)
	if err != nil {
		t.Fatal(err)
	}
	f := newFixtureAt(t, db, speech, now, func(c *practice.Config) {
		c.AudioDir = sc.TempDir
		if tweak != nil {
			tweak(c)
		}
	})
	f.whisper = whisper
	return f
}

// newFixtureWith runs the practice service with the given speech engine.
func newFixtureWith(t *testing.T, db *store.DB, speech transcribe.Engine, tweak func(*practice.Config)) *fixture {
	t.Helper()
	return newFixtureAt(t, db, speech, time.Now, tweak)
}

// newFixtureAt is newFixtureWith with the service's clock.
func newFixtureAt(t *testing.T, db *store.DB, speech transcribe.Engine, now func() time.Time, tweak func(*practice.Config)) *fixture {
	t.Helper()
	return newFixtureWorking(t, db, speech, now, tweak, true)
}

// newIdleFixture runs the practice service with no job worker and no
// speech engine: the jobs its changes queue stay queued for a test to read.
func newIdleFixture(t *testing.T, db *store.DB) *fixture {
	t.Helper()
	return newFixtureWorking(t, db, nil, time.Now, nil, false)
}

// newFixtureWorking is newFixtureAt, with the jobs worked or not.
func newFixtureWorking(t *testing.T, db *store.DB, speech transcribe.Engine, now func() time.Time, tweak func(*practice.Config), work bool) *fixture {
	t.Helper()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	scorer := rubric.New()
	cfg := practice.Config{AnswerLimit: 3 * time.Minute, AudioDir: t.TempDir(), MaxAudioBytes: 25 << 20,
		DailyAnswerLimit: 100, AudioMaxAge: time.Hour, MaxAttempts: 25}
	if tweak != nil {
		tweak(&cfg)
	}
	opts := jobs.Options{}
	if work {
		opts = jobs.Options{Workers: river.NewWorkers(), MaxWorkers: 4, Queues: map[string]int{practice.AdvanceQueue: practice.AdvanceWorkers},
			PollInterval: 50 * time.Millisecond, JobTimeout: 30 * time.Second, RescueAfter: time.Minute}
	}
	client, err := jobs.New(db, logger, opts)
	if err != nil {
		t.Fatal(err)
	}
	authSvc := auth.NewService(db, &mail.LogMailer{Logger: logger}, ratelimit.New(db, time.Now), logger, time.Now, auth.Config{
		BaseURL: &url.URL{Scheme: "http", Host: "localhost"}, IdleTimeout: time.Hour, AbsoluteTimeout: time.Hour,
		Argon2: auth.Argon2Params{MemoryKiB: 8192, Iterations: 1, Parallelism: 1}, RateWindow: time.Minute, PerAccount: 100, PerIP: 100})
	svc := practice.NewService(db, client, authSvc, billing.NewEntitlements(authSvc, practice.UsedSessionCounter{}, now), bankSource{}, speech, scorer, logger, now, cfg)
	if work {
		practice.AddWorkers(opts.Workers, svc)
		if err := client.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_ = jobs.Stop(ctx, client)
		})
	}
	return &fixture{db: db, svc: svc, auth: authSvc, audio: cfg.AudioDir}
}

// user creates a verified account and returns a function that reloads it,
// as each HTTP request would.
func (f *fixture) user(t *testing.T, email string) func() auth.User {
	t.Helper()
	ctx := context.Background()
	if _, err := f.auth.CreateUser(ctx, "Student", email, "a long enough passphrase", auth.RoleUser); err != nil {
		t.Fatal(err)
	}
	signIn, err := f.auth.Login(ctx, email, "a long enough passphrase", auth.Client{IP: "127.0.0.1"}, "")
	if err != nil {
		t.Fatal(err)
	}
	token := signIn.SessionToken
	return func() auth.User {
		u, _, err := f.auth.Authenticate(ctx, token)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
}

// stats are u's stat cards as the dashboard shows them.
func (f *fixture) stats(t *testing.T, u auth.User) practice.Stats {
	t.Helper()
	d, err := f.svc.Dashboard(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	return d.Stats
}

func recording(t *testing.T) []byte { return whispertest.Recording(t) }

// start starts a random dental session of n questions, answered aloud.
func (f *fixture) start(t *testing.T, u auth.User, n int) practice.Session {
	t.Helper()
	s, err := f.svc.Create(context.Background(), u, practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "random", QuestionCount: n})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func (f *fixture) upload(t *testing.T, u auth.User, s practice.Session, i int) {
	t.Helper()
	if _, err := f.svc.Upload(context.Background(), u, s.ID, s.Items[i].ID, "audio/webm;codecs=opus", strings.NewReader(string(recording(t)))); err != nil {
		t.Fatalf("upload item %d: %v", i, err)
	}
}

func (f *fixture) waitProcessed(t *testing.T, u auth.User, id string) practice.Session {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		s, err := f.svc.Get(context.Background(), u, id)
		if err != nil {
			t.Fatal(err)
		}
		if !s.Processing {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("session still processing: %+v", s.Items)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func wantKind(t *testing.T, err error, kind apperr.Kind, msg string) {
	t.Helper()
	e, ok := apperr.As(err)
	if !ok || e.Kind != kind || (msg != "" && !strings.Contains(e.Message, msg)) {
		t.Fatalf("got %v, want kind %d with %q", err, kind, msg)
	}
}

func yes() *bool { b := true; return &b }

// textOf is an answer's transcript as text, "" when there is none.
func textOf(transcript *string) string {
	if transcript == nil {
		return ""
	}
	return *transcript
}

func TestCreateChoosesQuestionsOnTheServer(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db, nil)
		u := f.user(t, "ana@example.com")()
		ctx := context.Background()
		s, err := f.svc.Create(ctx, u, practice.CreateInput{Profession: "Dental", Mode: "audio", InterviewType: "random", QuestionCount: 5, Big3: yes()})
		if err != nil {
			t.Fatal(err)
		}
		if s.Profession != "dental" || len(s.Items) != 5 || s.QuestionCount != 5 || !s.Big3 || s.AnswerLimitSeconds != 180 {
			t.Fatalf("session %+v", s)
		}
		for i, want := range []int{1, 2, 3, 0, 0} {
			if s.Items[i].Big3Order != want || s.Items[i].Status != practice.StatusPending || s.Items[i].Question == "" {
				t.Fatalf("item %d: %+v", i, s.Items[i])
			}
		}
		if s.Items[1].Question != "Why do you want to become a dentist?" {
			t.Fatalf("second Big 3 question %q", s.Items[1].Question)
		}

		custom, err := f.svc.Create(ctx, u, practice.CreateInput{Profession: "medical", Mode: "video", InterviewType: "custom", Big3: yes(),
			Questions: []practice.CustomQuestion{{"  Tell me about a  failure. "}, {""}, {"tell me about a failure."}, {"Why medicine?"}}})
		if err != nil {
			t.Fatal(err)
		}
		if custom.Big3 || custom.QuestionCount != 2 || custom.Items[0].Question != "Tell me about a failure." {
			t.Fatalf("custom session %+v", custom)
		}

		// A guide's "Practice an ethics scenario" asks for ethics questions.
		no := false
		ethics, err := f.svc.Create(ctx, u, practice.CreateInput{Profession: "pa", Mode: "audio", InterviewType: "random", QuestionCount: 3, Big3: &no, Focus: question.Ethical})
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range ethics.Items {
			if it.Subtag != string(question.Ethical) {
				t.Fatalf("a session focused on ethics asked %q (%s)", it.Question, it.Subtag)
			}
		}

		for _, tc := range []struct {
			in   practice.CreateInput
			kind apperr.Kind
			msg  string
		}{
			{practice.CreateInput{Profession: "astronaut", Mode: "audio", InterviewType: "random"}, apperr.KindInvalid, "Unknown profession"},
			{practice.CreateInput{Profession: "dental", Mode: "hologram", InterviewType: "random"}, apperr.KindInvalid, "video or audio"},
			{practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "random", QuestionCount: 11}, apperr.KindInvalid, "between 1 and 10"},
			{practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "chaos"}, apperr.KindInvalid, "random or custom"},
			{practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "random", Focus: "Gossip"}, apperr.KindInvalid, `Unknown question focus "Gossip"`},
			{practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "custom", Questions: []practice.CustomQuestion{{" "}}}, apperr.KindInvalid, "at least one"},
			{practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "custom", Questions: eleven()}, apperr.KindInvalid, "at most 10"},
		} {
			_, err := f.svc.Create(ctx, u, tc.in)
			wantKind(t, err, tc.kind, tc.msg)
		}
	})
}

func eleven() []practice.CustomQuestion {
	var qs []practice.CustomQuestion
	for i := range 11 {
		qs = append(qs, practice.CustomQuestion{Text: "Question number " + string(rune('A'+i))})
	}
	return qs
}

func TestEachAnswerIsProcessedAndStatsApplyOnce(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db, nil)
		reload := f.user(t, "ana@example.com")
		ctx := context.Background()
		s, err := f.svc.Create(ctx, reload(), practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "random", QuestionCount: 3})
		if err != nil {
			t.Fatal(err)
		}
		f.upload(t, reload(), s, 0)
		f.upload(t, reload(), s, 1)
		if _, err := f.svc.Skip(ctx, reload(), s.ID, s.Items[2].ID); err != nil {
			t.Fatal(err)
		}
		// The first answers are processed while the session is still going.
		mid := f.waitProcessed(t, reload(), s.ID)
		if mid.Status != practice.SessionActive || mid.Items[0].Status != practice.StatusDone {
			t.Fatalf("answers not processed before completion: %+v", mid.Items)
		}
		done, err := f.svc.Complete(ctx, reload(), s.ID, 321)
		if err != nil {
			t.Fatal(err)
		}
		if done.Status != practice.SessionCompleted || done.TotalSessionTime != 321 {
			t.Fatalf("completed session %+v", done)
		}
		final := f.waitProcessed(t, reload(), s.ID)
		// A client stops polling here: the average and the stats must be in.
		if final.AverageScore == nil || f.stats(t, reload()).SessionsCompleted != 1 {
			t.Fatalf("no longer processing, but average %v and %d sessions completed", final.AverageScore, f.stats(t, reload()).SessionsCompleted)
		}
		for _, it := range final.Items[:2] {
			if it.Status != practice.StatusDone || it.Transcript == nil || *it.Transcript != spoken || it.Feedback == nil || it.Metrics == nil ||
				it.Meaningful == nil || !*it.Meaningful || len(it.Feedback.Suggestions) == 0 {
				t.Fatalf("processed item %+v", it)
			}
		}
		if final.Items[2].Status != practice.StatusSkipped {
			t.Fatalf("skipped item %+v", final.Items[2])
		}
		if entries, _ := os.ReadDir(f.audio); len(entries) != 0 {
			t.Fatalf("%d recordings left in the temp directory", len(entries))
		}

		// Stats: once, even when finalisation runs many times at once.
		f.waitStats(t, reload, 1)
		var wg sync.WaitGroup
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := f.svc.Finalize(ctx, s.ID); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		if _, err := f.svc.Complete(ctx, reload(), s.ID, 999); err != nil {
			t.Fatal(err)
		}
		u := reload()
		if st := f.stats(t, u); st.SessionsCompleted != 1 || st.QuestionsPracticed != 2 || u.UsageCount != 2 {
			t.Fatalf("stats after repeated finalisation: completed=%d practiced=%d usage=%d", st.SessionsCompleted, st.QuestionsPracticed, u.UsageCount)
		}
		wantAvg := int(math.Round(float64(final.Items[0].Feedback.OverallScore+final.Items[1].Feedback.OverallScore) / 2))
		d, err := f.svc.Dashboard(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		if d.Stats.AverageScore != wantAvg {
			t.Fatalf("dashboard average %d, want %d", d.Stats.AverageScore, wantAvg)
		}
	})
}

func (f *fixture) waitStats(t *testing.T, reload func() auth.User, completed int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for f.stats(t, reload()).SessionsCompleted < completed {
		if time.Now().After(deadline) {
			t.Fatalf("stats never reached %d completed sessions", completed)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// The summary compares a session with the one completed before it that
// has an average: a weaker session after a stronger one shows the drop,
// a session after one whose answers all failed has nothing to compare,
// and a third session compares with the second, not the first.
func TestImprovementComparesWithThePreviousScoredSession(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db, nil)
		reload := f.user(t, "ana@example.com")
		ctx := context.Background()
		f.givePass(t, "ana@example.com")
		in := practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "random", QuestionCount: 1}
		run := func(audio []byte) practice.Session {
			s, err := f.svc.Create(ctx, reload(), in)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.svc.Upload(ctx, reload(), s.ID, s.Items[0].ID, "audio/webm", strings.NewReader(string(audio))); err != nil {
				t.Fatal(err)
			}
			if _, err := f.svc.Complete(ctx, reload(), s.ID, 60); err != nil {
				t.Fatal(err)
			}
			return f.waitProcessed(t, reload(), s.ID)
		}
		if failed := run(recording(t)[:200]); failed.AverageScore != nil || failed.Improvement != nil {
			t.Fatalf("session without a scored answer: average %v, improvement %v", failed.AverageScore, failed.Improvement)
		}
		first := run(recording(t))
		if first.Items[0].Feedback == nil || first.Improvement != nil {
			t.Fatalf("first scored session: improvement %v, item %+v", first.Improvement, first.Items[0])
		}
		f.whisper.SetText("I like teeth. Um, I think dentists are good, you know, and um I want a job.")
		second := run(recording(t))
		if second.Items[0].Feedback == nil {
			t.Fatalf("answer not scored: %+v", second.Items[0])
		}
		before, after := first.Items[0].Feedback.OverallScore, second.Items[0].Feedback.OverallScore
		if before == after {
			t.Fatalf("both answers scored %d: the test needs different scores", before)
		}
		if second.Improvement == nil || *second.Improvement != after-before {
			t.Fatalf("improvement %v after %d then %d, want %d", second.Improvement, before, after, after-before)
		}
		// The third compares with the second, not with the first: the
		// oldest and the previous scored sessions differ only from now on.
		f.whisper.SetText(spoken)
		third := run(recording(t))
		if third.Items[0].Feedback == nil {
			t.Fatalf("answer not scored: %+v", third.Items[0])
		}
		latest := third.Items[0].Feedback.OverallScore
		if third.Improvement == nil {
			t.Fatal("no improvement after two scored sessions")
		}
		if *third.Improvement != latest-after {
			t.Fatalf("improvement %d after %d, %d then %d, want %d (against the previous session, not the oldest)",
				*third.Improvement, before, after, latest, latest-after)
		}
	})
}

// givePass gives each account a year of Premium, as support would, so
// that the trial's two free sessions do not limit the test.
func (f *fixture) givePass(t *testing.T, emails ...string) {
	t.Helper()
	for _, email := range emails {
		if _, err := billing.GrantPass(context.Background(), f.db, f.auth, email, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
}

// practise runs a whole session for who: created from in, every answer
// uploaded (the fake speech service hears text), completed and processed.
func (f *fixture) practise(t *testing.T, who func() auth.User, text string, in practice.CreateInput) practice.Session {
	t.Helper()
	ctx := context.Background()
	f.whisper.SetText(text)
	s, err := f.svc.Create(ctx, who(), in)
	if err != nil {
		t.Fatal(err)
	}
	for i := range s.Items {
		f.upload(t, who(), s, i)
	}
	if _, err := f.svc.Complete(ctx, who(), s.ID, 60); err != nil {
		t.Fatal(err)
	}
	time.Sleep(5 * time.Millisecond) // sessions are ordered by when they started
	return f.waitProcessed(t, who(), s.ID)
}

// customSession is an audio session of the given questions.
func customSession(profession string, questions ...string) practice.CreateInput {
	in := practice.CreateInput{Profession: profession, Mode: "audio", InterviewType: "custom"}
	for _, q := range questions {
		in.Questions = append(in.Questions, practice.CustomQuestion{Text: q})
	}
	return in
}

// A bank question picked in the custom builder is the bank's question, not
// only its words: it keeps its subtag, tip and Big 3 kind, so the same
// answer scores the same whether the question was drawn or picked
// (issue 29 item 7).
func TestABankQuestionPickedInTheBuilderKeepsWhatItIs(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db, nil)
		no := false
		const answer = "I would not keep it quiet. I would ask the resident to correct the note, and if she would not, I would tell the attending."
		for name, drawn := range map[string]practice.CreateInput{
			"big 3":   {Profession: "dental", Mode: "audio", InterviewType: "random", QuestionCount: 1, Big3: yes()},
			"ethical": {Profession: "dental", Mode: "audio", InterviewType: "random", QuestionCount: 1, Big3: &no, Focus: question.Ethical},
		} {
			ana := f.user(t, strings.ReplaceAll(name, " ", "")+"@example.com") // two free sessions each
			random := f.practise(t, ana, answer, drawn)
			want := random.Items[0]
			if want.Subtag == "" && want.Big3Order == 0 || want.Tip == "" || want.Feedback == nil {
				t.Fatalf("%s: the drawn question has nothing to lose: %+v", name, want)
			}
			// As the builder sends it: the bank's words, spaced and cased as typed.
			picked := f.practise(t, ana, answer, customSession("dental", "  "+strings.ToUpper(want.Question[:1])+want.Question[1:]+" "))
			got := picked.Items[0]
			if got.Question != want.Question || got.Subtag != want.Subtag || got.Tip != want.Tip || got.Scenario != want.Scenario || got.Big3Order != want.Big3Order {
				t.Errorf("%s: picked %q as subtag %q, tip %q, Big 3 %d; drawn it is subtag %q, tip %q, Big 3 %d", name, got.Question,
					got.Subtag, got.Tip, got.Big3Order, want.Subtag, want.Tip, want.Big3Order)
			}
			if got.Feedback == nil {
				t.Fatalf("%s: the picked question's answer was not scored: %+v", name, got)
			}
			if got.Feedback.OverallScore != want.Feedback.OverallScore {
				t.Errorf("%s: the same answer scored %d picked and %d drawn", name, got.Feedback.OverallScore, want.Feedback.OverallScore)
			}
		}
	})
}
