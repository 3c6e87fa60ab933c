package httpx

import (
	"errors"
	"io/fs"
	"net/http"
	"path"
	"strings"
)

// SPA serves the built web app: real files as they are (hashed assets
// cached for a year), and index.html for every other path so the client
// router can take over. Unknown /api/ paths get a JSON 404 instead.
func SPA(files fs.FS) http.Handler {
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
		_, _ = w.Write(index)
	})
}
