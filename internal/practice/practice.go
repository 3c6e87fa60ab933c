// Package practice is the product's core loop: a practice session the server
// assembles, each answer uploaded as soon as it is recorded (whole or in
// pieces while it is spoken) and processed in the background (transcribe,
// check for content, score), the summary, a corrected transcript, and the
// stats counted from the sessions. What the student keeps of their
// sessions — saved sessions, the History list, progress, earlier attempts,
// the dashboard — is internal/history, which reads the sessions through
// record.go.
package practice

import (
	"slices"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/whitecoat/whitecoat/internal/answer"
	"github.com/whitecoat/whitecoat/internal/httpx"
	"github.com/whitecoat/whitecoat/internal/transcribe"
)

// Spec constants and texts.
const (
	MinQuestions     = 1
	MaxQuestions     = 10
	DefaultQuestions = 5
	RecentSessions   = 5

	MsgHeavyUsage = "We've noticed unusually heavy usage on your account. To ensure fair access for all users, we've temporarily paused usage. If you believe this is a mistake, please contact support."
	// MsgFeedbackError is why an answer failed when feedback could not be
	// generated for it (spec §8).
	MsgFeedbackError    = "Error generating feedback"
	MsgNoMeaningful     = transcribe.NoMeaningfulResponse
	MsgSessionNotFound  = "No such practice session."
	MsgItemNotFound     = "No such question in this session."
	MsgRecordingGone    = "The recording is no longer available. Record the answer again."
	MsgNotReadyToSave   = "Feedback is still being prepared. Save the session when every answer is scored."
	MsgSessionCompleted = "This session has ended: it was completed, or you started a newer session (perhaps in another tab)."
	MsgAlreadyRetried   = "This answer is already being processed again."

	msgAlreadyAnswered = "This question already has an answer."
)

// Recording modes and interview types (spec §3).
const (
	ModeVideo       = "video"
	ModeAudio       = "audio"
	InterviewRandom = "random"
	InterviewCustom = "custom"
)

var (
	// modes are the ways an answer may be recorded.
	modes = []string{ModeVideo, ModeAudio}
	// interviewTypes are how a session's questions are chosen: by the
	// server from the bank, or by the user.
	interviewTypes = []string{InterviewRandom, InterviewCustom}
)

// Session statuses.
const (
	SessionActive    = "active"
	SessionCompleted = "completed"
)

var sessionStatuses = []string{SessionActive, SessionCompleted}

// Session is a practice session with its questions and their results.
type Session struct {
	ID               string     `json:"id"`
	Profession       string     `json:"profession"`
	Mode             string     `json:"mode"`
	InterviewType    string     `json:"interviewType"`
	Format           Format     `json:"format"`
	Extension        Extension  `json:"extension" doc:"The timing adjustment every item's limits already include; off means untimed practice."`
	Timings          Timings    `json:"timings" doc:"The format's timings as chosen, before the adjustment."`
	Big3             bool       `json:"big3"`
	QuestionCount    int        `json:"questionCount"`
	Status           string     `json:"status"`
	CreatedAt        time.Time  `json:"createdAt"`
	CompletedAt      *time.Time `json:"completedAt"`
	TotalSessionTime int        `json:"totalSessionTime" doc:"Seconds from start to completion, as the browser measured it."`
	// AnswerLimitSeconds is the traditional format's limit (the spec's 3
	// minutes, which its "limit reached" message names); each item carries
	// its own limit.
	AnswerLimitSeconds int `json:"answerLimitSeconds"`
	// AverageScore is the mean overall score of the scored answers, once
	// every answer is processed.
	AverageScore *int `json:"averageScore"`
	// Improvement is the rounded change from the previous session's average.
	Improvement *int `json:"improvement"`
	// Processing is true while any answer is still being worked on, and
	// for a completed session until its average and the user's stats are
	// recorded (a moment after the last answer), so that a client that stops
	// polling then has the improvement too.
	Processing bool   `json:"processing"`
	Items      []Item `json:"items"`

	userID       string
	averageExact *float64
	statsApplied bool
}

// TransformSchema publishes the session's choices and statuses.
func (Session) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	httpx.SetEnum(s, "mode", modes)
	httpx.SetEnum(s, "interviewType", interviewTypes)
	httpx.SetEnum(s, "status", sessionStatuses)
	return s
}

// Item is one question of a session and what became of its answer.
type Item struct {
	answer.Answer
	ID       string `json:"id"`
	Position int    `json:"position"`
	// PrepSeconds is the reading or preparation time before the answer
	// (0: none); AnswerSeconds is the answer's limit (for a typed part, of
	// both questions together; 0: none). Both include the session's
	// extension.
	PrepSeconds   int `json:"prepSeconds"`
	AnswerSeconds int `json:"answerSeconds"`
	// AutoStart is true when recording starts by itself after the
	// preparation and a 3-2-1 countdown.
	AutoStart bool   `json:"autoStart"`
	Tip       string `json:"tip"`
	Subtag    string `json:"subtag"`
	Big3Order int    `json:"big3Order"`
	// CanRetry is true for a failed answer whose recording is still here.
	CanRetry bool `json:"canRetry"`

	sessionID  string
	audioPath  string
	audioMIME  string
	questionID *string
	score      *int

	originalTranscript *string
	correctedAt        *time.Time

	// An answer arriving in pieces (see stream.go).
	streamPath  string
	streamMIME  string
	streamBytes int64
	progress    *transcribe.Progress
	progressAt  *time.Time
}

// MaxTranscriptLen is the longest corrected transcript, in characters:
// three minutes of fast speech is about 600 words, 4,000 characters.
const MaxTranscriptLen = 8000

// awaitsAnswer reports whether a recording may be uploaded for the item:
// it has none yet, or the last one failed and may be replaced.
func (it Item) awaitsAnswer() bool {
	return slices.Contains(answer.Unanswered, it.Status)
}

// Settled reports whether no work on the item is under way or due: it was
// processed, failed or skipped, or no answer was ever sent for it. Only an
// answer that is queued, transcribing or scoring is not settled.
func (it Item) Settled() bool {
	switch it.Status {
	case StatusDone, StatusFailed, StatusSkipped, StatusPending:
		return true
	}
	return false
}

// UsagePause is the usage guard holding an account back: it answered the
// day's allowance within the last 24 hours.
type UsagePause struct {
	// Message is the spec's text (§8).
	Message string `json:"message"`
	// EndsAt is when the oldest of the answers that fill the allowance is
	// a day old, and the account may answer again.
	EndsAt time.Time `json:"endsAt"`
}

// Stats are the dashboard's stat cards, counted from the sessions when
// read (see sessionCounts).
type Stats struct {
	// SessionsCompleted are the scored sessions (see scoredSession): the
	// finished ones among the sessions that used a free session.
	SessionsCompleted int `json:"sessionsCompleted"`
	// QuestionsPracticed are the questions answered in them.
	QuestionsPracticed int `json:"questionsPracticed"`
	// AverageScore is the mean of the scored sessions' averages (see
	// scoredSession), rounded to a whole percent.
	AverageScore int `json:"averageScore"`
}

// Averages are the spec's rollingAverageScore and lastAverageScore,
// computed when read from the averages of the student's scored sessions
// (see scoredSession); 0 while there is none.
type Averages struct {
	// RollingAverageScore is the mean of the scored sessions' averages.
	RollingAverageScore float64 `json:"rollingAverageScore"`
	// LastAverageScore is the average of the scored session whose stats
	// were applied last.
	LastAverageScore float64 `json:"lastAverageScore"`
}
