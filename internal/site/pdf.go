package site

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/go-pdf/fpdf"
	"github.com/yuin/goldmark/ast"

	"github.com/whitecoat/whitecoat/internal/profession"
)

// PDF is one download, ready to send.
type PDF struct {
	Bytes    []byte
	Pages    int
	FileName string
	// Headings are its sections, which its outline (bookmarks) lists.
	Headings []Heading
}

type pdfOnce struct {
	once sync.Once
	pdf  PDF
	err  error
}

// PDF returns the download key for the profession with slug ("" for the
// general edition), made on first request and kept: the words cannot
// change while the server runs.
func (l *Library) PDF(key DownloadKey, slug string) (PDF, error) {
	id := downloadID(key, slug)
	c, ok := l.texts[id]
	if !ok {
		return PDF{}, fmt.Errorf("site: no download %q for %q", key, slug)
	}
	v, _ := l.pdfs.LoadOrStore(id, &pdfOnce{})
	o := v.(*pdfOnce)
	o.once.Do(func() {
		o.pdf, o.err = l.makePDF(c, slug)
		o.pdf.FileName = key.FileName(slug)
	})
	return o.pdf, o.err
}

// Page geometry and type, in millimetres and points. US Letter, because
// most applicants print in the United States.
const (
	pdfMargin     = 20.0
	pdfBodySize   = 11.0
	pdfLineHeight = 5.6
	pdfIndent     = 6.0
)

// Colours as RGB: the app's teal for headings and links, slate for body
// text, and a label colour for each worked-example answer (the labels'
// words say which is which; the colour only echoes them).
var (
	pdfTeal   = [3]int{15, 118, 110}
	pdfInk    = [3]int{30, 41, 59}
	pdfMuted  = [3]int{71, 85, 105}
	pdfStrong = [3]int{21, 128, 61}
	pdfWeak   = [3]int{180, 83, 9}
)

// pdfEpoch stamps every PDF, so the same words always make the same bytes.
var pdfEpoch = time.Date(2025, time.September, 7, 0, 0, 0, 0, time.UTC)

func (l *Library) makePDF(c composed, slug string) (PDF, error) {
	audience := "For all health-profession applicants"
	if p, ok := profession.Lookup(slug); ok && c.sectionTitle != "" {
		audience = "For " + strings.ToLower(p.DisplayName) + " applicants"
	}
	doc := fpdf.New("P", "mm", "Letter", "")
	doc.SetCreationDate(pdfEpoch)
	doc.SetModificationDate(pdfEpoch)
	doc.SetCatalogSort(true)
	doc.SetTitle(c.title, true)
	doc.SetAuthor(l.facts.Company, true)
	doc.SetSubject(c.description, true)
	doc.SetCreator(l.facts.Company, true)
	doc.SetMargins(pdfMargin, pdfMargin, pdfMargin)
	doc.SetAutoPageBreak(true, pdfMargin)
	doc.AliasNbPages("")
	w := &pdfWriter{doc: doc, tr: doc.UnicodeTranslatorFromDescriptor(""), body: c.body, checkboxes: c.checkboxes, siteURL: strings.TrimSuffix(l.facts.SiteURL, "/")}
	doc.SetFooterFunc(func() {
		doc.SetY(-pdfMargin + 6)
		w.font("", 8, pdfMuted)
		doc.CellFormat(0, 4, w.tr(fmt.Sprintf("%s  •  %s  •  page %d of {nb}", c.title, l.facts.SiteURL, doc.PageNo())), "", 0, "C", false, 0, "")
	})
	doc.AddPage()

	w.font("B", 9, pdfTeal)
	doc.CellFormat(0, 5, w.tr(strings.ToUpper(l.facts.Company)), "", 1, "L", false, 0, "")
	w.font("B", 24, pdfInk)
	doc.MultiCell(0, 10, w.tr(c.title), "", "L", false)
	w.font("", 12, pdfMuted)
	doc.MultiCell(0, 6, w.tr(c.description), "", "L", false)
	w.font("I", 10, pdfMuted)
	doc.MultiCell(0, 6, w.tr(audience), "", "L", false)
	doc.Ln(2)
	doc.SetDrawColor(pdfTeal[0], pdfTeal[1], pdfTeal[2])
	doc.SetLineWidth(0.6)
	doc.Line(pdfMargin, doc.GetY(), 215.9-pdfMargin, doc.GetY())
	doc.Ln(4)

	w.blocks(c.root)
	if err := doc.Error(); err != nil {
		return PDF{}, fmt.Errorf("site: pdf %q: %w", c.title, err)
	}
	var out bytes.Buffer
	if err := doc.Output(&out); err != nil {
		return PDF{}, fmt.Errorf("site: pdf %q: %w", c.title, err)
	}
	return PDF{Bytes: out.Bytes(), Pages: doc.PageCount(), Headings: headings(c.root, c.body)}, nil
}

// pdfWriter draws a parsed body with the standard fonts.
type pdfWriter struct {
	doc        *fpdf.Fpdf
	tr         func(string) string
	body       []byte
	checkboxes bool
	siteURL    string
	// style is the inline style in force: "", "B", "I" or "BI".
	style string
	size  float64
	color [3]int
	left  float64
}

func (w *pdfWriter) font(style string, size float64, color [3]int) {
	w.style, w.size, w.color = style, size, color
	w.doc.SetFont("Helvetica", style, size)
	w.doc.SetTextColor(color[0], color[1], color[2])
}

func (w *pdfWriter) blocks(parent ast.Node) {
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		w.block(n)
	}
}

func (w *pdfWriter) block(n ast.Node) {
	switch n := n.(type) {
	case *ast.Heading:
		size, space := 15.0, 5.0
		if n.Level == 3 {
			size, space = 12.5, 3.0
		}
		// Keep a heading with the start of what it heads.
		if w.doc.GetY() > 279.4-pdfMargin-30 {
			w.doc.AddPage()
		} else {
			w.doc.Ln(space)
		}
		w.font("B", size, pdfTeal)
		text := plainText(n, w.body)
		w.doc.Bookmark(w.tr(text), n.Level-2, -1)
		w.doc.MultiCell(0, size*0.5, w.tr(text), "", "L", false)
		w.doc.Ln(1.5)
	case *ast.Paragraph, *ast.TextBlock:
		w.font("", pdfBodySize, pdfInk)
		w.inlines(n)
		w.doc.Ln(pdfLineHeight)
		if _, tight := n.(*ast.TextBlock); !tight {
			w.doc.Ln(2)
		}
	case *ast.List:
		w.list(n)
		w.doc.Ln(1.5)
	case *ast.Blockquote:
		w.quote(n)
	case *ast.ThematicBreak:
		y := w.doc.GetY() + 2
		w.doc.SetDrawColor(203, 213, 225)
		w.doc.SetLineWidth(0.3)
		w.doc.Line(pdfMargin, y, 215.9-pdfMargin, y)
		w.doc.Ln(6)
	default:
		w.blocks(n)
	}
}

func (w *pdfWriter) list(l *ast.List) {
	left, _, _, _ := w.doc.GetMargins()
	number := l.Start
	for item := l.FirstChild(); item != nil; item = item.NextSibling() {
		w.font("", pdfBodySize, pdfInk)
		y := w.doc.GetY()
		switch {
		case l.IsOrdered():
			w.doc.SetX(left)
			w.doc.CellFormat(pdfIndent, pdfLineHeight, fmt.Sprintf("%d.", number), "", 0, "L", false, 0, "")
			number++
		case w.checkboxes:
			w.doc.SetDrawColor(pdfMuted[0], pdfMuted[1], pdfMuted[2])
			w.doc.SetLineWidth(0.3)
			w.doc.Rect(left+0.5, y+1.1, 3.2, 3.2, "D")
		default:
			w.doc.SetX(left + 1)
			w.doc.CellFormat(pdfIndent-1, pdfLineHeight, "\x95", "", 0, "L", false, 0, "")
		}
		w.doc.SetLeftMargin(left + pdfIndent)
		w.doc.SetXY(left+pdfIndent, y)
		for child := item.FirstChild(); child != nil; child = child.NextSibling() {
			if _, nested := child.(*ast.List); nested {
				w.block(child)
				continue
			}
			w.font("", pdfBodySize, pdfInk)
			w.inlines(child)
			w.doc.Ln(pdfLineHeight + 0.8)
		}
		w.doc.SetLeftMargin(left)
	}
}

// quote draws a blockquote indented behind a bar; a worked example's
// answer gets its label's colour.
func (w *pdfWriter) quote(q *ast.Blockquote) {
	color := pdfMuted
	if class, ok := q.AttributeString("class"); ok {
		switch {
		case bytes.HasSuffix(class.([]byte), []byte(exampleStrong)):
			color = pdfStrong
		case bytes.HasSuffix(class.([]byte), []byte(exampleWeak)):
			color = pdfWeak
		}
	}
	left, _, _, _ := w.doc.GetMargins()
	page, top := w.doc.PageNo(), w.doc.GetY()
	w.doc.SetLeftMargin(left + pdfIndent)
	w.doc.SetX(left + pdfIndent)
	w.blocks(q)
	w.doc.SetLeftMargin(left)
	bottom := w.doc.GetY() - 2
	if w.doc.PageNo() != page {
		// The quote went over a page: bar the part on this page.
		top = pdfMargin
	}
	w.doc.SetDrawColor(color[0], color[1], color[2])
	w.doc.SetLineWidth(1.2)
	w.doc.Line(left+1.5, top, left+1.5, bottom)
	w.doc.Ln(1)
}

// inlines writes a block's text, flowing between the margins, with bold,
// italic and links.
func (w *pdfWriter) inlines(parent ast.Node) {
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		switch n := n.(type) {
		case *ast.Text:
			text := string(n.Segment.Value(w.body))
			if n.SoftLineBreak() {
				text += " "
			}
			w.doc.Write(pdfLineHeight, w.tr(text))
			if n.HardLineBreak() {
				w.doc.Ln(pdfLineHeight)
			}
		case *ast.String:
			w.doc.Write(pdfLineHeight, w.tr(string(n.Value)))
		case *ast.Emphasis:
			saved := w.style
			add := "I"
			if n.Level == 2 {
				add = "B"
			}
			if !strings.Contains(saved, add) {
				w.font(normalStyle(saved+add), w.size, w.color)
			}
			w.inlines(n)
			w.font(saved, w.size, w.color)
		case *ast.Link:
			w.link(string(n.Destination), plainText(n, w.body))
		case *ast.AutoLink:
			w.link(string(n.URL(w.body)), string(n.Label(w.body)))
		default:
			w.inlines(n)
		}
	}
}

func (w *pdfWriter) link(dest, label string) {
	if strings.HasPrefix(dest, "/") {
		// A page of the site: printed, it needs the site's address.
		dest = w.siteURL + dest
	}
	saved := w.color
	w.doc.SetTextColor(pdfTeal[0], pdfTeal[1], pdfTeal[2])
	w.doc.SetFont("Helvetica", normalStyle(w.style+"U"), w.size)
	w.doc.WriteLinkString(pdfLineHeight, w.tr(label), dest)
	w.font(w.style, w.size, saved)
}

// normalStyle orders style letters the way fpdf names its fonts.
func normalStyle(s string) string {
	var out string
	for _, c := range "BIU" {
		if strings.ContainsRune(s, c) {
			out += string(c)
		}
	}
	return out
}
