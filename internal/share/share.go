// Package share lets a student show a saved session to a reviewer of their
// choosing (a pre-health advisor, a mentor) through a link, and read the
// comments the reviewer leaves (issue 31). It owns the links and the
// comments; the saved session itself is practice's, read through the
// SavedSessions interface app wires.
//
// A reviewer has no account: the link's long random token is their only
// key, kept in the database as a hash. They see the session's questions,
// transcripts, scores and feedback, the student's first name and nothing
// else of the student's: not their email (the reviewer already knows whom
// they are helping, and a forwarded link must not hand a stranger an
// address), nor any other session.
package share

import (
	"fmt"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/whitecoat/whitecoat/internal/answer"
	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/history"
	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/ratelimit"
)

// Expiry is how long a link works, chosen when it is made.
type Expiry string

const (
	ExpirySevenDays    Expiry = "7-days"
	ExpiryThirtyDays   Expiry = "30-days"
	ExpiryUntilRevoked Expiry = "until-revoked"
)

// expiries are the choices, in the order the student is offered them.
var expiries = []Expiry{ExpirySevenDays, ExpiryThirtyDays, ExpiryUntilRevoked}

// lifetime is how long a link made with e works; false for one that works
// until it is revoked.
func (e Expiry) lifetime() (time.Duration, bool) {
	switch e {
	case ExpirySevenDays:
		return 7 * 24 * time.Hour, true
	case ExpiryThirtyDays:
		return 30 * 24 * time.Hour, true
	}
	return 0, false
}

// TransformSchema publishes the choices.
func (Expiry) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	s.Enum = nil
	for _, e := range expiries {
		s.Enum = append(s.Enum, string(e))
	}
	return s
}

// State is whether a link still opens.
type State string

const (
	StateActive  State = "active"
	StateExpired State = "expired"
	StateRevoked State = "revoked"
)

// TransformSchema publishes the states.
func (State) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	s.Enum = []any{string(StateActive), string(StateExpired), string(StateRevoked)}
	return s
}

// Limits on what a link takes, published in the contract.
const (
	// MaxReviewerNameLen is the longest reviewer's name, in characters.
	MaxReviewerNameLen = 80
	// MaxCommentLen is the longest comment, in characters: a few
	// paragraphs of advice.
	MaxCommentLen = 2000
	// MaxCommentsPerLink bounds the comments one link takes: one on each
	// of ten answers and an overall one, several times over.
	MaxCommentsPerLink = 50
	// MaxLinksPerSession bounds the links one saved session may have,
	// revoked and expired ones included.
	MaxLinksPerSession = 20
)

// CommentRate is how many comments one link takes in a window: a
// reviewer writing by hand never meets it; a script holding a leaked link
// does, long before MaxCommentsPerLink fills the student's inbox.
var CommentRate = ratelimit.Rule{Limit: 10, Window: 10 * time.Minute}

// MsgTooManyLinks refuses a link past MaxLinksPerSession. Links turned off
// or expired still count (a place is never given back), so it does not
// suggest turning one off.
var MsgTooManyLinks = fmt.Sprintf("This session already has the most links it can have (%d, counting those turned off or expired). Share another saved session instead.", MaxLinksPerSession)

// The messages and failures a reviewer or student is told.
const (
	MsgLinkNotFound     = "This link does not work. Check that it was copied in full, or ask the student for a new one."
	MsgLinkExpired      = "This link has expired. Ask the student for a new one if you would still like to comment."
	MsgLinkRevoked      = "The student has turned this link off. Ask them for a new one if you would still like to comment."
	MsgTooManyComments  = "This link has taken all the comments it can. Thank you for your feedback."
	MsgCommentEmpty     = "Write a comment before sending it."
	MsgReviewerRequired = "Enter the name of the person you are sharing with."
	MsgNoSuchAnswer     = "That answer is not part of this session."
	MsgNoSuchLink       = "No such link."
	MsgNoSuchComment    = "No such comment."
)

var (
	failureLinkExpired = apperr.Failure{Name: "share-link-expired", Message: MsgLinkExpired}
	failureLinkRevoked = apperr.Failure{Name: "share-link-revoked", Message: MsgLinkRevoked}
	failureLinkUnknown = apperr.Failure{Name: "share-link-not-found", Message: MsgLinkNotFound}
)

// Link is one link a student made, as they see it. Its token is shown
// once, when it is made (Created); only its hash is kept.
type Link struct {
	ID             string `json:"id"`
	SavedSessionID string `json:"savedSessionId"`
	// SavedSessionTitle names the session in a list of every link.
	SavedSessionTitle string     `json:"savedSessionTitle"`
	ReviewerName      string     `json:"reviewerName"`
	Expiry            Expiry     `json:"expiry"`
	CreatedAt         time.Time  `json:"createdAt"`
	ExpiresAt         *time.Time `json:"expiresAt" doc:"When the link stops working; null for a link that works until it is revoked."`
	RevokedAt         *time.Time `json:"revokedAt"`
	State             State      `json:"state"`
	Comments          int        `json:"comments" doc:"How many comments came through the link."`
}

// Created is a link just made, with the address to send the reviewer.
type Created struct {
	Link Link   `json:"link"`
	URL  string `json:"url" doc:"The address to send the reviewer. Shown this once: only a hash of its token is kept."`
}

// Comment is a reviewer's comment, as the student sees it.
type Comment struct {
	ID      string `json:"id"`
	ShareID string `json:"shareId"`
	// ItemIndex is the answer commented on, its place in the saved
	// session's items; null for a comment on the whole session.
	ItemIndex  *int       `json:"itemIndex"`
	AuthorName string     `json:"authorName"`
	Body       string     `json:"body"`
	CreatedAt  time.Time  `json:"createdAt"`
	ReportedAt *time.Time `json:"reportedAt" doc:"When the student reported the comment to Whitecoat; null if they did not."`
}

// ReviewerComment is a comment as its reviewer sees it: without whether
// the student reported it.
type ReviewerComment struct {
	ID         string    `json:"id"`
	ItemIndex  *int      `json:"itemIndex"`
	AuthorName string    `json:"authorName"`
	Body       string    `json:"body"`
	CreatedAt  time.Time `json:"createdAt"`
}

// ReviewedSession is the saved session as the reviewer sees it.
type ReviewedSession struct {
	Title      string          `json:"title"`
	Profession string          `json:"profession"`
	Format     practice.Format `json:"format"`
	CreatedAt  time.Time       `json:"createdAt"`
	OverallAvg float64         `json:"overallAvg"`
	Scored     bool            `json:"scored"`
	Items      []answer.Answer `json:"items" doc:"Each answer as the student sees it in their saved session: what was heard, with the words that may have been misheard marked, and how it scored."`
}

// Review is everything a link shows its reviewer.
type Review struct {
	ReviewerName     string            `json:"reviewerName"`
	StudentFirstName string            `json:"studentFirstName" doc:"The student's first name; nothing else of their account is shown."`
	ExpiresAt        *time.Time        `json:"expiresAt"`
	Session          ReviewedSession   `json:"session"`
	Comments         []ReviewerComment `json:"comments" doc:"The comments left through this link, oldest first."`
	CommentsLeft     int               `json:"commentsLeft" doc:"How many more comments the link takes."`
}

// ReportedComment is a comment a student reported, as an admin reads it.
type ReportedComment struct {
	Comment
	StudentID string `json:"studentId"`
}

// Export is what share keeps about a student, for their data export.
type Export struct {
	Links    []Link    `json:"shareLinks"`
	Comments []Comment `json:"shareComments"`
}

func reviewedSession(sv history.Saved) ReviewedSession {
	out := ReviewedSession{Title: sv.Title, Profession: sv.Profession, Format: sv.Format, CreatedAt: sv.CreatedAt,
		OverallAvg: sv.OverallAvg, Scored: sv.Scored, Items: make([]answer.Answer, len(sv.Items))}
	for i, it := range sv.Items {
		out.Items[i] = it.Answer
	}
	return out
}
