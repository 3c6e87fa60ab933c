package practice

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"slices"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"

	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/httpx"
	"github.com/whitecoat/whitecoat/internal/transcribe"
)

// An upload is refused, when it can be, before its body is read: Huma
// reads the whole body before a handler runs, so a stranger's upload to a
// session that is not theirs would otherwise cost its full size in memory
// first. The body then has to keep arriving: a client that stalls is cut
// off instead of holding a connection and a worker.

// Upload pacing: after uploadGrace, the body must have arrived at
// minUploadRate on average, or the connection is closed. A phone on a
// poor mobile link sends a few hundred kilobytes a second; a client
// sending a byte every few seconds is holding the server, not uploading.
const (
	uploadGrace   = 5 * time.Second
	minUploadRate = 8 << 10 // bytes per second
)

const msgStalled = "The upload stalled. Check your connection and send the answer again."

// recordingTypes maps each container transcribe.Sniff recognises to the
// media types a client may declare for it.
var recordingTypes = map[transcribe.Format][]string{
	transcribe.FormatWebM: {"audio/webm", "video/webm"},
	transcribe.FormatMP4:  {"audio/mp4", "video/mp4", "audio/x-m4a"},
	transcribe.FormatOgg:  {"audio/ogg", "video/ogg"},
	transcribe.FormatWAV:  {"audio/wav", "audio/x-wav", "audio/wave"},
}

// admitUpload is the middleware of the operations that receive a
// recording. It checks with AdmitAnswer that the caller may answer the
// question, then that the declared Content-Type agrees with the container
// the first bytes show, and paces the rest of the body. The handler
// receives the admitted question (admittedItem) instead of admitting it
// again.
func (h *Handler) admitUpload(api huma.API) func(huma.Context, func(huma.Context)) {
	return func(hctx huma.Context, next func(huma.Context)) {
		ctx := hctx.Context()
		u, _ := auth.UserFrom(ctx) // route.Guard admitted a verified user
		it, err := h.svc.AdmitAnswer(ctx, u, hctx.Param("id"), hctx.Param("itemId"))
		if err != nil {
			httpx.WriteError(api, hctx, err)
			return
		}
		hctx = huma.WithValue(hctx, admittedKey{}, it)
		r, w := humago.Unwrap(hctx)
		declared, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if err != nil || !declaredRecording(declared) {
			httpx.WriteError(api, hctx, huma.Error415UnsupportedMediaType(
				fmt.Sprintf("Send the recording as audio/webm or audio/mp4, not %q.", r.Header.Get("Content-Type"))))
			return
		}
		paced := pace(r.Body, http.NewResponseController(w), uploadGrace)
		defer paced.stop()
		body := io.Reader(paced)
		// A piece after the first continues a recording: it has no header.
		if r.Method == http.MethodPut || hctx.Query("offset") == "0" {
			head := make([]byte, transcribe.SniffLen)
			n, err := io.ReadFull(paced, head)
			if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
				if netErr, ok := errors.AsType[net.Error](err); ok && netErr.Timeout() {
					httpx.WriteError(api, hctx, huma.Error408RequestTimeout(msgStalled))
					return
				}
				httpx.WriteError(api, hctx, uploadErr(err))
				return
			}
			head = head[:n]
			if format, ok := transcribe.Sniff(head); ok && !slices.Contains(recordingTypes[format], declared) {
				httpx.WriteError(api, hctx, huma.Error415UnsupportedMediaType(
					fmt.Sprintf("The recording is %s but was sent as %s. Send it with the Content-Type of its format.", format, declared)))
				return
			}
			body = io.MultiReader(bytes.NewReader(head), paced)
		}
		r.Body = struct {
			io.Reader
			io.Closer
		}{body, r.Body}
		next(hctx)
	}
}

type admittedKey struct{}

// admittedItem is the question admitUpload admitted for this request.
func admittedItem(ctx context.Context) (Item, error) {
	it, ok := ctx.Value(admittedKey{}).(Item)
	if !ok {
		return Item{}, errors.New("practice: a recording reached its handler without admission")
	}
	return it, nil
}

func declaredRecording(mediaType string) bool {
	for _, types := range recordingTypes {
		if slices.Contains(types, mediaType) {
			return true
		}
	}
	return false
}

// pacedBody reads an upload under a read deadline that moves with what
// has arrived: uploadGrace plus the time minUploadRate needs for the bytes
// so far. A client that falls behind finds its connection closed.
type pacedBody struct {
	r        io.Reader
	rc       *http.ResponseController
	deadline time.Time
	received int64
	paced    bool
}

func pace(r io.Reader, rc *http.ResponseController, grace time.Duration) *pacedBody {
	p := &pacedBody{r: r, rc: rc, deadline: time.Now().Add(grace)}
	// Where the connection offers no deadline (an HTTP/2 stream without
	// support, a test recorder) the body is read as it comes.
	p.paced = rc.SetReadDeadline(p.deadline) == nil
	return p
}

func (p *pacedBody) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	p.received += int64(n)
	// The read that ends the body has lifted the deadline (net/http then
	// waits for the client's next request, and a deadline set now would
	// cancel this one when it passed): only a body still arriving moves it.
	if p.paced && n > 0 && err == nil {
		_ = p.rc.SetReadDeadline(p.deadline.Add(time.Duration(p.received) * time.Second / minUploadRate))
	}
	return n, err
}

// stop lifts the deadline once the request is answered, so the connection
// can carry the client's next request.
func (p *pacedBody) stop() {
	if p.paced {
		_ = p.rc.SetReadDeadline(time.Time{})
	}
}
