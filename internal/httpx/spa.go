package httpx

import (
	"errors"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
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

// SPA serves the built web app: real files as they are (hashed assets
// cached for a year), and index.html for every other path so the client
// router can take over, with the head heads gives a public page and the
// preloaded responses. Unknown /api/ paths get a JSON 404 instead.
func SPA(files fs.FS, heads HeadFunc, preloaded ...Preloaded) http.Handler {
	fileServer := http.FileServerFS(files)
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
		name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
		if name != "" && name != "index.html" {
			if st, err := fs.Stat(files, name); err == nil && !st.IsDir() {
				if strings.HasPrefix(name, "assets/") {
					w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
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
		if h, ok := heads(r.URL.Path); ok {
			index = withHead(index, h)
		}
		_, _ = w.Write(withPreloaded(index, preloaded))
	})
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
