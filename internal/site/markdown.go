package site

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"text/template"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"golang.org/x/text/encoding/charmap"
)

// doc is one content file: its front matter and its Markdown body, the
// template fields already filled in.
type doc struct {
	name string
	meta map[string]string
	body []byte
}

// frontMatterKeys are the fields a content file may declare.
var frontMatterKeys = map[string]bool{"title": true, "description": true, "summary": true, "checkboxes": true}

// readDoc reads name from src, fills its template fields from data and
// checks that the result keeps to what every renderer can draw
// (content/README.md). A missing file reports fs.ErrNotExist.
func readDoc(src fs.FS, name string, data any) (doc, error) {
	raw, err := fs.ReadFile(src, name)
	if err != nil {
		return doc{}, err
	}
	d := doc{name: name, meta: map[string]string{}}
	rest, ok := bytes.CutPrefix(raw, []byte("---\n"))
	if !ok {
		return doc{}, fmt.Errorf("%s: must start with front matter between --- lines", name)
	}
	head, body, ok := bytes.Cut(rest, []byte("\n---\n"))
	if !ok {
		return doc{}, fmt.Errorf("%s: front matter is not closed by a --- line", name)
	}
	for line := range strings.SplitSeq(string(head), "\n") {
		key, value, ok := strings.Cut(line, ":")
		key = strings.TrimSpace(key)
		if !ok || !frontMatterKeys[key] {
			return doc{}, fmt.Errorf("%s: front matter line %q is not one of title, description, summary, checkboxes", name, line)
		}
		d.meta[key] = strings.TrimSpace(value)
	}
	if d.meta["title"] == "" {
		return doc{}, fmt.Errorf("%s: front matter has no title", name)
	}
	// Blank lines in place of the front matter keep every line number in
	// a message the file's own.
	body = append(bytes.Repeat([]byte("\n"), bytes.Count(head, []byte("\n"))+3), body...)
	tmpl, err := template.New(name).Option("missingkey=error").Parse(string(body))
	if err != nil {
		return doc{}, fmt.Errorf("%s: %w", name, err)
	}
	var out bytes.Buffer
	if err := tmpl.Execute(&out, data); err != nil {
		return doc{}, fmt.Errorf("%s: %w", name, err)
	}
	d.body = out.Bytes()
	for key, value := range d.meta {
		if err := printable(value); err != nil {
			return doc{}, fmt.Errorf("%s: %s: %w", name, key, err)
		}
	}
	if err := printable(string(d.body)); err != nil {
		return doc{}, fmt.Errorf("%s: %w", name, err)
	}
	if _, err := parse(name, d.body); err != nil {
		return doc{}, err
	}
	return d, nil
}

// printable checks that s can be drawn with the standard PDF fonts, which
// know only Windows-1252.
func printable(s string) error {
	for i, r := range s {
		if _, ok := charmap.Windows1252.EncodeRune(r); !ok {
			line := strings.Count(s[:i], "\n") + 1
			return fmt.Errorf("line %d: %q cannot be printed in the PDFs (Windows-1252 only)", line, r)
		}
	}
	return nil
}

// markdown is the one parser the web pages and the PDFs share: CommonMark
// with heading ids, and no raw HTML (goldmark escapes it unless told not to).
var markdown = goldmark.New(goldmark.WithParserOptions(parser.WithAutoHeadingID()))

// parse turns a body into its syntax tree and checks it holds only what
// content/README.md allows.
func parse(name string, body []byte) (ast.Node, error) {
	root := markdown.Parser().Parse(text.NewReader(body))
	var problems []error
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			if n.Level < 2 || n.Level > 3 {
				problems = append(problems, fmt.Errorf("%s: line %d: heading level %d; only ## and ### (the title is the #)", name, lineOf(n, body), n.Level))
			}
		case *ast.HTMLBlock, *ast.RawHTML:
			problems = append(problems, fmt.Errorf("%s: line %d: raw HTML is not rendered; write Markdown", name, lineOf(n, body)))
		case *ast.Image, *ast.CodeBlock, *ast.FencedCodeBlock, *ast.CodeSpan:
			problems = append(problems, fmt.Errorf("%s: line %d: %s is not supported in content", name, lineOf(n, body), n.Kind()))
		case *ast.List:
			if depth := listDepth(n); depth > 2 {
				problems = append(problems, fmt.Errorf("%s: line %d: lists nest at most one level", name, lineOf(n, body)))
			}
		}
		return ast.WalkContinue, nil
	})
	if err := errors.Join(problems...); err != nil {
		return nil, err
	}
	markExamples(root, body)
	return root, nil
}

func listDepth(n ast.Node) int {
	depth := 0
	for p := ast.Node(n); p != nil; p = p.Parent() {
		if _, ok := p.(*ast.List); ok {
			depth++
		}
	}
	return depth
}

// lineOf is the 1-based line a block (or an inline's paragraph) starts on.
func lineOf(n ast.Node, body []byte) int {
	for p := n; p != nil; p = p.Parent() {
		if p.Type() == ast.TypeBlock && p.Lines().Len() > 0 {
			return bytes.Count(body[:p.Lines().At(0).Start], []byte("\n")) + 1
		}
	}
	return 0
}

// Answer kinds of a worked example's blockquotes.
const (
	exampleStrong = "example-strong"
	exampleWeak   = "example-weak"
)

// markExamples gives each worked example's answer blockquote a class
// saying which answer it is, from the bold label it opens with, so that
// the page and the PDF can set the two apart.
func markExamples(root ast.Node, body []byte) {
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if q, ok := n.(*ast.Blockquote); ok && entering {
			if kind := exampleKind(q, body); kind != "" {
				q.SetAttributeString("class", []byte("example "+kind))
			}
		}
		return ast.WalkContinue, nil
	})
}

func exampleKind(q *ast.Blockquote, body []byte) string {
	para := q.FirstChild()
	if para == nil {
		return ""
	}
	strong, ok := para.FirstChild().(*ast.Emphasis)
	if !ok || strong.Level != 2 {
		return ""
	}
	label := plainText(strong, body)
	switch {
	case strings.HasPrefix(label, "Strong answer"):
		return exampleStrong
	case strings.HasPrefix(label, "Weak answer"):
		return exampleWeak
	}
	return ""
}

// plainText is the text of n and its descendants.
func plainText(n ast.Node, body []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := c.(*ast.Text); ok && entering {
			b.Write(t.Segment.Value(body))
			if t.SoftLineBreak() {
				b.WriteByte(' ')
			}
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// renderHTML renders a parsed body for the web page.
func renderHTML(root ast.Node, body []byte) (string, error) {
	var out bytes.Buffer
	err := markdown.Renderer().Render(&out, body, root)
	return out.String(), err
}

// headings lists a body's sections with the ids the HTML gives them.
func headings(root ast.Node, body []byte) []Heading {
	out := []Heading{}
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		h, ok := n.(*ast.Heading)
		if !ok || !entering {
			return ast.WalkContinue, nil
		}
		id, _ := h.AttributeString("id")
		idBytes, _ := id.([]byte)
		out = append(out, Heading{ID: string(idBytes), Text: plainText(h, body), Level: h.Level})
		return ast.WalkSkipChildren, nil
	})
	return out
}
