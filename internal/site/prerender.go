package site

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/whitecoat/whitecoat/internal/httpx"
	"github.com/whitecoat/whitecoat/internal/profession"
)

// The web build renders every public page to HTML with React's server
// renderer (web/scripts/prerender.mjs), from the API responses the page's
// first render reads, and this server fills that HTML in when it serves
// it. The build cannot know what a server's configuration decides (the
// operator's facts, and the words and PDFs rendered with them), so it
// renders from a template of those responses in which each such value is
// a token; the server replaces each token with its own value and writes
// the responses themselves into the page, so the browser's first render,
// which hydrates the HTML, reads the very values the HTML shows.
//
// A token is a number between two private-use characters, which React
// writes as they are in text and in attributes alike.
const tokenOpen, tokenClose = "\ue000", "\ue001"

// factsPath is the response every field of which the configuration decides.
const factsPath = "/api/site"

// configured are the fields of the other responses that the configuration
// decides: the words rendered with the facts (Page.HTML, FAQItem's
// answer) and the PDFs' sizes. TestTemplatesTokenizeEveryConfiguredValue
// renders the pages with two sets of facts to keep this list whole.
var configured = map[string]bool{"html": true, "answerHtml": true, "answer": true, "pages": true, "bytes": true, "size": true}

// trustedHTML are the configured fields that hold HTML rendered by this
// server from content/ (Page.HTML, FAQItem.AnswerHTML): they are written
// into the page as they are, every other value escaped.
var trustedHTML = map[string]bool{"html": true, "answerHtml": true}

// PublicPage is a public page as the web build prerenders it.
type PublicPage struct {
	Path string `json:"path"`
	// Responses are the API responses the page's first render reads, by
	// API path, with each configured value a token.
	Responses map[string]any `json:"responses"`
	// Fingerprint names the template: the server fills in only HTML
	// that was rendered from the template it would make itself.
	Fingerprint string `json:"fingerprint"`
}

// Templates are every public page, for the web build
// (`whitecoat public-pages`).
func (l *Library) Templates() ([]PublicPage, error) {
	var out []PublicPage
	for _, path := range PublicPaths() {
		t, err := l.template(path)
		if err != nil {
			return nil, err
		}
		out = append(out, PublicPage{Path: path, Responses: t.responses, Fingerprint: t.fingerprint})
	}
	return out, nil
}

// filled is a public page's template and this server's values for it.
type filled struct {
	responses   map[string]any
	fingerprint string
	// values are what each token stands for, written for HTML.
	values    []string
	preloaded []httpx.Preloaded
}

// template makes path's template and gathers this server's values.
func (l *Library) template(path string) (filled, error) {
	raw, ok := l.responses(path)
	if !ok {
		return filled{}, fmt.Errorf("site: %s is not a public page", path)
	}
	f := filled{responses: map[string]any{}}
	for _, api := range slices.Sorted(maps.Keys(raw)) {
		body, err := json.Marshal(raw[api])
		if err != nil {
			return filled{}, fmt.Errorf("site: %s: %w", api, err)
		}
		f.preloaded = append(f.preloaded, httpx.Preloaded{Path: api, Body: body})
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return filled{}, fmt.Errorf("site: %s: %w", api, err)
		}
		f.responses[api] = f.tokenize(v, "", api == factsPath)
	}
	t, err := json.Marshal(f.responses)
	if err != nil {
		return filled{}, fmt.Errorf("site: %s: %w", path, err)
	}
	sum := sha256.Sum256(t)
	f.fingerprint = hex.EncodeToString(sum[:16])
	return f, nil
}

// tokenize replaces each configured value in v (every value when
// configured is true) with the next token, keeping the value. Keys are
// visited in order, so the same responses always get the same tokens.
func (f *filled) tokenize(v any, key string, isConfigured bool) any {
	isConfigured = isConfigured || configured[key]
	switch v := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			v[k] = f.tokenize(v[k], k, isConfigured)
		}
		return v
	case []any:
		for i := range v {
			v[i] = f.tokenize(v[i], key, isConfigured)
		}
		return v
	}
	if !isConfigured {
		return v
	}
	var text string
	switch v := v.(type) {
	case string:
		text = v
		if !trustedHTML[key] {
			text = html.EscapeString(v)
		}
	case json.Number:
		text = v.String()
	case bool:
		text = strconv.FormatBool(v)
	}
	f.values = append(f.values, text)
	return tokenOpen + strconv.Itoa(len(f.values)-1) + tokenClose
}

// Prerendered is how this server fills in path's prerendered HTML, or
// false when path is not a public page as the build names it.
func (l *Library) Prerendered(path string) (httpx.Prerendered, bool) {
	f, err := l.template(path)
	if err != nil {
		return httpx.Prerendered{}, false
	}
	pairs := make([]string, 0, 2*len(f.values))
	for i, v := range f.values {
		pairs = append(pairs, tokenOpen+strconv.Itoa(i)+tokenClose, v)
	}
	return httpx.Prerendered{Fingerprint: f.fingerprint, Values: strings.NewReplacer(pairs...), Preloaded: f.preloaded}, true
}

// LandingResponse is a further API response a profession's landing page
// reads on its first render: its path and body for the profession slug.
type LandingResponse func(slug string) (api string, body any)

// ReadOnLanding adds read's response to every landing page's first render.
func (l *Library) ReadOnLanding(read LandingResponse) { l.landing = append(l.landing, read) }

// responses are the API responses a public page's first render reads:
// the professions (the header and the landing page), the operator's facts
// (contact links, the plans), on the landing page what ReadOnLanding
// added and, on every other page, its words.
func (l *Library) responses(path string) (map[string]any, bool) {
	out := map[string]any{"/api/professions": profession.CurrentCatalog(), factsPath: l.facts}
	slug, rest, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/")
	p, ok := profession.Lookup(slug)
	if !ok || p.Slug != slug {
		return nil, false
	}
	if rest == "" {
		for _, read := range l.landing {
			api, body := read(slug)
			out[api] = body
		}
		return out, true
	}
	for _, key := range PageKeys {
		if key.Path(slug) == path {
			page, _ := l.Page(key, slug)
			out["/api/site/pages/"+slug+"/"+string(key)] = page
			return out, true
		}
	}
	return nil, false
}
