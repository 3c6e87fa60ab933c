package site

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"sync"

	"github.com/yuin/goldmark/ast"

	"github.com/whitecoat/whitecoat/internal/profession"
)

// Library is every public page rendered for every profession, and the
// PDFs, made on first request and kept.
type Library struct {
	facts Facts
	pages map[pageID]Page
	// texts are every page's and download's words, parsed.
	texts map[pageID]composed
	pdfs  sync.Map // pageID -> *pdfOnce
	// landing are the responses a landing page reads beyond the
	// professions and the facts (ReadOnLanding).
	landing []LandingResponse
}

// pageID is a page or a download for one profession ("" for a download's
// general edition).
type pageID struct {
	key        string
	profession string
}

// composed is a page's or a download's words for one profession: the
// general part and the profession's section, parsed.
type composed struct {
	title, description, summary string
	checkboxes                  bool
	// sectionTitle heads the profession's part; "" when there is none.
	sectionTitle string
	body         []byte
	root         ast.Node
}

// data is what a content file's template fields read.
type data struct {
	Facts
	Profession profession.Profession
}

// Load reads every content file from src and renders every page for every
// profession with facts. It reports every problem at once, each naming
// its file, so a broken edit fails at start-up and in tests, not on a
// student's screen.
func Load(src fs.FS, facts Facts) (*Library, error) {
	lib := &Library{facts: facts, pages: map[pageID]Page{}, texts: map[pageID]composed{}}
	var problems []error
	for _, p := range profession.All() {
		d := data{Facts: facts, Profession: p}
		for _, key := range PageKeys {
			c, err := compose(src, key.source(), key.part(p.Slug), d)
			if err != nil {
				problems = append(problems, err)
				continue
			}
			page, err := lib.page(key, p.Slug, c)
			if err != nil {
				problems = append(problems, err)
				continue
			}
			lib.texts[pageID{string(key), p.Slug}] = c
			lib.pages[pageID{string(key), p.Slug}] = page
		}
		for _, key := range DownloadKeys {
			c, err := compose(src, key.source(), key.part(p.Slug), d)
			if err != nil {
				problems = append(problems, err)
				continue
			}
			lib.texts[downloadID(key, p.Slug)] = c
		}
	}
	general := data{Facts: facts, Profession: profession.Profession{DisplayName: "Healthcare"}}
	for _, key := range DownloadKeys {
		c, err := compose(src, key.source(), "", general)
		if err != nil {
			problems = append(problems, err)
			continue
		}
		lib.texts[downloadID(key, "")] = c
	}
	if err := errors.Join(distinct(problems)...); err != nil {
		return nil, fmt.Errorf("site: content: %w", err)
	}
	return lib, nil
}

// compose reads a general file and, when part names one that exists, a
// profession's section, and parses them as one document.
func compose(src fs.FS, general, part string, d data) (composed, error) {
	g, err := readDoc(src, general, d)
	if err != nil {
		return composed{}, err
	}
	c := composed{title: g.meta["title"], description: g.meta["description"], summary: g.meta["summary"], checkboxes: g.meta["checkboxes"] == "true"}
	if c.description == "" {
		return composed{}, fmt.Errorf("%s: front matter has no description", general)
	}
	body := g.body
	if part != "" {
		s, err := readDoc(src, part, d)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return composed{}, err
		default:
			c.sectionTitle = s.meta["title"]
			body = bytes.Join([][]byte{bytes.TrimRight(body, "\n"), []byte("## " + c.sectionTitle), s.body}, []byte("\n\n"))
		}
	}
	// Each file was checked on its own; together they parse as cleanly.
	c.root, _ = parse(general, body)
	c.body = body
	return c, nil
}

// Page returns the page key for the profession with slug. The resources
// page lists the guides and the PDFs, with each PDF's size: the PDFs are
// made the first time a resources page is asked for.
func (l *Library) Page(key PageKey, slug string) (Page, bool) {
	p, ok := l.pages[pageID{string(key), slug}]
	if ok && key == PageResources {
		p = l.withCards(p)
	}
	return p, ok
}

// Facts are the facts the library was rendered with.
func (l *Library) Facts() Facts { return l.facts }

func (l *Library) page(key PageKey, slug string, c composed) (Page, error) {
	html, err := renderHTML(c.root, c.body)
	if err != nil {
		return Page{}, fmt.Errorf("%s for %s: %w", key.source(), slug, err)
	}
	p := Page{
		Key: key, Profession: slug, Path: key.Path(slug),
		Title: c.title, Description: c.description, HTML: html, Headings: headings(c.root, c.body),
	}
	if key == PagePricing {
		p.FAQ = faq(c)
	}
	if g, ok := guides[key]; ok {
		p.Practice = &Practice{Label: g.label, Focus: g.focus, Path: "/" + slug + "/setup?focus=" + string(g.focus)}
	}
	return p, nil
}

// withCards adds the guides and the downloads to a resources page.
func (l *Library) withCards(p Page) Page {
	for _, key := range PageKeys {
		if key.IsGuide() {
			c := l.texts[pageID{string(key), p.Profession}]
			p.Guides = append(p.Guides, GuideCard{Key: key, Title: c.title, Summary: c.summary, Path: key.Path(p.Profession)})
		}
	}
	for _, key := range DownloadKeys {
		// A download with no section for this profession is the general
		// edition: one address for the same words.
		edition := p.Profession
		if l.texts[downloadID(key, edition)].sectionTitle == "" {
			edition = ""
		}
		c := l.texts[downloadID(key, edition)]
		card := DownloadCard{Key: key, Title: c.title, Summary: c.summary, Path: key.Path(edition), FileName: key.FileName(edition)}
		if pdf, err := l.PDF(key, edition); err == nil {
			card.Pages, card.Bytes = pdf.Pages, len(pdf.Bytes)
		}
		card.Size = pdfSize(card.Pages, card.Bytes)
		p.Downloads = append(p.Downloads, card)
	}
	return p
}

// pdfSize states a PDF's pages and size ("PDF, 2 pages, 41 KB"), or only
// "PDF" when it could not be made.
func pdfSize(pages, bytes int) string {
	if pages == 0 {
		return "PDF"
	}
	unit := "pages"
	if pages == 1 {
		unit = "page"
	}
	return fmt.Sprintf("PDF, %d %s, %d KB", pages, unit, max(1, int(math.Round(float64(bytes)/1024))))
}

func downloadID(key DownloadKey, slug string) pageID { return pageID{"download:" + string(key), slug} }

// distinct drops repeats: a broken file breaks every profession's page.
func distinct(errs []error) []error {
	var out []error
	seen := map[string]bool{}
	for _, err := range errs {
		if !seen[err.Error()] {
			seen[err.Error()] = true
			out = append(out, err)
		}
	}
	return out
}
