package httpx

import (
	"bytes"
	"html"
	"regexp"
	"slices"
)

// Head is what a page's initial HTML says before any script runs, so that
// search engines and link previews see each page as itself rather than
// the web app's one shell.
type Head struct {
	Title       string
	Description string
	Canonical   string
	// Type is the Open Graph type: "website" or "article".
	Type string
	// StructuredData is JSON-LD, already encoded.
	StructuredData string
}

// HeadFunc gives the head of a public path, or false for any other path.
type HeadFunc func(path string) (Head, bool)

var (
	titleTag       = regexp.MustCompile(`<title>[^<]*</title>`)
	descriptionTag = regexp.MustCompile(`<meta name="description"[^>]*>`)
	headEnd        = []byte(`</head>`)
)

// withHead writes h into the head of a page of the web app; the body,
// which React may have rendered its own <title> into, is left alone.
func withHead(page []byte, h Head) []byte {
	esc := html.EscapeString
	end := bytes.Index(page, headEnd)
	if end < 0 {
		return page
	}
	out := titleTag.ReplaceAllLiteral(page[:end:end], []byte("<title>"+esc(h.Title)+"</title>"))
	description := []byte(`<meta name="description" content="` + esc(h.Description) + `" />`)
	var tags bytes.Buffer
	if descriptionTag.Match(out) {
		out = descriptionTag.ReplaceAllLiteral(out, description)
	} else {
		tags.Write(append(description, '\n'))
	}
	tags.WriteString(`    <link rel="canonical" href="` + esc(h.Canonical) + `" />` + "\n")
	for _, m := range [][2]string{
		{"og:title", h.Title}, {"og:description", h.Description}, {"og:url", h.Canonical}, {"og:type", h.Type}, {"og:site_name", "Whitecoat"},
	} {
		tags.WriteString(`    <meta property="` + m[0] + `" content="` + esc(m[1]) + `" />` + "\n")
	}
	tags.WriteString(`    <meta name="twitter:card" content="summary" />` + "\n")
	if h.StructuredData != "" {
		tags.WriteString(`    <script type="application/ld+json">` + h.StructuredData + "</script>\n")
	}
	tags.WriteString("  ")
	return slices.Concat(out, tags.Bytes(), page[end:])
}

// withPreloaded writes each response into index's head.
func withPreloaded(index []byte, preloaded []Preloaded) []byte {
	if len(preloaded) == 0 {
		return index
	}
	var scripts bytes.Buffer
	for _, p := range preloaded {
		scripts.WriteString(`  <script type="application/json" data-api-path="` + html.EscapeString(p.Path) + `">`)
		scripts.Write(p.Body)
		scripts.WriteString("</script>\n  ")
	}
	return bytes.Replace(index, headEnd, append(scripts.Bytes(), headEnd...), 1)
}
