package site

import (
	"encoding/json"
	"strings"

	"github.com/yuin/goldmark/ast"

	"github.com/whitecoat/whitecoat/internal/httpx"
	"github.com/whitecoat/whitecoat/internal/profession"
)

// titleSuffix ends every title, in the browser's tab as on the server: the
// product's name, which the web app's pages end theirs with too.
const titleSuffix = " · Whitecoat"

// Head says what the head of a public path's HTML holds before any script
// runs: its own title, description, canonical address and Open Graph
// tags, and the pricing page's FAQ as structured data; its words are in
// the body, which the web build prerenders (prerender.go). Paths that are
// not public pages report false and get the web app's own head.
func (l *Library) Head(path string) (httpx.Head, bool) {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	p, ok := profession.Lookup(parts[0])
	if !ok {
		return httpx.Head{}, false
	}
	if len(parts) == 1 {
		return httpx.Head{
			Title:       p.DisplayName + " interview practice" + titleSuffix,
			Description: p.HeroSubtitle,
			Canonical:   l.absolute("/" + p.Slug),
			Type:        "website",
		}, true
	}
	rest := strings.Join(parts[1:], "/")
	for _, key := range PageKeys {
		if key.Path(p.Slug) != "/"+p.Slug+"/"+strings.ToLower(rest) {
			continue
		}
		page, _ := l.Page(key, p.Slug)
		head := httpx.Head{
			Title:       page.Title + titleSuffix,
			Description: page.Description,
			Canonical:   l.absolute(page.Path),
			Type:        "article",
		}
		if key == PagePricing {
			head.Type = "website"
			head.StructuredData = l.faqData(p.Slug)
		}
		return head, true
	}
	return httpx.Head{}, false
}

// faqData is the pricing page's questions and answers as schema.org
// FAQPage structured data.
func (l *Library) faqData(slug string) string {
	page := l.pages[pageID{string(PagePricing), slug}]
	type answer struct {
		Type string `json:"@type"`
		Text string `json:"text"`
	}
	type question struct {
		Type   string `json:"@type"`
		Name   string `json:"name"`
		Answer answer `json:"acceptedAnswer"`
	}
	qs := []question{}
	for _, item := range page.FAQ {
		qs = append(qs, question{Type: "Question", Name: item.Question, Answer: answer{Type: "Answer", Text: item.Answer}})
	}
	data, err := json.Marshal(map[string]any{"@context": "https://schema.org", "@type": "FAQPage", "mainEntity": qs})
	if err != nil {
		return ""
	}
	return string(data)
}

// faq reads a page as questions and answers: each ## heading a question,
// and what follows it up to the next one its answer.
func faq(c composed) []FAQItem {
	var items []FAQItem
	var answer []ast.Node
	flush := func() {
		if len(items) == 0 {
			return
		}
		item := &items[len(items)-1]
		var text []string
		for _, n := range answer {
			html, _ := renderHTML(n, c.body)
			item.AnswerHTML += html
			text = append(text, plainText(n, c.body))
		}
		item.Answer = strings.Join(text, " ")
		answer = nil
	}
	for n := c.root.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok && h.Level == 2 {
			flush()
			items = append(items, FAQItem{Question: plainText(h, c.body)})
			continue
		}
		answer = append(answer, n)
	}
	flush()
	return items
}
