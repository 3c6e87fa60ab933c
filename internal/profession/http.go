package profession

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/whitecoat/whitecoat/internal/route"
)

// Catalog is the body of GET /api/professions. The defaults travel with
// the list so the web app never hard-codes them.
type Catalog struct {
	Professions      []Profession `json:"professions"`
	DefaultSlug      string       `json:"defaultSlug" doc:"Slug used when no profession is chosen"`
	DefaultHeroTitle string       `json:"defaultHeroTitle" doc:"Landing title used when no profession is chosen"`
}

// CurrentCatalog is every profession in display order with the defaults.
func CurrentCatalog() Catalog {
	return Catalog{Professions: All(), DefaultSlug: Default.Slug, DefaultHeroTitle: DefaultHeroTitle}
}

// ListOutput is the response of GET /api/professions.
type ListOutput struct {
	Body Catalog
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
	route.Register(api, route.Endpoint{ID: "list-professions", Method: http.MethodGet, Path: "/api/professions", Summary: "List professions",
		Description: "Every supported profession with its landing copy, in display order.", Tags: tags, Access: route.AccessPublic}, listProfessions)
	route.Register(api, route.Endpoint{ID: "get-profession", Method: http.MethodGet, Path: "/api/professions/{slug}", Summary: "Get a profession",
		Description: "One profession's configuration and landing copy.", Tags: tags, Access: route.AccessPublic}, getProfession)
}

func listProfessions(context.Context, any, *struct{}) (*ListOutput, error) {
	return &ListOutput{Body: CurrentCatalog()}, nil
}

func getProfession(_ context.Context, _ any, in *GetInput) (*GetOutput, error) {
	p, ok := Lookup(in.Slug)
	if !ok {
		return nil, huma.Error404NotFound(fmt.Sprintf("unknown profession %q; known professions are %s", in.Slug, strings.Join(Slugs(), ", ")))
	}
	return &GetOutput{Body: p}, nil
}
