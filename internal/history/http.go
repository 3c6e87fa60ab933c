package history

import (
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/httpx"
	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/question"
	"github.com/whitecoat/whitecoat/internal/route"
)

// Handler is the history API: the dashboard, saving a session, the saved
// sessions, the History list, progress and earlier attempts.
type Handler struct{ svc *Service }

// NewHandler returns the HTTP side of svc.
func NewHandler(svc *Service) *Handler { return &Handler{svc: svc} }

// tags: the record is still published under the practice API's tag,
// where its paths are.
var tags = []string{"Practice"}

// RegisterRoutes adds the history endpoints to api.
func (h *Handler) RegisterRoutes(api huma.API) {
	route.Register(api, route.Endpoint{ID: "get-dashboard", Method: http.MethodGet, Path: "/api/dashboard", Summary: "Access, stats and recent sessions",
		Tags: tags, Access: route.AccessUser}, h.dashboard)
	route.Register(api, route.Endpoint{ID: "get-earlier-attempts", Method: http.MethodGet, Path: "/api/practice/sessions/{id}/earlier-attempts", Summary: "Earlier answers to this session's questions",
		Description: "For each question the student answered before, in sessions started earlier, their scored answers to it, newest first; locked like the saved sessions.",
		Tags:        tags, Access: route.AccessVerified}, h.earlierAttempts)
	route.Register(api, route.Endpoint{ID: "save-practice-session", Method: http.MethodPost, Path: "/api/practice/sessions/{id}/save", Summary: "Save a finished session to the dashboard",
		Tags: tags, Status: http.StatusCreated, Access: route.AccessVerified}, h.saveSession)
	route.Register(api, route.Endpoint{ID: "get-saved-session", Method: http.MethodGet, Path: "/api/practice/saved/{id}", Summary: "A saved session, for read-only review",
		Tags: tags, Access: route.AccessVerified}, h.getSaved)
	route.Register(api, route.Endpoint{ID: "list-history", Method: http.MethodGet, Path: "/api/practice/history", Summary: "Every saved session, filtered and paged",
		Description: "Newest first, without items; locked like the saved sessions when the trial expired or the pass ended.",
		Tags:        tags, Access: route.AccessVerified}, h.listHistory)
	route.Register(api, route.Endpoint{ID: "get-progress", Method: http.MethodGet, Path: "/api/practice/progress", Summary: "Trends and the competency map",
		Description: "Drawn from the student's scored answers in completed sessions: per session, the mean scores and delivery figures; per competency, " +
			"the answers that showed it. Locked like the saved sessions.",
		Tags: tags, Access: route.AccessVerified}, h.progress)
}

type dashboardOutput struct{ Body Dashboard }

func (h *Handler) dashboard(ctx context.Context, u auth.User, _ *struct{}) (*dashboardOutput, error) {
	d, err := h.svc.Dashboard(ctx, u)
	if err != nil {
		return nil, err
	}
	return &dashboardOutput{Body: d}, nil
}

type savedBody struct {
	Saved Saved `json:"saved"`
}

type savedOutput struct{ Body savedBody }

type saveInput struct {
	ID   string `path:"id" maxLength:"64"`
	Body saveInputBody
}

// saveInputBody is a named type so that its schema can publish the title
// limit Save enforces (Huma transforms the schemas of named types only).
type saveInputBody struct {
	Title string `json:"title" doc:"Empty for the default \"Session {date/time}\"."`
}

// TransformSchema implements huma.SchemaTransformer.
func (saveInputBody) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	httpx.SetMaxLength(s, "title", MaxTitleLen)
	return s
}

func (h *Handler) saveSession(ctx context.Context, u auth.User, in *saveInput) (*savedOutput, error) {
	sv, err := h.svc.Save(ctx, u, in.ID, in.Body.Title)
	if err != nil {
		return nil, err
	}
	return &savedOutput{Body: savedBody{sv}}, nil
}

func (h *Handler) getSaved(ctx context.Context, u auth.User, in *practice.SessionPath) (*savedOutput, error) {
	sv, err := h.svc.GetSaved(ctx, u, in.ID)
	if err != nil {
		return nil, err
	}
	return &savedOutput{Body: savedBody{sv}}, nil
}

type historyInput struct {
	Profession string           `query:"profession" maxLength:"64" doc:"A profession's slug; empty for every profession."`
	Format     practice.Format  `query:"format" doc:"An interview format; empty for every format."`
	From       string           `query:"from" format:"date" doc:"The first day, YYYY-MM-DD (UTC)."`
	To         string           `query:"to" format:"date" doc:"The last day, YYYY-MM-DD (UTC), included."`
	Q          string           `query:"q" maxLength:"200" doc:"Text a question of the session contains."`
	Page       httpx.PageNumber `query:"page"`
}

type historyOutput struct{ Body HistoryPage }

func (h *Handler) listHistory(ctx context.Context, u auth.User, in *historyInput) (*historyOutput, error) {
	hq := Query{Profession: in.Profession, Format: in.Format, Search: in.Q, Page: int(in.Page)}
	for _, d := range []struct {
		field, value string
		into         *time.Time
	}{{"from", in.From, &hq.From}, {"to", in.To, &hq.To}} {
		if d.value == "" {
			continue
		}
		day, err := time.Parse(time.DateOnly, d.value)
		if err != nil {
			return nil, apperr.Invalid(d.field, "Enter the date as YYYY-MM-DD.")
		}
		*d.into = day
	}
	page, err := h.svc.List(ctx, u, hq)
	if err != nil {
		return nil, err
	}
	return &historyOutput{Body: page}, nil
}

type progressInput struct {
	Profession string          `query:"profession" maxLength:"64" doc:"A profession's slug; empty for every profession."`
	Subtag     question.Subtag `query:"subtag" doc:"A question type; empty for every question."`
}

type progressOutput struct{ Body Progress }

func (h *Handler) progress(ctx context.Context, u auth.User, in *progressInput) (*progressOutput, error) {
	p, err := h.svc.Progress(ctx, u, ProgressQuery{Profession: in.Profession, Subtag: in.Subtag})
	if err != nil {
		return nil, err
	}
	return &progressOutput{Body: p}, nil
}

type comparisonOutput struct{ Body Comparison }

func (h *Handler) earlierAttempts(ctx context.Context, u auth.User, in *practice.SessionPath) (*comparisonOutput, error) {
	c, err := h.svc.EarlierAttempts(ctx, u, in.ID)
	if err != nil {
		return nil, err
	}
	return &comparisonOutput{Body: c}, nil
}
