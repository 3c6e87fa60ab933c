package practice

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/whitecoat/whitecoat/internal/answer"
	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/transcribe"
	"github.com/whitecoat/whitecoat/internal/video"
)

// Practice items: the questions of a session and their answers, transcripts and feedback.

const itemColumns = `id, session_id, position, question_id, question, tip, subtag, big3_order, status, audio_path, audio_mime,
	transcript, metrics, feedback, score, meaningful, error, stream_path, stream_mime, stream_bytes, progress, progress_at,
	original_transcript, transcript_corrected_at, kind, scenario, follow_ups, prep_seconds, answer_seconds, video_delivery`

// scanItem reads the itemColumns of a row, and into extra the columns
// that follow them.
func scanItem(r interface{ Scan(...any) error }, extra ...any) (Item, error) {
	var (
		it                                             Item
		metrics, feedbackJSON, progress, videoDelivery sql.NullString
		followUps                                      string
	)
	err := r.Scan(append([]any{&it.ID, &it.sessionID, &it.Position, &it.questionID, &it.Question, &it.Tip, &it.Subtag, &it.Big3Order, &it.Status,
		&it.audioPath, &it.audioMIME, &it.Transcript, &metrics, &feedbackJSON, &it.score, &it.Meaningful, &it.Error,
		&it.streamPath, &it.streamMIME, &it.streamBytes, &progress, &it.progressAt, &it.originalTranscript, &it.correctedAt,
		&it.Kind, &it.Scenario, &followUps, &it.PrepSeconds, &it.AnswerSeconds, &videoDelivery}, extra...)...)
	if errors.Is(err, sql.ErrNoRows) {
		return Item{}, errNotFound
	}
	if err != nil {
		return Item{}, fmt.Errorf("practice: scan item: %w", err)
	}
	if it.originalTranscript != nil && it.correctedAt != nil {
		it.Correction = &answer.Correction{OriginalTranscript: *it.originalTranscript, CorrectedAt: *it.correctedAt}
	}
	if it.Status == StatusFailed && it.Transcript != nil && *it.Transcript == answer.LegacyTranscriptError {
		it.Transcript = nil // see answer.LegacyTranscriptError
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
		{"video_delivery", videoDelivery, &it.VideoDelivery},
	} {
		if !field.json.Valid {
			continue
		}
		if err := json.Unmarshal([]byte(field.json.String), field.dest); err != nil {
			return Item{}, fmt.Errorf("practice: item %s %s: %w", it.ID, field.name, err)
		}
	}
	it.Derive()
	return it, nil
}

func loadItem(ctx context.Context, q store.Queryer, id string) (Item, error) {
	return scanItem(q.QueryRowContext(ctx, `SELECT `+itemColumns+` FROM practice_items WHERE id = $1`, id))
}

// ownedItem is a question of one of the user's sessions, with what the
// requests on it check of its session.
type ownedItem struct {
	Item
	sessionStatus string
	// statsApplied is whether the session's stats were applied: every
	// answer of the completed session settled.
	statsApplied bool
	answerSession
}

// ownedItemQuery reads question $1 of session $2 when the session is user
// $3's, as ownedItemColumns and then extra, in one statement: the one
// item's row, never the session's other items and their feedback. The
// session's columns are renamed so that the item's read as they do
// everywhere else.
func ownedItemQuery(extra string) string {
	return `SELECT ` + itemColumns + `, s.session_status, s.stats_applied, s.profession, s.session_format, s.session_answer_seconds, s.session_mode` + extra + `
		FROM practice_items JOIN (SELECT id AS session_key, user_id AS owner, status AS session_status,
			stats_applied_at IS NOT NULL AS stats_applied, profession, format AS session_format, answer_seconds AS session_answer_seconds,
			mode AS session_mode
			FROM practice_sessions) s ON s.session_key = practice_items.session_id
		WHERE practice_items.id = $1 AND practice_items.session_id = $2 AND s.owner = $3`
}

// scanOwnedItem reads a row of ownedItemQuery, and into extra its extra
// columns.
func scanOwnedItem(r interface{ Scan(...any) error }, extra ...any) (ownedItem, error) {
	var it ownedItem
	var err error
	it.Item, err = scanItem(r, append([]any{&it.sessionStatus, &it.statsApplied, &it.profession, &it.format, &it.answerSeconds, &it.mode}, extra...)...)
	return it, err
}

// itemOf reads question itemID of the user's session sessionID:
// errNotFound when either is missing or the session is someone else's.
func itemOf(ctx context.Context, q store.Queryer, userID, sessionID, itemID string) (ownedItem, error) {
	return scanOwnedItem(q.QueryRowContext(ctx, ownedItemQuery(""), itemID, sessionID, userID))
}

// answerTarget is a question as admitting an answer to it finds it: the
// item and its session, and the owner's count that the usage guard
// decides by.
type answerTarget struct {
	ownedItem
	// recentAnswers are the owner's answers begun since the usage window
	// opened (see countRecentUploads), counted only when an answer to the
	// item would be counted: while no recording is arriving for it.
	recentAnswers int
}

// loadAnswerTarget reads question itemID of the user's session sessionID
// for admission in one statement (ownedItemQuery): errNotFound when
// either is missing or the session is someone else's.
func loadAnswerTarget(ctx context.Context, q store.Queryer, userID, sessionID, itemID string, usageSince time.Time) (answerTarget, error) {
	var t answerTarget
	var err error
	t.ownedItem, err = scanOwnedItem(q.QueryRowContext(ctx, ownedItemQuery(`,
		CASE WHEN practice_items.stream_path = '' THEN `+recentUploads("s.owner", "$4")+` ELSE 0 END`), itemID, sessionID, userID, usageSince),
		&t.recentAnswers)
	return t, err
}

// setItemStatus moves an item from one of the from statuses to status,
// reporting whether it did: a second delivery of the same job finds the
// item already moved and leaves it alone. Only moveItemTx calls it.
func setItemStatus(ctx context.Context, q store.Queryer, id string, status ItemStatus, now time.Time, from []ItemStatus) (bool, error) {
	cond, args := store.In("status", from, status, now, id)
	n, err := exec(ctx, q, "set item "+id+" "+string(status), `UPDATE practice_items SET status = $1, updated_at = $2 WHERE id = $3 AND `+cond, args...)
	return n == 1, err
}

// recordUpload points an item at its new recording and clears the results
// of any earlier one.
func recordUpload(ctx context.Context, q store.Queryer, itemID, path, mimeType string, now time.Time) error {
	_, err := exec(ctx, q, "record upload", `UPDATE practice_items SET audio_path = $1, audio_mime = $2, uploaded_at = $3,
		transcript = NULL, metrics = NULL, feedback = NULL, score = NULL, meaningful = NULL, error = '', video_delivery = NULL,
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
func saveTranscript(ctx context.Context, q store.Queryer, itemID string, heard answer.Hearing) error {
	metricsJSON, err := json.Marshal(heard.Metrics)
	if err != nil {
		return fmt.Errorf("practice: save transcript: %w", err)
	}
	_, err = exec(ctx, q, "save transcript", `UPDATE practice_items SET transcript = $1, metrics = $2, meaningful = $3,
		audio_path = '', progress = NULL WHERE id = $4`,
		heard.Transcript, string(metricsJSON), heard.Meaningful, itemID)
	return err
}

// saveVideoDelivery keeps what the student's browser measured of a video
// answer, with the recording it was measured from; nil keeps none.
func saveVideoDelivery(ctx context.Context, q store.Queryer, itemID string, d *video.Delivery) error {
	v, err := jsonOrNull("save video delivery", d)
	if err != nil {
		return err
	}
	_, err = exec(ctx, q, "save video delivery", `UPDATE practice_items SET video_delivery = $2 WHERE id = $1`, itemID, v)
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
	_, err = exec(ctx, q, "save feedback", `UPDATE practice_items SET feedback = $1, score = $2 WHERE id = $3`, string(fbJSON), storedScore(fb), itemID)
	return err
}

// storedScore is the score column of an answer with feedback fb: its
// overall score, or NULL when it has none (feedback.Feedback.Overall), so
// that it counts in no average.
func storedScore(fb feedback.Feedback) sql.NullInt64 {
	o, ok := fb.Overall()
	return sql.NullInt64{Int64: int64(o), Valid: ok}
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
		score = storedScore(*fb)
	}
	_, err := exec(ctx, q, "save correction", `UPDATE practice_items SET original_transcript = COALESCE(original_transcript, transcript),
		transcript = $1, feedback = $2, score = $3, meaningful = $4, transcript_corrected_at = $5, updated_at = $5 WHERE id = $6`,
		text, fbJSON, score, fb != nil, now, itemID)
	return err
}

// earlierAnswer is a scored answer and the question it answered.
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
func scoredAnswersBefore(ctx context.Context, q store.Queryer, userID, sessionID string, before time.Time) ([]ScoredAnswer, error) {
	return scanAll(ctx, q, "earlier answers", func(rows *sql.Rows) (ScoredAnswer, error) {
		var (
			a                     ScoredAnswer
			metrics, feedbackJSON sql.NullString
		)
		if err := rows.Scan(&a.SessionID, &a.Profession, &a.SessionStarted, &a.ItemID, &a.Question, &a.Subtag, &a.Transcript, &metrics, &feedbackJSON); err != nil {
			return a, err
		}
		return a, decodeScored(feedbackJSON, metrics, &a.Feedback, &a.Metrics)
	}, `SELECT s.id, s.profession, s.created_at, i.id, i.question, i.subtag, i.transcript, i.metrics, i.feedback
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

// completedAnswers lists the user's scored answers in completed sessions
// (of one profession, unless it is empty), oldest session first.
func completedAnswers(ctx context.Context, q store.Queryer, userID, profession string) ([]ScoredAnswer, error) {
	return scanAll(ctx, q, "completed answers", func(rows *sql.Rows) (ScoredAnswer, error) {
		var (
			a                                            ScoredAnswer
			transcript, metrics, feedbackJSON, videoJSON sql.NullString
		)
		if err := rows.Scan(&a.SessionID, &a.Profession, &a.SessionStarted, &a.ItemID, &a.Question, &a.Subtag, &transcript, &metrics, &feedbackJSON, &videoJSON); err != nil {
			return a, err
		}
		a.Transcript = transcript.String
		if videoJSON.Valid {
			if err := json.Unmarshal([]byte(videoJSON.String), &a.Video); err != nil {
				return a, fmt.Errorf("video delivery: %w", err)
			}
		}
		return a, decodeScored(feedbackJSON, metrics, &a.Feedback, &a.Metrics)
	}, `SELECT s.id, s.profession, s.created_at, i.id, i.question, i.subtag, i.transcript, i.metrics, i.feedback, i.video_delivery
		FROM practice_items i JOIN practice_sessions s ON s.id = i.session_id
		WHERE s.user_id = $1 AND (CAST($2 AS TEXT) = '' OR s.profession = $2) AND s.status = $3
			AND i.status = $4 AND i.feedback IS NOT NULL
		ORDER BY s.created_at, s.id, i.position`, userID, profession, SessionCompleted, StatusDone)
}
