package practice

import (
	"context"
	"errors"
	"math"
	"slices"
	"time"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/question"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/transcribe"
	"github.com/whitecoat/whitecoat/internal/video"
)

// What the student's record (internal/history: saved sessions, progress,
// earlier attempts, the dashboard) reads of practice. Each read names the
// student in its statement, as every other read of practice does.

// SessionIn reads one of u's sessions with its items in q, the caller's
// transaction when it writes on what it read: saving the session.
func (s *Service) SessionIn(ctx context.Context, q store.Queryer, u auth.User, id string) (Session, error) {
	return s.ownSessionWithItems(ctx, q, u, id)
}

// Stats are userID's stat cards, counted from their sessions.
func (s *Service) Stats(ctx context.Context, userID string) (Stats, error) {
	averages, err := userAverages(ctx, s.db.SQL, userID)
	if err != nil {
		return Stats{}, err
	}
	out := Stats{AverageScore: int(math.Round(averages.RollingAverageScore))}
	out.SessionsCompleted, out.QuestionsPracticed, err = sessionCounts(ctx, s.db.SQL, userID)
	return out, err
}

// UsagePause is the usage guard's pause on userID while it lasts, or nil.
func (s *Service) UsagePause(ctx context.Context, userID string) (*UsagePause, error) {
	return s.usagePause(ctx, s.db.SQL, userID)
}

// ScoredAnswer is one of the student's scored answers, for their progress
// and for the answers a new session compares with.
type ScoredAnswer struct {
	SessionID  string
	Profession string
	// SessionStarted is when the answer's session started: the time every
	// view of the history shows for it.
	SessionStarted time.Time
	ItemID         string
	Question       string
	Subtag         question.Subtag
	Transcript     string
	Feedback       feedback.Feedback
	// Metrics are nil for an answer not measured from a recording.
	Metrics *transcribe.Metrics
	// Video is what the browser measured of a video answer; nil for others.
	Video *video.Delivery
}

// CompletedAnswers are userID's scored answers in completed sessions (of
// one profession, unless it is empty), oldest session first, each
// session's in the order asked.
func (s *Service) CompletedAnswers(ctx context.Context, userID, profession string) ([]ScoredAnswer, error) {
	answers, err := completedAnswers(ctx, s.db.SQL, userID, profession)
	return judgedOnly(answers), err
}

// judgedOnly are the answers of answers with an overall score: one whose
// content was not judged (feedback.Feedback.Overall) takes no part in the
// progress or in the earlier attempts until it is corrected and scored.
func judgedOnly(answers []ScoredAnswer) []ScoredAnswer {
	return slices.DeleteFunc(answers, func(a ScoredAnswer) bool {
		_, ok := a.Feedback.Overall()
		return !ok
	})
}

// SessionQuestion is one question of a session, in the order asked.
type SessionQuestion struct {
	ItemID, Question string
}

// QuestionsOf reads when one of userID's sessions began and its
// questions, without their answers; a session that is not theirs is
// missing.
func (s *Service) QuestionsOf(ctx context.Context, userID, sessionID string) (time.Time, []SessionQuestion, error) {
	began, questions, err := questionsOf(ctx, s.db.SQL, userID, sessionID)
	if errors.Is(err, errNotFound) {
		return time.Time{}, nil, apperr.NotFound(MsgSessionNotFound)
	}
	return began, questions, err
}

// ScoredAnswersBefore are userID's scored answers (with their transcript)
// in sessions started before the session sessionID began, other than it,
// newest session first.
func (s *Service) ScoredAnswersBefore(ctx context.Context, userID, sessionID string, began time.Time) ([]ScoredAnswer, error) {
	answers, err := scoredAnswersBefore(ctx, s.db.SQL, userID, sessionID, began)
	return judgedOnly(answers), err
}
