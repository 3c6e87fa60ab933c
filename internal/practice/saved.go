package practice

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/billing"
	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/store"
)

const (
	maxTitleLen = 120
	// MsgSavedNotFound answers for a saved session that is missing or not
	// the caller's.
	MsgSavedNotFound = "No such saved session."
)

// storedItem is a saved item as kept in the database: feedback may be the
// structured object or, from older versions, a legacy string.
type storedItem struct {
	Question   string           `json:"question"`
	Tip        string           `json:"tip"`
	Status     string           `json:"status,omitempty"`
	Meaningful *bool            `json:"meaningful,omitempty"`
	Skipped    bool             `json:"skipped"`
	Transcript string           `json:"transcript"`
	Feedback   *feedback.Stored `json:"feedback"`
	Metrics    json.RawMessage  `json:"metrics,omitempty"`
}

// Save stores a processed session on the user's dashboard. Saving the same
// session again updates its title instead of making a copy.
func (s *Service) Save(ctx context.Context, u auth.User, sessionID, title string) (Saved, error) {
	sess, err := s.ownSession(ctx, s.db.SQL, u, sessionID)
	if err != nil {
		return Saved{}, err
	}
	if sess.Status != SessionCompleted {
		return Saved{}, apperr.Conflict("Complete the session before saving it.")
	}
	for _, it := range sess.Items {
		if !it.Final() {
			return Saved{}, apperr.Conflict(MsgNotReadyToSave)
		}
	}
	title = strings.Join(strings.Fields(title), " ")
	if title == "" {
		title = "Session " + s.clock().Format("Jan 2, 2006 3:04 PM") + " UTC"
	}
	if utf8.RuneCountInString(title) > maxTitleLen {
		return Saved{}, apperr.Invalid("title", "The title must be at most %d characters.", maxTitleLen)
	}
	saved := Saved{ID: store.NewID(), Title: title, Profession: sess.Profession, CreatedAt: s.clock(),
		TotalSessionTime: sess.TotalSessionTime, PracticeSessionID: sess.ID}
	stored := make([]storedItem, 0, len(sess.Items))
	for _, it := range sortedForSummary(sess.Items) {
		si := storedItem{Question: it.Question, Tip: it.Tip, Status: it.Status, Meaningful: it.Meaningful, Skipped: it.Status == StatusSkipped}
		switch {
		case it.Status == StatusFailed:
			si.Transcript = MsgTranscriptError
			if it.Transcript != nil && *it.Transcript != MsgTranscriptError {
				si.Transcript = *it.Transcript
			}
			si.Feedback = &feedback.Stored{Legacy: MsgFeedbackError}
		case it.Transcript != nil:
			si.Transcript = *it.Transcript
		}
		if it.Feedback != nil {
			si.Feedback = &feedback.Stored{Feedback: it.Feedback}
		}
		if it.Metrics != nil {
			si.Metrics, _ = json.Marshal(it.Metrics)
		}
		stored = append(stored, si)
		saved.Counts.TotalQuestions++
		if si.Skipped {
			saved.Counts.Skipped++
		} else {
			saved.Counts.Answered++
		}
	}
	if avg, ok := averageScore(sess.Items); ok {
		saved.OverallAvg = math.Round(avg*10) / 10
	}
	itemsJSON, err := json.Marshal(stored)
	if err != nil {
		return Saved{}, fmt.Errorf("practice: save: %w", err)
	}
	var existing string
	err = s.db.SQL.QueryRowContext(ctx, `SELECT id FROM saved_sessions WHERE practice_session_id = $1`, sess.ID).Scan(&existing)
	switch {
	case err == nil:
		if err := execOne(ctx, s.db.SQL, "rename saved session", `UPDATE saved_sessions SET title = $1 WHERE id = $2`, title, existing); err != nil {
			return Saved{}, err
		}
		return s.GetSaved(ctx, u, existing)
	case !errors.Is(err, sql.ErrNoRows):
		return Saved{}, fmt.Errorf("practice: save: %w", err)
	}
	err = execOne(ctx, s.db.SQL, "save session", `INSERT INTO saved_sessions (id, user_id, practice_session_id, title, profession, created_at,
		overall_avg, total_session_time, total_questions, answered, skipped, items) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
		saved.ID, u.ID, sess.ID, saved.Title, saved.Profession, saved.CreatedAt, saved.OverallAvg, saved.TotalSessionTime,
		saved.Counts.TotalQuestions, saved.Counts.Answered, saved.Counts.Skipped, string(itemsJSON))
	if store.IsUniqueViolation(err) { // a double click raced us
		return s.Save(ctx, u, sessionID, title)
	}
	if err != nil {
		return Saved{}, err
	}
	return s.GetSaved(ctx, u, saved.ID)
}

// sortedForSummary keeps the asked order but puts skipped questions last
// (spec §4).
func sortedForSummary(items []Item) []Item {
	out := make([]Item, 0, len(items))
	var skipped []Item
	for _, it := range items {
		if it.Status == StatusSkipped {
			skipped = append(skipped, it)
		} else {
			out = append(out, it)
		}
	}
	return append(out, skipped...)
}

const savedColumns = `id, title, profession, created_at, overall_avg, total_session_time, total_questions, answered, skipped, items,
	COALESCE(practice_session_id, '')`

func scanSaved(r interface{ Scan(...any) error }, withItems bool) (Saved, error) {
	var sv Saved
	var items string
	err := r.Scan(&sv.ID, &sv.Title, &sv.Profession, &sv.CreatedAt, &sv.OverallAvg, &sv.TotalSessionTime,
		&sv.Counts.TotalQuestions, &sv.Counts.Answered, &sv.Counts.Skipped, &items, &sv.PracticeSessionID)
	if errors.Is(err, sql.ErrNoRows) {
		return Saved{}, errNotFound
	}
	if err != nil {
		return Saved{}, fmt.Errorf("practice: scan saved session: %w", err)
	}
	if sv.Title == "" {
		sv.Title = "Untitled Session"
	}
	sv.Items = []SavedItem{}
	if !withItems {
		return sv, nil
	}
	var stored []storedItem
	if err := json.Unmarshal([]byte(items), &stored); err != nil {
		return Saved{}, fmt.Errorf("practice: saved session %s items: %w", sv.ID, err)
	}
	for _, si := range stored {
		item := SavedItem{Question: si.Question, Tip: si.Tip, Status: si.Status, Meaningful: si.Meaningful, Skipped: si.Skipped, Transcript: si.Transcript}
		if si.Feedback != nil {
			item.Feedback, item.LegacyFeedback = si.Feedback.Feedback, si.Feedback.Legacy
		}
		if len(si.Metrics) > 0 {
			if err := json.Unmarshal(si.Metrics, &item.Metrics); err != nil {
				return Saved{}, fmt.Errorf("practice: saved session %s metrics: %w", sv.ID, err)
			}
		}
		sv.Items = append(sv.Items, item)
	}
	return sv, nil
}

// GetSaved returns one of the user's saved sessions for read-only review.
func (s *Service) GetSaved(ctx context.Context, u auth.User, id string) (Saved, error) {
	if billing.Evaluate(account(u), s.clock()).HistoryLocked {
		return Saved{}, apperr.Forbidden(billing.MsgLocked)
	}
	sv, err := scanSaved(s.db.SQL.QueryRowContext(ctx, `SELECT `+savedColumns+` FROM saved_sessions WHERE id = $1 AND user_id = $2`, id, u.ID), true)
	if errors.Is(err, errNotFound) {
		return Saved{}, apperr.NotFound(MsgSavedNotFound)
	}
	return sv, err
}

func (s *Service) recent(ctx context.Context, userID string, limit int) ([]Saved, error) {
	rows, err := s.db.SQL.QueryContext(ctx, `SELECT `+savedColumns+` FROM saved_sessions WHERE user_id = $1
		ORDER BY created_at DESC, id DESC LIMIT $2`, userID, limit)
	if err != nil {
		return nil, fmt.Errorf("practice: recent sessions: %w", err)
	}
	defer rows.Close()
	out := []Saved{}
	for rows.Next() {
		sv, err := scanSaved(rows, false)
		if err != nil {
			return nil, err
		}
		out = append(out, sv)
	}
	return out, rows.Err()
}

// Dashboard gathers the dashboard: access, stats and recent sessions.
func (s *Service) Dashboard(ctx context.Context, u auth.User) (Dashboard, error) {
	access := billing.Evaluate(account(u), s.clock())
	d := Dashboard{Name: u.Name, EmailVerified: u.EmailVerified, Access: access, RecentSessions: []Saved{},
		Stats: Stats{SessionsCompleted: u.SessionsCompleted, QuestionsPracticed: u.QuestionsPracticed,
			AverageScore: int(math.Round(u.RollingAverageScore))}}
	if access.HistoryLocked || !u.EmailVerified {
		return d, nil
	}
	recent, err := s.recent(ctx, u.ID, RecentSessions)
	if err != nil {
		return Dashboard{}, err
	}
	d.RecentSessions = recent
	return d, nil
}
