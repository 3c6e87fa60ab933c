package practice

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/whitecoat/whitecoat/internal/store"
)

// Practice sessions: their rows, completion, and the once-per-session stats marker.

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
	total_session_time, average_score, stats_applied_at IS NOT NULL, format, extension, prep_seconds, answer_seconds, typed_seconds`

func scanSession(r interface{ Scan(...any) error }) (Session, error) {
	var s Session
	err := r.Scan(&s.ID, &s.userID, &s.Profession, &s.Mode, &s.InterviewType, &s.Big3, &s.QuestionCount, &s.Status, &s.CreatedAt,
		&s.CompletedAt, &s.TotalSessionTime, &s.averageExact, &s.statsApplied, &s.Format, &s.Extension,
		&s.Timings.PrepSeconds, &s.Timings.AnswerSeconds, &s.Timings.TypedSeconds)
	if errors.Is(err, sql.ErrNoRows) {
		return Session{}, errNotFound
	}
	if err != nil {
		return Session{}, fmt.Errorf("practice: scan session: %w", err)
	}
	return s, nil
}

// sessionOf reads session id, without its items, when it is the user's:
// errNotFound when it is missing or someone else's.
func sessionOf(ctx context.Context, q store.Queryer, userID, id string) (Session, error) {
	return scanSession(q.QueryRowContext(ctx, `SELECT `+sessionColumns+` FROM practice_sessions WHERE id = $1 AND user_id = $2`, id, userID))
}

// loadSession reads a session with its items for the pipeline's jobs,
// which act on the sessions of whoever answered.
func loadSession(ctx context.Context, q store.Queryer, id string) (Session, error) {
	s, err := scanSession(q.QueryRowContext(ctx, `SELECT `+sessionColumns+` FROM practice_sessions WHERE id = $1`, id))
	if err != nil {
		return Session{}, err
	}
	return withItems(ctx, q, s)
}

// withItems adds its items, in the order they are asked, to a session
// just read: by sessionOf, which found it the user's, or by loadSession.
func withItems(ctx context.Context, q store.Queryer, s Session) (Session, error) {
	var err error
	s.Items, err = scanAll(ctx, q, "load items", func(rows *sql.Rows) (Item, error) { return scanItem(rows) },
		`SELECT `+itemColumns+` FROM practice_items WHERE session_id = $1 ORDER BY position`, s.ID)
	if err != nil {
		return Session{}, err
	}
	return s, nil
}

// questionsOf reads when the user's session sessionID began and its
// questions, in the order asked, in one statement that reads nothing of
// their answers: errNotFound when the session is missing or someone
// else's.
func questionsOf(ctx context.Context, q store.Queryer, userID, sessionID string) (time.Time, []SessionQuestion, error) {
	type row struct {
		began time.Time
		SessionQuestion
	}
	rows, err := scanAll(ctx, q, "session questions", func(rows *sql.Rows) (row, error) {
		var r row
		return r, rows.Scan(&r.began, &r.ItemID, &r.Question)
	}, `SELECT s.created_at, i.id, i.question FROM practice_sessions s JOIN practice_items i ON i.session_id = s.id
		WHERE s.id = $1 AND s.user_id = $2 ORDER BY i.position`, sessionID, userID)
	if err != nil {
		return time.Time{}, nil, err
	}
	if len(rows) == 0 {
		// A session is made with its questions: none is no session of the user's.
		return time.Time{}, nil, errNotFound
	}
	out := make([]SessionQuestion, len(rows))
	for i, r := range rows {
		out[i] = r.SessionQuestion
	}
	return rows[0].began, out, nil
}

// sessionOfAnswer reads what scoring an answer needs of its session.
func sessionOfAnswer(ctx context.Context, q store.Queryer, sessionID string) (answerSession, error) {
	var as answerSession
	err := q.QueryRowContext(ctx, `SELECT profession, format, answer_seconds, mode FROM practice_sessions WHERE id = $1`, sessionID).
		Scan(&as.profession, &as.format, &as.answerSeconds, &as.mode)
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
	cond, args := store.In("status", from, status, now, sessionID)
	_, err := exec(ctx, q, "skip unanswered", `UPDATE practice_items SET status = $1, updated_at = $2, `+forgetStream+`
		WHERE session_id = $3 AND `+cond, args...)
	return err
}

// activeSessions lists the user's sessions still in progress.
func activeSessions(ctx context.Context, q store.Queryer, userID string) ([]string, error) {
	return scanAll(ctx, q, "find sessions in progress", scanString, `SELECT id FROM practice_sessions WHERE user_id = $1 AND status = $2`,
		userID, SessionActive)
}

// spendingItem is the SQL condition on practice_items i that its answer
// spends a free session: it was scored (an answer whose content was not
// judged has feedback but no score: it spent one too), or it may still be
// (it is being processed). An answer that came to nothing — silent, failed, skipped or
// never sent — spends none, and neither does one still arriving in
// pieces: starting a session ends the one in progress and lets go of such
// a recording (endOpenSessions), so until it is sent whole it may never
// be scored.
const spendingItem = `(i.score IS NOT NULL OR i.feedback IS NOT NULL OR i.status IN ('` + string(StatusQueued) + `', '` + string(StatusTranscribing) + `', '` +
	string(StatusScoring) + `'))`

// UsedSessionCounter counts the free sessions a student used, for billing,
// which answers what they may do (billing.UsedSessions): it reads
// practice's tables, and app hands it to billing.NewEntitlements.
type UsedSessionCounter struct{}

// UsedSessions counts userID's sessions other than besides that used a
// free session (see countUsedSessions).
func (UsedSessionCounter) UsedSessions(ctx context.Context, q store.Queryer, userID, besides string) (int, error) {
	return countUsedSessions(ctx, q, userID, besides)
}

// countUsedSessions counts the user's sessions other than exceptSession
// ("" for none) that used a free session: the trial's rule is that a
// session uses one when at least one of its answers was scored
// (spendingItem counts answers still being processed too, so that the
// trial holds while they are). This count is spec §4's sessionsCompleted;
// nothing stores it.
func countUsedSessions(ctx context.Context, q store.Queryer, userID, exceptSession string) (int, error) {
	var n int
	err := q.QueryRowContext(ctx, `SELECT count(*) FROM practice_sessions o WHERE o.user_id = $1 AND o.id <> $2
		AND EXISTS (SELECT 1 FROM practice_items i WHERE i.session_id = o.id AND `+spendingItem+`)`, userID, exceptSession).Scan(&n)
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

// recordSessionAverage stores a session's average (nil when no answer was
// scored) as its stats are applied.
func recordSessionAverage(ctx context.Context, q store.Queryer, sessionID string, average *float64, now time.Time) error {
	_, err := exec(ctx, q, "record session average", `UPDATE practice_sessions SET average_score = $1, stats_applied_at = $2 WHERE id = $3`,
		average, now, sessionID)
	return err
}

// setSessionAverage replaces a session's average after a transcript
// correction; the averages and improvements computed from it follow when
// next read.
func setSessionAverage(ctx context.Context, q store.Queryer, sessionID string, average float64) error {
	_, err := exec(ctx, q, "set session average", `UPDATE practice_sessions SET average_score = $1 WHERE id = $2`, average, sessionID)
	return err
}

// scoredSession is the SQL condition on practice_sessions that a session
// takes part in its student's averages: its stats were applied (it was
// completed and every answer settled) and it has an average. A session
// with no scored answer — its answers failed, said nothing or were
// skipped — has none (AverageScore), so it takes no part: it neither
// moves the student's average nor is the session the next one is
// compared with, nor is it counted (sessionCounts) or uses a free session
// (countUsedSessions). Scored sessions are ordered by when their stats
// were applied, id breaking ties.
const scoredSession = `stats_applied_at IS NOT NULL AND average_score IS NOT NULL`

// previousAverage is the average of the student's scored session before
// sessionID, what its improvement is measured against; nil when sessionID
// is the first scored session, or not a scored session at all.
func previousAverage(ctx context.Context, q store.Queryer, userID, sessionID string) (*float64, error) {
	var previous sql.NullFloat64
	err := q.QueryRowContext(ctx, `SELECT previous FROM (
			SELECT id, LAG(average_score) OVER (ORDER BY stats_applied_at, id) AS previous
			FROM practice_sessions WHERE user_id = $1 AND `+scoredSession+`) scored
		WHERE id = $2`, userID, sessionID).Scan(&previous)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && !previous.Valid) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("practice: previous session average: %w", err)
	}
	return &previous.Float64, nil
}

// sessionCounts counts the student's scored sessions (see scoredSession)
// and the questions answered in them, whether the answer was scored or
// failed: skipped and unanswered questions are not practice.
func sessionCounts(ctx context.Context, q store.Queryer, userID string) (sessions, questions int, err error) {
	err = q.QueryRowContext(ctx, `SELECT count(*),
			(SELECT count(*) FROM practice_items i WHERE i.status NOT IN ($2, $3)
				AND i.session_id IN (SELECT id FROM practice_sessions WHERE user_id = $1 AND `+scoredSession+`))
		FROM practice_sessions WHERE user_id = $1 AND `+scoredSession, userID, StatusPending, StatusSkipped).Scan(&sessions, &questions)
	if err != nil {
		return 0, 0, fmt.Errorf("practice: count sessions: %w", err)
	}
	return sessions, questions, nil
}

// userAverages reads the student's averages over their scored sessions.
func userAverages(ctx context.Context, q store.Queryer, userID string) (Averages, error) {
	var mean, last sql.NullFloat64
	err := q.QueryRowContext(ctx, `SELECT AVG(average_score),
			(SELECT average_score FROM practice_sessions WHERE user_id = $1 AND `+scoredSession+`
				ORDER BY stats_applied_at DESC, id DESC LIMIT 1)
		FROM practice_sessions WHERE user_id = $1 AND `+scoredSession, userID).Scan(&mean, &last)
	if err != nil {
		return Averages{}, fmt.Errorf("practice: averages: %w", err)
	}
	return Averages{RollingAverageScore: mean.Float64, LastAverageScore: last.Float64}, nil
}
