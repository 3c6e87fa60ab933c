package tryout

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"

	"github.com/whitecoat/whitecoat/internal/answer"
	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/httpx"
	"github.com/whitecoat/whitecoat/internal/profession"
	"github.com/whitecoat/whitecoat/internal/route"
	"github.com/whitecoat/whitecoat/internal/transcribe"
)

// Handler serves the try-it endpoints.
type Handler struct {
	examples Examples
	svc      *Service
	keep     Keeper
}

// NewHandler serves examples and the tries svc runs; keep saves a try in
// the account made after it.
func NewHandler(examples Examples, svc *Service, keep Keeper) *Handler {
	return &Handler{examples: examples, svc: svc, keep: keep}
}

// RecordPath receives a spoken try: the whole recording.
const RecordPath = "/api/tryout/recordings/{slug}"

// RecordPathPrefix is where recordings arrive, for the server's body limit.
const RecordPathPrefix = "/api/tryout/"

type recordInput struct {
	Slug        string `path:"slug" maxLength:"64"`
	ContentType string `header:"Content-Type"`
	RawBody     []byte `contentType:"audio/webm" doc:"The recorded answer, at most two minutes: audio/webm (Opus) or audio/mp4 (AAC, Safari)."`
}

// TypedTry is a typed try's body.
type TypedTry struct {
	Text string `json:"text" minLength:"1" doc:"The typed answer"`
}

// TransformSchema publishes the typed answer's cap.
func (TypedTry) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	n := MaxTypedChars
	s.Properties["text"].MaxLength = &n
	return s
}

type typedInput struct {
	Slug string `path:"slug" maxLength:"64"`
	Body TypedTry
}

type tryInput struct {
	Token string `path:"token" maxLength:"64" doc:"The try's token, as its creation returned it"`
}

type tryOutput struct {
	Body Try
}

// LimitsBody are a try's bounds, as the landing page states them.
type LimitsBody struct {
	MaxAnswerSeconds int `json:"maxAnswerSeconds"`
	KeptHours        int `json:"keptHours"`
}

type limitsOutput struct {
	Body LimitsBody
}

// ExampleInput is the request of GET /api/tryout/{slug}/example.
type ExampleInput struct {
	Slug string `path:"slug" maxLength:"64" doc:"Profession slug" example:"dental"`
}

// ExampleOutput is the response of GET /api/tryout/{slug}/example.
type ExampleOutput struct {
	Body answer.Answer
}

// RegisterRoutes adds the try-it endpoints to api.
func (h *Handler) RegisterRoutes(api huma.API) {
	tags := []string{"Try it"}
	route.Register(api, route.Endpoint{ID: "get-example-answer", Method: http.MethodGet, Path: ExamplePath("{slug}"), Summary: "Get a profession's example answer",
		Description: "An answer to the profession's default question with the feedback the rubric engine gives it, as the landing page shows it.",
		Tags:        tags, Access: route.AccessPublic}, h.example)
	route.PublishFailures(api, FailureTooManyFromNetwork, FailureTooManyOverall, FailureTryFailed)
	recording := &huma.MediaType{Schema: &huma.Schema{Type: "string", Format: "binary"}}
	route.Register(api, route.Endpoint{ID: "record-try", Method: http.MethodPost, Path: RecordPath, Summary: "Try the default question by recording",
		Description: "Without an account: transcribed and scored behind students' answers, kept 24 hours.",
		Tags:        tags, Status: http.StatusAccepted, Access: route.AccessPublic, MaxBodyBytes: MaxAudioBytes,
		RequestBody: &huma.RequestBody{Required: true, Content: map[string]*huma.MediaType{"audio/webm": recording, "audio/mp4": recording}},
		Middlewares: huma.Middlewares{h.admitRecording(api)}}, h.record)
	route.Register(api, route.Endpoint{ID: "type-try", Method: http.MethodPost, Path: "/api/tryout/typed/{slug}", Summary: "Try the default question by typing",
		Description: "Without an account: scored behind students' answers, kept 24 hours.",
		Tags:        tags, Status: http.StatusAccepted, Access: route.AccessPublic, MaxBodyBytes: route.MaxFormBytes}, h.typed)
	route.Register(api, route.Endpoint{ID: "get-try", Method: http.MethodGet, Path: "/api/tryout/tries/{token}", Summary: "A try's progress and result",
		Tags: tags, Access: route.AccessPublic}, h.get)
	route.Register(api, route.Endpoint{ID: "keep-try", Method: http.MethodPost, Path: "/api/tryout/tries/{token}/keep", Summary: "Save a try in the new account's history",
		Description: "Once the account is verified: the try becomes a saved session of its own, which uses no free session; it is then deleted here.",
		Tags:        tags, Status: http.StatusNoContent, Access: route.AccessVerified}, h.keepTry)
	route.Register(api, route.Endpoint{ID: "get-try-limits", Method: http.MethodGet, Path: "/api/tryout/limits", Summary: "How long a try may run and is kept",
		Tags: tags, Access: route.AccessPublic}, h.limits)
}

// admitRecording is the record endpoint's middleware: Huma reads the
// whole body before a handler runs, so a recording is admitted (Admit)
// and its container told from its first bytes before that: past the
// limits, or from what is not a recording, a try costs no more than its
// first bytes. The handler receives the admission (admitted).
func (h *Handler) admitRecording(api huma.API) func(huma.Context, func(huma.Context)) {
	return func(hctx huma.Context, next func(huma.Context)) {
		ctx := hctx.Context()
		a, err := h.svc.Admit(ctx, httpx.ClientIP(ctx), hctx.Param("slug"), KindSpoken)
		if err != nil {
			httpx.WriteError(api, hctx, err)
			return
		}
		r, _ := humago.Unwrap(hctx)
		head := make([]byte, transcribe.SniffLen)
		n, err := io.ReadFull(r.Body, head)
		if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
			httpx.WriteError(api, hctx, fmt.Errorf("tryout: receive the recording: %w", err))
			return
		}
		if _, ok := transcribe.Sniff(head[:n]); !ok {
			httpx.WriteError(api, hctx, apperr.Invalid("body", MsgNotARecord))
			return
		}
		r.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(head[:n]), r.Body), r.Body}
		next(huma.WithValue(hctx, admissionKey{}, a))
	}
}

type admissionKey struct{}

// admitted is the admission admitRecording made for this request.
func admitted(ctx context.Context) (Admission, error) {
	a, ok := ctx.Value(admissionKey{}).(Admission)
	if !ok {
		return Admission{}, errors.New("tryout: a recording reached its handler without admission")
	}
	return a, nil
}

func (h *Handler) record(ctx context.Context, _ any, in *recordInput) (*tryOutput, error) {
	a, err := admitted(ctx)
	if err != nil {
		return nil, err
	}
	t, err := h.svc.Record(ctx, a, in.ContentType, in.RawBody)
	if err != nil {
		return nil, err
	}
	return &tryOutput{Body: t}, nil
}

func (h *Handler) typed(ctx context.Context, _ any, in *typedInput) (*tryOutput, error) {
	t, err := h.svc.Type(ctx, httpx.ClientIP(ctx), in.Slug, in.Body.Text)
	if err != nil {
		return nil, err
	}
	return &tryOutput{Body: t}, nil
}

func (h *Handler) get(ctx context.Context, _ any, in *tryInput) (*tryOutput, error) {
	t, err := h.svc.Get(ctx, in.Token)
	if err != nil {
		return nil, err
	}
	return &tryOutput{Body: t}, nil
}

func (h *Handler) keepTry(ctx context.Context, u auth.User, in *tryInput) (*struct{}, error) {
	return nil, h.svc.Keep(ctx, u, in.Token, h.keep)
}

func (h *Handler) limits(context.Context, any, *struct{}) (*limitsOutput, error) {
	return &limitsOutput{Body: LimitsBody{MaxAnswerSeconds: MaxAnswerSeconds, KeptHours: int(Lifetime / time.Hour)}}, nil
}

func (h *Handler) example(_ context.Context, _ any, in *ExampleInput) (*ExampleOutput, error) {
	p, ok := profession.Lookup(in.Slug)
	ex, known := h.examples[p.Slug]
	if !ok || !known {
		return nil, huma.Error404NotFound(fmt.Sprintf("unknown profession %q", in.Slug))
	}
	return &ExampleOutput{Body: ex}, nil
}
