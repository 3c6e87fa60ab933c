package practice

import (
	"bytes"
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/httpx"
)

// MaxUploadBytes caps one uploaded answer: three minutes of Opus or AAC
// audio is 1-3 MB, so this leaves room for high bitrates and video
// containers without letting anyone fill the disk.
const MaxUploadBytes = 25 << 20

// UploadPathPrefix is where answers are uploaded; the server's body limit
// makes room for recordings under it.
const UploadPathPrefix = "/api/practice/sessions/"

// Handler is the practice API.
type Handler struct{ svc *Service }

// NewHandler returns the HTTP side of svc.
func NewHandler(svc *Service) *Handler { return &Handler{svc: svc} }

type sessionBody struct {
	Session Session `json:"session"`
}

type sessionOutput struct{ Body sessionBody }

type itemBody struct {
	Item Item `json:"item"`
}

type itemOutput struct{ Body itemBody }

type savedBody struct {
	Saved Saved `json:"saved"`
}

type savedOutput struct{ Body savedBody }

// SessionPath names a session. Exported because Huma documents the path
// parameters of embedded structs only when their type is exported.
type SessionPath struct {
	ID string `path:"id" maxLength:"64"`
}

// ItemPath names one question of a session.
type ItemPath struct {
	ID     string `path:"id" maxLength:"64"`
	ItemID string `path:"itemId" maxLength:"64"`
}

type createInput struct {
	Body CreateInput
}

type uploadInput struct {
	ID          string `path:"id" maxLength:"64"`
	ItemID      string `path:"itemId" maxLength:"64"`
	ContentType string `header:"Content-Type"`
	RawBody     []byte `contentType:"audio/webm" doc:"The recorded answer: audio/webm (Opus) or audio/mp4 (AAC); video/webm and video/mp4 are accepted and only their audio is used."`
}

type pieceInput struct {
	ID          string `path:"id" maxLength:"64"`
	ItemID      string `path:"itemId" maxLength:"64"`
	Offset      int64  `query:"offset" minimum:"0" doc:"Where in the recording this piece starts, in bytes; 0 starts the recording afresh."`
	ContentType string `header:"Content-Type"`
	RawBody     []byte `contentType:"audio/webm" doc:"The next bytes of the recording, as the browser's recorder gave them."`
}

type pieceOutput struct {
	Body struct {
		Received int64 `json:"received" doc:"Bytes of the recording the server has: the offset of the next piece."`
	}
}

type finishInput struct {
	ID     string `path:"id" maxLength:"64"`
	ItemID string `path:"itemId" maxLength:"64"`
	Body   struct {
		Size int64 `json:"size" minimum:"1" doc:"The recording's length in bytes, to confirm every piece arrived."`
	}
}

type completeInput struct {
	ID   string `path:"id" maxLength:"64"`
	Body struct {
		TotalSessionTime int `json:"totalSessionTime" minimum:"0" doc:"Seconds the session took."`
	}
}

type saveInput struct {
	ID   string `path:"id" maxLength:"64"`
	Body struct {
		Title string `json:"title" maxLength:"400" doc:"Empty for the default \"Session {date/time}\"."`
	}
}

type dashboardOutput struct{ Body Dashboard }

func op(id, method, path, summary string, status int, access string) huma.Operation {
	return auth.Operation(access, huma.Operation{
		OperationID: id, Method: method, Path: path, Summary: summary, Tags: []string{"Practice"},
		DefaultStatus: status, MaxBodyBytes: 64 << 10,
	})
}

// withVerified runs fn for a signed-in user with a confirmed email.
func withVerified[I, O any](fn func(context.Context, auth.User, *I) (*O, error)) func(context.Context, *I) (*O, error) {
	return func(ctx context.Context, in *I) (*O, error) {
		u, err := auth.RequireVerified(ctx)
		if err != nil {
			return nil, err
		}
		return fn(ctx, u, in)
	}
}

// RegisterRoutes adds the practice endpoints to api.
func (h *Handler) RegisterRoutes(api huma.API) {
	httpx.Register(api, op("get-dashboard", http.MethodGet, "/api/dashboard", "Access, stats and recent sessions", http.StatusOK, auth.AccessUser),
		func(ctx context.Context, _ *struct{}) (*dashboardOutput, error) {
			u, err := auth.RequireUser(ctx)
			if err != nil {
				return nil, err
			}
			d, err := h.svc.Dashboard(ctx, u)
			if err != nil {
				return nil, err
			}
			return &dashboardOutput{Body: d}, nil
		})

	httpx.Register(api, op("create-practice-session", http.MethodPost, "/api/practice/sessions", "Start a practice session", http.StatusCreated, auth.AccessVerified),
		withVerified(func(ctx context.Context, u auth.User, in *createInput) (*sessionOutput, error) {
			s, err := h.svc.Create(ctx, u, in.Body)
			if err != nil {
				return nil, err
			}
			return &sessionOutput{Body: sessionBody{s}}, nil
		}))

	httpx.Register(api, op("get-practice-session", http.MethodGet, "/api/practice/sessions/{id}", "A session with each answer's progress and results", http.StatusOK, auth.AccessVerified),
		withVerified(func(ctx context.Context, u auth.User, in *SessionPath) (*sessionOutput, error) {
			s, err := h.svc.Get(ctx, u, in.ID)
			if err != nil {
				return nil, err
			}
			return &sessionOutput{Body: sessionBody{s}}, nil
		}))

	recording := &huma.MediaType{Schema: &huma.Schema{Type: "string", Format: "binary"}}
	recordingBody := &huma.RequestBody{Required: true, Content: map[string]*huma.MediaType{
		"audio/webm": recording, "audio/mp4": recording, "video/webm": recording, "video/mp4": recording,
	}}
	upload := op("upload-answer", http.MethodPut, "/api/practice/sessions/{id}/items/{itemId}/audio", "Upload one recorded answer", http.StatusAccepted, auth.AccessVerified)
	upload.MaxBodyBytes, upload.RequestBody = MaxUploadBytes, recordingBody
	httpx.Register(api, upload,
		withVerified(func(ctx context.Context, u auth.User, in *uploadInput) (*itemOutput, error) {
			it, err := h.svc.Upload(ctx, u, in.ID, in.ItemID, in.ContentType, bytes.NewReader(in.RawBody))
			if err != nil {
				return nil, err
			}
			return &itemOutput{Body: itemBody{it}}, nil
		}))

	piece := op("append-answer-piece", http.MethodPatch, "/api/practice/sessions/{id}/items/{itemId}/audio", "Upload the next piece of an answer being recorded", http.StatusOK, auth.AccessVerified)
	piece.MaxBodyBytes, piece.RequestBody = MaxPieceBytes, recordingBody
	httpx.Register(api, piece,
		withVerified(func(ctx context.Context, u auth.User, in *pieceInput) (*pieceOutput, error) {
			n, err := h.svc.AppendAudio(ctx, u, in.ID, in.ItemID, in.Offset, in.ContentType, in.RawBody)
			if err != nil {
				return nil, err
			}
			out := &pieceOutput{}
			out.Body.Received = n
			return out, nil
		}))

	httpx.Register(api, op("finish-answer", http.MethodPost, "/api/practice/sessions/{id}/items/{itemId}/audio/finish", "Queue an answer uploaded in pieces", http.StatusAccepted, auth.AccessVerified),
		withVerified(func(ctx context.Context, u auth.User, in *finishInput) (*itemOutput, error) {
			it, err := h.svc.FinishAudio(ctx, u, in.ID, in.ItemID, in.Body.Size)
			if err != nil {
				return nil, err
			}
			return &itemOutput{Body: itemBody{it}}, nil
		}))

	httpx.Register(api, op("skip-question", http.MethodPost, "/api/practice/sessions/{id}/items/{itemId}/skip", "Skip an unanswered question", http.StatusOK, auth.AccessVerified),
		withVerified(func(ctx context.Context, u auth.User, in *ItemPath) (*itemOutput, error) {
			it, err := h.svc.Skip(ctx, u, in.ID, in.ItemID)
			if err != nil {
				return nil, err
			}
			return &itemOutput{Body: itemBody{it}}, nil
		}))

	httpx.Register(api, op("retry-answer", http.MethodPost, "/api/practice/sessions/{id}/items/{itemId}/retry", "Process a failed answer again", http.StatusAccepted, auth.AccessVerified),
		withVerified(func(ctx context.Context, u auth.User, in *ItemPath) (*itemOutput, error) {
			it, err := h.svc.Retry(ctx, u, in.ID, in.ItemID)
			if err != nil {
				return nil, err
			}
			return &itemOutput{Body: itemBody{it}}, nil
		}))

	httpx.Register(api, op("complete-practice-session", http.MethodPost, "/api/practice/sessions/{id}/complete", "Finish a session", http.StatusOK, auth.AccessVerified),
		withVerified(func(ctx context.Context, u auth.User, in *completeInput) (*sessionOutput, error) {
			s, err := h.svc.Complete(ctx, u, in.ID, in.Body.TotalSessionTime)
			if err != nil {
				return nil, err
			}
			return &sessionOutput{Body: sessionBody{s}}, nil
		}))

	httpx.Register(api, op("save-practice-session", http.MethodPost, "/api/practice/sessions/{id}/save", "Save a finished session to the dashboard", http.StatusCreated, auth.AccessVerified),
		withVerified(func(ctx context.Context, u auth.User, in *saveInput) (*savedOutput, error) {
			sv, err := h.svc.Save(ctx, u, in.ID, in.Body.Title)
			if err != nil {
				return nil, err
			}
			return &savedOutput{Body: savedBody{sv}}, nil
		}))

	httpx.Register(api, op("get-saved-session", http.MethodGet, "/api/practice/saved/{id}", "A saved session, for read-only review", http.StatusOK, auth.AccessVerified),
		withVerified(func(ctx context.Context, u auth.User, in *SessionPath) (*savedOutput, error) {
			sv, err := h.svc.GetSaved(ctx, u, in.ID)
			if err != nil {
				return nil, err
			}
			return &savedOutput{Body: savedBody{sv}}, nil
		}))
}
