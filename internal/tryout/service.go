package tryout

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/whitecoat/whitecoat/internal/answer"
	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/profession"
	"github.com/whitecoat/whitecoat/internal/ratelimit"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/transcribe"
)

// Jobs is what the service queues its work on.
type Jobs interface {
	InsertTx(ctx context.Context, tx *sql.Tx, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error)
}

// Service runs tries: it admits them within the limits, queues their
// recognition and scoring behind students' answers, and sweeps them.
type Service struct {
	db      *store.DB
	jobs    Jobs
	limiter *ratelimit.Limiter
	speech  transcribe.Engine
	scorer  feedback.Engine
	logger  *slog.Logger
	now     func() time.Time
	limits  Limits
}

// NewService runs tries on db with the engines students' answers use.
func NewService(db *store.DB, jobs Jobs, limiter *ratelimit.Limiter, speech transcribe.Engine, scorer feedback.Engine, logger *slog.Logger, now func() time.Time, limits Limits) *Service {
	return &Service{db: db, jobs: jobs, limiter: limiter, speech: speech, scorer: scorer, logger: logger, now: now, limits: limits}
}

// Admission is a try the limits let in: to a profession's question, from
// a network, counted against this hour's limits.
type Admission struct {
	profession profession.Profession
	network    string // the hash of the address's network
}

// Admit counts a try of kind from address to slug's question against the
// hourly limits and refuses it when they are spent or when its network,
// or everyone, already has as many tries in progress as allowed. Its
// network's and block's budgets count every attempt; the overall cap only
// the tries those and the tries in progress let through, so that what a
// busy network is refused spends nobody else's tries. A recording is
// admitted before its body is read (see admitRecording); start checks the
// tries in progress again, atomically, when it stores the try. Addresses
// are counted by network (an IPv6 address's /64; see ratelimit.Network)
// and block (a /24 or /48; ratelimit.Block).
func (s *Service) Admit(ctx context.Context, address, slug, kind string) (Admission, error) {
	p, ok := profession.Lookup(slug)
	if !ok {
		return Admission{}, apperr.NotFound(fmt.Sprintf(MsgUnknownProfession, slug))
	}
	a := Admission{profession: p, network: hash(ratelimit.Network(address))}
	if err := s.hit(ctx, "tryout:address:"+a.network, s.limits.PerAddressPerHour, FailureTooManyFromNetwork); err != nil {
		return Admission{}, err
	}
	if err := s.hit(ctx, "tryout:block:"+hash(ratelimit.Block(address)), s.limits.PerBlockPerHour, FailureTooManyFromNetwork); err != nil {
		return Admission{}, err
	}
	if err := s.roomFor(ctx, s.db.SQL, a); err != nil {
		return Admission{}, err
	}
	overallKey, overallLimit := "tryout:overall", s.limits.OverallPerHour
	if kind == answer.KindTyped {
		overallKey, overallLimit = "tryout:overall:typed", s.limits.OverallTypedPerHour
	}
	if err := s.hit(ctx, overallKey, overallLimit, FailureTooManyOverall); err != nil {
		return Admission{}, err
	}
	return a, nil
}

// roomFor refuses a's try when its network already has a try in progress,
// or everyone has InProgressOverall.
func (s *Service) roomFor(ctx context.Context, q store.Queryer, a Admission) error {
	overall, fromNetwork, err := countInProgress(ctx, q, a.network)
	switch {
	case err != nil:
		return err
	case fromNetwork > 0:
		return tooMany(FailureTooManyFromNetwork, time.Minute)
	case overall >= s.limits.InProgressOverall:
		return tooMany(FailureTooManyOverall, time.Minute)
	}
	return nil
}

// Record stores the admitted spoken try: the recording's first bytes must
// be an accepted container (the speech engine checks the rest, with the
// protections every upload has).
func (s *Service) Record(ctx context.Context, a Admission, mimeType string, audio []byte) (Try, error) {
	if _, ok := transcribe.Sniff(audio[:min(len(audio), transcribe.SniffLen)]); !ok {
		return Try{}, apperr.Invalid("body", MsgNotARecord)
	}
	return s.start(ctx, a, stored{Try: Try{Answer: answer.Answer{Kind: answer.KindSpoken}}, audio: audio, audioMIME: mimeType}, answer.EventRecorded)
}

// Type admits a typed try from address and stores it.
func (s *Service) Type(ctx context.Context, address, slug, text string) (Try, error) {
	text = strings.TrimSpace(text)
	switch {
	case text == "":
		return Try{}, apperr.Invalid("text", MsgTypedEmpty)
	case utf8.RuneCountInString(text) > MaxTypedChars:
		return Try{}, apperr.Invalid("text", "A typed answer must be at most %d characters.", MaxTypedChars)
	}
	a, err := s.Admit(ctx, address, slug, answer.KindTyped)
	if err != nil {
		return Try{}, err
	}
	// Typed, the answer is its own transcript: it goes straight to
	// scoring, or is done at once when nothing in it is an answer.
	meaningful, event := transcribe.Meaningful(text), answer.EventWritten
	if !meaningful {
		event = answer.EventWrittenEmpty
	}
	return s.start(ctx, a, stored{Try: Try{Answer: answer.Answer{Kind: answer.KindTyped, Transcript: &text, Meaningful: &meaningful}}}, event)
}

// start stores the admitted try t and moves it by event, queueing its
// first step, once the tries in progress leave room for it: counted and
// stored under one lock, so that parallel requests cannot each count the
// room one of them takes (on PostgreSQL two transactions would otherwise
// both count the old total).
func (s *Service) start(ctx context.Context, a Admission, t stored, event answer.Event) (Try, error) {
	token := newToken()
	now := s.now()
	t.ID, t.Profession, t.Question, t.FollowUps, t.Status, t.ExpiresAt = hash(token), a.profession.Slug, a.profession.DefaultQuestion, []string{}, answer.StatusPending, store.Truncate(now.Add(Lifetime))
	err := s.db.WithTx(ctx, func(tx *sql.Tx) error {
		if err := s.db.Lock(ctx, tx, inProgressLock); err != nil {
			return err
		}
		if err := s.roomFor(ctx, tx, a); err != nil {
			return err
		}
		if err := insertTry(ctx, tx, t, a.network, now); err != nil {
			return err
		}
		var err error
		t.Status, err = s.moveTx(ctx, tx, t.ID, event, nil)
		return err
	})
	if err != nil {
		return Try{}, err
	}
	t.ID = token
	return t.Try, nil
}

// move is event on the try with id, as answer.TransitionOf says, with
// update writing what the step found out and the next step queued, in one
// transaction; it reports false when the event does not apply to the
// try's status (a second delivery of the same job got there first).
func (s *Service) move(ctx context.Context, id string, event answer.Event, update func(tx *sql.Tx) error) (bool, error) {
	var moved bool
	err := s.db.WithTx(ctx, func(tx *sql.Tx) error {
		to, err := s.moveTx(ctx, tx, id, event, update)
		moved = to != ""
		return err
	})
	return moved, err
}

// moveTx makes the move inside tx; the status the try moved to, "" when
// the event did not apply.
func (s *Service) moveTx(ctx context.Context, tx *sql.Tx, id string, event answer.Event, update func(tx *sql.Tx) error) (answer.Status, error) {
	t, ok := answer.TransitionOf(event)
	if !ok {
		return "", fmt.Errorf("tryout: no transition for the event %q", event)
	}
	moved, err := setStatus(ctx, tx, id, t.To, t.From)
	if err != nil || !moved {
		return "", err
	}
	if update != nil {
		if err := update(tx); err != nil {
			return "", err
		}
	}
	// Behind students' answers: a queue of its own, at a lower priority.
	opts := &river.InsertOpts{Queue: Queue, MaxAttempts: 3, Priority: 4}
	switch t.Next {
	case answer.StepTranscribe:
		_, err = s.jobs.InsertTx(ctx, tx, TranscribeArgs{ID: id}, opts)
	case answer.StepScore:
		_, err = s.jobs.InsertTx(ctx, tx, ScoreArgs{ID: id}, opts)
	}
	if err != nil {
		return "", fmt.Errorf("tryout: queue the next step: %w", err)
	}
	return t.To, nil
}

// inProgressLock serializes storing tries (store.Lock): one lock for all,
// since the overall count is everyone's.
const inProgressLock = "tryout:in-progress"

// hit counts one try against key, refused as failure past limit an hour.
func (s *Service) hit(ctx context.Context, key string, limit int, failure apperr.Failure) error {
	ok, retry, err := s.limiter.Hit(ctx, key, ratelimit.Rule{Limit: limit, Window: time.Hour})
	if err != nil {
		return err
	}
	if !ok {
		return tooMany(failure, retry)
	}
	return nil
}

// tooMany refuses a try as f, saying when trying opens again (issue 41).
func tooMany(f apperr.Failure, retry time.Duration) error {
	return &apperr.Error{Kind: apperr.KindRateLimited, Message: fmt.Sprintf("%s You can try again in %s.", f.Message, apperr.HumanDuration(retry)),
		Failure: f.Name, RetryAfter: retry}
}

// Get is the try the visitor holding token made, while it is kept.
func (s *Service) Get(ctx context.Context, token string) (Try, error) {
	t, err := loadTry(ctx, s.db.SQL, hash(token), s.now())
	if errors.Is(err, errNotFound) {
		return Try{}, apperr.NotFound(MsgTryNotFound)
	}
	if err != nil {
		return Try{}, err
	}
	t.ID = token
	return t.Try, nil
}

// Kept is a scored try as it goes into an account. Its ID is the try's
// id here (the token's hash), never the token.
type Kept struct {
	Try
	AnsweredAt time.Time
}

// Keeper saves a try in the account of the student who made it, in the
// package that owns accounts' answers (app wires practice's).
type Keeper func(ctx context.Context, u auth.User, k Kept) error

// Keep carries the try the visitor holding token made into u's account,
// once scored, with keep, and then forgets it here.
func (s *Service) Keep(ctx context.Context, u auth.User, token string, keep Keeper) error {
	t, err := loadTry(ctx, s.db.SQL, hash(token), s.now())
	switch {
	case errors.Is(err, errNotFound):
		return apperr.NotFound(MsgTryNotFound)
	case err != nil:
		return err
	case t.Status != answer.StatusDone:
		return apperr.Conflict(MsgNothingToKeep)
	}
	// Claimed first, so that a second request cannot keep it twice, and
	// deleted only once kept: if keeping fails the try is still there to
	// keep again.
	id := hash(token)
	claimed, err := setKeeping(ctx, s.db.SQL, id, true)
	if err != nil {
		return err
	}
	if !claimed {
		return apperr.NotFound(MsgTryNotFound)
	}
	t.ID = id
	if err := keep(ctx, u, Kept{Try: t.Try, AnsweredAt: t.createdAt}); err != nil {
		if _, giveBackErr := setKeeping(context.WithoutCancel(ctx), s.db.SQL, id, false); giveBackErr != nil {
			s.logger.Error("a try that could not be kept stays claimed until it is swept", "err", giveBackErr)
		}
		return err
	}
	_, err = deleteTry(ctx, s.db.SQL, id)
	return err
}

// transcribe is a spoken try's first step. It is safe to run twice: a
// try that has moved on is left alone.
func (s *Service) transcribe(ctx context.Context, id string, lastAttempt bool) error {
	t, err := loadTry(ctx, s.db.SQL, id, s.now())
	if errors.Is(err, errNotFound) {
		return nil // swept
	}
	if err != nil {
		return err
	}
	if moved, err := s.move(ctx, id, answer.EventTranscriptionStarted, nil); err != nil || !moved {
		return err
	}
	audio, err := loadRecording(ctx, s.db.SQL, id)
	if errors.Is(err, errNotFound) {
		return nil // swept meanwhile
	}
	if err != nil {
		return err
	}
	res, err := s.speech.Transcribe(ctx, transcribe.Audio{Reader: bytes.NewReader(audio), MIMEType: t.audioMIME, Limit: MaxAnswerSeconds * time.Second, Spare: true})
	switch {
	case errors.Is(err, transcribe.ErrBadAudio):
		s.logger.Info("a try was not a recording the engine could decode", "err", err)
		_, err = s.move(ctx, id, answer.EventTranscriptionFailed, nil)
		return err
	case err != nil && lastAttempt:
		s.logger.Error("a try could not be transcribed", "err", err)
		_, err = s.move(ctx, id, answer.EventTranscriptionFailed, nil)
		return err
	case err != nil:
		if _, moveErr := s.move(ctx, id, answer.EventTranscriptionDeferred, nil); moveErr != nil {
			return moveErr
		}
		return fmt.Errorf("tryout: transcribe: %w", err)
	}
	heard := answer.Heard(res, MaxAnswerSeconds*time.Second)
	event := answer.EventTranscribedEmpty
	if heard.Meaningful {
		event = answer.EventTranscribed
	}
	_, err = s.move(ctx, id, event, func(tx *sql.Tx) error { return saveHeard(ctx, tx, id, heard) })
	return err
}

// score is a try's step once its transcript is there: judged as practice
// judges an answer to the profession's default question. A retry scores
// the transcript kept; it never transcribes again.
func (s *Service) score(ctx context.Context, id string, lastAttempt bool) error {
	t, err := loadTry(ctx, s.db.SQL, id, s.now())
	if errors.Is(err, errNotFound) {
		return nil // swept
	}
	if err != nil {
		return err
	}
	if t.Status != answer.StatusScoring || t.Transcript == nil {
		return nil // scored already
	}
	p, _ := profession.Lookup(t.Profession)
	fb, err := s.scorer.Score(ctx, t.Judged(defaultQuestionInput(p, *t.Transcript), *t.Transcript))
	switch {
	case err != nil && lastAttempt:
		s.logger.Error("a try could not be scored", "err", err)
		_, err = s.move(ctx, id, answer.EventScoringFailed, nil)
		return err
	case err != nil:
		return fmt.Errorf("tryout: score: %w", err)
	}
	_, err = s.move(ctx, id, answer.EventScored, func(tx *sql.Tx) error { return saveFeedback(ctx, tx, id, fb) })
	return err
}

// Sweep deletes the tries whose time is up.
func (s *Service) Sweep(ctx context.Context) (int64, error) {
	return deleteExpired(ctx, s.db.SQL, s.now())
}

// newToken is a try's handle: 256 random bits.
func newToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand does not fail on supported platforms
	return base64.RawURLEncoding.EncodeToString(b)
}

// hash is how a token and an address are kept: never as they are.
func hash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
