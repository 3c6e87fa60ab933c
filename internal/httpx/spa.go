package httpx

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Preloaded is a public GET response written into every page (a
// <script type="application/json" data-api-path=...>), so the web app's
// first render has it without a round trip: the landing page's copy is
// there at first paint and nothing moves when it arrives.
type Preloaded struct {
	Path string
	// Body is the response's JSON; json.Marshal's HTML escaping keeps
	// "</script>" out of it.
	Body []byte
}

// Prerendered fills in a public page's HTML, which the web build rendered
// with React's server renderer into the directory of the page's path
// (dist/dental/pricing/index.html), its server-decided values as tokens.
type Prerendered struct {
	// Fingerprint names the template the HTML must have been rendered
	// from (the build writes it into <meta name="whitecoat-prerender">):
	// HTML from an older build is not served, lest it show other words
	// than the app renders over it.
	Fingerprint string
	// Values replaces each token with this server's value.
	Values *strings.Replacer
	// Preloaded are the responses the page was rendered from.
	Preloaded []Preloaded
}

// PrerenderedFunc gives how a path's prerendered HTML is filled in, or
// false for a path that has none.
type PrerenderedFunc func(path string) (Prerendered, bool)

// prerenderMeta starts the tag that names a prerendered page's template.
const prerenderMeta = `<meta name="whitecoat-prerender" content="`

// SessionHintFunc reports whether a request may come from a signed-in
// visitor: it carries a session cookie, not yet checked.
type SessionHintFunc func(r *http.Request) bool

// sessionMark is the attribute a page's <html> gets when its request
// carries a session: until the app knows the visitor (it loads when they
// first act on the page), the header's signed-out buttons, which a
// prerendered page shows, stay hidden from them (web/src/index.css).
const sessionMark = ` data-session`

// SPA serves the built web app: real files as they are (hashed assets
// cached for a year); a public page's prerendered HTML, filled in, with
// the head heads gives it; and index.html for every other path so the
// client router can take over. Every page carries the preloaded
// responses, and the session mark when session says so. Unknown /api/
// paths get a JSON 404 instead.
func SPA(files fs.FS, heads HeadFunc, prerendered PrerenderedFunc, session SessionHintFunc, preloaded ...Preloaded) http.Handler {
	fileServer := http.FileServerFS(files)
	// Public pages are the same for every request while the server runs,
	// but for the session mark: each is kept once with it and once without.
	type publicKey struct {
		path    string
		session bool
	}
	var publicPages sync.Map // publicKey -> *publicPage
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/api/") || r.URL.Path == "/api" {
			WriteProblem(w, http.StatusNotFound, "No API endpoint "+r.Method+" "+r.URL.Path+".")
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			WriteProblem(w, http.StatusMethodNotAllowed, "Only GET and HEAD are allowed here.")
			return
		}
		clean := path.Clean("/" + r.URL.Path)
		name := strings.TrimPrefix(clean, "/")
		if name != "" && name != "index.html" {
			if st, err := fs.Stat(files, name); err == nil && !st.IsDir() {
				if strings.HasPrefix(name, "assets/") {
					w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
				}
				if strings.HasPrefix(name, SandboxDir+"/") {
					sandboxHeaders(w.Header())
				}
				if servePrecompressed(w, r, files, name) {
					return
				}
				fileServer.ServeHTTP(w, r)
				return
			}
		}
		index, err := fs.ReadFile(files, "index.html")
		if errors.Is(err, fs.ErrNotExist) {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte("The Whitecoat web app has not been built into this binary. Run `make run` (or `make build`) from the repository root.\n"))
			return
		}
		if err != nil {
			WriteProblem(w, http.StatusInternalServerError, "Could not read the web app.")
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		if r.Method == http.MethodHead {
			return
		}
		// A public page is kept under clean, so everything in it is built
		// from clean too: a head looked up by the path as asked (/ot/.)
		// found none, and /ot was kept without one.
		key := publicKey{clean, session(r)}
		if page, ok := publicPages.Load(key); ok {
			page.(*publicPage).serve(w, r)
			return
		}
		pre, public := prerendered(clean)
		if public {
			index = filledIn(r, files, name, index, pre)
		}
		if h, ok := heads(clean); ok {
			index = withHead(index, h)
		}
		body := withPreloaded(index, mergePreloaded(pre.Preloaded, preloaded))
		if key.session {
			body = bytes.Replace(body, []byte("<html"), []byte("<html"+sessionMark), 1)
		}
		if !public {
			_, _ = w.Write(body)
			return
		}
		page := newPublicPage(body)
		publicPages.Store(key, page)
		page.serve(w, r)
	})
}

// SandboxDir holds tools the app runs in a sandboxed frame of their own
// (<iframe sandbox="allow-scripts">, an opaque origin): third-party code
// that needs what the app's own policy refuses, WebAssembly and code
// generated at run time (the face mesh of issue 42). Each tool lives under
// its pinned version, so its files never change.
const SandboxDir = "sandbox"

// sandboxCSP lets a sandboxed tool compile its WebAssembly and the
// functions its bindings generate, load its own files and nothing else,
// and be framed only by the app.
const sandboxCSP = "default-src 'self'; script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'; connect-src 'self'; img-src 'self' blob: data:; " +
	"style-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'"

// sandboxHeaders replace the app's frame-wide protections for a sandboxed
// tool's files: its own policy, framing by the app, and CORS for the
// opaque origin the sandboxed frame fetches them from.
func sandboxHeaders(h http.Header) {
	h.Set("Content-Security-Policy", sandboxCSP)
	h.Set("X-Frame-Options", "SAMEORIGIN")
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
}

// publicPage is a public page's HTML, kept with a gzip copy: with its
// words and the responses it was rendered from, it is many times the
// app's index.html.
type publicPage struct{ html, gzipped []byte }

func newPublicPage(html []byte) *publicPage {
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression) // a valid level: no error
	_, _ = zw.Write(html)                                   // a bytes.Buffer does not fail
	_ = zw.Close()
	return &publicPage{html: html, gzipped: gz.Bytes()}
}

func (p *publicPage) serve(w http.ResponseWriter, r *http.Request) {
	w.Header().Add("Vary", "Accept-Encoding")
	if acceptedEncodings(r.Header.Get("Accept-Encoding"))["gzip"] {
		w.Header().Set("Content-Encoding", "gzip")
		_, _ = w.Write(p.gzipped)
		return
	}
	_, _ = w.Write(p.html)
}

// mergePreloaded is a page's own responses and then the ones every page
// carries that it does not have already.
func mergePreloaded(own, every []Preloaded) []Preloaded {
	out := slices.Clone(own)
	for _, p := range every {
		if !slices.ContainsFunc(own, func(o Preloaded) bool { return o.Path == p.Path }) {
			out = append(out, p)
		}
	}
	return out
}

// filledIn is the prerendered HTML of the page at name with this server's
// values, or the app's index.html when the build has no HTML for it
// rendered from the template pre names.
func filledIn(r *http.Request, files fs.FS, name string, index []byte, pre Prerendered) []byte {
	html, err := fs.ReadFile(files, name+"/index.html")
	if err == nil && bytes.Contains(html, []byte(prerenderMeta+pre.Fingerprint+`"`)) {
		return []byte(pre.Values.Replace(string(html)))
	}
	Logger(r.Context()).Warn("no prerendered page from this build's content; the web app renders it in the browser (rebuild the web app: make build)", "page", "/"+name, "err", err)
	return index
}

// precompressed are the encodings the build writes beside each text asset
// (NAME.br, NAME.gz), best first.
var precompressed = []struct{ encoding, suffix string }{{"br", ".br"}, {"gzip", ".gz"}}

// servePrecompressed sends the smallest copy of name that the build
// compressed ahead of time and the client accepts, and reports whether it
// did. The response is the original file's type, with Content-Encoding
// saying how it is packed.
func servePrecompressed(w http.ResponseWriter, r *http.Request, files fs.FS, name string) bool {
	w.Header().Add("Vary", "Accept-Encoding")
	accepted := acceptedEncodings(r.Header.Get("Accept-Encoding"))
	for _, p := range precompressed {
		if !accepted[p.encoding] {
			continue
		}
		f, err := files.Open(name + p.suffix)
		if err != nil {
			continue
		}
		defer f.Close()
		content, ok := f.(io.ReadSeeker)
		st, err := f.Stat()
		if !ok || err != nil {
			continue
		}
		ctype := mime.TypeByExtension(path.Ext(name))
		if ctype == "" {
			ctype = "application/octet-stream"
		}
		w.Header().Set("Content-Type", ctype)
		w.Header().Set("Content-Encoding", p.encoding)
		http.ServeContent(w, r, name, st.ModTime(), content)
		return true
	}
	return false
}

// acceptedEncodings parses Accept-Encoding (RFC 9110 §12.5.3): the
// encodings named with a non-zero weight, "*" standing for any.
func acceptedEncodings(header string) map[string]bool {
	out := map[string]bool{}
	wildcard := false
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding == "" {
			continue
		}
		weight := 1.0
		if q, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			if v, err := strconv.ParseFloat(strings.TrimSpace(q), 64); err == nil {
				weight = v
			}
		}
		if coding == "*" {
			wildcard = weight > 0
			continue
		}
		out[coding] = weight > 0
	}
	if wildcard {
		for _, p := range precompressed {
			if _, named := out[p.encoding]; !named {
				out[p.encoding] = true
			}
		}
	}
	return out
}
