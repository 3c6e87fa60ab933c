package practice

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/transcribe"
)

// Every SQL statement of the practice domain is here, as a named function;
// the service only orchestrates them. Functions take a store.Queryer so
// they run inside the caller's transaction or on their own.

var errNotFound = errors.New("practice: not found")

// exec runs one statement, naming it in the error, and reports how many
// rows it changed.
func exec(ctx context.Context, q store.Queryer, what, query string, args ...any) (int64, error) {
	res, err := q.ExecContext(ctx, query, args...)
	if err != nil {
		return 0, fmt.Errorf("practice: %s: %w", what, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("practice: %s: %w", what, err)
	}
	return n, nil
}

// scanAll reads every row of a query with scan, and always closes the rows.
func scanAll[T any](ctx context.Context, q store.Queryer, what string, scan func(*sql.Rows) (T, error), query string, args ...any) ([]T, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("practice: %s: %w", what, err)
	}
	defer rows.Close()
	out := []T{}
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("practice: %s: %w", what, err)
	}
	return out, nil
}

func scanString(rows *sql.Rows) (string, error) {
	var s string
	if err := rows.Scan(&s); err != nil {
		return "", fmt.Errorf("practice: scan: %w", err)
	}
	return s, nil
}

// Sessions.

func insertSession(ctx context.Context, q store.Queryer, s Session) error {
	_, err := exec(ctx, q, "insert session", `INSERT INTO practice_sessions (id, user_id, profession, mode, interview_type, big3, question_count, status, created_at,
		format, extension, prep_seconds, answer_seconds, typed_seconds)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
		s.ID, s.userID, s.Profession, s.Mode, s.InterviewType, s.Big3, s.QuestionCount, s.Status, s.CreatedAt, s.Format, s.Extension,
		s.Timings.PrepSeconds, s.Timings.AnswerSeconds, s.Timings.TypedSeconds)
	if err != nil {
		return err
	}
	for _, it := range s.Items {
		followUps, err := json.Marshal(it.FollowUps)
		if err != nil {
			return fmt.Errorf("practice: insert item: %w", err)
		}
		_, err = exec(ctx, q, "insert item", `INSERT INTO practice_items (id, session_id, position, question_id, question, tip, subtag, big3_order, status, updated_at,
			kind, scenario, follow_ups, prep_seconds, answer_seconds)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
			it.ID, s.ID, it.Position, it.questionID, it.Question, it.Tip, it.Subtag, it.Big3Order, it.Status, s.CreatedAt,
			it.Kind, it.Scenario, string(followUps), it.PrepSeconds, it.AnswerSeconds)
		if err != nil {
			return err
		}
	}
	return nil
}

const sessionColumns = `id, user_id, profession, mode, interview_type, big3, question_count, status, created_at, completed_at,
	total_session_time, average_score, previous_average, stats_applied_at IS NOT NULL, format, extension, prep_seconds, answer_seconds, typed_seconds`

func scanSession(r interface{ Scan(...any) error }) (Session, error) {
	var s Session
	err := r.Scan(&s.ID, &s.userID, &s.Profession, &s.Mode, &s.InterviewType, &s.Big3, &s.QuestionCount, &s.Status, &s.CreatedAt,
		&s.CompletedAt, &s.TotalSessionTime, &s.averageExact, &s.previousAverage, &s.statsApplied, &s.Format, &s.Extension,
		&s.Timings.PrepSeconds, &s.Timings.AnswerSeconds, &s.Timings.TypedSeconds)
	if errors.Is(err, sql.ErrNoRows) {
		return Session{}, errNotFound
	}
	if err != nil {
		return Session{}, fmt.Errorf("practice: scan session: %w", err)
	}
	return s, nil
}

// loadSession reads a session with its items, in the order they are asked.
func loadSession(ctx context.Context, q store.Queryer, id string) (Session, error) {
	s, err := scanSession(q.QueryRowContext(ctx, `SELECT `+sessionColumns+` FROM practice_sessions WHERE id = $1`, id))
	if err != nil {
		return Session{}, err
	}
	s.Items, err = scanAll(ctx, q, "load items", func(rows *sql.Rows) (Item, error) { return scanItem(rows) },
		`SELECT `+itemColumns+` FROM practice_items WHERE session_id = $1 ORDER BY position`, id)
	if err != nil {
		return Session{}, err
	}
	return s, nil
}

// sessionOfAnswer reads what scoring an answer needs of its session.
func sessionOfAnswer(ctx context.Context, q store.Queryer, sessionID string) (answerSession, error) {
	var as answerSession
	err := q.QueryRowContext(ctx, `SELECT profession, format, answer_seconds FROM practice_sessions WHERE id = $1`, sessionID).
		Scan(&as.profession, &as.format, &as.answerSeconds)
	if err != nil {
		return answerSession{}, fmt.Errorf("practice: session %s: %w", sessionID, err)
	}
	return as, nil
}

// completeSession marks an active session completed, reporting whether it
// was still active.
func completeSession(ctx context.Context, q store.Queryer, sessionID string, now time.Time, totalSeconds int) (bool, error) {
	n, err := exec(ctx, q, "complete session", `UPDATE practice_sessions SET status = $1, completed_at = $2, total_session_time = $3
		WHERE id = $4 AND status = $5`, SessionCompleted, now, totalSeconds, sessionID, SessionActive)
	return n == 1, err
}

// skipUnanswered moves the questions of an ended session that are in one
// of the from statuses to status, letting go of any recording still
// arriving for them (see endUnanswered).
func skipUnanswered(ctx context.Context, q store.Queryer, sessionID string, status ItemStatus, now time.Time, from []ItemStatus) error {
	cond, args := statusIn(from, status, now, sessionID)
	_, err := exec(ctx, q, "skip unanswered", `UPDATE practice_items SET status = $1, updated_at = $2, `+forgetStream+`
		WHERE session_id = $3 AND `+cond, args...)
	return err
}

// statusIn is the SQL condition that an item's status is one of from, with
// its arguments after args.
func statusIn(from []ItemStatus, args ...any) (string, []any) {
	cond := `status IN (`
	for i, f := range from {
		if i > 0 {
			cond += `, `
		}
		args = append(args, f)
		cond += fmt.Sprintf("$%d", len(args))
	}
	return cond + `)`, args
}

// activeSessions lists the user's sessions still in progress.
func activeSessions(ctx context.Context, q store.Queryer, userID string) ([]string, error) {
	return scanAll(ctx, q, "find sessions in progress", scanString, `SELECT id FROM practice_sessions WHERE user_id = $1 AND status = $2`,
		userID, SessionActive)
}

// answeredItem is the SQL condition on practice_items i that the question
// has an answer: one uploaded (whatever became of it since), or one
// arriving in pieces. A question skipped, or left unanswered when its
// session ended, has none.
const answeredItem = `(i.status NOT IN ('` + string(StatusPending) + `', '` + string(StatusSkipped) + `') OR (i.status = '` + string(StatusPending) + `' AND i.stream_path <> ''))`

// usedSessions is the SQL expression that counts the sessions of user
// other than exceptSession that have an answer: the sessions the free
// trial has spent. Both are SQL expressions.
func usedSessions(user, exceptSession string) string {
	return `(SELECT count(*) FROM practice_sessions o WHERE o.user_id = ` + user + ` AND o.id <> ` + exceptSession + `
		AND EXISTS (SELECT 1 FROM practice_items i WHERE i.session_id = o.id AND ` + answeredItem + `))`
}

// countUsedSessions counts the user's sessions other than exceptSession
// that have an answer.
func countUsedSessions(ctx context.Context, q store.Queryer, userID, exceptSession string) (int, error) {
	var n int
	err := q.QueryRowContext(ctx, `SELECT `+usedSessions("$1", "$2"), userID, exceptSession).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("practice: count used sessions: %w", err)
	}
	return n, nil
}

// markSessionProcessed records that a session's stats are being applied.
// Its primary key admits one row per session: a second call fails with a
// unique violation, which is what makes the stats update happen once.
func markSessionProcessed(ctx context.Context, q store.Queryer, userID, sessionID string, now time.Time) error {
	_, err := exec(ctx, q, "mark session processed", `INSERT INTO processed_sessions (user_id, session_id, processed_at) VALUES ($1, $2, $3)`,
		userID, sessionID, now)
	return err
}

// lastSessionAverage is the average of the user's session whose stats were
// applied last, among those with an average; nil when there is none.
func lastSessionAverage(ctx context.Context, q store.Queryer, userID string) (*float64, error) {
	var average float64
	err := q.QueryRowContext(ctx, `SELECT average_score FROM practice_sessions
		WHERE user_id = $1 AND stats_applied_at IS NOT NULL AND average_score IS NOT NULL
		ORDER BY stats_applied_at DESC LIMIT 1`, userID).Scan(&average)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("practice: last session average: %w", err)
	}
	return &average, nil
}

func recordSessionAverage(ctx context.Context, q store.Queryer, sessionID string, average, previous *float64, now time.Time) error {
	_, err := exec(ctx, q, "record session average", `UPDATE practice_sessions SET average_score = $1, previous_average = $2, stats_applied_at = $3 WHERE id = $4`,
		average, previous, now, sessionID)
	return err
}

// Items.

const itemColumns = `id, session_id, position, question_id, question, tip, subtag, big3_order, status, audio_path, audio_mime,
	transcript, metrics, feedback, score, meaningful, error, stream_path, stream_mime, stream_bytes, progress, progress_at,
	original_transcript, transcript_corrected_at, kind, scenario, follow_ups, prep_seconds, answer_seconds`

// scanItem reads the itemColumns of a row, and into extra the columns
// that follow them.
func scanItem(r interface{ Scan(...any) error }, extra ...any) (Item, error) {
	var (
		it                              Item
		metrics, feedbackJSON, progress sql.NullString
		followUps                       string
	)
	err := r.Scan(append([]any{&it.ID, &it.sessionID, &it.Position, &it.questionID, &it.Question, &it.Tip, &it.Subtag, &it.Big3Order, &it.Status,
		&it.audioPath, &it.audioMIME, &it.Transcript, &metrics, &feedbackJSON, &it.score, &it.Meaningful, &it.Error,
		&it.streamPath, &it.streamMIME, &it.streamBytes, &progress, &it.progressAt, &it.originalTranscript, &it.correctedAt,
		&it.Kind, &it.Scenario, &followUps, &it.PrepSeconds, &it.AnswerSeconds}, extra...)...)
	if errors.Is(err, sql.ErrNoRows) {
		return Item{}, errNotFound
	}
	if err != nil {
		return Item{}, fmt.Errorf("practice: scan item: %w", err)
	}
	if it.originalTranscript != nil && it.correctedAt != nil {
		it.Correction = &Correction{OriginalTranscript: *it.originalTranscript, CorrectedAt: *it.correctedAt}
	}
	if it.Status == StatusFailed && it.Transcript != nil && *it.Transcript == legacyTranscriptError {
		it.Transcript = nil // see legacyTranscriptError
	}
	for _, field := range []struct {
		name string
		json sql.NullString
		dest any
	}{
		{"metrics", metrics, &it.Metrics},
		{"feedback", feedbackJSON, &it.Feedback},
		{"progress", progress, &it.progress},
		{"follow_ups", sql.NullString{String: followUps, Valid: true}, &it.FollowUps},
	} {
		if !field.json.Valid {
			continue
		}
		if err := json.Unmarshal([]byte(field.json.String), field.dest); err != nil {
			return Item{}, fmt.Errorf("practice: item %s %s: %w", it.ID, field.name, err)
		}
	}
	return it, nil
}

func loadItem(ctx context.Context, q store.Queryer, id string) (Item, error) {
	return scanItem(q.QueryRowContext(ctx, `SELECT `+itemColumns+` FROM practice_items WHERE id = $1`, id))
}

// answerTarget is a question as admitting an answer to it finds it: the
// item, its session's owner and status, and the owner's counts that spec
// §4 and the usage guard decide by.
type answerTarget struct {
	item          Item
	owner         string
	sessionStatus string
	// usedSessions are the owner's sessions besides this one that have an
	// answer (see countUsedSessions).
	usedSessions int
	// recentAnswers are the owner's answers begun since the usage window
	// opened (see countRecentUploads), counted only when an answer to the
	// item would be counted: while no recording is arriving for it.
	recentAnswers int
}

// loadAnswerTarget reads question itemID of sessionID for admission in
// one statement: the one item's row, never the session's other items and
// their feedback. The session's columns are renamed so that the item's
// read as they do everywhere else.
func loadAnswerTarget(ctx context.Context, q store.Queryer, sessionID, itemID string, usageSince time.Time) (answerTarget, error) {
	var t answerTarget
	var err error
	t.item, err = scanItem(q.QueryRowContext(ctx, `SELECT `+itemColumns+`, s.owner, s.session_status, `+usedSessions("s.owner", "s.session_key")+`,
		CASE WHEN practice_items.stream_path = '' THEN `+recentUploads("s.owner", "$3")+` ELSE 0 END
		FROM practice_items JOIN (SELECT id AS session_key, user_id AS owner, status AS session_status FROM practice_sessions) s
			ON s.session_key = practice_items.session_id
		WHERE practice_items.id = $1 AND practice_items.session_id = $2`, itemID, sessionID, usageSince),
		&t.owner, &t.sessionStatus, &t.usedSessions, &t.recentAnswers)
	return t, err
}

// setItemStatus moves an item from one of the from statuses to status,
// reporting whether it did: a second delivery of the same job finds the
// item already moved and leaves it alone. Only moveItemTx calls it.
func setItemStatus(ctx context.Context, q store.Queryer, id string, status ItemStatus, now time.Time, from []ItemStatus) (bool, error) {
	cond, args := statusIn(from, status, now, id)
	n, err := exec(ctx, q, "set item "+id+" "+string(status), `UPDATE practice_items SET status = $1, updated_at = $2 WHERE id = $3 AND `+cond, args...)
	return n == 1, err
}

// recordUpload points an item at its new recording and clears the results
// of any earlier one.
func recordUpload(ctx context.Context, q store.Queryer, itemID, path, mimeType string, now time.Time) error {
	_, err := exec(ctx, q, "record upload", `UPDATE practice_items SET audio_path = $1, audio_mime = $2, uploaded_at = $3,
		transcript = NULL, metrics = NULL, feedback = NULL, score = NULL, meaningful = NULL, error = '',
		`+forgetStream+` WHERE id = $4`,
		path, mimeType, now, itemID)
	return err
}

// recentUploads is the SQL expression that counts the answers user
// uploaded, or began to upload in pieces, since a time, for the usage
// guard. Both are SQL expressions.
func recentUploads(user, since string) string {
	return `(SELECT count(*) FROM practice_items r JOIN practice_sessions rs ON rs.id = r.session_id
		WHERE rs.user_id = ` + user + ` AND r.uploaded_at > ` + since + `)`
}

// countRecentUploads counts the answers the user uploaded, or began to
// upload in pieces, since a time.
func countRecentUploads(ctx context.Context, q store.Queryer, userID string, since time.Time) (int, error) {
	var n int
	err := q.QueryRowContext(ctx, `SELECT `+recentUploads("$1", "$2"), userID, since).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("practice: usage: %w", err)
	}
	return n, nil
}

// nthRecentUpload is when the user uploaded their nth newest answer since
// a time (errNotFound: fewer than n): with n the usage guard's allowance,
// the upload whose coming of age lifts its pause.
func nthRecentUpload(ctx context.Context, q store.Queryer, userID string, since time.Time, n int) (time.Time, error) {
	var at time.Time
	err := q.QueryRowContext(ctx, `SELECT r.uploaded_at FROM practice_items r JOIN practice_sessions rs ON rs.id = r.session_id
		WHERE rs.user_id = $1 AND r.uploaded_at > $2 ORDER BY r.uploaded_at DESC LIMIT 1 OFFSET $3`, userID, since, n-1).Scan(&at)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, errNotFound
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("practice: usage pause: %w", err)
	}
	return at, nil
}

// forgetRecording detaches a skipped item from whatever recording was
// arriving for it.
func forgetRecording(ctx context.Context, q store.Queryer, itemID string) error {
	_, err := exec(ctx, q, "forget recording", `UPDATE practice_items SET `+forgetStream+`, progress = NULL WHERE id = $1`, itemID)
	return err
}

// clearFailure readies a failed answer for another attempt at its
// recording.
func clearFailure(ctx context.Context, q store.Queryer, itemID string) error {
	_, err := exec(ctx, q, "clear failure", `UPDATE practice_items SET error = '', transcript = NULL WHERE id = $1`, itemID)
	return err
}

// saveTranscript stores what recognition made of an answer; the recording
// and the progress made while it arrived are no longer needed.
func saveTranscript(ctx context.Context, q store.Queryer, itemID, text string, metrics transcribe.Metrics, meaningful bool) error {
	metricsJSON, err := json.Marshal(metrics)
	if err != nil {
		return fmt.Errorf("practice: save transcript: %w", err)
	}
	_, err = exec(ctx, q, "save transcript", `UPDATE practice_items SET transcript = $1, metrics = $2, meaningful = $3,
		audio_path = '', progress = NULL WHERE id = $4`,
		text, string(metricsJSON), meaningful, itemID)
	return err
}

// saveTypedAnswer records a typed answer as the item's transcript, with no
// recording and no speech figures; it counts for the usage guard like an
// upload.
func saveTypedAnswer(ctx context.Context, q store.Queryer, itemID, text string, meaningful bool, now time.Time) error {
	_, err := exec(ctx, q, "save typed answer", `UPDATE practice_items SET transcript = $1, metrics = NULL, feedback = NULL, score = NULL,
		meaningful = $2, error = '', uploaded_at = $3 WHERE id = $4`, text, meaningful, now, itemID)
	return err
}

// recordFailure stores why an answer could not be processed; audioPath is
// the recording kept for a retry, or empty.
func recordFailure(ctx context.Context, q store.Queryer, itemID, msg, audioPath string) error {
	_, err := exec(ctx, q, "record failure", `UPDATE practice_items SET error = $1, audio_path = $2 WHERE id = $3`, msg, audioPath, itemID)
	return err
}

func saveFeedback(ctx context.Context, q store.Queryer, itemID string, fb feedback.Feedback) error {
	fbJSON, err := json.Marshal(fb)
	if err != nil {
		return fmt.Errorf("practice: save feedback: %w", err)
	}
	_, err = exec(ctx, q, "save feedback", `UPDATE practice_items SET feedback = $1, score = $2 WHERE id = $3`, string(fbJSON), fb.OverallScore, itemID)
	return err
}

// saveCorrection replaces an answer's transcript with the student's
// correction and its feedback with the feedback on it (none when the
// correction holds no answer), keeping the engine's first transcript.
func saveCorrection(ctx context.Context, q store.Queryer, itemID, text string, fb *feedback.Feedback, now time.Time) error {
	var fbJSON sql.NullString
	var score sql.NullInt64
	if fb != nil {
		b, err := json.Marshal(fb)
		if err != nil {
			return fmt.Errorf("practice: save correction: %w", err)
		}
		fbJSON = sql.NullString{String: string(b), Valid: true}
		score = sql.NullInt64{Int64: int64(fb.OverallScore), Valid: true}
	}
	_, err := exec(ctx, q, "save correction", `UPDATE practice_items SET original_transcript = COALESCE(original_transcript, transcript),
		transcript = $1, feedback = $2, score = $3, meaningful = $4, transcript_corrected_at = $5, updated_at = $5 WHERE id = $6`,
		text, fbJSON, score, fb != nil, now, itemID)
	return err
}

// reviseSessionAverage stores a session's average after a correction, and
// gives it as the previous average to the sessions that compared with it:
// those finished after it up to and including the next one with an
// average (Finalize compares with the last session that has one).
func reviseSessionAverage(ctx context.Context, q store.Queryer, userID, sessionID string, average *float64) error {
	if _, err := exec(ctx, q, "revise session average", `UPDATE practice_sessions SET average_score = $1 WHERE id = $2`, average, sessionID); err != nil {
		return err
	}
	_, err := exec(ctx, q, "revise previous averages", `UPDATE practice_sessions SET previous_average = $1
		WHERE user_id = $2 AND stats_applied_at > (SELECT stats_applied_at FROM practice_sessions WHERE id = $3)
		AND stats_applied_at <= COALESCE((SELECT MIN(n.stats_applied_at) FROM practice_sessions n WHERE n.user_id = $2
			AND n.average_score IS NOT NULL AND n.stats_applied_at > (SELECT stats_applied_at FROM practice_sessions WHERE id = $3)),
			stats_applied_at)`, average, userID, sessionID)
	return err
}

// isLatestAveraged reports whether sessionID is the user's newest session
// with an average: the one the account's last average came from.
func isLatestAveraged(ctx context.Context, q store.Queryer, userID, sessionID string) (bool, error) {
	var newer int
	err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM practice_sessions WHERE user_id = $1 AND average_score IS NOT NULL
		AND stats_applied_at > (SELECT stats_applied_at FROM practice_sessions WHERE id = $2)`, userID, sessionID).Scan(&newer)
	if err != nil {
		return false, fmt.Errorf("practice: newer sessions: %w", err)
	}
	return newer == 0, nil
}

// replaceSavedItems rewrites a saved session's items and average.
func replaceSavedItems(ctx context.Context, q store.Queryer, savedID string, items []storedItem, overallAvg float64) error {
	b, err := json.Marshal(items)
	if err != nil {
		return fmt.Errorf("practice: saved items: %w", err)
	}
	_, err = exec(ctx, q, "replace saved items", `UPDATE saved_sessions SET items = $1, overall_avg = $2 WHERE id = $3`, string(b), overallAvg, savedID)
	return err
}

// earlierAnswer is a scored answer and the question it answered.
type earlierAnswer struct {
	Attempt
	question string
}

// decodeScored reads a scored answer's stored feedback and, when the
// answer was measured, its delivery metrics.
func decodeScored(feedbackJSON, metrics sql.NullString, fb *feedback.Feedback, m **transcribe.Metrics) error {
	if err := json.Unmarshal([]byte(feedbackJSON.String), fb); err != nil {
		return fmt.Errorf("feedback: %w", err)
	}
	if !metrics.Valid {
		return nil
	}
	if err := json.Unmarshal([]byte(metrics.String), m); err != nil {
		return fmt.Errorf("metrics: %w", err)
	}
	return nil
}

// scoredAnswersBefore lists the user's scored answers in sessions started
// before the session at, other than it, newest first.
func scoredAnswersBefore(ctx context.Context, q store.Queryer, userID, sessionID string, before time.Time) ([]earlierAnswer, error) {
	return scanAll(ctx, q, "earlier answers", func(rows *sql.Rows) (earlierAnswer, error) {
		var (
			e                     earlierAnswer
			metrics, feedbackJSON sql.NullString
		)
		if err := rows.Scan(&e.SessionID, &e.AnsweredAt, &e.question, &e.Transcript, &metrics, &feedbackJSON); err != nil {
			return e, err
		}
		return e, decodeScored(feedbackJSON, metrics, &e.Feedback, &e.Metrics)
	}, `SELECT s.id, s.created_at, i.question, i.transcript, i.metrics, i.feedback
		FROM practice_items i JOIN practice_sessions s ON s.id = i.session_id
		WHERE s.user_id = $1 AND s.id <> $2 AND s.created_at < $3
			AND i.status = $4 AND i.feedback IS NOT NULL AND i.transcript IS NOT NULL
		ORDER BY s.created_at DESC, i.position`, userID, sessionID, before, StatusDone)
}

// stuckItem is an answer left in progress.
type stuckItem struct {
	id     string
	status ItemStatus
}

// stuckItems lists the answers in progress that have not moved since before.
func stuckItems(ctx context.Context, q store.Queryer, before time.Time) ([]stuckItem, error) {
	return scanAll(ctx, q, "find stuck answers", func(rows *sql.Rows) (stuckItem, error) {
		var it stuckItem
		if err := rows.Scan(&it.id, &it.status); err != nil {
			return stuckItem{}, fmt.Errorf("practice: scan stuck answer: %w", err)
		}
		return it, nil
	}, `SELECT id, status FROM practice_items WHERE status IN ($1, $2, $3) AND updated_at <= $4`,
		StatusQueued, StatusTranscribing, StatusScoring, before)
}

// recordingsInUse is the set of recordings some item still refers to.
func recordingsInUse(ctx context.Context, q store.Queryer) (map[string]bool, error) {
	paths, err := scanAll(ctx, q, "sweep", scanString, `SELECT audio_path FROM practice_items WHERE audio_path <> ''
		UNION SELECT stream_path FROM practice_items WHERE stream_path <> ''`)
	if err != nil {
		return nil, err
	}
	inUse := make(map[string]bool, len(paths))
	for _, p := range paths {
		inUse[p] = true
	}
	return inUse, nil
}

// A recording arriving in pieces (see stream.go).

// forgetStream is the SQL assignment that detaches an item from the
// recording that was arriving in pieces: once it is queued whole or
// finished, or the question skipped.
const forgetStream = `stream_path = '', stream_mime = '', stream_bytes = 0`

// startStream points an item that awaits an answer at a new recording
// arriving in pieces, reporting false when the item no longer awaits one.
// Its first recognition is timed from now.
func startStream(ctx context.Context, q store.Queryer, itemID, path, mimeType string, size int64, now time.Time) (bool, error) {
	cond, args := statusIn(unanswered, path, mimeType, size, now, itemID)
	n, err := exec(ctx, q, "start recording", `UPDATE practice_items SET stream_path = $1, stream_mime = $2, stream_bytes = $3,
		progress = NULL, progress_at = $4, uploaded_at = $4 WHERE id = $5 AND `+cond, args...)
	return n == 1, err
}

// streamingBytes sums the bytes of the user's recordings arriving in
// pieces, other than itemID's.
func streamingBytes(ctx context.Context, q store.Queryer, userID, itemID string) (int64, error) {
	var n int64
	err := q.QueryRowContext(ctx, `SELECT CAST(COALESCE(SUM(i.stream_bytes), 0) AS BIGINT) FROM practice_items i JOIN practice_sessions s ON s.id = i.session_id
		WHERE s.user_id = $1 AND i.id <> $2 AND i.stream_path <> ''`, userID, itemID).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("practice: bytes in flight: %w", err)
	}
	return n, nil
}

// recordPiece moves the size of the recording at path from size to
// newSize, reporting false when another request changed it first.
func recordPiece(ctx context.Context, q store.Queryer, itemID, path string, size, newSize int64) (bool, error) {
	n, err := exec(ctx, q, "record piece", `UPDATE practice_items SET stream_bytes = $1 WHERE id = $2 AND stream_path = $3 AND stream_bytes = $4`,
		newSize, itemID, path, size)
	return n == 1, err
}

// forgetProgress drops what was recognised of a recording that arrived in
// pieces, when a whole recording replaces it.
func forgetProgress(ctx context.Context, q store.Queryer, itemID string) error {
	_, err := exec(ctx, q, "forget progress", `UPDATE practice_items SET progress = NULL WHERE id = $1`, itemID)
	return err
}

// noteRecognition records when recognition of a recording in progress was
// last queued.
func noteRecognition(ctx context.Context, q store.Queryer, itemID string, at time.Time) error {
	_, err := exec(ctx, q, "note recognition", `UPDATE practice_items SET progress_at = $1 WHERE id = $2`, at, itemID)
	return err
}

// saveProgress stores what was recognised of the recording at streamPath,
// only while that recording is still arriving: once finished, its
// transcription has already taken the progress there was.
func saveProgress(ctx context.Context, q store.Queryer, itemID, streamPath string, p transcribe.Progress) error {
	progress, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("practice: save progress: %w", err)
	}
	_, err = exec(ctx, q, "save progress", `UPDATE practice_items SET progress = $1 WHERE id = $2 AND stream_path = $3`,
		string(progress), itemID, streamPath)
	return err
}

// Saved sessions.

// storedItem is a saved item as kept in the database: feedback may be the
// structured object or, from older versions, a legacy string.
type storedItem struct {
	Kind       string           `json:"kind,omitempty"`
	Scenario   string           `json:"scenario,omitempty"`
	Question   string           `json:"question"`
	FollowUps  []string         `json:"followUps,omitempty"`
	Tip        string           `json:"tip"`
	Status     ItemStatus       `json:"status,omitempty"`
	Meaningful *bool            `json:"meaningful,omitempty"`
	Skipped    bool             `json:"skipped"`
	Transcript string           `json:"transcript"`
	Feedback   *feedback.Stored `json:"feedback"`
	Metrics    json.RawMessage  `json:"metrics,omitempty"`
	ItemID     string           `json:"itemId,omitempty"`
	Correction *Correction      `json:"correction,omitempty"`
}

// Versions before failures travelled as an item's status and error wrote
// the spec's texts for a failed answer into its transcript (practice items
// and saved sessions) and its feedback (saved sessions); sessions saved
// before the status was stored have only those texts to tell a failure by.
// Nothing writes them any more: they are read here, and only here, so that
// older rows say "failed" the way new ones do.
const (
	legacyTranscriptError = "Error"
	legacyFeedbackError   = "Error generating feedback"
)

// savedItem is the API's view of a stored item, with the failure texts
// of older versions turned into a status (see legacyTranscriptError).
func (si storedItem) savedItem() (SavedItem, error) {
	item := SavedItem{Kind: cmp.Or(si.Kind, KindSpoken), Scenario: si.Scenario, Question: si.Question, FollowUps: si.FollowUps,
		Tip: si.Tip, Status: si.Status, Meaningful: si.Meaningful, Skipped: si.Skipped, Transcript: si.Transcript,
		ItemID: si.ItemID, Correction: si.Correction}
	if si.Feedback != nil {
		item.Feedback, item.LegacyFeedback = si.Feedback.Feedback, si.Feedback.Legacy
	}
	if item.Status == "" && item.Transcript == legacyTranscriptError && item.LegacyFeedback == legacyFeedbackError {
		item.Status = StatusFailed
	}
	if item.Status == StatusFailed {
		if item.Transcript == legacyTranscriptError {
			item.Transcript = ""
		}
		if item.LegacyFeedback == legacyFeedbackError {
			item.LegacyFeedback = ""
		}
	}
	if len(si.Metrics) > 0 {
		if err := json.Unmarshal(si.Metrics, &item.Metrics); err != nil {
			return SavedItem{}, err
		}
	}
	return item, nil
}

// savedColumns are a saved session's summary, what lists show;
// savedWithItems adds its items, tens of kilobytes of answers and
// feedback, read only where one session is shown or exported.
const (
	savedColumns = `id, title, profession, created_at, overall_avg, total_session_time, total_questions, answered, skipped,
	COALESCE(practice_session_id, ''), format`
	savedWithItems = savedColumns + `, items`
)

func scanSaved(r interface{ Scan(...any) error }, withItems bool) (Saved, error) {
	var sv Saved
	var items string
	dest := []any{&sv.ID, &sv.Title, &sv.Profession, &sv.CreatedAt, &sv.OverallAvg, &sv.TotalSessionTime,
		&sv.Counts.TotalQuestions, &sv.Counts.Answered, &sv.Counts.Skipped, &sv.PracticeSessionID, &sv.Format}
	if withItems {
		dest = append(dest, &items)
	}
	err := r.Scan(dest...)
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
		item, err := si.savedItem()
		if err != nil {
			return Saved{}, fmt.Errorf("practice: saved session %s metrics: %w", sv.ID, err)
		}
		sv.Items = append(sv.Items, item)
	}
	return sv, nil
}

func insertSaved(ctx context.Context, q store.Queryer, userID string, sv Saved, items []storedItem) error {
	itemsJSON, err := json.Marshal(items)
	if err != nil {
		return fmt.Errorf("practice: save session: %w", err)
	}
	_, err = exec(ctx, q, "save session", `INSERT INTO saved_sessions (id, user_id, practice_session_id, title, profession, created_at,
		overall_avg, total_session_time, total_questions, answered, skipped, items, format, question_text)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
		sv.ID, userID, sv.PracticeSessionID, sv.Title, sv.Profession, sv.CreatedAt, sv.OverallAvg, sv.TotalSessionTime,
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

// savedIDForPracticeSession finds the saved copy of a practice session.
func savedIDForPracticeSession(ctx context.Context, q store.Queryer, practiceSessionID string) (string, error) {
	var id string
	err := q.QueryRowContext(ctx, `SELECT id FROM saved_sessions WHERE practice_session_id = $1`, practiceSessionID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", errNotFound
	}
	if err != nil {
		return "", fmt.Errorf("practice: find saved session: %w", err)
	}
	return id, nil
}

func renameSaved(ctx context.Context, q store.Queryer, id, title string) error {
	_, err := exec(ctx, q, "rename saved session", `UPDATE saved_sessions SET title = $1 WHERE id = $2`, title, id)
	return err
}

// getSaved reads one of the user's saved sessions with its items.
func getSaved(ctx context.Context, q store.Queryer, userID, id string) (Saved, error) {
	return scanSaved(q.QueryRowContext(ctx, `SELECT `+savedWithItems+` FROM saved_sessions WHERE id = $1 AND user_id = $2`, id, userID), true)
}

// recentSaved lists the user's newest saved sessions, without their items.
func recentSaved(ctx context.Context, q store.Queryer, userID string, limit int) ([]Saved, error) {
	return scanAll(ctx, q, "recent sessions", func(rows *sql.Rows) (Saved, error) { return scanSaved(rows, false) },
		`SELECT `+savedColumns+` FROM saved_sessions WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`, userID, limit)
}

// Voices (see voice.go).

// sessionVoice reads the factor remembered for the session's student; nil
// when there is none.
func sessionVoice(ctx context.Context, q store.Queryer, sessionID string) (*VoiceFactor, error) {
	var v VoiceFactor
	err := q.QueryRowContext(ctx, `SELECT v.warp, v.chosen_at, v.answers FROM practice_voices v
		JOIN practice_sessions s ON s.user_id = v.user_id WHERE s.id = $1`, sessionID).Scan(&v.Warp, &v.ChosenAt, &v.Answers)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("practice: read voice factor: %w", err)
	}
	return &v, nil
}

// userVoice reads the factor remembered for the user; nil when there is none.
func userVoice(ctx context.Context, q store.Queryer, userID string) (*VoiceFactor, error) {
	var v VoiceFactor
	err := q.QueryRowContext(ctx, `SELECT warp, chosen_at, answers FROM practice_voices WHERE user_id = $1`, userID).
		Scan(&v.Warp, &v.ChosenAt, &v.Answers)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("practice: read voice factor: %w", err)
	}
	return &v, nil
}

// saveVoice remembers warp, just chosen on an answer, for the session's
// student.
func saveVoice(ctx context.Context, q store.Queryer, sessionID string, warp float64, now time.Time) error {
	_, err := exec(ctx, q, "save voice factor", `INSERT INTO practice_voices (user_id, warp, answers, chosen_at, updated_at)
		SELECT user_id, $1, 0, $2, $2 FROM practice_sessions WHERE id = $3
		ON CONFLICT (user_id) DO UPDATE SET warp = excluded.warp, answers = 0, chosen_at = excluded.chosen_at, updated_at = excluded.updated_at`,
		warp, now, sessionID)
	return err
}

// countVoiceAnswer counts an answer recognised at the session's student's
// remembered factor warp (unless it has changed since).
func countVoiceAnswer(ctx context.Context, q store.Queryer, sessionID string, warp float64, now time.Time) error {
	_, err := exec(ctx, q, "count voice answer", `UPDATE practice_voices SET answers = answers + 1, updated_at = $1
		WHERE user_id = (SELECT user_id FROM practice_sessions WHERE id = $2) AND warp = $3`, now, sessionID, warp)
	return err
}

// forgetVoice forgets the session's student's factor if it is still warp.
func forgetVoice(ctx context.Context, q store.Queryer, sessionID string, warp float64) error {
	_, err := exec(ctx, q, "forget voice factor", `DELETE FROM practice_voices
		WHERE user_id = (SELECT user_id FROM practice_sessions WHERE id = $1) AND warp = $2`, sessionID, warp)
	return err
}

// Data rights.

// userSessionIDs lists the user's practice sessions, oldest first.
func userSessionIDs(ctx context.Context, q store.Queryer, userID string) ([]string, error) {
	return scanAll(ctx, q, "user sessions", scanString,
		`SELECT id FROM practice_sessions WHERE user_id = $1 ORDER BY created_at, id`, userID)
}

// allSaved lists every saved session of the user with its items, oldest first.
func allSaved(ctx context.Context, q store.Queryer, userID string) ([]Saved, error) {
	return scanAll(ctx, q, "all saved sessions", func(rows *sql.Rows) (Saved, error) { return scanSaved(rows, true) },
		`SELECT `+savedWithItems+` FROM saved_sessions WHERE user_id = $1 ORDER BY created_at, id`, userID)
}

// userRecordings lists the recordings and streamed pieces still on disk
// for the user's answers.
func userRecordings(ctx context.Context, q store.Queryer, userID string) ([]string, error) {
	return scanAll(ctx, q, "user recordings", scanString,
		`SELECT path FROM (
			SELECT i.audio_path AS path FROM practice_items i JOIN practice_sessions s ON s.id = i.session_id WHERE s.user_id = $1
			UNION SELECT i.stream_path FROM practice_items i JOIN practice_sessions s ON s.id = i.session_id WHERE s.user_id = $1
		) paths WHERE path <> ''`, userID)
}

// deleteUserRows removes every practice row of the user: sessions with
// their items, the stats markers, saved sessions and the voice factor.
func deleteUserRows(ctx context.Context, q store.Queryer, userID string) error {
	for _, stmt := range []string{
		`DELETE FROM practice_voices WHERE user_id = $1`,
		`DELETE FROM practice_items WHERE session_id IN (SELECT id FROM practice_sessions WHERE user_id = $1)`,
		`DELETE FROM practice_sessions WHERE user_id = $1`,
		`DELETE FROM processed_sessions WHERE user_id = $1`,
		`DELETE FROM saved_sessions WHERE user_id = $1`,
	} {
		if _, err := exec(ctx, q, "delete user data", stmt, userID); err != nil {
			return err
		}
	}
	return nil
}

// savedPage is one page of the user's saved sessions matching hq, newest
// first and without items, and how many match in all. Both read the
// summaries and question texts of the user's sessions (through the index
// on user_id, created_at, id), never their items.
func savedPage(ctx context.Context, q store.Queryer, userID string, hq HistoryQuery, size int) ([]Saved, int, error) {
	cond, args := historyFilter(userID, hq)
	var total int
	if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM saved_sessions WHERE `+cond, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("practice: count history: %w", err)
	}
	args = append(args, size, (hq.Page-1)*size)
	list, err := scanAll(ctx, q, "history", func(rows *sql.Rows) (Saved, error) { return scanSaved(rows, false) },
		fmt.Sprintf(`SELECT `+savedColumns+` FROM saved_sessions WHERE %s ORDER BY created_at DESC, id DESC LIMIT $%d OFFSET $%d`, cond, len(args)-1, len(args)), args...)
	return list, total, err
}

// historyFilter is the condition on saved_sessions that hq asks for: its
// profession, format and days, and a search among the newest
// MaxSearchedSessions of those.
func historyFilter(userID string, hq HistoryQuery) (string, []any) {
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
func moreThanSearched(ctx context.Context, q store.Queryer, userID string, hq HistoryQuery) (bool, error) {
	cond, args := filtersBesideSearch(userID, hq)
	args = append(args, MaxSearchedSessions)
	var one int
	err := q.QueryRowContext(ctx, fmt.Sprintf(`SELECT 1 FROM saved_sessions WHERE %s ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET $%d`,
		cond, len(args)), args...).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("practice: history beyond the search: %w", err)
	}
	return true, nil
}

func filtersBesideSearch(userID string, hq HistoryQuery) (string, []any) {
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

// completedAnswers lists the user's scored answers in completed sessions
// (of one profession, unless it is empty), oldest session first.
func completedAnswers(ctx context.Context, q store.Queryer, userID, profession string) ([]scoredAnswer, error) {
	return scanAll(ctx, q, "completed answers", func(rows *sql.Rows) (scoredAnswer, error) {
		var (
			a                     scoredAnswer
			metrics, feedbackJSON sql.NullString
		)
		if err := rows.Scan(&a.sessionID, &a.profession, &a.startedAt, &a.ref.ItemID, &a.ref.Question, &a.subtag, &metrics, &feedbackJSON); err != nil {
			return a, err
		}
		if err := decodeScored(feedbackJSON, metrics, &a.feedback, &a.metrics); err != nil {
			return a, err
		}
		a.ref.SessionID, a.ref.AnsweredAt, a.ref.OverallScore = a.sessionID, a.startedAt, a.feedback.OverallScore
		return a, nil
	}, `SELECT s.id, s.profession, s.created_at, i.id, i.question, i.subtag, i.metrics, i.feedback
		FROM practice_items i JOIN practice_sessions s ON s.id = i.session_id
		WHERE s.user_id = $1 AND (CAST($2 AS TEXT) = '' OR s.profession = $2) AND s.status = $3
			AND i.status = $4 AND i.feedback IS NOT NULL
		ORDER BY s.created_at, s.id, i.position`, userID, profession, SessionCompleted, StatusDone)
}

// A recording in the database (see 00009_answer_audio.sql).

// storeAudioPiece stores piece as the bytes of the recording at path from
// offset on.
func storeAudioPiece(ctx context.Context, q store.Queryer, itemID, path string, offset int64, piece []byte) error {
	_, err := exec(ctx, q, "store recording", `INSERT INTO practice_audio (path, offset_bytes, item_id, data) VALUES ($1, $2, $3, $4)`,
		path, offset, itemID, piece)
	return err
}

// storedAudioSize is how many bytes of the recording at path the database
// holds (0 for none).
func storedAudioSize(ctx context.Context, q store.Queryer, path string) (int64, error) {
	var n sql.NullInt64
	err := q.QueryRowContext(ctx, `SELECT SUM(LENGTH(data)) FROM practice_audio WHERE path = $1`, path).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("practice: size of stored recording: %w", err)
	}
	return n.Int64, nil
}

// copyStoredAudio writes the recording at path, piece by piece, to w.
func copyStoredAudio(ctx context.Context, q store.Queryer, path string, w io.WriterAt) error {
	rows, err := q.QueryContext(ctx, `SELECT offset_bytes, data FROM practice_audio WHERE path = $1 ORDER BY offset_bytes`, path)
	if err != nil {
		return fmt.Errorf("practice: read stored recording: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			offset int64
			data   []byte
		)
		if err := rows.Scan(&offset, &data); err != nil {
			return fmt.Errorf("practice: read stored recording: %w", err)
		}
		if _, err := w.WriteAt(data, offset); err != nil {
			return err
		}
	}
	return rows.Err()
}

// deleteStoredAudio deletes the recording at path from the database.
func deleteStoredAudio(ctx context.Context, q store.Queryer, path string) error {
	if path == "" {
		return nil
	}
	_, err := exec(ctx, q, "delete stored recording", `DELETE FROM practice_audio WHERE path = $1`, path)
	return err
}

// sweepStoredAudio deletes recordings no answer needs any more: those no
// item refers to (replaced, skipped, transcribed) and those kept for a
// retry that did not come before keptBefore.
func sweepStoredAudio(ctx context.Context, q store.Queryer, keptBefore time.Time) (int64, error) {
	return exec(ctx, q, "sweep stored recordings", `DELETE FROM practice_audio WHERE NOT EXISTS (
			SELECT 1 FROM practice_items i WHERE i.id = practice_audio.item_id
				AND (i.audio_path = practice_audio.path OR i.stream_path = practice_audio.path)
				AND NOT (i.status = $1 AND i.updated_at < $2))`, StatusFailed, keptBefore)
}
