package profession

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/whitecoat/whitecoat/internal/auth"
)

// ListOutput is the response of GET /api/professions. The defaults travel
// with the list so the web app never hard-codes them.
type ListOutput struct {
	Body struct {
		Professions      []Profession `json:"professions"`
		DefaultSlug      string       `json:"defaultSlug" doc:"Slug used when no profession is chosen"`
		DefaultHeroTitle string       `json:"defaultHeroTitle" doc:"Landing title used when no profession is chosen"`
	}
}

// GetInput is the request of GET /api/professions/{slug}.
type GetInput struct {
	Slug string `path:"slug" maxLength:"64" doc:"Profession slug, matched case-insensitively" example:"dental"`
}

// GetOutput is the response of GET /api/professions/{slug}.
type GetOutput struct {
	Body Profession
}

// RegisterRoutes adds the read-only profession endpoints to api.
func RegisterRoutes(api huma.API) {
	tags := []string{"Professions"}
	auth.Register(api, auth.Endpoint{ID: "list-professions", Method: http.MethodGet, Path: "/api/professions", Summary: "List professions",
		Description: "Every supported profession with its landing copy, in display order.", Tags: tags, Access: auth.AccessPublic}, listProfessions)
	auth.Register(api, auth.Endpoint{ID: "get-profession", Method: http.MethodGet, Path: "/api/professions/{slug}", Summary: "Get a profession",
		Description: "One profession's configuration and landing copy.", Tags: tags, Access: auth.AccessPublic}, getProfession)
}

func listProfessions(context.Context, auth.User, *struct{}) (*ListOutput, error) {
	out := &ListOutput{}
	out.Body.Professions = All()
	out.Body.DefaultSlug = Default.Slug
	out.Body.DefaultHeroTitle = DefaultHeroTitle
	return out, nil
}

func getProfession(_ context.Context, _ auth.User, in *GetInput) (*GetOutput, error) {
	p, ok := Lookup(in.Slug)
	if !ok {
		return nil, huma.Error404NotFound(fmt.Sprintf("unknown profession %q; known professions are %s", in.Slug, strings.Join(Slugs(), ", ")))
	}
	return &GetOutput{Body: p}, nil
}
