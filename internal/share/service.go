package share

import (
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/history"
	"github.com/whitecoat/whitecoat/internal/mail"
	"github.com/whitecoat/whitecoat/internal/ratelimit"
	"github.com/whitecoat/whitecoat/internal/store"
)

// SavedSessions is practice's saved sessions, as sharing reads them.
type SavedSessions interface {
	// GetSaved is one of the student's own saved sessions, refused when
	// it is not theirs or their history is locked.
	GetSaved(ctx context.Context, u auth.User, id string) (history.Saved, error)
	// SavedOf is a saved session of userID, for the reviewer they chose.
	SavedOf(ctx context.Context, userID, id string) (history.Saved, error)
	// SavedTitles are the titles of those of ids that are userID's.
	SavedTitles(ctx context.Context, userID string, ids []string) (map[string]string, error)
}

// Accounts finds the student behind a link: their first name for the
// reviewer, their address for the comment email.
type Accounts interface {
	UserByID(ctx context.Context, id string) (auth.User, error)
}

// Enqueuer inserts background jobs inside the caller's transaction.
type Enqueuer interface {
	InsertTx(ctx context.Context, tx *sql.Tx, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error)
}

// Service makes, opens and revokes links and takes their comments.
type Service struct {
	db       *store.DB
	jobs     Enqueuer
	sessions SavedSessions
	accounts Accounts
	limiter  *ratelimit.Limiter
	mailer   mail.Mailer
	logger   *slog.Logger
	now      func() time.Time
	baseURL  *url.URL
	// mailDelay is how long a link's comments gather before one email.
	mailDelay time.Duration
}

// NewService returns the sharing service. baseURL is where links and the
// emails' links point.
// mailDelay is how long a link's comments gather before the student is
// emailed once about them (CommentMailArgs).
func NewService(db *store.DB, jobs Enqueuer, sessions SavedSessions, accounts Accounts, limiter *ratelimit.Limiter,
	mailer mail.Mailer, logger *slog.Logger, now func() time.Time, baseURL *url.URL, mailDelay time.Duration) *Service {
	return &Service{db: db, jobs: jobs, sessions: sessions, accounts: accounts, limiter: limiter, mailer: mailer,
		logger: logger, now: now, baseURL: baseURL, mailDelay: mailDelay}
}

func (s *Service) clock() time.Time { return store.Truncate(s.now()) }

// ReviewPage is the web page a link opens; its token rides in the query,
// which the request log does not write.
const ReviewPage = "review"

// oneLine is text with its runs of white space made single spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Create makes a link to one of u's saved sessions for reviewer.
func (s *Service) Create(ctx context.Context, u auth.User, savedID, reviewer string, expiry Expiry) (Created, error) {
	reviewer = oneLine(reviewer)
	switch {
	case reviewer == "":
		return Created{}, apperr.Invalid("reviewerName", MsgReviewerRequired)
	case utf8.RuneCountInString(reviewer) > MaxReviewerNameLen:
		return Created{}, apperr.Invalid("reviewerName", "The name must be at most %d characters.", MaxReviewerNameLen)
	}
	sv, err := s.sessions.GetSaved(ctx, u, savedID)
	if err != nil {
		return Created{}, err
	}
	now := s.clock()
	l := storedLink{Link: Link{ID: store.NewID(), SavedSessionID: savedID, SavedSessionTitle: sv.Title, ReviewerName: reviewer, Expiry: expiry,
		CreatedAt: now, State: StateActive}, UserID: u.ID}
	if life, ok := expiry.lifetime(); ok {
		end := now.Add(life)
		l.ExpiresAt = &end
	}
	token, hash := auth.NewToken()
	err = s.withCapTx(ctx, "share-links:"+savedID, func(tx *sql.Tx) error {
		n, err := countLinksOf(ctx, tx, u.ID, savedID)
		if err != nil {
			return err
		}
		if n >= MaxLinksPerSession {
			return apperr.Conflict(MsgTooManyLinks)
		}
		return insertLink(ctx, tx, l, hash)
	})
	if err != nil {
		return Created{}, err
	}
	link := s.baseURL.JoinPath(ReviewPage)
	link.RawQuery = url.Values{"token": {token}}.Encode()
	return Created{Link: l.Link, URL: link.String()}, nil
}

// withCapTx runs fn, which counts the rows under a cap and adds one, in a
// transaction holding the lock named key: on PostgreSQL a transaction
// does not see rows another has yet to commit, so without it requests at
// once all count the same total and all add to it.
func (s *Service) withCapTx(ctx context.Context, key string, fn func(tx *sql.Tx) error) error {
	return s.db.WithTx(ctx, func(tx *sql.Tx) error {
		if err := s.db.Lock(ctx, tx, key); err != nil {
			return err
		}
		return fn(tx)
	})
}

// Links lists u's links, newest first, for one saved session or (savedID
// empty) all of them.
func (s *Service) Links(ctx context.Context, u auth.User, savedID string) ([]Link, error) {
	links, err := linksOf(ctx, s.db.SQL, u.ID, savedID, s.clock())
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(links))
	for i, l := range links {
		ids[i] = l.SavedSessionID
	}
	titles, err := s.sessions.SavedTitles(ctx, u.ID, ids)
	for i := range links {
		links[i].SavedSessionTitle = titles[links[i].SavedSessionID]
	}
	return links, err
}

// Revoke turns one of u's links off; revoking it again changes nothing.
// The statement that turns it off names u: another student's link is
// missing, and left alone.
func (s *Service) Revoke(ctx context.Context, u auth.User, id string) (Link, error) {
	now := s.clock()
	err := revokeLink(ctx, s.db.SQL, u.ID, id, now)
	if errors.Is(err, errNotFound) {
		return Link{}, apperr.NotFound(MsgNoSuchLink)
	}
	if err != nil {
		return Link{}, err
	}
	l, err := linkOf(ctx, s.db.SQL, u.ID, id, now)
	return l.Link, err
}

// Comments lists the comments on u's links, oldest first, for one saved
// session or (savedID empty) all of them.
func (s *Service) Comments(ctx context.Context, u auth.User, savedID string) ([]Comment, error) {
	found, err := commentsOf(ctx, s.db.SQL, u.ID, savedID)
	if err != nil {
		return nil, err
	}
	out := make([]Comment, len(found))
	for i, c := range found {
		out[i] = c.Comment
	}
	return out, nil
}

// Report marks a comment on one of u's links for an admin to read.
func (s *Service) Report(ctx context.Context, u auth.User, id string) (Comment, error) {
	ok, err := reportComment(ctx, s.db.SQL, u.ID, id, s.clock())
	if err != nil {
		return Comment{}, err
	}
	if !ok {
		return Comment{}, apperr.NotFound(MsgNoSuchComment)
	}
	c, err := commentOf(ctx, s.db.SQL, u.ID, id)
	return c.Comment, err
}

// Reported lists the comments students reported, oldest first: the only
// comments an admin reads.
func (s *Service) Reported(ctx context.Context) ([]ReportedComment, error) {
	return reportedComments(ctx, s.db.SQL)
}

// open finds the link token names and says why it does not open, if it
// does not.
func (s *Service) open(ctx context.Context, q store.Queryer, token string) (storedLink, error) {
	l, err := linkByTokenHash(ctx, q, auth.HashToken(token), s.clock())
	if errors.Is(err, errNotFound) {
		return storedLink{}, failureLinkUnknown.NotFound()
	}
	if err != nil {
		return storedLink{}, err
	}
	switch l.State {
	case StateRevoked:
		return storedLink{}, failureLinkRevoked.NotFound()
	case StateExpired:
		return storedLink{}, failureLinkExpired.NotFound()
	}
	return l, nil
}

// Open is what the link token names shows its reviewer.
func (s *Service) Open(ctx context.Context, token string) (Review, error) {
	l, err := s.open(ctx, s.db.SQL, token)
	if err != nil {
		return Review{}, err
	}
	sv, err := s.sessions.SavedOf(ctx, l.UserID, l.SavedSessionID)
	if err != nil {
		return Review{}, err
	}
	student, err := s.accounts.UserByID(ctx, l.UserID)
	if err != nil {
		return Review{}, err
	}
	comments, err := commentsOfLink(ctx, s.db.SQL, l.ID)
	if err != nil {
		return Review{}, err
	}
	out := Review{ReviewerName: l.ReviewerName, StudentFirstName: firstName(student.Name), ExpiresAt: l.ExpiresAt,
		Session: reviewedSession(sv), Comments: make([]ReviewerComment, len(comments)), CommentsLeft: max(0, MaxCommentsPerLink-len(comments))}
	for i, c := range comments {
		out.Comments[i] = reviewerComment(c.Comment)
	}
	return out, nil
}

func firstName(name string) string {
	if f := strings.Fields(name); len(f) > 0 {
		return f[0]
	}
	return ""
}

func reviewerComment(c Comment) ReviewerComment {
	return ReviewerComment{ID: c.ID, ItemIndex: c.ItemIndex, AuthorName: c.AuthorName, Body: c.Body, CreatedAt: c.CreatedAt}
}

// AddComment takes a reviewer's comment on one answer (itemIndex) or on
// the whole session (nil), under the name the student gave them, and
// queues the email telling the student, in the same transaction.
func (s *Service) AddComment(ctx context.Context, token string, itemIndex *int, body string) (ReviewerComment, error) {
	body = strings.TrimSpace(strings.ReplaceAll(body, "\r\n", "\n"))
	switch {
	case body == "":
		return ReviewerComment{}, apperr.Invalid("body", MsgCommentEmpty)
	case utf8.RuneCountInString(body) > MaxCommentLen:
		return ReviewerComment{}, apperr.Invalid("body", "A comment must be at most %d characters.", MaxCommentLen)
	}
	l, err := s.open(ctx, s.db.SQL, token)
	if err != nil {
		return ReviewerComment{}, err
	}
	if itemIndex != nil {
		sv, err := s.sessions.SavedOf(ctx, l.UserID, l.SavedSessionID)
		if err != nil {
			return ReviewerComment{}, err
		}
		if *itemIndex < 0 || *itemIndex >= len(sv.Items) {
			return ReviewerComment{}, apperr.Invalid("itemIndex", MsgNoSuchAnswer)
		}
	}
	allowed, retry, err := s.limiter.Hit(ctx, "share-comment:"+l.ID, CommentRate)
	if err != nil {
		return ReviewerComment{}, err
	}
	if !allowed {
		return ReviewerComment{}, apperr.RateLimited(retry)
	}
	c := Comment{ID: store.NewID(), ShareID: l.ID, ItemIndex: itemIndex, AuthorName: l.ReviewerName, Body: body, CreatedAt: s.clock()}
	err = s.withCapTx(ctx, "share-comments:"+l.ID, func(tx *sql.Tx) error {
		if _, err := s.open(ctx, tx, token); err != nil {
			return err
		}
		existing, err := commentsOfLink(ctx, tx, l.ID)
		if err != nil {
			return err
		}
		if len(existing) >= MaxCommentsPerLink {
			return apperr.Conflict(MsgTooManyComments)
		}
		if err := insertComment(ctx, tx, c); err != nil {
			return err
		}
		// The delay is River's to keep, on the wall clock its scheduler
		// reads, not the service's clock.
		opts := CommentMailArgs{}.InsertOpts()
		opts.ScheduledAt = time.Now().Add(s.mailDelay)
		_, err = s.jobs.InsertTx(ctx, tx, CommentMailArgs{ShareID: c.ShareID, CommentID: c.ID}, &opts)
		return err
	})
	if err != nil {
		return ReviewerComment{}, err
	}
	return reviewerComment(c), nil
}

// SharedSessionCounts is, for each of userIDs who has any, how many of
// their saved sessions a working link shows: what an admin sees of
// sharing, without the comments.
func (s *Service) SharedSessionCounts(ctx context.Context, q store.Queryer, userIDs []string) (map[string]int, error) {
	return sharedSessionCounts(ctx, q, userIDs, s.clock())
}

// Export is every link the user made and every comment left through them.
func (s *Service) Export(ctx context.Context, u auth.User) (Export, error) {
	links, err := s.Links(ctx, u, "")
	if err != nil {
		return Export{}, err
	}
	comments, err := s.Comments(ctx, u, "")
	if err != nil {
		return Export{}, err
	}
	return Export{Links: links, Comments: comments}, nil
}

// DeleteUserData removes the user's links and their comments inside the
// caller's transaction, which deletes the account too.
func (s *Service) DeleteUserData(ctx context.Context, q store.Queryer, userID string) error {
	return deleteUserRows(ctx, q, userID)
}
