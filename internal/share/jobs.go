package share

import (
	"context"
	"errors"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/whitecoat/whitecoat/internal/mail"
)

// CommentMailArgs is the job that tells a student comments arrived on one
// of their links. It carries only ids: the comments' words stay out of
// the job table, and a comment deleted before the job runs (the account
// went) is simply not announced. It waits a while (the mail delay) after
// the first comment, and the comments that follow on the same link before
// it is sent join it rather than each sending an email of their own: a
// reviewer commenting on five answers sends one email, not five.
type CommentMailArgs struct {
	// ShareID is the link: one waiting email per link.
	ShareID string `json:"shareId,omitempty" river:"unique"`
	// CommentID is the first comment of the batch, which the email names
	// the reviewer and the session by.
	CommentID string `json:"commentId"`
}

func (CommentMailArgs) Kind() string { return "share_comment_mail" }

// InsertOpts makes a link's email one at a time: while one waits (or is
// being sent), a new comment on the link is part of it. Once it is sent,
// the next comment starts the next.
func (CommentMailArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{UniqueOpts: river.UniqueOpts{ByArgs: true, ByState: []rivertype.JobState{
		rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning, rivertype.JobStateScheduled, rivertype.JobStateRetryable,
	}}}
}

// CommentMailWorker runs CommentMailArgs.
type CommentMailWorker struct {
	river.WorkerDefaults[CommentMailArgs]
	Service *Service
}

func (w *CommentMailWorker) Work(ctx context.Context, job *river.Job[CommentMailArgs]) error {
	return w.Service.sendCommentMail(ctx, job.Args.CommentID)
}

// sendCommentMail emails the student who owns the comment's link. The
// email names the reviewer and the session and links to the saved
// session; the comment itself is read in the app, where the student can
// report it.
func (s *Service) sendCommentMail(ctx context.Context, commentID string) error {
	c, err := commentByID(ctx, s.db.SQL, commentID)
	if errors.Is(err, errNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	l, err := linkOf(ctx, s.db.SQL, c.StudentID, c.ShareID, s.clock())
	if err != nil {
		return err
	}
	student, err := s.accounts.UserByID(ctx, c.StudentID)
	if err != nil {
		return err
	}
	sv, err := s.sessions.SavedOf(ctx, c.StudentID, l.SavedSessionID)
	if err != nil {
		return err
	}
	link := s.baseURL.JoinPath(sv.Profession, "summary")
	link.RawQuery = "saved=" + sv.ID
	m, err := mail.CommentArrived(student.Email, student.Name, c.AuthorName, sv.Title, link.String())
	if err != nil {
		return err
	}
	return s.mailer.Send(ctx, m)
}
