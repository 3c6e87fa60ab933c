package auth

import (
	"context"
	"fmt"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/whitecoat/whitecoat/internal/httpx"
)

// Endpoint declares one API operation: where it is, how the contract
// describes it and who may call it. Every package declares its operations
// this way and adds them with Register.
type Endpoint struct {
	// ID is the OpenAPI operationId, the name the web client calls it by.
	ID          string
	Method      string
	Path        string
	Summary     string
	Description string
	Tags        []string
	// Status is the success status; 0 means 200.
	Status int
	// Access is who may call it; Register refuses an endpoint without one.
	Access Access
	// MaxBodyBytes caps the request body; 0 means Huma's default.
	MaxBodyBytes int64
	// RequestBody replaces the body Huma derives from the input type:
	// uploads declare their media types here.
	RequestBody *huma.RequestBody
	// Middlewares run after Guard and before the body is read: an upload
	// checks here what it can refuse without receiving its bytes.
	Middlewares huma.Middlewares
}

func (e Endpoint) operation() huma.Operation {
	op := huma.Operation{
		OperationID: e.ID, Method: e.Method, Path: e.Path, Summary: e.Summary, Description: e.Description,
		Tags: e.Tags, DefaultStatus: e.Status, MaxBodyBytes: e.MaxBodyBytes, RequestBody: ownCopy(e.RequestBody),
		Middlewares: e.Middlewares, Metadata: map[string]any{accessKey: e.Access},
	}
	if e.Access != AccessPublic {
		op.Security = []map[string][]string{{"session": {}}}
	}
	return op
}

// Register adds e to api. handle runs once Guard has admitted the caller
// and receives them as u: a user holding e.Access, or on a public endpoint
// whoever is signed in (the zero User when nobody is). Handlers never check
// access themselves. Domain errors they return are mapped to problem
// responses here, in one place.
func Register[I, O any](api huma.API, e Endpoint, handle func(ctx context.Context, u User, in *I) (*O, error)) {
	if _, ok := admit[e.Access]; !ok {
		panic(fmt.Sprintf("auth: endpoint %s declares no access level", e.ID))
	}
	huma.Register(api, e.operation(), func(ctx context.Context, in *I) (*O, error) {
		u, ok := ctx.Value(admittedKey{}).(User)
		if !ok {
			// Without the guard nobody checked the caller: refuse.
			return nil, httpx.ToHTTP(ctx, fmt.Errorf("auth: %s ran without auth.Guard", e.ID))
		}
		out, err := handle(ctx, u, in)
		if err != nil {
			return nil, httpx.ToHTTP(ctx, err)
		}
		return out, nil
	})
	publishUploadLimit(api, e)
}

// ownCopy gives an operation a request body of its own, so that limits
// published on one upload endpoint do not leak into another declared with
// the same media types.
func ownCopy(body *huma.RequestBody) *huma.RequestBody {
	if body == nil {
		return nil
	}
	out := *body
	out.Content = make(map[string]*huma.MediaType, len(body.Content))
	for name, media := range body.Content {
		m := *media
		if media.Schema != nil {
			schema := *media.Schema
			m.Schema = &schema
		}
		out.Content[name] = &m
	}
	return &out
}

// publishUploadLimit states an upload's size limit in the contract, where
// clients read it: a binary body's maxLength is its length in bytes. It runs
// after Huma has registered the operation, which replaces the schema of the
// media type the input's raw body names with its own.
func publishUploadLimit(api huma.API, e Endpoint) {
	if e.RequestBody == nil || e.MaxBodyBytes <= 0 {
		return
	}
	limit := int(e.MaxBodyBytes)
	item := api.OpenAPI().Paths[e.Path]
	op := map[string]*huma.Operation{http.MethodPost: item.Post, http.MethodPut: item.Put, http.MethodPatch: item.Patch}[e.Method]
	for _, media := range op.RequestBody.Content {
		if media.Schema != nil && media.Schema.Format == "binary" {
			media.Schema.MaxLength = &limit
		}
	}
}
