package history

import (
	"context"
	"strings"
	"time"

	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/transcribe"
)

// MaxEarlierAttempts is how many earlier answers to one question the
// summary compares with, newest first.
const MaxEarlierAttempts = 5

// Attempt is an earlier scored answer to a question, for comparison.
type Attempt struct {
	SessionID  string              `json:"sessionId"`
	AnsweredAt time.Time           `json:"answeredAt"`
	Transcript string              `json:"transcript"`
	Feedback   feedback.Feedback   `json:"feedback"`
	Metrics    *transcribe.Metrics `json:"metrics,omitempty"`
}

// EarlierAttempts are the earlier answers to one of a session's questions.
type EarlierAttempts struct {
	ItemID string `json:"itemId"`
	// Attempts are newest first, at most MaxEarlierAttempts.
	Attempts []Attempt `json:"attempts"`
}

// Comparison is what the summary compares a session's answers with.
type Comparison struct {
	// Locked is true while the saved sessions are locked (the trial
	// expired or the pass ended): earlier answers are history too.
	Locked bool              `json:"locked"`
	Items  []EarlierAttempts `json:"items"`
}

// EarlierAttempts finds, for each question of one of the user's sessions,
// the user's scored answers to the same question in sessions started
// before it. Questions match by their text, whitespace and case aside, so
// a custom question typed again matches too. Questions answered for the
// first time are left out.
func (s *Service) EarlierAttempts(ctx context.Context, u auth.User, sessionID string) (Comparison, error) {
	began, questions, err := s.practice.QuestionsOf(ctx, u.ID, sessionID)
	if err != nil {
		return Comparison{}, err
	}
	locked, err := s.locked(ctx, u)
	if err != nil {
		return Comparison{}, err
	}
	if locked {
		return Comparison{Locked: true, Items: []EarlierAttempts{}}, nil
	}
	earlier, err := s.practice.ScoredAnswersBefore(ctx, u.ID, sessionID, began)
	if err != nil {
		return Comparison{}, err
	}
	byQuestion := map[string][]Attempt{}
	for _, e := range earlier {
		key := questionKey(e.Question)
		if len(byQuestion[key]) < MaxEarlierAttempts {
			byQuestion[key] = append(byQuestion[key], Attempt{SessionID: e.SessionID, AnsweredAt: e.SessionStarted, Transcript: e.Transcript,
				Feedback: e.Feedback, Metrics: e.Metrics})
		}
	}
	out := []EarlierAttempts{}
	for _, q := range questions {
		if attempts := byQuestion[questionKey(q.Question)]; len(attempts) > 0 {
			out = append(out, EarlierAttempts{ItemID: q.ItemID, Attempts: attempts})
		}
	}
	return Comparison{Items: out}, nil
}

func questionKey(q string) string { return strings.ToLower(strings.Join(strings.Fields(q), " ")) }
