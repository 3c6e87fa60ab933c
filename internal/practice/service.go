package practice

import (
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/danielgtaylor/huma/v2"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/whitecoat/whitecoat/internal/answer"
	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/billing"
	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/httpx"
	"github.com/whitecoat/whitecoat/internal/profession"
	"github.com/whitecoat/whitecoat/internal/question"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/transcribe"
)

// Enqueuer inserts background jobs inside the caller's transaction, so a job
// exists exactly when the row it works on does.
type Enqueuer interface {
	InsertTx(ctx context.Context, tx *sql.Tx, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error)
}

// UserStats keeps an account's usage count, which auth owns, in the
// caller's transaction, so the account changes exactly when practice's
// rows do. The sessions completed, the questions practised and the
// averages are practice's own, computed from its sessions when read.
type UserStats interface {
	// CountAnswer adds one uploaded answer to the user's usage count.
	CountAnswer(ctx context.Context, q store.Queryer, userID string) error
}

// Entitlements answers spec §4 for a student — may they practise, see
// their history — from the trial, the Premium pass and the free sessions
// used; billing implements it (billing.Entitlements), counting the
// sessions through UsedSessionCounter.
type Entitlements interface {
	// Of is userID's access as q sees it; besides is the session being
	// answered ("" for none), which does not count against the free
	// sessions.
	Of(ctx context.Context, q store.Queryer, userID, besides string) (billing.Access, error)
}

// SavedCopies keeps the saved copy of a session (internal/history) in
// step when one of its answers is scored again after it was saved.
type SavedCopies interface {
	// Rewrite rewrites the saved copy, if any, of sess, one of userID's
	// sessions as read in q, the transaction that changed it.
	Rewrite(ctx context.Context, q store.Queryer, userID string, sess Session) error
}

// QuestionSource is the question bank, as the practice loop needs it.
type QuestionSource interface {
	Questions(ctx context.Context, professionSlug string) ([]question.Question, error)
}

// Config tunes the practice loop.
type Config struct {
	// AnswerLimit stops a recording (3 minutes; tests shorten it).
	AnswerLimit time.Duration
	// AudioDir holds uploaded answers until they are transcribed.
	AudioDir string
	// MaxAudioBytes caps one uploaded answer.
	MaxAudioBytes int64
	// DailyAnswerLimit is the usage guard: answers per user per 24 hours.
	DailyAnswerLimit int
	// AudioMaxAge is how long a leftover recording may stay before the
	// sweeper deletes it.
	AudioMaxAge time.Duration
	// MaxAttempts is how often an answer is tried when an engine is
	// unavailable before it is marked failed.
	MaxAttempts int
	// StuckAfter is how long an answer may stay in progress before it is
	// taken for the work of a crashed process and queued again.
	StuckAfter time.Duration
	// AdvanceEvery is how often an answer arriving in pieces is handed to
	// the speech engine while the student is still speaking, the first
	// time once it can hold the engine's first step (0: on every piece,
	// from the first). Only engines that implement transcribe.Incremental
	// do this.
	AdvanceEvery time.Duration
}

// Service runs practice sessions.
type Service struct {
	db        *store.DB
	jobs      Enqueuer
	users     UserStats
	access    Entitlements
	questions QuestionSource
	copies    SavedCopies
	speech    transcribe.Engine
	// incremental is speech when it can work on a recording still being
	// made, nil otherwise.
	incremental transcribe.Incremental
	scorer      feedback.Engine
	logger      *slog.Logger
	now         func() time.Time
	cfg         Config
	// steps are the recognition steps of recordings in progress running
	// in this process (advanceItem), for an answer's transcription to stop.
	steps runningSteps
}

// NewService wires the practice loop.
func NewService(db *store.DB, jobs Enqueuer, users UserStats, access Entitlements, questions QuestionSource, copies SavedCopies, speech transcribe.Engine,
	scorer feedback.Engine, logger *slog.Logger, now func() time.Time, cfg Config) *Service {
	incremental, _ := speech.(transcribe.Incremental)
	return &Service{db: db, jobs: jobs, users: users, access: access, questions: questions, copies: copies, speech: speech, incremental: incremental, scorer: scorer,
		logger: logger, now: now, cfg: cfg}
}

func (s *Service) clock() time.Time { return store.Truncate(s.now()) }

// CustomQuestion is a question the user wrote or picked for a custom session.
type CustomQuestion struct {
	Text string `json:"text"`
}

// TransformSchema publishes the question length Create checks.
func (CustomQuestion) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	httpx.SetMaxLength(s, "text", question.MaxTextLen)
	return s
}

// CreateInput is the spec's session config.
type CreateInput struct {
	Profession    string           `json:"profession"`
	Mode          string           `json:"mode"`
	InterviewType string           `json:"interviewType"`
	QuestionCount int              `json:"questionCount,omitempty" doc:"For random sessions (default 5); custom sessions use the list's length."`
	Big3          *bool            `json:"big3,omitempty" doc:"Put the Big 3 first (default true); always false for custom sessions."`
	Questions     []CustomQuestion `json:"questions,omitempty"`
	Focus         question.Subtag  `json:"focus,omitempty" doc:"For random sessions: questions of this subtag come first after the Big 3 (a guide's practice button sets it)."`
	Format        Format           `json:"format,omitempty" doc:"The interview format (default traditional). MMI and Casper-style sessions are drawn from the scenario stations and must be random."`
	Timings       *Timings         `json:"timings,omitempty" doc:"The format's limits before any extension (default: the format's preset)."`
	Extension     Extension        `json:"extension,omitempty" doc:"Multiplies every limit, or turns timing off (default 1)."`
}

// maxQuestionEntries caps a custom session's list as sent: blanks and
// repeats are dropped from it, and at most MaxQuestions may remain.
const maxQuestionEntries = 50

// TransformSchema publishes the choices and limits Create checks.
func (CreateInput) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	httpx.SetEnum(s, "profession", profession.Slugs())
	httpx.SetEnum(s, "mode", modes)
	httpx.SetEnum(s, "interviewType", interviewTypes)
	httpx.SetRange(s, "questionCount", MinQuestions, MaxQuestions)
	httpx.SetMaxItems(s, "questions", maxQuestionEntries)
	return s
}

// Create checks that the user may practise, chooses the questions and
// stores the new session. The user's sessions still in progress are
// completed first (see endOpenSessions).
func (s *Service) Create(ctx context.Context, u auth.User, in CreateInput) (Session, error) {
	sess, preset, err := s.newSession(u, in)
	if err != nil {
		return Session{}, err
	}
	chosen, err := s.chooseQuestions(ctx, &sess, in, preset)
	if err != nil {
		return Session{}, err
	}
	sess.Items = sessionItems(sess.Format, sess.Timings, sess.Extension, chosen)
	sess.QuestionCount = len(sess.Items)
	if err := s.begin(ctx, u, sess); err != nil {
		return Session{}, err
	}
	return s.view(ctx, sess)
}

// newSession checks the choices of in that shape a session — profession,
// mode, format, extra time, timings — and returns the session they make,
// still without questions, with its format's preset.
func (s *Service) newSession(u auth.User, in CreateInput) (Session, Preset, error) {
	p, ok := profession.Lookup(in.Profession)
	if !ok {
		return Session{}, Preset{}, apperr.Invalid("profession", "Unknown profession %q. Choose one of %s.", in.Profession, strings.Join(profession.Slugs(), ", "))
	}
	if !slices.Contains(modes, in.Mode) {
		return Session{}, Preset{}, apperr.Invalid("mode", "Recording mode must be video or audio.")
	}
	format := cmp.Or(in.Format, FormatTraditional)
	preset, ok := s.preset(format)
	if !ok {
		return Session{}, Preset{}, apperr.Invalid("format", "Unknown interview format %q.", in.Format)
	}
	extension := cmp.Or(in.Extension, ExtensionNone)
	if !slices.Contains(extensions, extension) {
		return Session{}, Preset{}, apperr.Invalid("extension", "Extra time must be one of 1, 1.25, 1.5 or 2, or off.")
	}
	timings := preset.Timings
	if in.Timings != nil {
		timings = *in.Timings
	}
	if err := timings.check(format); err != nil {
		return Session{}, Preset{}, err
	}
	if format.stations() && in.InterviewType != InterviewRandom {
		return Session{}, Preset{}, apperr.Invalid("interviewType", "MMI and Casper-style sessions are drawn from the question bank's scenarios: choose a random interview.")
	}
	return Session{ID: store.NewID(), userID: u.ID, Profession: p.Slug, Mode: in.Mode, InterviewType: in.InterviewType,
		Format: format, Extension: extension, Timings: timings, Status: SessionActive, CreatedAt: s.clock()}, preset, nil
}

// chooseQuestions picks sess's questions from its profession's bank as in
// asks: drawn at random (setting whether sess has a Big 3) or the
// student's own.
func (s *Service) chooseQuestions(ctx context.Context, sess *Session, in CreateInput, preset Preset) ([]question.Question, error) {
	switch in.InterviewType {
	case InterviewRandom:
		count := in.QuestionCount
		if count == 0 {
			count = preset.Count
		}
		if count < MinQuestions || count > MaxQuestions {
			return nil, apperr.Invalid("questionCount", "Choose between %d and %d questions.", MinQuestions, MaxQuestions)
		}
		if !in.Focus.Valid() {
			return nil, apperr.Invalid("focus", "Unknown question focus %q.", in.Focus)
		}
		sess.Big3 = !sess.Format.stations() && (in.Big3 == nil || *in.Big3)
		pool, err := s.questions.Questions(ctx, sess.Profession)
		if err != nil {
			return nil, err
		}
		var chosen []question.Question
		if sess.Format.stations() {
			chosen, err = question.SelectStations(pool, sess.Profession, count, in.Focus, nil)
		} else {
			chosen, err = question.Select(pool, sess.Profession, count, sess.Big3, in.Focus, nil)
		}
		if err != nil {
			return nil, err
		}
		if len(chosen) == 0 {
			return nil, apperr.Conflict("The question bank has no questions for this profession yet.")
		}
		return chosen, nil
	case InterviewCustom:
		pool, err := s.questions.Questions(ctx, sess.Profession)
		if err != nil {
			return nil, err
		}
		return customQuestions(in.Questions, pool)
	default:
		return nil, apperr.Invalid("interviewType", "Interview type must be random or custom.")
	}
}

// sessionItems are the questions of a new session of format: the chosen
// questions laid out by the format (formatItems), each waiting for its
// answer.
func sessionItems(format Format, timings Timings, extension Extension, chosen []question.Question) []Item {
	items := formatItems(format, timings, extension, chosen)
	for i := range items {
		it := &items[i]
		it.ID, it.Status = store.NewID(), StatusPending
		// Only the formats of questions asked on their own have a Big 3,
		// and their items are the chosen questions one for one. A Big 3
		// question picked for a custom session is still one: it is judged
		// as one (issue 29).
		if !format.stations() && chosen[i].Big3 {
			it.Big3Order = chosen[i].Big3Order
		}
	}
	return items
}

// begin stores sess, u's new session, in one locked transaction, so that
// two tabs pressing Start at once end up with one session: the later one
// replaces the earlier (see endOpenSessions). Ending the open sessions
// stands even when the new session is then refused: by spec §4, or by the
// usage guard, since a session started into a pause would be refused its
// first answer.
func (s *Service) begin(ctx context.Context, u auth.User, sess Session) error {
	var refused error
	err := s.withUserTx(ctx, u.ID, func(tx *sql.Tx) error {
		if err := s.endOpenSessions(ctx, tx, u.ID); err != nil {
			return err
		}
		access, err := s.access.Of(ctx, tx, u.ID, "")
		if err != nil {
			return err
		}
		if !access.PracticeEnabled {
			refused = apperr.Forbidden(billing.MsgLocked)
			return nil
		}
		recent, err := countRecentUploads(ctx, tx, u.ID, s.usageSince())
		if err != nil {
			return err
		}
		if refused = s.usageErr(recent); refused != nil {
			return nil
		}
		return insertSession(ctx, tx, sess)
	})
	if err != nil {
		return err
	}
	return refused
}

// customQuestions are the questions of a custom session. A question with
// the words of one of the profession's bank questions (picked in the
// builder, or typed again) is that question, with its subtag, tip and Big
// 3 kind, so that an answer to it is judged as it would be had it been
// drawn; any other is asked as written.
func customQuestions(in []CustomQuestion, pool []question.Question) ([]question.Question, error) {
	bank := map[string]question.Question{}
	for _, q := range pool {
		if !q.IsStation() {
			bank[strings.ToLower(strings.Join(strings.Fields(q.Text), " "))] = q
		}
	}
	var out []question.Question
	seen := map[string]bool{}
	for _, q := range in {
		text := strings.Join(strings.Fields(q.Text), " ")
		key := strings.ToLower(text)
		if text == "" || seen[key] {
			continue // the spec ignores blanks and repeats
		}
		if utf8.RuneCountInString(text) > question.MaxTextLen {
			return nil, apperr.Invalid("questions", "Each question must be at most %d characters.", question.MaxTextLen)
		}
		seen[key] = true
		if q, ok := bank[key]; ok {
			out = append(out, q)
			continue
		}
		out = append(out, question.Question{Text: text})
	}
	switch {
	case len(out) == 0:
		return nil, apperr.Invalid("questions", "Add at least one question to a custom session.")
	case len(out) > MaxQuestions:
		return nil, apperr.Invalid("questions", "A session has at most %d questions; this one has %d.", MaxQuestions, len(out))
	}
	return out, nil
}

// endOpenSessions completes the user's sessions still in progress before a
// new one starts: one with answers counts like any finished session, and
// one without answers (a tab left open, or opened twice) ends without
// using a free session. A student therefore has one session in progress at
// a time, and an abandoned one never stands in the way of the next.
func (s *Service) endOpenSessions(ctx context.Context, tx *sql.Tx, userID string) error {
	ids, err := activeSessions(ctx, tx, userID)
	if err != nil {
		return err
	}
	for _, id := range ids {
		if err := s.completeTx(ctx, tx, id, 0); err != nil {
			return err
		}
	}
	return nil
}

// withUserTx runs fn in a transaction that holds the user's practice lock,
// so that checking what the user may still do and doing it cannot
// interleave with another request of theirs.
func (s *Service) withUserTx(ctx context.Context, userID string, fn func(tx *sql.Tx) error) error {
	return s.db.WithTx(ctx, func(tx *sql.Tx) error {
		if err := s.db.Lock(ctx, tx, "practice:"+userID); err != nil {
			return err
		}
		return fn(tx)
	})
}

// checkAnswerAllowed refuses u an answer in sessionID under spec §4, on
// the account as q sees it: inside the transaction that records the
// answer this is the check that decides, so the trial, the pass and the
// free sessions are read as they stand then, not as the request found
// them. The session at hand does not count against the free sessions; a
// session uses one once it has an answer (see countUsedSessions), so the
// check holds on every path an answer takes, whenever the trial or pass
// ended.
func (s *Service) checkAnswerAllowed(ctx context.Context, q store.Queryer, u auth.User, sessionID string) error {
	access, err := s.access.Of(ctx, q, u.ID, sessionID)
	if err == nil && !access.PracticeEnabled {
		err = apperr.Forbidden(billing.MsgLocked)
	}
	return err
}

// Whose a session is, is decided in SQL: every request on a session or
// an answer begins with a statement that has the user in its WHERE
// (sessionOf, itemOf, loadAnswerTarget, questionsOf), and someone else's
// session is exactly a missing one. A request that writes reads it first
// in the transaction that writes; the statements after it act on the
// rows it found.

// ownSession reads one of u's sessions, without its items.
func (s *Service) ownSession(ctx context.Context, q store.Queryer, u auth.User, id string) (Session, error) {
	sess, err := sessionOf(ctx, q, u.ID, id)
	if errors.Is(err, errNotFound) {
		return Session{}, apperr.NotFound(MsgSessionNotFound)
	}
	return sess, err
}

// ownSessionWithItems reads one of u's sessions with its items.
func (s *Service) ownSessionWithItems(ctx context.Context, q store.Queryer, u auth.User, id string) (Session, error) {
	sess, err := s.ownSession(ctx, q, u, id)
	if err != nil {
		return Session{}, err
	}
	return withItems(ctx, q, sess)
}

// ownItem reads a question of one of u's sessions. A missing one says
// which is missing, the session or the question; an error with the item
// carries its session's status when only the question was missing.
func (s *Service) ownItem(ctx context.Context, q store.Queryer, u auth.User, sessionID, itemID string) (ownedItem, error) {
	it, err := itemOf(ctx, q, u.ID, sessionID, itemID)
	if !errors.Is(err, errNotFound) {
		return it, err
	}
	sess, err := s.ownSession(ctx, q, u, sessionID)
	if err != nil {
		return ownedItem{}, err
	}
	return ownedItem{sessionStatus: sess.Status}, apperr.NotFound(MsgItemNotFound)
}

// activeItem reads a question of one of u's sessions that is still being
// answered.
func (s *Service) activeItem(ctx context.Context, q store.Queryer, u auth.User, sessionID, itemID string) (ownedItem, error) {
	it, err := s.ownItem(ctx, q, u, sessionID, itemID)
	if it.sessionStatus != "" && it.sessionStatus != SessionActive {
		return ownedItem{}, apperr.Conflict(MsgSessionCompleted)
	}
	return it, err
}

// Get returns one of the user's sessions with every answer's progress.
func (s *Service) Get(ctx context.Context, u auth.User, id string) (Session, error) {
	sess, err := s.ownSessionWithItems(ctx, s.db.SQL, u, id)
	if err != nil {
		return Session{}, err
	}
	return s.view(ctx, sess)
}

// view fills in what is derived rather than stored.
func (s *Service) view(ctx context.Context, sess Session) (Session, error) {
	sess.AnswerLimitSeconds = int(s.cfg.AnswerLimit / time.Second)
	for i := range sess.Items {
		sess.Items[i].AutoStart = sess.Format.autoStart() && sess.Items[i].Kind == KindSpoken
	}
	sess.Processing = sess.Status == SessionCompleted && !sess.statsApplied
	for i := range sess.Items {
		it := &sess.Items[i]
		if !it.Settled() {
			sess.Processing = true
		}
		if it.Status == StatusFailed && it.audioPath != "" {
			kept, err := s.recordingKept(ctx, s.db.SQL, it.audioPath)
			if err != nil {
				return Session{}, err
			}
			it.CanRetry = kept
		}
	}
	if sess.averageExact != nil {
		avg := int(math.Round(*sess.averageExact))
		sess.AverageScore = &avg
		previous, err := previousAverage(ctx, s.db.SQL, sess.userID, sess.ID)
		if err != nil {
			return Session{}, err
		}
		if previous != nil {
			imp := int(math.Round(*sess.averageExact - *previous))
			sess.Improvement = &imp
		}
	} else if avg, ok := AverageScore(sess.Items); ok && !sess.Processing {
		r := int(math.Round(avg))
		sess.AverageScore = &r
	}
	return sess, nil
}

// AverageScore is the mean overall score of the scored answers; false when
// none was scored, and such a session takes no part in the student's
// averages (see scoredSession). An answer whose content was not judged has
// no overall score (feedback.Feedback.Overall), though a row stored before
// that rule kept one: it is not counted.
func AverageScore(items []Item) (float64, bool) {
	sum, n := 0, 0
	for _, it := range items {
		if it.Feedback != nil {
			if _, ok := it.Feedback.Overall(); !ok {
				continue
			}
		}
		if it.Status == StatusDone && it.score != nil {
			sum += *it.score
			n++
		}
	}
	if n == 0 {
		return 0, false
	}
	return float64(sum) / float64(n), true
}

// AdmitAnswer checks that u may send a recorded answer to the question
// now (see admit), and that the question is answered by recording. It
// reads nothing the client sends, so the HTTP layer calls it once, before
// an upload's body arrives, and hands the item it returns to
// UploadAdmitted or AppendAdmitted. Admission refuses early what it can;
// the transaction that records the answer decides.
func (s *Service) AdmitAnswer(ctx context.Context, u auth.User, sessionID, itemID string) (Item, error) {
	it, err := s.admit(ctx, s.db.SQL, u, sessionID, itemID)
	if err == nil && it.Kind == KindTyped {
		return Item{}, apperr.Conflict(MsgNotSpoken)
	}
	return it, err
}

// admit checks that u may answer the question now: in one statement
// (loadAnswerTarget), that it is in their session, still in progress,
// unanswered, and that the answer would not exceed the daily usage guard
// (an answer arriving in pieces was counted when its first piece came);
// then that spec §4 lets them practise (checkAnswerAllowed).
func (s *Service) admit(ctx context.Context, q store.Queryer, u auth.User, sessionID, itemID string) (Item, error) {
	t, err := loadAnswerTarget(ctx, q, u.ID, sessionID, itemID, s.usageSince())
	if errors.Is(err, errNotFound) {
		// Say why as every other operation on a question does.
		_, err = s.activeItem(ctx, q, u, sessionID, itemID)
		return Item{}, err
	}
	switch {
	case err != nil:
		return Item{}, err
	case t.sessionStatus != SessionActive:
		return Item{}, apperr.Conflict(MsgSessionCompleted)
	case !t.Item.awaitsAnswer():
		return Item{}, apperr.Conflict(msgAlreadyAnswered)
	}
	if err := s.checkAnswerAllowed(ctx, q, u, sessionID); err != nil {
		return Item{}, err
	}
	return t.Item, s.usageErr(t.recentAnswers)
}

// UploadAdmitted stores one recorded answer to the question AdmitAnswer
// admitted and queues it for processing. The recording lives only in the
// temporary directory until it is transcribed.
func (s *Service) UploadAdmitted(ctx context.Context, u auth.User, it Item, mimeType string, body io.Reader) (Item, error) {
	path, _, err := s.saveAudio(it.ID, body)
	if err != nil {
		return Item{}, err
	}
	var replaced string
	err = s.withUserTx(ctx, u.ID, func(tx *sql.Tx) error {
		current, err := s.ownItem(ctx, tx, u, it.sessionID, it.ID)
		if err != nil {
			return err
		}
		if replaced, err = s.queueAnswer(ctx, tx, u, current.Item, path, mimeType); err != nil {
			return err
		}
		// A whole recording replaces one that was arriving in pieces.
		if err := forgetProgress(ctx, tx, it.ID); err != nil {
			return err
		}
		// Stored where any copy can read it, in the transaction that
		// queues its job.
		return storeUpload(ctx, tx, it.ID, path)
	})
	if err != nil {
		removeAudio(s.logger, path)
		return Item{}, err
	}
	removeAudio(s.logger, s.scratch(replaced))
	it.Status = StatusQueued
	return it, nil
}

// queueAnswer records that the recording of current, one of u's questions
// as read in tx, is at path and queues its transcription, once spec §4
// and the usage guard allow it; it returns the recording that was
// arriving in pieces for it, if any. It runs in a transaction holding the
// user's lock, so that answers arriving at once are checked one after
// another.
func (s *Service) queueAnswer(ctx context.Context, tx *sql.Tx, u auth.User, current Item, path, mimeType string) (streamPath string, err error) {
	if err := s.checkAnswerAllowed(ctx, tx, u, current.sessionID); err != nil {
		return "", err
	}
	// An answer that arrived in pieces was counted when its first piece did.
	count := current.streamPath == ""
	if count {
		if err := s.checkUsage(ctx, tx, u.ID); err != nil {
			return "", err
		}
	}
	moved, err := s.moveItemTx(ctx, tx, move{
		itemID: current.ID, sessionID: current.sessionID, event: answer.EventRecorded,
		update: func(tx *sql.Tx, now time.Time) error {
			if err := recordUpload(ctx, tx, current.ID, path, mimeType, now); err != nil {
				return err
			}
			if !count {
				return nil
			}
			return s.users.CountAnswer(ctx, tx, u.ID)
		},
	})
	if err == nil && !moved {
		err = apperr.Conflict(msgAlreadyAnswered)
	}
	if err == nil && current.streamPath != path {
		// The pieces that arrived are replaced by the whole recording.
		err = deleteStoredAudio(ctx, tx, current.streamPath)
	}
	return current.streamPath, err
}

// usageWindow is how far back the daily usage guard counts answers.
const usageWindow = 24 * time.Hour

func (s *Service) usageSince() time.Time { return s.clock().Add(-usageWindow) }

func (s *Service) checkUsage(ctx context.Context, q store.Queryer, userID string) error {
	n, err := countRecentUploads(ctx, q, userID, s.usageSince())
	if err != nil {
		return err
	}
	return s.usageErr(n)
}

// usagePause is the usage guard's pause on the user as q sees it, or nil:
// it lasts until the oldest of the allowance's answers is a window old.
func (s *Service) usagePause(ctx context.Context, q store.Queryer, userID string) (*UsagePause, error) {
	at, err := nthRecentUpload(ctx, q, userID, s.usageSince(), s.cfg.DailyAnswerLimit)
	if errors.Is(err, errNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &UsagePause{Message: MsgHeavyUsage, EndsAt: at.Add(usageWindow)}, nil
}

// usageErr refuses another answer from a user who began recent answers
// within the usage window.
func (s *Service) usageErr(recent int) error {
	if recent >= s.cfg.DailyAnswerLimit {
		return apperr.Forbidden(MsgHeavyUsage)
	}
	return nil
}

// MsgCannotStore is the refusal when the server cannot write a recording
// (its disk is full or unwritable): the student keeps the recording and
// the client sends it again.
const MsgCannotStore = "We could not store your answer right now. Please try again."

// storeRetryAfter is how long a client waits before sending a recording
// the server could not store again.
const storeRetryAfter = 5 * time.Second

// storageErr reports a failure to write a recording: the server's fault,
// never the recording's (logged with its cause where it is answered).
func storageErr(err error) error {
	return apperr.Unavailable(MsgCannotStore, storeRetryAfter, fmt.Errorf("practice: store recording: %w", err))
}

// CheckStorage reports whether recordings can be written to the audio
// directory now, by writing one byte there: a full or read-only disk makes
// the server not ready, rather than every answer fail.
func (s *Service) CheckStorage() error {
	f, err := os.CreateTemp(s.cfg.AudioDir, ".ready-*")
	if err != nil {
		return fmt.Errorf("practice: audio directory: %w", err)
	}
	_, err = f.Write([]byte{0})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if rerr := os.Remove(f.Name()); err == nil {
		err = rerr
	}
	if err != nil {
		return fmt.Errorf("practice: audio directory: %w", err)
	}
	return nil
}

// bodyReader remembers a failure to read the upload, so that saveAudio
// tells the client's failures from the disk's.
type bodyReader struct {
	r   io.Reader
	err error
}

func (b *bodyReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err != nil && err != io.EOF {
		b.err = err
	}
	return n, err
}

// saveAudio writes the upload to the temporary directory after checking,
// from its first bytes, that it is a recording of a kind we decode, and
// returns its path and size.
func (s *Service) saveAudio(itemID string, body io.Reader) (string, int64, error) {
	head := make([]byte, transcribe.SniffLen)
	n, err := io.ReadFull(body, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return "", 0, uploadErr(err)
	}
	format, ok := transcribe.Sniff(head[:n])
	if !ok {
		return "", 0, apperr.Invalid("audio", "This upload is not a recording we can read. Send the answer as WebM (Opus) or MP4 (AAC) audio.")
	}
	path := filepath.Join(s.cfg.AudioDir, itemID+"-"+store.NewID()[:8]+"."+string(format))
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return "", 0, storageErr(err)
	}
	rest := &bodyReader{r: io.LimitReader(body, s.cfg.MaxAudioBytes+1)}
	written, err := io.Copy(f, io.MultiReader(bytes.NewReader(head[:n]), rest))
	if err != nil && rest.err == nil {
		err = storageErr(err)
	}
	if cerr := f.Close(); err == nil && cerr != nil {
		err = storageErr(cerr)
	}
	if err == nil && written > s.cfg.MaxAudioBytes {
		err = s.tooLarge()
	}
	if err != nil {
		removeAudio(s.logger, path)
		return "", 0, uploadErr(err)
	}
	return path, written, nil
}

// tooLarge is the error for a recording over MaxAudioBytes.
func (s *Service) tooLarge() error {
	return &apperr.Error{Kind: apperr.KindTooLarge, Message: fmt.Sprintf("The recording is too large: the limit is %d MB.", s.cfg.MaxAudioBytes>>20)}
}

func uploadErr(err error) error {
	if e, ok := apperr.As(err); ok {
		return e
	}
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return &apperr.Error{Kind: apperr.KindTooLarge, Message: fmt.Sprintf("The recording is too large: the limit is %d MB.", tooBig.Limit>>20), Err: err}
	}
	return fmt.Errorf("practice: receive audio: %w", err)
}

func removeAudio(logger *slog.Logger, path string) {
	if path == "" {
		return
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		logger.Warn("could not delete a recording; the sweeper will retry", "path", path, "err", err)
	}
}

// Skip marks an unanswered question skipped.
func (s *Service) Skip(ctx context.Context, u auth.User, sessionID, itemID string) (Item, error) {
	var (
		it    Item
		moved bool
	)
	err := s.db.WithTx(ctx, func(tx *sql.Tx) error {
		owned, err := s.activeItem(ctx, tx, u, sessionID, itemID)
		if err != nil {
			return err
		}
		it = owned.Item
		moved, err = s.moveItemTx(ctx, tx, move{itemID: itemID, sessionID: sessionID, event: answer.EventSkipped,
			update: func(tx *sql.Tx, _ time.Time) error {
				if err := forgetRecording(ctx, tx, itemID); err != nil {
					return err
				}
				return deleteStoredAudio(ctx, tx, it.streamPath)
			}})
		return err
	})
	if err != nil {
		return Item{}, err
	}
	if !moved {
		return Item{}, apperr.Conflict("Only an unanswered question can be skipped.")
	}
	removeAudio(s.logger, s.scratch(it.streamPath))
	it.Status = StatusSkipped
	return it, nil
}

// Retry queues a failed answer again while its recording is still here.
func (s *Service) Retry(ctx context.Context, u auth.User, sessionID, itemID string) (Item, error) {
	var (
		it    Item
		moved bool
	)
	err := s.db.WithTx(ctx, func(tx *sql.Tx) error {
		owned, err := s.ownItem(ctx, tx, u, sessionID, itemID)
		if err != nil {
			return err
		}
		if it = owned.Item; it.Status != StatusFailed {
			return apperr.Conflict("Only a failed answer can be retried.")
		}
		kept, err := s.recordingKept(ctx, tx, it.audioPath)
		if err != nil {
			return err
		}
		if !kept {
			return apperr.Conflict(MsgRecordingGone)
		}
		// Processed again, the answer may use a free session: spec §4
		// decides as it does for a new recording.
		if err := s.checkAnswerAllowed(ctx, tx, u, sessionID); err != nil {
			return err
		}
		moved, err = s.moveItemTx(ctx, tx, move{itemID: itemID, sessionID: sessionID, event: answer.EventRetried,
			update: func(tx *sql.Tx, _ time.Time) error { return clearFailure(ctx, tx, itemID) }})
		return err
	})
	if err != nil {
		return Item{}, err
	}
	if !moved {
		// Another request retried it (or replaced its recording) first.
		return Item{}, apperr.Conflict(MsgAlreadyRetried)
	}
	it.Status, it.Error = StatusQueued, ""
	return it, nil
}

// Complete ends a session: unanswered questions count as skipped, and the
// stats update follows once every answer is processed.
func (s *Service) Complete(ctx context.Context, u auth.User, sessionID string, totalSeconds int) (Session, error) {
	err := s.db.WithTx(ctx, func(tx *sql.Tx) error {
		if _, err := s.ownSession(ctx, tx, u, sessionID); err != nil {
			return err
		}
		return s.completeTx(ctx, tx, sessionID, min(max(totalSeconds, 0), 24*60*60))
	})
	if err != nil {
		return Session{}, err
	}
	return s.Get(ctx, u, sessionID)
}

// completeTx is idempotent: completing a completed session changes nothing.
func (s *Service) completeTx(ctx context.Context, tx *sql.Tx, sessionID string, totalSeconds int) error {
	now := s.clock()
	completed, err := completeSession(ctx, tx, sessionID, now, totalSeconds)
	if err != nil || !completed {
		return err
	}
	if err := endUnanswered(ctx, tx, sessionID, now); err != nil {
		return err
	}
	_, err = s.jobs.InsertTx(ctx, tx, FinalizeArgs{SessionID: sessionID}, nil)
	return err
}
