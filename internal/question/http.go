package question

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/httpx"
)

// bodyLimit caps a question's JSON: the longest text and tip with every
// profession fit in well under 16 KiB.
const bodyLimit = 16 << 10

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
	Profession string `query:"profession" maxLength:"64" doc:"Only questions whose mainTags contain this profession slug."`
	Subtag     string `query:"subtag" maxLength:"32" doc:"Only questions with this subtag."`
	Q          string `query:"q" maxLength:"200" doc:"Only questions whose text contains this, case-insensitively."`
	Page       int    `query:"page" minimum:"1" default:"1"`
	PageSize   int    `query:"pageSize" minimum:"1" maximum:"100" default:"25"`
}

type listOutput struct{ Body QuestionPage }

type idInput struct {
	ID string `path:"id" maxLength:"100"`
}

type writeInput struct {
	ID   string `path:"id" maxLength:"100"`
	Body QuestionInput
}

type createInput struct {
	Body QuestionInput
}

type questionOutput struct{ Body Question }

func adminOp(id, method, path, summary string, status int) huma.Operation {
	return auth.Operation(auth.AccessAdmin, huma.Operation{
		OperationID: id, Method: method, Path: path, Summary: summary, Tags: []string{"Questions", "Admin"},
		DefaultStatus: status, MaxBodyBytes: bodyLimit,
	})
}

// RegisterRoutes adds the question bank endpoints to api.
func (h *Handler) RegisterRoutes(api huma.API) {
	httpx.Register(api, auth.Operation(auth.AccessVerified, huma.Operation{
		OperationID: "list-questions", Method: http.MethodGet, Path: "/api/questions",
		Summary: "The question bank, for the session setup and the practice session", Tags: []string{"Questions"},
	}), func(ctx context.Context, in *bankInput) (*bankOutput, error) {
		if _, err := auth.RequireVerified(ctx); err != nil {
			return nil, err
		}
		qs, err := h.svc.Questions(ctx, in.Profession)
		if err != nil {
			return nil, err
		}
		// Who wrote a question is the admins' business.
		for i := range qs {
			qs[i].CreatedBy, qs[i].UpdatedBy = "", ""
		}
		out := &bankOutput{}
		out.Body.Questions = qs
		return out, nil
	})

	httpx.Register(api, adminOp("admin-list-questions", http.MethodGet, "/api/admin/questions", "Filter, search and page the question bank", http.StatusOK),
		func(ctx context.Context, in *listInput) (*listOutput, error) {
			if _, err := auth.RequireAdmin(ctx); err != nil {
				return nil, err
			}
			list, err := h.svc.List(ctx, ListQuery{Profession: in.Profession, Subtag: in.Subtag, Text: in.Q, Page: in.Page, PageSize: in.PageSize})
			if err != nil {
				return nil, err
			}
			return &listOutput{Body: list}, nil
		})

	httpx.Register(api, adminOp("admin-get-question", http.MethodGet, "/api/admin/questions/{id}", "One question", http.StatusOK),
		func(ctx context.Context, in *idInput) (*questionOutput, error) {
			if _, err := auth.RequireAdmin(ctx); err != nil {
				return nil, err
			}
			q, err := h.svc.Get(ctx, in.ID)
			if err != nil {
				return nil, err
			}
			return &questionOutput{Body: q}, nil
		})

	httpx.Register(api, adminOp("admin-create-question", http.MethodPost, "/api/admin/questions", "Add a question", http.StatusCreated),
		func(ctx context.Context, in *createInput) (*questionOutput, error) {
			admin, err := auth.RequireAdmin(ctx)
			if err != nil {
				return nil, err
			}
			q, err := h.svc.Create(ctx, admin.Email, in.Body)
			if err != nil {
				return nil, err
			}
			return &questionOutput{Body: q}, nil
		})

	httpx.Register(api, adminOp("admin-update-question", http.MethodPut, "/api/admin/questions/{id}", "Edit a question", http.StatusOK),
		func(ctx context.Context, in *writeInput) (*questionOutput, error) {
			admin, err := auth.RequireAdmin(ctx)
			if err != nil {
				return nil, err
			}
			q, err := h.svc.Update(ctx, admin.Email, in.ID, in.Body)
			if err != nil {
				return nil, err
			}
			return &questionOutput{Body: q}, nil
		})

	httpx.Register(api, adminOp("admin-delete-question", http.MethodDelete, "/api/admin/questions/{id}", "Delete a question", http.StatusNoContent),
		func(ctx context.Context, in *idInput) (*struct{}, error) {
			if _, err := auth.RequireAdmin(ctx); err != nil {
				return nil, err
			}
			return nil, h.svc.Delete(ctx, in.ID)
		})
}
