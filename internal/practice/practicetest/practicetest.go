// Package practicetest runs the practice loop for tests, as the app runs
// it: a real database, the job worker, the rubric, a speech service that
// speaks Whisper's HTTP API (whispertest), and the student's record
// (internal/history) that the sessions feed. Practice's and history's
// tests both build on it.
package practicetest

import (
	"context"
	"io"
	"log/slog"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/billing"
	"github.com/whitecoat/whitecoat/internal/feedback/rubric"
	"github.com/whitecoat/whitecoat/internal/history"
	"github.com/whitecoat/whitecoat/internal/jobs"
	"github.com/whitecoat/whitecoat/internal/mail"
	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/question"
	"github.com/whitecoat/whitecoat/internal/ratelimit"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/transcribe"
	"github.com/whitecoat/whitecoat/internal/transcribe/whispertest"
)

// Spoken is what the fake speech service hears, unless a test says
// otherwise (Fixture.Whisper.SetText).
const Spoken = "I want to become a dentist because shadowing Dr. Patel showed me how much trust matters. " +
	"When a nervous patient came in, I learned that explaining each step calmed her, and I realised communication is half the work."

// Two answers to "Why dentistry?": a weak one, as a speech engine that
// misheard the student might give it, and the strong one they meant.
const (
	Misheard  = "I like teeth. Um, I think dentists are good, you know, and um I want a job."
	Corrected = "I want to become a dentist because of the year I spent volunteering at a community clinic. " +
		"I saw a frightened patient relax when the dentist explained each step, and I realised that earning trust is the heart of the work. " +
		"Since then I have shadowed three dentists, learned how a practice runs, and I know I want to spend my career helping patients feel safe and cared for."
)

// BankSource serves the built-in question bank, the same data the store
// seeds, so selection runs on real questions.
type BankSource struct{}

// Questions implements practice.QuestionSource.
func (BankSource) Questions(_ context.Context, slug string) ([]question.Question, error) {
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

// Fixture is a running practice loop with the record it feeds.
type Fixture struct {
	DB       *store.DB
	Practice *practice.Service
	History  *history.Service
	Auth     *auth.Service
	// Whisper is the fake speech service (nil when the fixture was given
	// an engine of the test's own).
	Whisper *whispertest.Server
	// Audio is the directory recordings wait in.
	Audio string
}

// New runs the practice loop on db, its speech engine the fake Whisper
// service hearing Spoken; tweak, if not nil, changes the configuration.
func New(t *testing.T, db *store.DB, tweak func(*practice.Config)) *Fixture {
	t.Helper()
	return NewClocked(t, db, time.Now, tweak)
}

// NewClocked is New with the service's clock.
func NewClocked(t *testing.T, db *store.DB, now func() time.Time, tweak func(*practice.Config)) *Fixture {
	t.Helper()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	whisper := whispertest.Start(t, Spoken)
	sc := transcribe.DefaultConfig()
	sc.Engine = transcribe.EngineOpenAI
	// As in the app, the engine works in the directory the recordings wait in.
	sc.TempDir = t.TempDir()
	sc.OpenAI.BaseURL, sc.OpenAI.APIKey = whisper.URL, "test-key"
	sc.OpenAI.MaxRetries = 0 // River retries; the engine should not hide outages
	sc.OpenAI.Align = false  // the fake service alone; tests that align wrap it with an Aligner
	speech, err := transcribe.New(sc, logger)
	if err != nil {
		t.Fatal(err)
	}
	f := NewAt(t, db, speech, now, func(c *practice.Config) {
		c.AudioDir = sc.TempDir
		if tweak != nil {
			tweak(c)
		}
	})
	f.Whisper = whisper
	return f
}

// NewWith runs the practice loop with the given speech engine.
func NewWith(t *testing.T, db *store.DB, speech transcribe.Engine, tweak func(*practice.Config)) *Fixture {
	t.Helper()
	return NewAt(t, db, speech, time.Now, tweak)
}

// NewAt is NewWith with the service's clock.
func NewAt(t *testing.T, db *store.DB, speech transcribe.Engine, now func() time.Time, tweak func(*practice.Config)) *Fixture {
	t.Helper()
	return newWorking(t, db, speech, now, tweak, true)
}

// NewIdle runs the practice service with no job worker and no speech
// engine: the jobs its changes queue stay queued for a test to read.
func NewIdle(t *testing.T, db *store.DB) *Fixture {
	t.Helper()
	return newWorking(t, db, nil, time.Now, nil, false)
}

// newWorking is NewAt, with the jobs worked or not.
func newWorking(t *testing.T, db *store.DB, speech transcribe.Engine, now func() time.Time, tweak func(*practice.Config), work bool) *Fixture {
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
	access := billing.NewEntitlements(authSvc, practice.UsedSessionCounter{}, now)
	svc := practice.NewService(db, client, authSvc, access, BankSource{}, history.Copies{}, speech, scorer, logger, now, cfg)
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
	return &Fixture{DB: db, Practice: svc, History: history.NewService(db, svc, access), Auth: authSvc, Audio: cfg.AudioDir}
}

// User creates a verified account and returns a function that reloads it,
// as each HTTP request would.
func (f *Fixture) User(t *testing.T, email string) func() auth.User {
	t.Helper()
	ctx := context.Background()
	if _, err := f.Auth.CreateUser(ctx, "Student", email, "a long enough passphrase", auth.RoleUser); err != nil {
		t.Fatal(err)
	}
	signIn, err := f.Auth.Login(ctx, email, "a long enough passphrase", auth.Client{IP: "127.0.0.1"}, "")
	if err != nil {
		t.Fatal(err)
	}
	token := signIn.SessionToken
	return func() auth.User {
		u, _, err := f.Auth.Authenticate(ctx, token)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
}

// Stats are u's stat cards as the dashboard shows them.
func (f *Fixture) Stats(t *testing.T, u auth.User) practice.Stats {
	t.Helper()
	d, err := f.History.Dashboard(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	return d.Stats
}

// WaitStats waits until the dashboard counts completed sessions.
func (f *Fixture) WaitStats(t *testing.T, reload func() auth.User, completed int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for f.Stats(t, reload()).SessionsCompleted < completed {
		if time.Now().After(deadline) {
			t.Fatalf("stats never reached %d completed sessions", completed)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Recording is a short recorded answer, as a browser uploads it.
func Recording(t *testing.T) []byte { return whispertest.Recording(t) }

// Start starts a random dental session of n questions, answered aloud.
func (f *Fixture) Start(t *testing.T, u auth.User, n int) practice.Session {
	t.Helper()
	s, err := f.Practice.Create(context.Background(), u, practice.CreateInput{Profession: "dental", Mode: "audio", InterviewType: "random", QuestionCount: n})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Upload sends Recording as the answer to question i of s, admitted and
// stored as a PUT is.
func (f *Fixture) Upload(t *testing.T, u auth.User, s practice.Session, i int) {
	t.Helper()
	ctx := context.Background()
	it, err := f.Practice.AdmitAnswer(ctx, u, s.ID, s.Items[i].ID)
	if err == nil {
		_, err = f.Practice.UploadAdmitted(ctx, u, it, "audio/webm;codecs=opus", strings.NewReader(string(Recording(t))))
	}
	if err != nil {
		t.Fatalf("upload item %d: %v", i, err)
	}
}

// WaitProcessed waits until no answer of u's session id is in progress.
func (f *Fixture) WaitProcessed(t *testing.T, u auth.User, id string) practice.Session {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		s, err := f.Practice.Get(context.Background(), u, id)
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

// GivePass gives each account a year of Premium, as support would, so
// that the trial's two free sessions do not limit the test.
func (f *Fixture) GivePass(t *testing.T, emails ...string) {
	t.Helper()
	for _, email := range emails {
		if _, err := billing.GrantPass(context.Background(), f.DB, f.Auth, email, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
}

// EndTrial ends the trial of the account with email a minute ago.
func EndTrial(t *testing.T, db *store.DB, email string) {
	t.Helper()
	if _, err := db.SQL.ExecContext(context.Background(), `UPDATE users SET trial_expires_at = $1 WHERE email = $2`,
		store.Now().Add(-time.Minute), email); err != nil {
		t.Fatal(err)
	}
}

// Practise runs a whole session for who: created from in, every answer
// uploaded (the fake speech service hears text), completed and processed.
func (f *Fixture) Practise(t *testing.T, who func() auth.User, text string, in practice.CreateInput) practice.Session {
	t.Helper()
	ctx := context.Background()
	f.Whisper.SetText(text)
	s, err := f.Practice.Create(ctx, who(), in)
	if err != nil {
		t.Fatal(err)
	}
	for i := range s.Items {
		f.Upload(t, who(), s, i)
	}
	if _, err := f.Practice.Complete(ctx, who(), s.ID, 60); err != nil {
		t.Fatal(err)
	}
	time.Sleep(5 * time.Millisecond) // sessions are ordered by when they started
	return f.WaitProcessed(t, who(), s.ID)
}

// CustomSession is an audio session of the given questions.
func CustomSession(profession string, questions ...string) practice.CreateInput {
	in := practice.CreateInput{Profession: profession, Mode: "audio", InterviewType: "custom"}
	for _, q := range questions {
		in.Questions = append(in.Questions, practice.CustomQuestion{Text: q})
	}
	return in
}

// WantKind fails unless err is an apperr of kind whose message contains
// msg.
func WantKind(t *testing.T, err error, kind apperr.Kind, msg string) {
	t.Helper()
	e, ok := apperr.As(err)
	if !ok || e.Kind != kind || (msg != "" && !strings.Contains(e.Message, msg)) {
		t.Fatalf("got %v, want kind %d with %q", err, kind, msg)
	}
}

// TextOf is an answer's transcript as text, "" when there is none.
func TextOf(transcript *string) string {
	if transcript == nil {
		return ""
	}
	return *transcript
}
