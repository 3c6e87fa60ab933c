package httpx

import (
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
)

func noHeads(string) (Head, bool)              { return Head{}, false }
func noPrerendered(string) (Prerendered, bool) { return Prerendered{}, false }
func noSession(*http.Request) bool             { return false }

func TestSPASendsThePrecompressedCopyTheClientAccepts(t *testing.T) {
	js := []byte("console.log('the original, uncompressed')")
	files := fstest.MapFS{
		"index.html":        {Data: []byte("<!doctype html>")},
		"assets/app.js":     {Data: js},
		"assets/app.js.br":  {Data: []byte("brotli bytes")},
		"assets/app.js.gz":  {Data: []byte("gzip bytes")},
		"assets/small.css":  {Data: []byte("a{}")},
		"assets/only.js":    {Data: []byte("only")},
		"assets/only.js.gz": {Data: []byte("only gz")},
	}
	spa := SPA(files, noHeads, noPrerendered, noSession)
	for _, tc := range []struct {
		name, path, accept, wantEncoding, wantBody string
	}{
		{"brotli preferred", "/assets/app.js", "gzip, deflate, br, zstd", "br", "brotli bytes"},
		{"gzip when brotli is not accepted", "/assets/app.js", "gzip", "gzip", "gzip bytes"},
		{"brotli refused with q=0", "/assets/app.js", "br;q=0, gzip;q=0.5", "gzip", "gzip bytes"},
		{"wildcard", "/assets/app.js", "*", "br", "brotli bytes"},
		{"identity only", "/assets/app.js", "", "", string(js)},
		{"no compressed copy", "/assets/small.css", "br, gzip", "", "a{}"},
		{"only a gzip copy", "/assets/only.js", "br, gzip", "gzip", "only gz"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodGet, tc.path, nil)
			if tc.accept != "" {
				req.Header.Set("Accept-Encoding", tc.accept)
			}
			rec := httptest.NewRecorder()
			spa.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				t.Fatalf("status %d", rec.Code)
			}
			if got := rec.Header().Get("Content-Encoding"); got != tc.wantEncoding {
				t.Fatalf("Content-Encoding %q, want %q", got, tc.wantEncoding)
			}
			if rec.Body.String() != tc.wantBody {
				t.Fatalf("body %q, want %q", rec.Body, tc.wantBody)
			}
			if ct := rec.Header().Get("Content-Type"); tc.path == "/assets/app.js" && ct != "text/javascript; charset=utf-8" {
				t.Fatalf("Content-Type %q: a compressed copy must keep the original's type", ct)
			}
			if rec.Header().Get("Vary") != "Accept-Encoding" {
				t.Fatalf("Vary %q: caches must keep the copies apart", rec.Header().Get("Vary"))
			}
			if rec.Header().Get("Cache-Control") != "public, max-age=31536000, immutable" {
				t.Fatalf("Cache-Control %q", rec.Header().Get("Cache-Control"))
			}
		})
	}
}

func TestSPAGivesAPublicPageItsOwnHead(t *testing.T) {
	index := `<!doctype html>
<html lang="en">
  <head>
    <meta name="description" content="The app." />
    <title>Whitecoat</title>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`
	files := fstest.MapFS{"index.html": {Data: []byte(index)}}
	heads := func(path string) (Head, bool) {
		if path != "/medical/resources/ethics" {
			return Head{}, false
		}
		return Head{Title: `Ethics & "you" | Whitecoat`, Description: "Principles <and> practice.", Canonical: "https://example.test/medical/resources/ethics",
			Type: "article", StructuredData: `{"@type":"FAQPage"}`}, true
	}
	spa := SPA(files, heads, noPrerendered, noSession)
	get := func(path string) string {
		rec := httptest.NewRecorder()
		spa.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if rec.Code != http.StatusOK {
			t.Fatalf("%s: status %d", path, rec.Code)
		}
		return rec.Body.String()
	}
	page := get("/medical/resources/ethics")
	for _, want := range []string{
		`<title>Ethics &amp; &#34;you&#34; | Whitecoat</title>`,
		`<meta name="description" content="Principles &lt;and&gt; practice." />`,
		`<link rel="canonical" href="https://example.test/medical/resources/ethics" />`,
		`<meta property="og:title" content="Ethics &amp; &#34;you&#34; | Whitecoat" />`,
		`<meta property="og:type" content="article" />`,
		`<script type="application/ld+json">{"@type":"FAQPage"}</script>`,
		`<div id="root"></div>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s\n%s", want, page)
		}
	}
	if strings.Count(page, "<title>") != 1 || strings.Count(page, `name="description"`) != 1 {
		t.Errorf("the head must be replaced, not added to:\n%s", page)
	}
	if other := get("/medical/dashboard"); other != index {
		t.Errorf("a page that is not public must get the app's own head:\n%s", other)
	}
}

func TestSPAWritesPreloadedResponsesIntoEveryPage(t *testing.T) {
	index := "<html><head><title>Whitecoat</title></head><body><div id=\"root\"></div></body></html>"
	files := fstest.MapFS{"index.html": {Data: []byte(index)}}
	spa := SPA(files, noHeads, noPrerendered, noSession, Preloaded{Path: "/api/professions", Body: []byte(`{"professions":[]}`)})
	for _, path := range []string{"/dental", "/dental/dashboard", "/login"} {
		rec := httptest.NewRecorder()
		spa.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		want := `<script type="application/json" data-api-path="/api/professions">{"professions":[]}</script>`
		head, _, _ := strings.Cut(rec.Body.String(), "</head>")
		if !strings.Contains(head, want) {
			t.Errorf("%s: head lacks the preloaded response:\n%s", path, rec.Body.String())
		}
	}
}

func TestSPAServesAPublicPagesPrerenderedHTMLFilledIn(t *testing.T) {
	shell := `<html><head><title>Whitecoat</title></head><body><div id="root"></div></body></html>`
	// As the web build writes them: the page's HTML in the root, each
	// server-decided value a token, the template's fingerprint in the head.
	prerendered := func(fingerprint, body string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte(`<html><head><title>Whitecoat</title><meta name="whitecoat-prerender" content="` + fingerprint + `" /></head><body><div id="root">` + body + `</div></body></html>`)}
	}
	files := fstest.MapFS{
		"index.html":                {Data: []byte(shell)},
		"dental/pricing/index.html": prerendered("current", "<h1>Pricing</h1><p>Write to \ue0000\ue001.</p>\ue0001\ue001"),
		"dental/about/index.html":   prerendered("older", "<h1>About</h1>"),
	}
	pages := func(path string) (Prerendered, bool) {
		switch path {
		case "/dental/pricing":
			return Prerendered{Fingerprint: "current", Values: strings.NewReplacer("\ue0000\ue001", "Acme &amp; Sons", "\ue0001\ue001", "<p>Trusted.</p>"),
				Preloaded: []Preloaded{{Path: "/api/site", Body: []byte(`{"company":"Acme \u0026 Sons"}`)}, {Path: "/api/professions", Body: []byte(`{"professions":["own"]}`)}}}, true
		case "/dental/about":
			return Prerendered{Fingerprint: "current", Values: strings.NewReplacer()}, true
		}
		return Prerendered{}, false
	}
	heads := func(path string) (Head, bool) {
		return Head{Title: "Page of " + path, Canonical: "https://example.test" + path}, strings.HasPrefix(path, "/dental/")
	}
	spa := SPA(files, heads, pages, noSession, Preloaded{Path: "/api/professions", Body: []byte(`{"professions":["every"]}`)})
	get := func(path, acceptEncoding string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Header.Set("Accept-Encoding", acceptEncoding)
		rec := httptest.NewRecorder()
		spa.ServeHTTP(rec, req)
		return rec
	}

	for _, path := range []string{"/dental/pricing", "/dental/pricing/"} {
		rec := get(path, "")
		page := rec.Body.String()
		for _, want := range []string{
			"<h1>Pricing</h1><p>Write to Acme &amp; Sons.</p><p>Trusted.</p>",
			"<title>Page of /dental/pricing</title>",
			`<script type="application/json" data-api-path="/api/site">{"company":"Acme \u0026 Sons"}</script>`,
			`<script type="application/json" data-api-path="/api/professions">{"professions":["own"]}</script>`,
		} {
			if !strings.Contains(page, want) {
				t.Errorf("%s lacks %s:\n%s", path, want, page)
			}
		}
		if strings.ContainsAny(page, "\ue000\ue001") || strings.Contains(page, `"every"`) {
			t.Errorf("%s: a token left, or a response written twice:\n%s", path, page)
		}
		if rec.Header().Get("Content-Type") != "text/html; charset=utf-8" || rec.Header().Get("Cache-Control") != "no-cache" {
			t.Errorf("%s: headers %v", path, rec.Header())
		}
	}

	zipped := get("/dental/pricing", "gzip, br")
	if zipped.Header().Get("Content-Encoding") != "gzip" || zipped.Header().Get("Vary") != "Accept-Encoding" {
		t.Fatalf("headers %v", zipped.Header())
	}
	zr, err := gzip.NewReader(zipped.Body)
	if err != nil {
		t.Fatal(err)
	}
	if unzipped, _ := io.ReadAll(zr); string(unzipped) != get("/dental/pricing", "").Body.String() {
		t.Errorf("the gzip copy is another page:\n%s", unzipped)
	}

	for path, why := range map[string]string{
		"/dental/about":     "its HTML was rendered from another template, whose words may differ from what the app renders",
		"/dental/dashboard": "a signed-in page is the app's",
	} {
		page := get(path, "").Body.String()
		if !strings.Contains(page, `<div id="root"></div>`) || !strings.Contains(page, "<title>Page of "+path+"</title>") {
			t.Errorf("%s gets the app's own page (%s):\n%s", path, why, page)
		}
	}
	if rec := get("/dental/pricing/index.html", ""); rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != "./" {
		t.Errorf("the template itself: %d %v, want a redirect to the page", rec.Code, rec.Header())
	}
}

func TestSPAMarksThePagesOfARequestThatCarriesASession(t *testing.T) {
	files := fstest.MapFS{
		"index.html":        {Data: []byte(`<!doctype html><html lang="en"><head></head><body><div id="root"></div></body></html>`)},
		"dental/index.html": {Data: []byte(`<!doctype html><html lang="en"><head><meta name="whitecoat-prerender" content="f" /></head><body><div id="root"><h1>Dental</h1></div></body></html>`)},
	}
	pages := func(path string) (Prerendered, bool) {
		return Prerendered{Fingerprint: "f", Values: strings.NewReplacer()}, path == "/dental"
	}
	spa := SPA(files, noHeads, pages, func(r *http.Request) bool { return r.Header.Get("Cookie") != "" })
	get := func(path string, cookie bool) string {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		if cookie {
			req.Header.Set("Cookie", "session=x")
		}
		rec := httptest.NewRecorder()
		spa.ServeHTTP(rec, req)
		return rec.Body.String()
	}
	// Twice each, in turn: a public page is kept once with the mark and
	// once without, and neither is served for the other.
	for range 2 {
		for _, path := range []string{"/dental", "/dental/dashboard"} {
			if page := get(path, true); !strings.Contains(page, `<html data-session lang="en">`) {
				t.Errorf("%s with a session cookie:\n%s", path, page)
			}
			if page := get(path, false); !strings.Contains(page, `<html lang="en">`) {
				t.Errorf("%s without one:\n%s", path, page)
			}
		}
	}
}

// A sandboxed tool's files carry their own policy (issue 42): the face
// mesh may compile WebAssembly and generate code in its frame, while
// every other file and page keeps the app's.
func TestSPAServesSandboxedToolsUnderTheirOwnPolicy(t *testing.T) {
	files := fstest.MapFS{
		"index.html":                        {Data: []byte("<!doctype html>")},
		"assets/app.js":                     {Data: []byte("app")},
		"sandbox/face-mesh/1.2/frame.html":  {Data: []byte("<!doctype html><script src=frame.js></script>")},
		"sandbox/face-mesh/1.2/bin.wasm":    {Data: []byte("\x00asm")},
		"sandbox/face-mesh/1.2/frame.js.gz": {Data: []byte("gz")},
		"sandbox/face-mesh/1.2/frame.js":    {Data: []byte("frame")},
	}
	h := SecurityHeaders(false)(SPA(files, noHeads, noPrerendered, noSession))
	get := func(path string) *http.Response {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Result()
	}
	for _, path := range []string{"/sandbox/face-mesh/1.2/frame.html", "/sandbox/face-mesh/1.2/bin.wasm", "/sandbox/face-mesh/1.2/frame.js"} {
		res := get(path)
		csp := res.Header.Get("Content-Security-Policy")
		if res.StatusCode != http.StatusOK || !strings.Contains(csp, "'wasm-unsafe-eval'") || !strings.Contains(csp, "frame-ancestors 'self'") {
			t.Errorf("%s: %d with policy %q, want the sandbox's", path, res.StatusCode, csp)
		}
		if res.Header.Get("X-Frame-Options") != "SAMEORIGIN" || res.Header.Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("%s: framing %q, CORS %q", path, res.Header.Get("X-Frame-Options"), res.Header.Get("Access-Control-Allow-Origin"))
		}
	}
	if ct := get("/sandbox/face-mesh/1.2/bin.wasm").Header.Get("Content-Type"); ct != "application/wasm" {
		t.Errorf("wasm served as %q: browsers compile it while it streams only as application/wasm", ct)
	}
	for _, path := range []string{"/", "/assets/app.js", "/dental/session", "/sandbox/face-mesh/1.2/missing.js"} {
		res := get(path)
		if csp := res.Header.Get("Content-Security-Policy"); strings.Contains(csp, "unsafe-eval") || res.Header.Get("X-Frame-Options") != "DENY" {
			t.Errorf("%s: policy %q, framing %q: the app's own must hold", path, csp, res.Header.Get("X-Frame-Options"))
		}
	}
}
