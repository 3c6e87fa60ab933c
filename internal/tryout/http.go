package tryout

import (
	"context"
	"fmt"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/whitecoat/whitecoat/internal/profession"
	"github.com/whitecoat/whitecoat/internal/route"
)

// Handler serves the try-it endpoints.
type Handler struct {
	examples Examples
}

// NewHandler serves examples.
func NewHandler(examples Examples) *Handler { return &Handler{examples: examples} }

// ExampleInput is the request of GET /api/tryout/{slug}/example.
type ExampleInput struct {
	Slug string `path:"slug" maxLength:"64" doc:"Profession slug" example:"dental"`
}

// ExampleOutput is the response of GET /api/tryout/{slug}/example.
type ExampleOutput struct {
	Body Example
}

// RegisterRoutes adds the try-it endpoints to api.
func (h *Handler) RegisterRoutes(api huma.API) {
	tags := []string{"Try it"}
	route.Register(api, route.Endpoint{ID: "get-example-answer", Method: http.MethodGet, Path: ExamplePath("{slug}"), Summary: "Get a profession's example answer",
		Description: "An answer to the profession's default question with the feedback the rubric engine gives it, as the landing page shows it.",
		Tags:        tags, Access: route.AccessPublic}, h.example)
}

func (h *Handler) example(_ context.Context, _ any, in *ExampleInput) (*ExampleOutput, error) {
	p, ok := profession.Lookup(in.Slug)
	ex, known := h.examples[p.Slug]
	if !ok || !known {
		return nil, huma.Error404NotFound(fmt.Sprintf("unknown profession %q", in.Slug))
	}
	return &ExampleOutput{Body: ex}, nil
}
