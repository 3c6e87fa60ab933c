package site

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"net/http"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/httpx"
	"github.com/whitecoat/whitecoat/internal/profession"
	"github.com/whitecoat/whitecoat/internal/route"
)

// Handler serves the public site's words: to the web app as JSON, the
// PDFs as files, and the sitemap and robots.txt to crawlers.
type Handler struct{ lib *Library }

// NewHandler serves lib.
func NewHandler(lib *Library) *Handler { return &Handler{lib: lib} }

// FactsOutput is the response of GET /api/site.
type FactsOutput struct{ Body Facts }

// PageInput is the request of GET /api/site/pages/{profession}/{page}.
type PageInput struct {
	Profession string  `path:"profession" maxLength:"64" doc:"Profession slug, matched case-insensitively" example:"dental"`
	Page       PageKey `path:"page"`
}

// PageOutput is the response of GET /api/site/pages/{profession}/{page}.
type PageOutput struct{ Body Page }

// RegisterRoutes adds the JSON endpoints to api.
func (h *Handler) RegisterRoutes(api huma.API) {
	tags := []string{"Site"}
	route.Register(api, route.Endpoint{ID: "get-site-facts", Method: http.MethodGet, Path: "/api/site", Summary: "The operator's facts",
		Description: "Company name, contact addresses and the product's numbers, as the public pages state them.", Tags: tags, Access: route.AccessPublic},
		func(context.Context, any, *struct{}) (*FactsOutput, error) {
			return &FactsOutput{Body: h.lib.Facts()}, nil
		})
	route.Register(api, route.Endpoint{ID: "get-site-page", Method: http.MethodGet, Path: "/api/site/pages/{profession}/{page}", Summary: "A public page",
		Description: "One public page's words for one profession, rendered from content/.", Tags: tags, Access: route.AccessPublic}, h.getPage)
}

func (h *Handler) getPage(_ context.Context, _ any, in *PageInput) (*PageOutput, error) {
	p, ok := profession.Lookup(in.Profession)
	if !ok {
		return nil, apperr.NotFound(fmt.Sprintf("Unknown profession %q; known professions are %s.", in.Profession, strings.Join(profession.Slugs(), ", ")))
	}
	page, ok := h.lib.Page(in.Page, p.Slug)
	if !ok {
		return nil, apperr.NotFound(fmt.Sprintf("No page %q.", in.Page))
	}
	return &PageOutput{Body: page}, nil
}

// RegisterFiles adds the PDFs, the sitemap and robots.txt to mux. Any
// other path under /public/ is a 404, never the web app's page.
func (h *Handler) RegisterFiles(mux *http.ServeMux) {
	mux.HandleFunc("GET /public/resources/{file}", func(w http.ResponseWriter, r *http.Request) {
		h.servePDF(w, r, "", r.PathValue("file"))
	})
	mux.HandleFunc("GET /public/resources/{profession}/{file}", func(w http.ResponseWriter, r *http.Request) {
		p, ok := profession.Lookup(r.PathValue("profession"))
		if !ok {
			httpx.WriteProblem(w, http.StatusNotFound, "No such download.")
			return
		}
		h.servePDF(w, r, p.Slug, r.PathValue("file"))
	})
	mux.HandleFunc("GET /public/", func(w http.ResponseWriter, r *http.Request) {
		httpx.WriteProblem(w, http.StatusNotFound, "No such file.")
	})
	mux.HandleFunc("GET /sitemap.xml", h.sitemap)
	mux.HandleFunc("GET /robots.txt", h.robots)
}

func (h *Handler) servePDF(w http.ResponseWriter, r *http.Request, slug, file string) {
	name, ok := strings.CutSuffix(file, ".pdf")
	key := DownloadKey(name)
	if _, known := h.lib.texts[downloadID(key, slug)]; !ok || !known {
		httpx.WriteProblem(w, http.StatusNotFound, "No such download.")
		return
	}
	pdf, err := h.lib.PDF(key, slug)
	if err != nil {
		httpx.Logger(r.Context()).Error("pdf", "download", key, "profession", slug, "err", err)
		httpx.WriteProblem(w, http.StatusInternalServerError, "The PDF could not be made. Please try again later.")
		return
	}
	w.Header().Set("Content-Type", "application/pdf")
	w.Header().Set("Content-Disposition", fmt.Sprintf("inline; filename=%q", pdf.FileName))
	w.Header().Set("Cache-Control", "public, max-age=86400")
	http.ServeContent(w, r, pdf.FileName, pdfEpoch, bytes.NewReader(pdf.Bytes))
}

// PublicPaths are every public page of every profession, in sitemap order.
func PublicPaths() []string {
	var out []string
	for _, slug := range profession.Slugs() {
		out = append(out, "/"+slug)
		for _, key := range PageKeys {
			out = append(out, key.Path(slug))
		}
	}
	return out
}

func (h *Handler) sitemap(w http.ResponseWriter, r *http.Request) {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, path := range PublicPaths() {
		fmt.Fprintf(&b, "  <url><loc>%s</loc></url>\n", xmlEscape(h.lib.absolute(path)))
	}
	b.WriteString("</urlset>\n")
	w.Header().Set("Content-Type", "application/xml; charset=utf-8")
	w.Header().Set("Cache-Control", "public, max-age=3600")
	_, _ = w.Write([]byte(b.String()))
}

// privatePaths are the signed-in pages, which crawlers have no use for.
var privatePaths = []string{"dashboard", "history", "progress", "setup", "session", "summary", "admin", "checkout"}

func (h *Handler) robots(w http.ResponseWriter, r *http.Request) {
	var b strings.Builder
	b.WriteString("User-agent: *\nDisallow: /api/\n")
	for _, p := range privatePaths {
		fmt.Fprintf(&b, "Disallow: /*/%s\n", p)
	}
	fmt.Fprintf(&b, "\nSitemap: %s\n", h.lib.absolute("/sitemap.xml"))
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "public, max-age=3600")
	_, _ = w.Write([]byte(b.String()))
}

func (l *Library) absolute(path string) string {
	return strings.TrimSuffix(l.facts.SiteURL, "/") + path
}

func xmlEscape(s string) string {
	var b bytes.Buffer
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}
