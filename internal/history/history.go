// Package history is the student's record: the sessions they saved, the
// History list, their progress, the earlier answers a new session is
// compared with, a try kept at sign-up and the dashboard that shows it.
// It owns the saved sessions; what it reads of the practice sessions
// themselves it asks practice for. Sharing (internal/share) reads the
// saved sessions through it.
package history

import (
	"context"
	"time"

	"github.com/whitecoat/whitecoat/internal/answer"
	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/billing"
	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/store"
)

// Spec constants and texts.
const (
	// RecentSessions is how many saved sessions the dashboard lists.
	RecentSessions    = 5
	MsgNotReadyToSave = "Feedback is still being prepared. Save the session when every answer is scored."
)

// Entitlements answers spec §4 for a student: whether their history is
// locked now (billing.Entitlements).
type Entitlements interface {
	Of(ctx context.Context, q store.Queryer, userID, besides string) (billing.Access, error)
}

// Service keeps the student's record.
type Service struct {
	db       *store.DB
	practice *practice.Service
	access   Entitlements
}

// NewService wires the record to the practice sessions it is drawn from.
func NewService(db *store.DB, sessions *practice.Service, access Entitlements) *Service {
	return &Service{db: db, practice: sessions, access: access}
}

// checkOpen refuses what needs u's history while spec §4 locks it (see
// locked).
func (s *Service) checkOpen(ctx context.Context, u auth.User) error {
	locked, err := s.locked(ctx, u)
	if err == nil && locked {
		err = apperr.Forbidden(billing.MsgLocked)
	}
	return err
}

// locked reports whether spec §4 hides u's history now: their saved
// sessions, progress and earlier attempts, and with them what builds on
// the history (sharing a saved session, keeping a try in it).
func (s *Service) locked(ctx context.Context, u auth.User) (bool, error) {
	access, err := s.access.Of(ctx, s.db.SQL, u.ID, "")
	return access.HistoryLocked, err
}

// SavedItem is one question of a saved session (spec: question, tip,
// skipped, transcript, feedback): the answer as it ended, done, failed or
// skipped. A failed answer keeps the transcript it got before scoring
// failed, if any. Feedback saved by older versions of the product may be
// plain text; it arrives in LegacyFeedback.
type SavedItem struct {
	answer.Answer
	Tip     string `json:"tip"`
	Skipped bool   `json:"skipped"`
	// ItemID is the practice session's question this was saved from, for
	// a correction (empty in sessions saved before corrections existed).
	ItemID string `json:"itemId,omitempty"`
}

// Counts summarises a saved session's questions.
type Counts struct {
	TotalQuestions int `json:"totalQuestions"`
	Answered       int `json:"answered"`
	Skipped        int `json:"skipped"`
}

// Saved is a session the user saved to their dashboard. Recordings are
// never part of it.
type Saved struct {
	ID         string          `json:"id"`
	Title      string          `json:"title"`
	Profession string          `json:"profession"`
	Format     practice.Format `json:"format"`
	// CreatedAt is when the session was practised (it started), not when
	// it was saved: the one time a session shows everywhere.
	CreatedAt        time.Time   `json:"createdAt"`
	OverallAvg       float64     `json:"overallAvg"`
	TotalSessionTime int         `json:"totalSessionTime"`
	Counts           Counts      `json:"counts"`
	Items            []SavedItem `json:"items"`
	// Scored is false when no answer of the session was scored (each was
	// silent, failed or skipped): its OverallAvg of 0 is then no score.
	Scored bool `json:"scored"`
	// PracticeSessionID links back to the session it was saved from.
	PracticeSessionID string `json:"practiceSessionId,omitempty"`
}

// Dashboard is everything the dashboard shows in one answer.
type Dashboard struct {
	Name          string         `json:"name"`
	EmailVerified bool           `json:"emailVerified"`
	Access        billing.Access `json:"access"`
	Stats         practice.Stats `json:"stats"`
	// RecentSessions are the 5 newest saved sessions (empty while history
	// is locked).
	RecentSessions []Saved `json:"recentSessions"`
	// UsagePause is the usage guard's pause while it lasts, else nil.
	UsagePause *practice.UsagePause `json:"usagePause,omitempty" doc:"While the usage guard pauses the account: no session starts and no answer is taken until endsAt. Absent when practice is not paused."`
}
