package question

import (
	"context"
	"errors"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/httpx"
	"github.com/whitecoat/whitecoat/internal/route"
)

// Handler serves the question bank API.
type Handler struct {
	svc *Service
}

// NewHandler returns the HTTP side of svc.
func NewHandler(svc *Service) *Handler { return &Handler{svc: svc} }

type bankInput struct {
	Profession string `query:"profession" maxLength:"64" doc:"Profession slug; empty for every profession." example:"dental"`
}

type bankOutput struct {
	Body struct {
		Questions []Question `json:"questions"`
	}
}

type listInput struct {
	Profession string           `query:"profession" maxLength:"64" doc:"Only questions whose mainTags contain this profession slug."`
	Subtag     string           `query:"subtag" maxLength:"32" doc:"Only questions with this subtag."`
	Q          string           `query:"q" maxLength:"200" doc:"Only questions whose text contains this, case-insensitively."`
	Page       httpx.PageNumber `query:"page"`
	PageSize   pageSize         `query:"pageSize" minimum:"1"`
}

// pageSize is a named type so that its schema can publish the page sizes
// List applies (Huma transforms the schemas of named types only).
type pageSize int

// TransformSchema implements huma.SchemaTransformer.
func (pageSize) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	most := float64(MaxPageSize)
	s.Maximum, s.Default = &most, DefaultPageSize
	return s
}

type listOutput struct{ Body QuestionPage }

type idInput struct {
	ID pathID `path:"id"`
}

type writeInput struct {
	ID   pathID `path:"id"`
	Body QuestionEdit
}

// EditConflict is the problem a stale edit is answered with: the
// failure's words, and the question as stored now.
type EditConflict struct {
	huma.ErrorModel
	Current Question `json:"current" doc:"The question as stored now, for the admin to redo their edit on."`
}

// pathID is a question's id in a path, a named type so that its schema can
// publish MaxIDLen.
type pathID string

// TransformSchema implements huma.SchemaTransformer.
func (pathID) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	most := MaxIDLen
	s.MaxLength = &most
	return s
}

type createInput struct {
	Body QuestionInput
}

type questionOutput struct{ Body Question }

// adminTags mark the admin console's question endpoints.
var adminTags = []string{"Questions", "Admin"}

// RegisterRoutes adds the question bank endpoints to api.
func (h *Handler) RegisterRoutes(api huma.API) {
	route.PublishFailures(api, FailureIncompleteNew, FailureIncompleteEdit, FailureEditedMeanwhile)
	route.Register(api, route.Endpoint{ID: "list-questions", Method: http.MethodGet, Path: "/api/questions",
		Summary: "The questions asked on their own (no stations), for a custom session's setup", Tags: []string{"Questions"}, Access: route.AccessVerified}, h.bank)
	route.Register(api, route.Endpoint{ID: "admin-list-questions", Method: http.MethodGet, Path: "/api/admin/questions", Summary: "Filter, search and page the question bank",
		Tags: adminTags, Access: route.AccessAdmin, MaxBodyBytes: route.MaxFormBytes}, h.list)
	route.Register(api, route.Endpoint{ID: "admin-get-question", Method: http.MethodGet, Path: "/api/admin/questions/{id}", Summary: "One question",
		Tags: adminTags, Access: route.AccessAdmin, MaxBodyBytes: route.MaxFormBytes}, h.get)
	route.Register(api, route.Endpoint{ID: "admin-create-question", Method: http.MethodPost, Path: "/api/admin/questions", Summary: "Add a question",
		Tags: adminTags, Status: http.StatusCreated, Access: route.AccessAdmin, MaxBodyBytes: route.MaxFormBytes}, h.create)
	route.Register(api, route.Endpoint{ID: "admin-update-question", Method: http.MethodPut, Path: "/api/admin/questions/{id}", Summary: "Edit a question",
		Description: "The edit names the version of the question it was made on. When the question was saved since, nothing is saved and the 409 " +
			"carries the question as stored, so that one admin's save never undoes another's unseen.",
		Tags: adminTags, Access: route.AccessAdmin, MaxBodyBytes: route.MaxFormBytes, Problems: map[int]any{http.StatusConflict: EditConflict{}}}, h.update)
	route.Register(api, route.Endpoint{ID: "admin-delete-question", Method: http.MethodDelete, Path: "/api/admin/questions/{id}", Summary: "Delete a question",
		Tags: adminTags, Status: http.StatusNoContent, Access: route.AccessAdmin, MaxBodyBytes: route.MaxFormBytes}, h.delete)
}

func (h *Handler) bank(ctx context.Context, _ auth.User, in *bankInput) (*bankOutput, error) {
	qs, err := h.svc.Questions(ctx, in.Profession)
	if err != nil {
		return nil, err
	}
	// A custom session asks questions on their own: a station's prompt
	// ("What would you do?") means nothing without its scenario. Who
	// wrote a question is the admins' business.
	asked := make([]Question, 0, len(qs))
	for _, q := range qs {
		if !q.IsStation() {
			q.CreatedBy, q.UpdatedBy = "", ""
			asked = append(asked, q)
		}
	}
	out := &bankOutput{}
	out.Body.Questions = asked
	return out, nil
}

func (h *Handler) list(ctx context.Context, _ auth.User, in *listInput) (*listOutput, error) {
	list, err := h.svc.List(ctx, ListQuery{Profession: in.Profession, Subtag: in.Subtag, Text: in.Q, Page: int(in.Page), PageSize: int(in.PageSize)})
	if err != nil {
		return nil, err
	}
	return &listOutput{Body: list}, nil
}

func (h *Handler) get(ctx context.Context, _ auth.User, in *idInput) (*questionOutput, error) {
	q, err := h.svc.Get(ctx, string(in.ID))
	if err != nil {
		return nil, err
	}
	return &questionOutput{Body: q}, nil
}

func (h *Handler) create(ctx context.Context, admin auth.User, in *createInput) (*questionOutput, error) {
	q, err := h.svc.Create(ctx, admin.Email, in.Body)
	if err != nil {
		return nil, err
	}
	return &questionOutput{Body: q}, nil
}

func (h *Handler) update(ctx context.Context, admin auth.User, in *writeInput) (*questionOutput, error) {
	q, err := h.svc.Update(ctx, admin.Email, string(in.ID), in.Body)
	if stale, ok := errors.AsType[*StaleEditError](err); ok {
		return nil, editConflict(ctx, stale)
	}
	if err != nil {
		return nil, err
	}
	return &questionOutput{Body: q}, nil
}

// editConflict is the problem stale is, as every 409 is answered, with
// the question as stored added.
func editConflict(ctx context.Context, stale *StaleEditError) error {
	answer := httpx.ToHTTP(ctx, stale)
	model, ok := answer.(*huma.ErrorModel)
	if !ok {
		return answer
	}
	return &EditConflict{ErrorModel: *model, Current: stale.Current}
}

func (h *Handler) delete(ctx context.Context, _ auth.User, in *idInput) (*struct{}, error) {
	return nil, h.svc.Delete(ctx, string(in.ID))
}
