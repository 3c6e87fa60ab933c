// Package route is how every domain declares its API operations: where an
// operation is, how the contract describes it, who may call it and how
// large a body it takes. It knows nothing of accounts: who the caller is
// and whether they hold an access level is decided by the admission
// function app wires into Guard.
package route

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"strconv"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/whitecoat/whitecoat/internal/httpx"
)

// Request body limits, one per kind of body. A JSON body the endpoint does
// not declare smaller gets MaxJSONBytes, which is also the server's cap on
// any request outside the paths that take a recording or a webhook.
const (
	// MaxFormBytes caps a form's body: an account form, a question, a data
	// request. The longest, a question with every field full, is under 16 KiB.
	MaxFormBytes int64 = 16 << 10
	// MaxJSONBytes caps any other JSON body.
	MaxJSONBytes int64 = 64 << 10
)

// JSONBodyWait is how long a JSON body may take to arrive once its
// headers have: Huma's own default for reading a body, which no longer
// applies to JSON because httpx.TextHygiene reads it first.
const JSONBodyWait = 5 * time.Second

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
	// MaxBodyBytes caps the request body; 0 means MaxJSONBytes.
	MaxBodyBytes int64
	// RequestBody replaces the body Huma derives from the input type:
	// uploads declare their media types here.
	RequestBody *huma.RequestBody
	// Middlewares run after Guard and before the body is read: an upload
	// checks here what it can refuse without receiving its bytes.
	Middlewares huma.Middlewares
	// Problems are the problem bodies, by status, that carry more than
	// every problem's words (a value of each body's type): the contract
	// publishes their schemas, so that clients read them typed.
	Problems map[int]any
}

// problemContentType is what every problem is sent as (RFC 9457).
const problemContentType = "application/problem+json"

// problemResponses are e.Problems as the contract's responses, with every
// other problem under "default", as Huma lists them for an endpoint that
// declares none (it stops once an endpoint lists any response itself).
func (e Endpoint) problemResponses(registry huma.Registry) map[string]*huma.Response {
	if len(e.Problems) == 0 {
		return nil
	}
	response := func(description string, t reflect.Type) *huma.Response {
		return &huma.Response{Description: description,
			Content: map[string]*huma.MediaType{problemContentType: {Schema: registry.Schema(t, true, t.Name())}}}
	}
	out := map[string]*huma.Response{"default": response("Error", reflect.TypeFor[huma.ErrorModel]())}
	for status, body := range e.Problems {
		out[strconv.Itoa(status)] = response(http.StatusText(status), reflect.TypeOf(body))
	}
	return out
}

func (e Endpoint) operation() huma.Operation {
	limit := e.MaxBodyBytes
	if limit == 0 {
		limit = MaxJSONBytes
	}
	op := huma.Operation{
		OperationID: e.ID, Method: e.Method, Path: e.Path, Summary: e.Summary, Description: e.Description,
		Tags: e.Tags, DefaultStatus: e.Status, MaxBodyBytes: limit, RequestBody: ownCopy(e.RequestBody),
		Middlewares: e.Middlewares, Metadata: map[string]any{accessKey: e.Access},
	}
	if e.Access != AccessPublic {
		op.Security = []map[string][]string{{"session": {}}}
	}
	return op
}

// Register adds e to api. handle runs once Guard has admitted the caller
// and receives them as caller: whom the admission function returned for
// e.Access (on a public endpoint, whoever is signed in); a handler that
// does not look at its caller takes it as any. Handlers never check access
// themselves. Domain errors they return are mapped to problem
// responses here, in one place.
func Register[C, I, O any](api huma.API, e Endpoint, handle func(ctx context.Context, caller C, in *I) (*O, error)) {
	if !e.Access.declared() {
		panic(fmt.Sprintf("route: endpoint %s declares no access level", e.ID))
	}
	op := e.operation()
	op.Responses = e.problemResponses(api.OpenAPI().Components.Schemas)
	huma.Register(api, op, func(ctx context.Context, in *I) (*O, error) {
		caller, ok := Caller[C](ctx)
		if !ok {
			// Without the guard nobody checked the caller: refuse.
			return nil, httpx.ToHTTP(ctx, fmt.Errorf("route: %s ran without route.Guard", e.ID))
		}
		out, err := handle(ctx, caller, in)
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
