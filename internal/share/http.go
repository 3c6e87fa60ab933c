package share

import (
	"context"
	"fmt"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/httpx"
	"github.com/whitecoat/whitecoat/internal/route"
)

// Handler is the sharing API.
type Handler struct{ svc *Service }

// NewHandler returns the HTTP side of svc.
func NewHandler(svc *Service) *Handler { return &Handler{svc: svc} }

var (
	shareTags  = []string{"Sharing"}
	reviewTags = []string{"Review (no account)"}
)

// RegisterRoutes adds the sharing endpoints to api.
func (h *Handler) RegisterRoutes(api huma.API) {
	route.PublishFailures(api, failureLinkUnknown, failureLinkExpired, failureLinkRevoked)
	route.Register(api, route.Endpoint{ID: "list-share-links", Method: http.MethodGet, Path: "/api/shares", Summary: "The links I made to my saved sessions",
		Description: "Newest first, each with whether it still opens and how many comments came through it. The address itself was shown once, when the link was made.",
		Tags:        shareTags, Access: route.AccessVerified}, h.list)
	route.Register(api, route.Endpoint{ID: "create-share-link", Method: http.MethodPost, Path: "/api/shares", Summary: "Share a saved session with a reviewer",
		Description: "Makes a link for the named reviewer that works for 7 days, 30 days or until revoked. Whoever opens it sees the session's questions, " +
			"transcripts, scores and feedback and the student's first name, and can comment; nothing else of the student's.",
		Tags: shareTags, Status: http.StatusCreated, Access: route.AccessVerified}, h.create)
	route.Register(api, route.Endpoint{ID: "revoke-share-link", Method: http.MethodPost, Path: "/api/shares/{id}/revoke", Summary: "Turn a link off",
		Tags: shareTags, Access: route.AccessVerified}, h.revoke)
	route.Register(api, route.Endpoint{ID: "list-share-comments", Method: http.MethodGet, Path: "/api/shares/comments", Summary: "Reviewers' comments on my saved sessions",
		Tags: shareTags, Access: route.AccessVerified}, h.comments)
	route.Register(api, route.Endpoint{ID: "report-share-comment", Method: http.MethodPost, Path: "/api/shares/comments/{id}/report", Summary: "Report a comment to Whitecoat",
		Description: "Admins read a reviewer's comment only once its student reports it.",
		Tags:        shareTags, Access: route.AccessVerified}, h.report)
	route.Register(api, route.Endpoint{ID: "open-shared-session", Method: http.MethodGet, Path: "/api/review", Summary: "The saved session a link shows",
		Description: "No account needed: the link's token is the key. A link past its date or turned off by the student is refused, each with its own problem type.",
		Tags:        reviewTags, Access: route.AccessPublic}, h.open)
	route.Register(api, route.Endpoint{ID: "comment-on-shared-session", Method: http.MethodPost, Path: "/api/review/comments", Summary: "Comment on a shared session",
		Description: fmt.Sprintf("On one answer (itemIndex) or the whole session (no itemIndex), under the reviewer's name. Plain text, at most %d comments a link "+
			"and %d in %s; the student is emailed.", MaxCommentsPerLink, CommentRate.Limit, CommentRate.Window),
		Tags: reviewTags, Status: http.StatusCreated, Access: route.AccessPublic}, h.comment)
	route.Register(api, route.Endpoint{ID: "admin-list-reported-comments", Method: http.MethodGet, Path: "/api/admin/reported-comments", Summary: "Comments students reported",
		Description: "The only reviewers' comments an admin can read.",
		Tags:        []string{"Admin"}, Access: route.AccessAdmin}, h.reported)
}

type linksInput struct {
	SavedSessionID string `query:"savedSessionId" maxLength:"64" doc:"A saved session's id; empty for every link."`
}

type linksOutput struct {
	Body struct {
		Links []Link `json:"links"`
	}
}

func (h *Handler) list(ctx context.Context, u auth.User, in *linksInput) (*linksOutput, error) {
	links, err := h.svc.Links(ctx, u, in.SavedSessionID)
	if err != nil {
		return nil, err
	}
	out := &linksOutput{}
	out.Body.Links = links
	return out, nil
}

type createInput struct {
	Body createBody
}

// createBody is named so that its schema publishes the name's limit.
type createBody struct {
	SavedSessionID string `json:"savedSessionId" maxLength:"64"`
	ReviewerName   string `json:"reviewerName" doc:"Whom the link is for; their comments appear under this name."`
	Expiry         Expiry `json:"expiry"`
}

// TransformSchema implements huma.SchemaTransformer.
func (createBody) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	httpx.SetMaxLength(s, "reviewerName", MaxReviewerNameLen)
	return s
}

type createdOutput struct{ Body Created }

func (h *Handler) create(ctx context.Context, u auth.User, in *createInput) (*createdOutput, error) {
	c, err := h.svc.Create(ctx, u, in.Body.SavedSessionID, in.Body.ReviewerName, in.Body.Expiry)
	if err != nil {
		return nil, err
	}
	return &createdOutput{Body: c}, nil
}

type idInput struct {
	ID string `path:"id" maxLength:"64"`
}

type linkOutput struct {
	Body struct {
		Link Link `json:"link"`
	}
}

func (h *Handler) revoke(ctx context.Context, u auth.User, in *idInput) (*linkOutput, error) {
	l, err := h.svc.Revoke(ctx, u, in.ID)
	if err != nil {
		return nil, err
	}
	out := &linkOutput{}
	out.Body.Link = l
	return out, nil
}

type commentsOutput struct {
	Body struct {
		Comments []Comment `json:"comments"`
	}
}

func (h *Handler) comments(ctx context.Context, u auth.User, in *linksInput) (*commentsOutput, error) {
	list, err := h.svc.Comments(ctx, u, in.SavedSessionID)
	if err != nil {
		return nil, err
	}
	out := &commentsOutput{}
	out.Body.Comments = list
	return out, nil
}

type commentOutput struct {
	Body struct {
		Comment Comment `json:"comment"`
	}
}

func (h *Handler) report(ctx context.Context, u auth.User, in *idInput) (*commentOutput, error) {
	c, err := h.svc.Report(ctx, u, in.ID)
	if err != nil {
		return nil, err
	}
	out := &commentOutput{}
	out.Body.Comment = c
	return out, nil
}

// TokenQuery names a link by its token. Exported because Huma documents
// the parameters of embedded structs only when their type is exported.
type TokenQuery struct {
	Token string `query:"token" required:"true" minLength:"1" maxLength:"64" doc:"The link's token."`
}

type reviewOutput struct{ Body Review }

func (h *Handler) open(ctx context.Context, _ any, in *TokenQuery) (*reviewOutput, error) {
	r, err := h.svc.Open(ctx, in.Token)
	if err != nil {
		return nil, err
	}
	return &reviewOutput{Body: r}, nil
}

type commentInput struct {
	TokenQuery
	Body commentBody
}

// commentBody is named so that its schema publishes the comment's limit.
type commentBody struct {
	ItemIndex *int   `json:"itemIndex,omitempty" minimum:"0" doc:"The answer commented on, its place in the session's items; absent for a comment on the whole session."`
	Body      string `json:"body" doc:"The comment, plain text."`
}

// TransformSchema implements huma.SchemaTransformer.
func (commentBody) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	httpx.SetMaxLength(s, "body", MaxCommentLen)
	return s
}

type reviewerCommentOutput struct {
	Body struct {
		Comment ReviewerComment `json:"comment"`
	}
}

func (h *Handler) comment(ctx context.Context, _ any, in *commentInput) (*reviewerCommentOutput, error) {
	c, err := h.svc.AddComment(ctx, in.Token, in.Body.ItemIndex, in.Body.Body)
	if err != nil {
		return nil, err
	}
	out := &reviewerCommentOutput{}
	out.Body.Comment = c
	return out, nil
}

type reportedOutput struct {
	Body struct {
		Comments []ReportedComment `json:"comments"`
	}
}

func (h *Handler) reported(ctx context.Context, _ auth.User, _ *struct{}) (*reportedOutput, error) {
	list, err := h.svc.Reported(ctx)
	if err != nil {
		return nil, err
	}
	out := &reportedOutput{}
	out.Body.Comments = list
	return out, nil
}
