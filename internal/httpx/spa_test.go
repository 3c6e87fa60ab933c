package httpx

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
)

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
	spa := SPA(files, func(string) (Head, bool) { return Head{}, false })
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
			Type: "article", Body: "<h1>Ethics</h1><p>Autonomy.</p>", StructuredData: `{"@type":"FAQPage"}`}, true
	}
	spa := SPA(files, heads)
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
		`<div id="root"></div><noscript><main><h1>Ethics</h1><p>Autonomy.</p></main></noscript>`,
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
	spa := SPA(files, func(string) (Head, bool) { return Head{}, false }, Preloaded{Path: "/api/professions", Body: []byte(`{"professions":[]}`)})
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
