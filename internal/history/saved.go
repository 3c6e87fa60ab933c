package history

import (
	"context"
	"database/sql"
	"errors"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/store"
)

const (
	// MaxTitleLen is the longest title a saved session may have, in
	// characters.
	MaxTitleLen = 120
	// MsgSavedNotFound answers for a saved session that is missing or not
	// the caller's.
	MsgSavedNotFound = "No such saved session."
)

// Save stores a processed session on the user's dashboard. Saving the same
// session again updates its title instead of making a copy.
func (s *Service) Save(ctx context.Context, u auth.User, sessionID, title string) (Saved, error) {
	var savedID string
	save := func() error {
		return s.db.WithTx(ctx, func(tx *sql.Tx) error {
			sess, err := s.practice.SessionIn(ctx, tx, u, sessionID)
			if err != nil {
				return err
			}
			savedID, err = saveTx(ctx, tx, u.ID, sess, title)
			return err
		})
	}
	err := save()
	if store.IsUniqueViolation(err) {
		// A double click raced us and saved the copy first: this time the
		// copy is found and retitled. Once only: a violation that does not
		// clear is an error, not a reason to loop.
		err = save()
	}
	if err != nil {
		return Saved{}, err
	}
	return s.GetSaved(ctx, u, savedID)
}

// saveTx saves sess, one of the user's sessions as read in tx, under
// title, or retitles its saved copy, and returns the saved session's id.
func saveTx(ctx context.Context, tx *sql.Tx, userID string, sess practice.Session, title string) (string, error) {
	if sess.Status != practice.SessionCompleted {
		return "", apperr.Conflict("Complete the session before saving it.")
	}
	for _, it := range sess.Items {
		if !it.Settled() {
			return "", apperr.Conflict(MsgNotReadyToSave)
		}
	}
	title = strings.Join(strings.Fields(title), " ")
	// A saved session's time is when it was practised, as in the progress
	// and the session's own summary: saving later does not move it.
	practised := sess.CreatedAt.UTC()
	if title == "" {
		title = "Session " + practised.Format("Jan 2, 2006 3:04 PM") + " UTC"
	}
	if utf8.RuneCountInString(title) > MaxTitleLen {
		return "", apperr.Invalid("title", "The title must be at most %d characters.", MaxTitleLen)
	}
	existing, err := savedIDForPracticeSession(ctx, tx, userID, sess.ID)
	switch {
	case err == nil:
		return existing, renameSaved(ctx, tx, userID, existing, title)
	case !errors.Is(err, errNotFound):
		return "", err
	}
	saved := Saved{ID: store.NewID(), Title: title, Profession: sess.Profession, Format: sess.Format, CreatedAt: practised,
		TotalSessionTime: sess.TotalSessionTime, PracticeSessionID: sess.ID}
	stored, counts, avg := storedItemsOf(sess.Items)
	saved.Counts, saved.OverallAvg = counts, avg
	return saved.ID, insertSaved(ctx, tx, userID, saved, stored)
}

// storedItemsOf is what a saved session keeps of a session's items, in
// summary order, with their counts and average (to one decimal).
func storedItemsOf(items []practice.Item) ([]storedItem, Counts, float64) {
	var counts Counts
	stored := make([]storedItem, 0, len(items))
	for _, it := range sortedForSummary(items) {
		si := storedItemOf(it.Answer)
		si.Tip, si.ItemID = it.Tip, it.ID
		stored = append(stored, si)
		counts.TotalQuestions++
		if si.Skipped {
			counts.Skipped++
		} else {
			counts.Answered++
		}
	}
	var overall float64
	if avg, ok := practice.AverageScore(items); ok {
		overall = math.Round(avg*10) / 10
	}
	return stored, counts, overall
}

// sortedForSummary keeps the asked order but puts skipped questions last
// (spec §4).
func sortedForSummary(items []practice.Item) []practice.Item {
	out := make([]practice.Item, 0, len(items))
	var skipped []practice.Item
	for _, it := range items {
		if it.Status == practice.StatusSkipped {
			skipped = append(skipped, it)
		} else {
			out = append(out, it)
		}
	}
	return append(out, skipped...)
}

// GetSaved returns one of the user's saved sessions for read-only review.
func (s *Service) GetSaved(ctx context.Context, u auth.User, id string) (Saved, error) {
	if err := s.checkOpen(ctx, u); err != nil {
		return Saved{}, err
	}
	return s.SavedOf(ctx, u.ID, id)
}

// SavedOf reads one saved session of userID for someone the student chose
// to show it to (a reviewer with a share link): unlike GetSaved, a locked
// history does not hide it, since the student shared it while it was open.
func (s *Service) SavedOf(ctx context.Context, userID, id string) (Saved, error) {
	sv, err := getSaved(ctx, s.db.SQL, userID, id)
	if errors.Is(err, errNotFound) {
		return Saved{}, apperr.NotFound(MsgSavedNotFound)
	}
	return sv, err
}

// SavedTitles are the titles of those of ids that are userID's saved
// sessions: what a list of share links names each by.
func (s *Service) SavedTitles(ctx context.Context, userID string, ids []string) (map[string]string, error) {
	return savedTitles(ctx, s.db.SQL, userID, ids)
}

// Dashboard gathers the dashboard: access, stats and recent sessions.
func (s *Service) Dashboard(ctx context.Context, u auth.User) (Dashboard, error) {
	access, err := s.access.Of(ctx, s.db.SQL, u.ID, "")
	if err != nil {
		return Dashboard{}, err
	}
	stats, err := s.practice.Stats(ctx, u.ID)
	if err != nil {
		return Dashboard{}, err
	}
	d := Dashboard{Name: u.Name, EmailVerified: u.EmailVerified, Access: access, RecentSessions: []Saved{}, Stats: stats}
	if !u.EmailVerified {
		return d, nil
	}
	pause, err := s.practice.UsagePause(ctx, u.ID)
	if err != nil {
		return Dashboard{}, err
	}
	d.UsagePause = pause
	if access.HistoryLocked {
		return d, nil
	}
	recent, err := recentSaved(ctx, s.db.SQL, u.ID, RecentSessions)
	if err != nil {
		return Dashboard{}, err
	}
	d.RecentSessions = recent
	return d, nil
}

// Copies keeps a session's saved copy in step with the session: practice
// calls Rewrite when it rescores an answer after the session was saved (a
// corrected transcript). It only runs statements, so its zero value is
// ready to use.
type Copies struct{}

// Rewrite rewrites the items and average of the saved copy of sess, one
// of userID's sessions as read in q, the transaction that changed it; a
// session that was never saved has nothing to rewrite.
func (Copies) Rewrite(ctx context.Context, q store.Queryer, userID string, sess practice.Session) error {
	savedID, err := savedIDForPracticeSession(ctx, q, userID, sess.ID)
	if errors.Is(err, errNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	stored, _, overall := storedItemsOf(sess.Items)
	return replaceSavedItems(ctx, q, userID, savedID, stored, overall)
}

// AllSaved are every saved session of userID with its items, oldest
// first, for their data export.
func (s *Service) AllSaved(ctx context.Context, userID string) ([]Saved, error) {
	return allSaved(ctx, s.db.SQL, userID)
}

// DeleteUserData removes the user's saved sessions inside the caller's
// transaction, which deletes the account too.
func (s *Service) DeleteUserData(ctx context.Context, q store.Queryer, userID string) error {
	return deleteUserSaved(ctx, q, userID)
}
