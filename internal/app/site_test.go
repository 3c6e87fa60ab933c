package app

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/whitecoat/whitecoat/content"
	"github.com/whitecoat/whitecoat/internal/answer"
	"github.com/whitecoat/whitecoat/internal/feedback/rubric"
	"github.com/whitecoat/whitecoat/internal/profession"
	"github.com/whitecoat/whitecoat/internal/site"
	"github.com/whitecoat/whitecoat/internal/site/sitetest"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
	"github.com/whitecoat/whitecoat/internal/tryout"
)

// Before this, every public URL answered with the same empty shell, and
// /public/resources/interview-tips.pdf with the web app's page.
func TestPublicPagesAreThemselvesWithoutJavaScript(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, nil)
		b := app.browser(t, "10.0.0.1")
		origin := strings.TrimSuffix(app.cfg.BaseURL.String(), "/")

		ethics := b.get("/medical/resources/ethics")
		page, ok := app.site.Page(site.GuideEthics, "medical")
		if !ok || ethics.Status != http.StatusOK {
			t.Fatalf("%d", ethics.Status)
		}
		for _, want := range []string{"<title>" + page.Title + " · Whitecoat</title>", `content="` + page.Description + `"`, `rel="canonical" href="` + origin + `/medical/resources/ethics"`} {
			if !strings.Contains(string(ethics.Body), want) {
				t.Errorf("/medical/resources/ethics lacks %s:\n%s", want, ethics.Body)
			}
		}

		var sitemap struct {
			URLs []struct {
				Loc string `xml:"loc"`
			} `xml:"url"`
		}
		r := b.get("/sitemap.xml")
		if err := xml.Unmarshal(r.Body, &sitemap); err != nil || r.Header.Get("Content-Type") != "application/xml; charset=utf-8" {
			t.Fatalf("sitemap %q: %v", r.Header.Get("Content-Type"), err)
		}
		listed := map[string]bool{}
		for _, u := range sitemap.URLs {
			listed[u.Loc] = true
		}
		for _, slug := range profession.Slugs() {
			for _, path := range []string{"", "/pricing", "/resources", "/resources/ethics", "/resources/communication", "/resources/pitfalls", "/about", "/privacy", "/terms"} {
				if !listed[origin+"/"+slug+path] {
					t.Errorf("the sitemap lacks /%s%s", slug, path)
				}
			}
		}
		if robots := b.get("/robots.txt"); !strings.Contains(string(robots.Body), "Sitemap: "+origin+"/sitemap.xml") {
			t.Errorf("robots.txt: %s", robots.Body)
		}

		pdf := b.get("/public/resources/interview-tips.pdf")
		if pdf.Status != http.StatusOK || pdf.Header.Get("Content-Type") != "application/pdf" || pdf.Header.Get("Content-Disposition") != `inline; filename="whitecoat-interview-tips.pdf"` {
			t.Fatalf("pdf: %d %v", pdf.Status, pdf.Header)
		}
		if text := sitetest.PDFText(t, pdf.Body); !strings.Contains(text, "Interview Tips") {
			t.Errorf("the PDF's text: %s", text)
		}
		vet := b.get("/public/resources/Veterinary/interview-tips.pdf")
		if vet.Status != http.StatusOK || vet.Header.Get("Content-Disposition") != `inline; filename="whitecoat-veterinary-interview-tips.pdf"` {
			t.Fatalf("veterinary pdf: %d %v", vet.Status, vet.Header)
		}
		for _, path := range []string{"/public/resources/secrets.pdf", "/public/resources/astronaut/interview-tips.pdf", "/public/resources/interview-tips", "/public/other.txt"} {
			if r := b.get(path); r.Status != http.StatusNotFound || strings.Contains(string(r.Body), "<title>") {
				t.Errorf("%s: %d %s; want a 404, not the web app", path, r.Status, r.Body)
			}
		}
	})
}

// A public page is kept once built, under its cleaned path, and its head
// was looked up by the path as asked: a first request for /ot/%2e after
// start kept /ot without its title, description, canonical address and
// Open Graph tags, for everyone after.
func TestAPublicPageKeepsItsHeadWhateverPathFirstAskedForIt(t *testing.T) {
	t.Parallel()
	// Each on a server just started, whose first request it is.
	for _, first := range []string{"/ot/%2e", "/ot//", "/ot/x/%2e%2e", "/ot"} {
		app := newTestApp(t, storetest.SQLite(t), nil)
		b := app.browser(t, "10.0.0.1")
		origin := strings.TrimSuffix(app.cfg.BaseURL.String(), "/")
		head, ok := app.site.Head("/ot")
		if !ok {
			t.Fatal("/ot has no head")
		}
		wantStatus(t, b.get(first), http.StatusOK)
		page := string(b.get("/ot").Body)
		for _, want := range []string{
			"<title>" + head.Title + "</title>",
			`<meta name="description" content="` + head.Description + `" />`,
			`<link rel="canonical" href="` + origin + `/ot" />`,
			`<meta property="og:title" content="` + head.Title + `" />`,
			`<meta property="og:url" content="` + origin + `/ot" />`,
		} {
			if !strings.Contains(page, want) {
				t.Errorf("after %s, /ot lacks %s", first, want)
			}
		}
	}
}

// The landing page rendered its hero and guide only after a round trip for
// the profession list, and the sections below jumped (Lighthouse measured
// a layout shift of 0.60 on /dental): every page now carries the list.
func TestEveryPageCarriesTheProfessionList(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, nil)
		b := app.browser(t, "10.0.0.1")
		api := b.get("/api/professions")
		for _, path := range []string{"/dental", "/veterinary/resources/ethics", "/dental/dashboard"} {
			page := string(b.get(path).Body)
			_, rest, ok := strings.Cut(page, `<script type="application/json" data-api-path="/api/professions">`)
			embedded, _, closed := strings.Cut(rest, "</script>")
			if !ok || !closed {
				t.Fatalf("%s carries no profession list:\n%s", path, page)
			}
			if strings.TrimSpace(embedded) != strings.TrimSpace(string(api.Body)) {
				t.Errorf("%s carries\n%s\nbut GET /api/professions answers\n%s", path, embedded, api.Body)
			}
		}
	})
}

// A public page is served as the web build prerendered it, from the
// template `whitecoat public-pages` gives the build, with this server's
// facts filled in and the responses it was rendered from beside it, the
// same as the API gives them; any other page is the app's shell.
func TestPublicPagesAreServedPrerendered(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	if err := Run(context.Background(), []string{"public-pages"}, IO{Stdout: &out}); err != nil {
		t.Fatal(err)
	}
	var templates struct{ Pages []site.PublicPage }
	if err := json.Unmarshal(out.Bytes(), &templates); err != nil {
		t.Fatal(err)
	}
	// What the build's React renderer would write for each page: some of
	// its words and the operator's name, as they are in the template.
	files := fstest.MapFS{"index.html": {Data: []byte(testIndexHTML)}}
	for _, p := range templates.Pages {
		facts := p.Responses["/api/site"].(map[string]any)
		body := fmt.Sprintf("<p>© %s</p><a href=\"mailto:%s\">Email</a>", facts["company"], facts["supportEmail"])
		if page, ok := p.Responses["/api/site/pages"+p.Path].(map[string]any); ok {
			body += fmt.Sprintf("<h1>%s</h1>%s", page["title"], page["html"])
		}
		html := strings.Replace(testIndexHTML, "</head>", `<meta name="whitecoat-prerender" content="`+p.Fingerprint+`" /></head>`, 1)
		files[strings.TrimPrefix(p.Path, "/")+"/index.html"] = &fstest.MapFile{Data: []byte(strings.Replace(html, `<div id="root"></div>`, `<div id="root">`+body+`</div>`, 1))}
	}
	app := newTestAppServing(t, storetest.SQLite(t), map[string]string{"COMPANY_NAME": "Acme & Sons", "SUPPORT_EMAIL": "help@acme.test"}, files)
	b := app.browser(t, "10.0.0.1")

	privacy := string(b.get("/dental/privacy").Body)
	page, _ := app.site.Page(site.PagePrivacy, "dental")
	for _, want := range []string{"<p>© Acme &amp; Sons</p>", `<a href="mailto:help@acme.test">`, "<h1>Privacy Policy</h1>", page.HTML, "<title>Privacy Policy · Whitecoat</title>"} {
		if !strings.Contains(privacy, want) {
			t.Errorf("/dental/privacy lacks %s:\n%s", want, privacy)
		}
	}
	if !strings.Contains(page.HTML, "Acme &amp; Sons") {
		t.Errorf("the policy names its operator: %s", page.HTML)
	}
	for _, key := range site.PageKeys {
		path := key.Path("dental")
		html := string(b.get(path).Body)
		for _, api := range []string{"/api/professions", "/api/site", "/api/site/pages/dental/" + string(key)} {
			_, rest, ok := strings.Cut(html, `<script type="application/json" data-api-path="`+api+`">`)
			embedded, _, _ := strings.Cut(rest, "</script>")
			var got, want map[string]any
			_ = json.Unmarshal([]byte(embedded), &got)
			answer := b.get(api).Body
			_ = json.Unmarshal(answer, &want)
			delete(want, "$schema")
			if !ok || !reflect.DeepEqual(got, want) {
				t.Errorf("%s carries %s as\n%s\nbut the API answers\n%s", path, api, embedded, answer)
			}
		}
	}
	for _, path := range []string{"/dental", "/veterinary/resources/ethics", "/ot/pricing"} {
		if body := string(b.get(path).Body); !strings.Contains(body, "<p>© Acme &amp; Sons</p>") {
			t.Errorf("%s is not its prerendered page:\n%s", path, body)
		}
	}
	for _, path := range []string{"/dental/dashboard", "/login", "/astronaut", "/Dental/pricing", "/dental/resources/unknown"} {
		if body := string(b.get(path).Body); !strings.Contains(body, `<div id="root"></div>`) {
			t.Errorf("%s is not the app's shell:\n%s", path, body)
		}
	}
}

// Each landing page shows its example answer scored by the rubric
// engine: the page carries the engine's verdict, the one the API gives,
// whichever engine scores students' answers.
func TestTheLandingPageCarriesTheRubricEnginesExample(t *testing.T) {
	t.Parallel()
	app := newTestApp(t, storetest.SQLite(t), map[string]string{"FEEDBACK_ENGINE": "llm", "FEEDBACK_OPENAI_BASE_URL": "http://127.0.0.1:9/v1"})
	b := app.browser(t, "10.0.0.1")
	want, err := tryout.ScoreExamples(context.Background(), content.FS, rubric.New())
	if err != nil {
		t.Fatal(err)
	}
	api := b.get("/api/tryout/examples/dental")
	var served answer.Answer
	if err := json.Unmarshal(api.Body, &served); err != nil || !reflect.DeepEqual(served, want["dental"]) {
		t.Fatalf("%d %v: served %+v\nwant the engine's %+v", api.Status, err, served, want["dental"])
	}
	page := string(b.get("/dental").Body)
	_, rest, _ := strings.Cut(page, `<script type="application/json" data-api-path="/api/tryout/examples/dental">`)
	embedded, _, _ := strings.Cut(rest, "</script>")
	if strings.TrimSpace(embedded) != strings.TrimSpace(string(api.Body)) {
		t.Errorf("/dental carries\n%s\nbut the API answers\n%s", embedded, api.Body)
	}
	if r := b.get("/api/tryout/examples/astronaut"); r.Status != http.StatusNotFound {
		t.Errorf("an unknown profession's example: %d", r.Status)
	}
}
