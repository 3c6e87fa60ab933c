package httpx

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/danielgtaylor/huma/v2"
)

// MsgBadText is the answer to text no field may hold: PostgreSQL refuses
// NUL in any text column and invalid UTF-8 in any text at all, and SQLite
// would keep it, so both databases see the same refusal before either does.
const MsgBadText = "Text must be valid UTF-8 and must not contain NUL characters."

// maxUserAgentRunes bounds what is kept of a User-Agent header: it is
// stored with each sign-in and shown to the user, and a browser's is well
// under this.
const maxUserAgentRunes = 300

// TextHygiene refuses requests whose path, query or JSON body holds NUL or
// invalid UTF-8 with a 422 problem naming where, and cleans the User-Agent
// header (the only header the app stores) so a hostile or broken client
// can still sign in. JSON bodies are read whole, which BodyLimit bounds in
// size and readWait in time.
func TextHygiene(readWait time.Duration) Middleware {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if ua, ok := r.Header["User-Agent"]; ok && len(ua) > 0 {
				r.Header.Set("User-Agent", cleanHeaderText(ua[0], maxUserAgentRunes))
			}
			if !cleanText(r.URL.Path) {
				writeBadText(w, "path")
				return
			}
			if !cleanQuery(r.URL.RawQuery) {
				writeBadText(w, "query")
				return
			}
			switch {
			case r.Body == nil || r.Body == http.NoBody:
				w = bodyRead{w}
			case isJSON(r.Header.Get("Content-Type")):
				body, ok := readJSONBody(w, r, readWait)
				if !ok {
					return
				}
				if !utf8.Valid(body) || hasEscapedNUL(body) {
					writeBadText(w, "body")
					return
				}
				r.Body = io.NopCloser(bytes.NewReader(body))
				w = bodyRead{w}
			}
			next.ServeHTTP(w, r)
		})
	}
}

// readJSONBody reads r's body whole within readWait, or answers the
// client itself and returns false.
func readJSONBody(w http.ResponseWriter, r *http.Request, readWait time.Duration) ([]byte, bool) {
	rc := http.NewResponseController(w)
	// Where the connection offers no deadline (a test recorder) the body
	// is read as it comes.
	_ = rc.SetReadDeadline(time.Now().Add(readWait))
	body, err := io.ReadAll(r.Body)
	var tooBig *http.MaxBytesError
	var netErr net.Error
	switch {
	case err == nil:
		_ = rc.SetReadDeadline(time.Time{})
		return body, true
	case errors.As(err, &tooBig):
		WriteProblem(w, http.StatusRequestEntityTooLarge, tooLarge(tooBig.Limit))
	case errors.As(err, &netErr) && netErr.Timeout():
		// The deadline stays passed: the server would otherwise wait for
		// the rest of the body, to discard it, before answering. It
		// answers at once and closes the connection.
		WriteProblem(w, http.StatusRequestTimeout, MsgBodyTooSlow)
	default:
		WriteProblem(w, http.StatusBadRequest, "The request body could not be read.")
	}
	return nil, false
}

// MsgBodyTooSlow answers a JSON body that did not arrive within its wait.
const MsgBodyTooSlow = "The request took too long to arrive. Check your connection and try again."

// bodyRead is the response writer of a request whose body is all read:
// it had none, or TextHygiene holds it in memory. Huma sets a read deadline
// on the connection as it reads a body; reading the copy or nothing,
// nothing lifted it, and the server's read waiting for the client's next
// request failed on it and canceled the request still working (a sign-in
// queued for a password hash on a busy machine got 499). No deadline on
// the connection's reads concerns this request, so none is passed on.
type bodyRead struct{ http.ResponseWriter }

func (bodyRead) SetReadDeadline(time.Time) error { return nil }

// Unwrap lets http.ResponseController reach the connection's other controls.
func (w bodyRead) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func writeBadText(w http.ResponseWriter, location string) {
	WriteProblem(w, http.StatusUnprocessableEntity, MsgBadText, &huma.ErrorDetail{Location: location, Message: MsgBadText})
}

func cleanText(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsRune(s, 0)
}

// cleanQuery reports whether every decoded query key and value is clean.
// A query that does not parse is left to the handler, which refuses it.
func cleanQuery(raw string) bool {
	if raw == "" {
		return true
	}
	values, err := url.ParseQuery(raw)
	if err != nil {
		return true
	}
	for k, vs := range values {
		if !cleanText(k) {
			return false
		}
		for _, v := range vs {
			if !cleanText(v) {
				return false
			}
		}
	}
	return true
}

func isJSON(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
}

// hasEscapedNUL reports whether a JSON text holds the escape \u0000. Raw
// control characters are already invalid JSON; an escaped backslash
// followed by "u0000" is the harmless text `\u0000`, told apart by
// counting the backslashes before it.
func hasEscapedNUL(body []byte) bool {
	for i := 0; ; {
		j := bytes.Index(body[i:], []byte(`u0000`))
		if j < 0 {
			return false
		}
		at := i + j
		backslashes := 0
		for k := at - 1; k >= 0 && body[k] == '\\'; k-- {
			backslashes++
		}
		if backslashes%2 == 1 {
			return true
		}
		i = at + 1
	}
}

// cleanHeaderText makes header text safe to store and show: invalid UTF-8
// and control characters become U+FFFD, and it is cut to at most maxRunes.
func cleanHeaderText(s string, maxRunes int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n == maxRunes {
			break
		}
		if unicode.IsControl(r) {
			r = '\uFFFD'
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}
