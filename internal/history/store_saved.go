package history

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/whitecoat/whitecoat/internal/answer"
	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/video"
)

// Saved sessions and the history's search through them.

// replaceSavedItems rewrites the items and average of one of the user's
// saved sessions.
func replaceSavedItems(ctx context.Context, q store.Queryer, userID, savedID string, items []storedItem, overallAvg float64) error {
	b, err := json.Marshal(items)
	if err != nil {
		return fmt.Errorf("history: saved items: %w", err)
	}
	_, err = exec(ctx, q, "replace saved items", `UPDATE saved_sessions SET items = $1, overall_avg = $2 WHERE id = $3 AND user_id = $4`,
		string(b), overallAvg, savedID, userID)
	return err
}

// storedItem is a saved item as kept in the database: feedback may be the
// structured object or, from older versions, a legacy string.
type storedItem struct {
	Kind       string             `json:"kind,omitempty"`
	Scenario   string             `json:"scenario,omitempty"`
	Question   string             `json:"question"`
	FollowUps  []string           `json:"followUps,omitempty"`
	Tip        string             `json:"tip"`
	Status     answer.Status      `json:"status,omitempty"`
	Meaningful *bool              `json:"meaningful,omitempty"`
	Skipped    bool               `json:"skipped"`
	Transcript string             `json:"transcript"`
	Feedback   *feedback.Stored   `json:"feedback"`
	Metrics    json.RawMessage    `json:"metrics,omitempty"`
	Video      *video.Delivery    `json:"videoDelivery,omitempty"`
	ItemID     string             `json:"itemId,omitempty"`
	Correction *answer.Correction `json:"correction,omitempty"`
}

// storedItemOf is what a saved session keeps of an answer. A failed
// answer is told by its status; it keeps the transcript it got before
// scoring failed, if any. The marks of words that may have been misheard
// are not kept: they are derived from the metrics as the item is read.
func storedItemOf(a answer.Answer) storedItem {
	si := storedItem{Kind: a.Kind, Scenario: a.Scenario, Question: a.Question, FollowUps: a.FollowUps, Status: a.Status, Meaningful: a.Meaningful,
		Skipped: a.Status == answer.StatusSkipped, Correction: a.Correction, Video: a.VideoDelivery}
	if a.Transcript != nil {
		si.Transcript = *a.Transcript
	}
	if a.Feedback != nil {
		si.Feedback = &feedback.Stored{Feedback: a.Feedback}
	}
	if a.Metrics != nil {
		si.Metrics, _ = json.Marshal(a.Metrics) // a struct of numbers and strings always marshals
	}
	return si
}

// savedItem is the API's view of a stored item: how the answer ended,
// done, failed or skipped, whatever version saved it (older rows record
// their failures as the texts of answer.LegacyTranscriptError, and the oldest
// neither a status nor whether the answer was meaningful), with the words
// that may have been misheard marked as the live session marked them.
func (si storedItem) savedItem() (SavedItem, error) {
	item := SavedItem{Answer: answer.Answer{Kind: cmp.Or(si.Kind, answer.KindSpoken), Scenario: si.Scenario, Question: si.Question, FollowUps: si.FollowUps,
		Status: si.Status, Meaningful: si.Meaningful, Correction: si.Correction, VideoDelivery: si.Video},
		Tip: si.Tip, Skipped: si.Skipped, ItemID: si.ItemID}
	if item.FollowUps == nil {
		item.FollowUps = []string{}
	}
	transcript := si.Transcript
	if si.Feedback != nil {
		item.Feedback, item.LegacyFeedback = si.Feedback.Feedback, si.Feedback.Legacy
	}
	if item.Status == "" && transcript == answer.LegacyTranscriptError && item.LegacyFeedback == answer.LegacyFeedbackError {
		item.Status = answer.StatusFailed
	}
	if item.Status == answer.StatusFailed {
		if transcript == answer.LegacyTranscriptError {
			transcript = ""
		}
		if item.LegacyFeedback == answer.LegacyFeedbackError {
			item.LegacyFeedback = ""
		}
	}
	switch {
	case si.Skipped:
		item.Status, item.Meaningful = answer.StatusSkipped, nil
	case item.Status == "":
		// Saved before statuses were: an answer without feedback there had
		// nothing meaningful in it.
		meaningful := item.Feedback != nil || item.LegacyFeedback != ""
		item.Status, item.Meaningful = answer.StatusDone, &meaningful
	case item.Status != answer.StatusFailed:
		item.Status = answer.StatusDone // a question saved settled and unanswered shows as answered with nothing
	}
	if item.Status != answer.StatusSkipped && (transcript != "" || item.Status == answer.StatusDone) {
		item.Transcript = &transcript
	}
	if len(si.Metrics) > 0 {
		if err := json.Unmarshal(si.Metrics, &item.Metrics); err != nil {
			return SavedItem{}, err
		}
	}
	item.Derive()
	return item, nil
}

// savedColumns are a saved session's summary, what lists show;
// savedWithItems adds its items, tens of kilobytes of answers and
// feedback, read only where one session is shown or exported.
//
// A saved session was scored when an answer of its practice session has
// a score; one saved before sessions were linked, when its average is
// above 0 (its only record of a score).
const (
	savedColumns = `id, title, profession, created_at, overall_avg, total_session_time, total_questions, answered, skipped,
	COALESCE(practice_session_id, ''), format,
	overall_avg > 0 OR EXISTS (SELECT 1 FROM practice_items i WHERE i.session_id = saved_sessions.practice_session_id AND i.score IS NOT NULL)`
	savedWithItems = savedColumns + `, items`
)

func scanSaved(r interface{ Scan(...any) error }, withItems bool) (Saved, error) {
	var sv Saved
	var items string
	dest := []any{&sv.ID, &sv.Title, &sv.Profession, &sv.CreatedAt, &sv.OverallAvg, &sv.TotalSessionTime,
		&sv.Counts.TotalQuestions, &sv.Counts.Answered, &sv.Counts.Skipped, &sv.PracticeSessionID, &sv.Format, &sv.Scored}
	if withItems {
		dest = append(dest, &items)
	}
	err := r.Scan(dest...)
	if errors.Is(err, sql.ErrNoRows) {
		return Saved{}, errNotFound
	}
	if err != nil {
		return Saved{}, fmt.Errorf("history: scan saved session: %w", err)
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
		return Saved{}, fmt.Errorf("history: saved session %s items: %w", sv.ID, err)
	}
	for _, si := range stored {
		item, err := si.savedItem()
		if err != nil {
			return Saved{}, fmt.Errorf("history: saved session %s metrics: %w", sv.ID, err)
		}
		sv.Items = append(sv.Items, item)
	}
	return sv, nil
}

// insertSaved writes a saved session once: an id saved already is left as
// it is (a kept try's id is drawn from the try, see triedSavedID; any other
// is random).
func insertSaved(ctx context.Context, q store.Queryer, userID string, sv Saved, items []storedItem) error {
	itemsJSON, err := json.Marshal(items)
	if err != nil {
		return fmt.Errorf("history: save session: %w", err)
	}
	_, err = exec(ctx, q, "save session", `INSERT INTO saved_sessions (id, user_id, practice_session_id, title, profession, created_at,
		overall_avg, total_session_time, total_questions, answered, skipped, items, format, question_text)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) ON CONFLICT (id) DO NOTHING`,
		// A saved session that was never a practice session (a try kept
		// at sign-up) links to none.
		sv.ID, userID, sql.NullString{String: sv.PracticeSessionID, Valid: sv.PracticeSessionID != ""}, sv.Title, sv.Profession, sv.CreatedAt, sv.OverallAvg, sv.TotalSessionTime,
		sv.Counts.TotalQuestions, sv.Counts.Answered, sv.Counts.Skipped, string(itemsJSON), sv.Format, questionText(items))
	return err
}

// questionText is what the history's search matches in a saved session:
// its questions, lower-cased (Unicode, as the search is), one a line so
// that no search spans two of them. A question never changes once saved.
func questionText(items []storedItem) string {
	questions := make([]string, len(items))
	for i, it := range items {
		questions[i] = it.Question
	}
	return strings.ToLower(strings.Join(questions, "\n"))
}

// savedIDForPracticeSession finds the user's saved copy of a practice session.
func savedIDForPracticeSession(ctx context.Context, q store.Queryer, userID, practiceSessionID string) (string, error) {
	var id string
	err := q.QueryRowContext(ctx, `SELECT id FROM saved_sessions WHERE practice_session_id = $1 AND user_id = $2`, practiceSessionID, userID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", errNotFound
	}
	if err != nil {
		return "", fmt.Errorf("history: find saved session: %w", err)
	}
	return id, nil
}

// renameSaved retitles one of the user's saved sessions.
func renameSaved(ctx context.Context, q store.Queryer, userID, id, title string) error {
	_, err := exec(ctx, q, "rename saved session", `UPDATE saved_sessions SET title = $1 WHERE id = $2 AND user_id = $3`, title, id, userID)
	return err
}

// getSaved reads one of the user's saved sessions with its items.
func getSaved(ctx context.Context, q store.Queryer, userID, id string) (Saved, error) {
	return scanSaved(q.QueryRowContext(ctx, `SELECT `+savedWithItems+` FROM saved_sessions WHERE id = $1 AND user_id = $2`, id, userID), true)
}

// savedTitles reads the titles of those of ids that are the user's saved
// sessions, without their items.
func savedTitles(ctx context.Context, q store.Queryer, userID string, ids []string) (map[string]string, error) {
	out := map[string]string{}
	if len(ids) == 0 {
		return out, nil
	}
	in, args := store.InList([]any{userID}, ids)
	type titled struct{ id, title string }
	rows, err := scanAll(ctx, q, "saved titles", func(rows *sql.Rows) (titled, error) {
		var t titled
		return t, rows.Scan(&t.id, &t.title)
	}, `SELECT id, title FROM saved_sessions WHERE user_id = $1 AND id IN (`+in+`)`, args...)
	for _, t := range rows {
		out[t.id] = cmp.Or(t.title, "Untitled Session")
	}
	return out, err
}

// recentSaved lists the user's newest saved sessions, without their items.
func recentSaved(ctx context.Context, q store.Queryer, userID string, limit int) ([]Saved, error) {
	return scanAll(ctx, q, "recent sessions", func(rows *sql.Rows) (Saved, error) { return scanSaved(rows, false) },
		`SELECT `+savedColumns+` FROM saved_sessions WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`, userID, limit)
}

// savedPage is one page of the user's saved sessions matching hq, newest
// first and without items, and how many match in all. Both read the
// summaries and question texts of the user's sessions (through the index
// on user_id, created_at, id), never their items.
func savedPage(ctx context.Context, q store.Queryer, userID string, hq Query, size int) ([]Saved, int, error) {
	cond, args := historyFilter(userID, hq)
	var total int
	if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM saved_sessions WHERE `+cond, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("history: count history: %w", err)
	}
	args = append(args, size, (hq.Page-1)*size)
	list, err := scanAll(ctx, q, "history", func(rows *sql.Rows) (Saved, error) { return scanSaved(rows, false) },
		fmt.Sprintf(`SELECT `+savedColumns+` FROM saved_sessions WHERE %s ORDER BY created_at DESC, id DESC LIMIT $%d OFFSET $%d`, cond, len(args)-1, len(args)), args...)
	return list, total, err
}

// historyFilter is the condition on saved_sessions that hq asks for: its
// profession, format and days, and a search among the newest
// MaxSearchedSessions of those.
func historyFilter(userID string, hq Query) (string, []any) {
	cond, args := filtersBesideSearch(userID, hq)
	if hq.Search == "" {
		return cond, args
	}
	args = append(args, MaxSearchedSessions, store.ContainsPattern(hq.Search))
	// Both sides are lower-cased in Go (see questionText): one SQL text
	// for both dialects, and Unicode case folding on both.
	return fmt.Sprintf(`%[1]s AND id IN (SELECT id FROM saved_sessions WHERE %[1]s ORDER BY created_at DESC, id DESC LIMIT $%[2]d)
		AND question_text LIKE $%[3]d ESCAPE '\'`, cond, len(args)-1, len(args)), args
}

// moreThanSearched reports whether more saved sessions match hq's filters
// other than the search than the search looks through.
func moreThanSearched(ctx context.Context, q store.Queryer, userID string, hq Query) (bool, error) {
	cond, args := filtersBesideSearch(userID, hq)
	args = append(args, MaxSearchedSessions)
	var one int
	err := q.QueryRowContext(ctx, fmt.Sprintf(`SELECT 1 FROM saved_sessions WHERE %s ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET $%d`,
		cond, len(args)), args...).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("history: history beyond the search: %w", err)
	}
	return true, nil
}

func filtersBesideSearch(userID string, hq Query) (string, []any) {
	cond, args := "user_id = $1", []any{userID}
	add := func(expr string, arg any) {
		args = append(args, arg)
		cond += fmt.Sprintf(" AND %s $%d", expr, len(args))
	}
	if hq.Profession != "" {
		add("profession =", hq.Profession)
	}
	if hq.Format != "" {
		add("format =", hq.Format)
	}
	if !hq.From.IsZero() {
		add("created_at >=", hq.From)
	}
	if !hq.To.IsZero() {
		add("created_at <", hq.To.AddDate(0, 0, 1))
	}
	return cond, args
}

// allSaved lists every saved session of the user with its items, oldest first.
func allSaved(ctx context.Context, q store.Queryer, userID string) ([]Saved, error) {
	return scanAll(ctx, q, "all saved sessions", func(rows *sql.Rows) (Saved, error) { return scanSaved(rows, true) },
		`SELECT `+savedWithItems+` FROM saved_sessions WHERE user_id = $1 ORDER BY created_at, id`, userID)
}

// deleteUserSaved removes every saved session of the user.
func deleteUserSaved(ctx context.Context, q store.Queryer, userID string) error {
	_, err := exec(ctx, q, "delete saved sessions", `DELETE FROM saved_sessions WHERE user_id = $1`, userID)
	return err
}
