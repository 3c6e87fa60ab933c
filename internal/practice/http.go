package practice

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"unicode/utf8"

	"github.com/danielgtaylor/huma/v2"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/httpx"
	"github.com/whitecoat/whitecoat/internal/route"
	"github.com/whitecoat/whitecoat/internal/video"
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
	// HeardSoFar is percent-encoded: a header carries no other text safely.
	HeardSoFar string `header:"Heard-So-Far" doc:"What the student's own browser has heard of the answer so far, percent-encoded UTF-8 (encodeURIComponent), when they chose to be heard by it. The server lines it up with the recording as it arrives, so that the answer is ready soon after it ends; the finish call's browserTranscript is what counts."`
	RawBody    []byte `contentType:"audio/webm" doc:"The next bytes of the recording, as the browser's recorder gave them."`
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
		// BrowserTranscript travels with the recording it was heard from;
		// a whole upload (PUT), the fallback when pieces go astray, carries
		// none and is transcribed by the server.
		BrowserTranscript *BrowserTranscript `json:"browserTranscript,omitempty" doc:"What the student's own browser heard, when they chose to be heard by it. The server lines it up with the recording; a whole upload (PUT) carries none and is transcribed by the server."`
		// VideoDelivery is measured on the device; no image leaves it.
		VideoDelivery *video.Delivery `json:"videoDelivery,omitempty" doc:"What the student's browser measured of a video answer (eye contact, framing, steadiness) on the device; only these numbers are sent. Absent for an audio answer, when the student turned the measurement off, and with a whole upload (PUT)."`
	}
}

type completeInput struct {
	ID   string `path:"id" maxLength:"64"`
	Body struct {
		TotalSessionTime int `json:"totalSessionTime" minimum:"0" doc:"Seconds the session took."`
	}
}

// practiceTags are shared by the practice endpoints; their JSON bodies get
// route.MaxJSONBytes, and the answer uploads set their own limits.
var practiceTags = []string{"Practice"}

// failureFeedback is what the summary shows for an answer that failed
// (status "failed"), instead of its feedback (spec §8).
var failureFeedback = apperr.Failure{Name: "feedback-failed", Message: MsgFeedbackError}

// AudioPath receives a recorded answer: whole (PUT) or in pieces (PATCH).
const AudioPath = "/api/practice/sessions/{id}/items/{itemId}/audio"

// RegisterRoutes adds the practice endpoints to api.
func (h *Handler) RegisterRoutes(api huma.API) {
	route.PublishFailures(api, failureFeedback)
	route.Register(api, route.Endpoint{ID: "list-formats", Method: http.MethodGet, Path: "/api/practice/formats", Summary: "The interview formats and their default timings",
		Tags: practiceTags, Access: route.AccessUser}, h.listFormats)
	route.Register(api, route.Endpoint{ID: "get-practice-preferences", Method: http.MethodGet, Path: "/api/practice/preferences", Summary: "How the student chose to be heard",
		Tags: practiceTags, Access: route.AccessUser}, h.getPreferences)
	route.Register(api, route.Endpoint{ID: "set-practice-preferences", Method: http.MethodPut, Path: "/api/practice/preferences", Summary: "Choose how the student is heard",
		Description: "device: the browser's recognizer on the device; browser: the browser's speech service (its vendor hears the audio); server: Whitecoat's engine (the default).",
		Tags:        practiceTags, Access: route.AccessUser}, h.setPreferences)
	route.Register(api, route.Endpoint{ID: "create-practice-session", Method: http.MethodPost, Path: "/api/practice/sessions", Summary: "Start a practice session",
		Tags: practiceTags, Status: http.StatusCreated, Access: route.AccessVerified}, h.createSession)
	route.Register(api, route.Endpoint{ID: "get-practice-session", Method: http.MethodGet, Path: "/api/practice/sessions/{id}", Summary: "A session with each answer's progress and results",
		Tags: practiceTags, Access: route.AccessVerified}, h.getSession)

	recording := &huma.MediaType{Schema: &huma.Schema{Type: "string", Format: "binary"}}
	recordingBody := &huma.RequestBody{Required: true, Content: map[string]*huma.MediaType{
		"audio/webm": recording, "audio/mp4": recording, "video/webm": recording, "video/mp4": recording,
	}}
	admit := huma.Middlewares{h.admitUpload(api)}
	route.Register(api, route.Endpoint{ID: "upload-answer", Method: http.MethodPut, Path: AudioPath, Summary: "Upload one recorded answer",
		Tags: practiceTags, Status: http.StatusAccepted, Access: route.AccessVerified, MaxBodyBytes: MaxUploadBytes, RequestBody: recordingBody,
		Middlewares: admit}, h.uploadAnswer)
	route.Register(api, route.Endpoint{ID: "append-answer-piece", Method: http.MethodPatch, Path: AudioPath, Summary: "Upload the next piece of an answer being recorded",
		Tags: practiceTags, Access: route.AccessVerified, MaxBodyBytes: MaxPieceBytes, RequestBody: recordingBody, Middlewares: admit}, h.appendPiece)
	route.Register(api, route.Endpoint{ID: "finish-answer", Method: http.MethodPost, Path: "/api/practice/sessions/{id}/items/{itemId}/audio/finish", Summary: "Queue an answer uploaded in pieces",
		Tags: practiceTags, Status: http.StatusAccepted, Access: route.AccessVerified}, h.finishAnswer)
	route.Register(api, route.Endpoint{ID: "answer-in-writing", Method: http.MethodPost, Path: "/api/practice/sessions/{id}/items/{itemId}/typed", Summary: "Submit a typed answer",
		Description: "For a typed question (a Casper-style typed part): the text is scored like a transcript, with no speech figures.",
		Tags:        practiceTags, Status: http.StatusAccepted, Access: route.AccessVerified}, h.answerInWriting)
	route.Register(api, route.Endpoint{ID: "skip-question", Method: http.MethodPost, Path: "/api/practice/sessions/{id}/items/{itemId}/skip", Summary: "Skip an unanswered question",
		Tags: practiceTags, Access: route.AccessVerified}, h.skipQuestion)
	route.Register(api, route.Endpoint{ID: "retry-answer", Method: http.MethodPost, Path: "/api/practice/sessions/{id}/items/{itemId}/retry", Summary: "Process a failed answer again",
		Tags: practiceTags, Status: http.StatusAccepted, Access: route.AccessVerified}, h.retryAnswer)
	route.Register(api, route.Endpoint{ID: "correct-transcript", Method: http.MethodPut, Path: "/api/practice/sessions/{id}/items/{itemId}/transcript", Summary: "Correct what the speech engine heard",
		Description: "Replaces a scored answer's transcript with the student's text and scores it again. The engine's transcript is kept in the answer's correction; " +
			"the session's average, the account's averages and the saved copy follow. Delivery figures stay as the recording gave them. " +
			"A typed answer is final: correcting one is refused with 409.",
		Tags: practiceTags, Access: route.AccessVerified}, h.correctTranscript)
	route.Register(api, route.Endpoint{ID: "complete-practice-session", Method: http.MethodPost, Path: "/api/practice/sessions/{id}/complete", Summary: "Finish a session",
		Tags: practiceTags, Access: route.AccessVerified}, h.completeSession)
}

func (h *Handler) createSession(ctx context.Context, u auth.User, in *createInput) (*sessionOutput, error) {
	s, err := h.svc.Create(ctx, u, in.Body)
	if err != nil {
		return nil, err
	}
	return &sessionOutput{Body: sessionBody{s}}, nil
}

func (h *Handler) getSession(ctx context.Context, u auth.User, in *SessionPath) (*sessionOutput, error) {
	s, err := h.svc.Get(ctx, u, in.ID)
	if err != nil {
		return nil, err
	}
	return &sessionOutput{Body: sessionBody{s}}, nil
}

func (h *Handler) uploadAnswer(ctx context.Context, u auth.User, in *uploadInput) (*itemOutput, error) {
	it, err := admittedItem(ctx)
	if err != nil {
		return nil, err
	}
	it, err = h.svc.UploadAdmitted(ctx, u, it, in.ContentType, bytes.NewReader(in.RawBody))
	if err != nil {
		return nil, err
	}
	return &itemOutput{Body: itemBody{it}}, nil
}

func (h *Handler) appendPiece(ctx context.Context, u auth.User, in *pieceInput) (*pieceOutput, error) {
	it, err := admittedItem(ctx)
	if err != nil {
		return nil, err
	}
	heard, err := url.PathUnescape(in.HeardSoFar)
	if err != nil || !utf8.ValidString(heard) {
		return nil, apperr.Invalid("Heard-So-Far", "What the browser heard so far must be percent-encoded UTF-8 (encodeURIComponent).")
	}
	n, err := h.svc.AppendAdmitted(ctx, u, it, in.Offset, in.ContentType, in.RawBody, heard)
	if err != nil {
		return nil, err
	}
	out := &pieceOutput{}
	out.Body.Received = n
	return out, nil
}

func (h *Handler) finishAnswer(ctx context.Context, u auth.User, in *finishInput) (*itemOutput, error) {
	it, err := h.svc.FinishAudio(ctx, u, in.ID, in.ItemID, in.Body.Size, Observed{Heard: in.Body.BrowserTranscript, Seen: in.Body.VideoDelivery})
	if err != nil {
		return nil, err
	}
	return &itemOutput{Body: itemBody{it}}, nil
}

func (h *Handler) skipQuestion(ctx context.Context, u auth.User, in *ItemPath) (*itemOutput, error) {
	it, err := h.svc.Skip(ctx, u, in.ID, in.ItemID)
	if err != nil {
		return nil, err
	}
	return &itemOutput{Body: itemBody{it}}, nil
}

func (h *Handler) retryAnswer(ctx context.Context, u auth.User, in *ItemPath) (*itemOutput, error) {
	it, err := h.svc.Retry(ctx, u, in.ID, in.ItemID)
	if err != nil {
		return nil, err
	}
	return &itemOutput{Body: itemBody{it}}, nil
}

type typedInput struct {
	ItemPath
	Body typedInputBody
}

// typedInputBody is named so that its schema publishes the limit.
type typedInputBody struct {
	Text string `json:"text" doc:"The answer as written; for a typed part, both questions' answers."`
}

// TransformSchema implements huma.SchemaTransformer.
func (typedInputBody) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	httpx.SetMaxLength(s, "text", MaxTranscriptLen)
	return s
}

func (h *Handler) answerInWriting(ctx context.Context, u auth.User, in *typedInput) (*itemOutput, error) {
	it, err := h.svc.AnswerInWriting(ctx, u, in.ID, in.ItemID, in.Body.Text)
	if err != nil {
		return nil, err
	}
	return &itemOutput{Body: itemBody{it}}, nil
}

type formatsOutput struct {
	Body struct {
		Presets []Preset   `json:"presets"`
		Speech  SpeechInfo `json:"speech" doc:"The server's speech engine, so the student can be told what to expect before they record."`
	}
}

func (h *Handler) listFormats(_ context.Context, _ auth.User, _ *struct{}) (*formatsOutput, error) {
	out := &formatsOutput{}
	out.Body.Presets = h.svc.Presets()
	out.Body.Speech = h.svc.Speech()
	return out, nil
}

type correctInput struct {
	ItemPath
	Body correctInputBody
}

// correctInputBody is named so that its schema publishes the limit.
type correctInputBody struct {
	Transcript string `json:"transcript" doc:"What the student said, as they want it scored."`
}

// TransformSchema implements huma.SchemaTransformer.
func (correctInputBody) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	httpx.SetMaxLength(s, "transcript", MaxTranscriptLen)
	return s
}

func (h *Handler) correctTranscript(ctx context.Context, u auth.User, in *correctInput) (*sessionOutput, error) {
	s, err := h.svc.CorrectTranscript(ctx, u, in.ID, in.ItemID, in.Body.Transcript)
	if err != nil {
		return nil, err
	}
	return &sessionOutput{Body: sessionBody{s}}, nil
}

func (h *Handler) completeSession(ctx context.Context, u auth.User, in *completeInput) (*sessionOutput, error) {
	s, err := h.svc.Complete(ctx, u, in.ID, in.Body.TotalSessionTime)
	if err != nil {
		return nil, err
	}
	return &sessionOutput{Body: sessionBody{s}}, nil
}

type preferencesOutput struct {
	Body struct {
		Preferences Preferences `json:"preferences"`
	}
}

type preferencesInput struct {
	Body Preferences
}

func (h *Handler) getPreferences(ctx context.Context, u auth.User, _ *struct{}) (*preferencesOutput, error) {
	p, err := h.svc.PreferencesOf(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	out := &preferencesOutput{}
	out.Body.Preferences = p
	return out, nil
}

func (h *Handler) setPreferences(ctx context.Context, u auth.User, in *preferencesInput) (*preferencesOutput, error) {
	p, err := h.svc.SetPreferences(ctx, u, in.Body)
	if err != nil {
		return nil, err
	}
	out := &preferencesOutput{}
	out.Body.Preferences = p
	return out, nil
}
