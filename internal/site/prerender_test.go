package site

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/whitecoat/whitecoat/content"
)

// TestTemplatesTokenizeEveryConfiguredValue renders the real content for
// two servers configured as differently as they can be: if any value the
// configuration decides were not a token, the two templates would differ,
// and a build's HTML would show its own value where the server has
// another. The company's long name makes the PDFs kilobytes larger.
func TestTemplatesTokenizeEveryConfiguredValue(t *testing.T) {
	other := Facts{
		Company: "Other & Co " + strings.Repeat("Holdings ", 400), SupportEmail: "help@other.test", ContactEmail: "hi@other.test", PrivacyEmail: "dpo@other.test",
		GoverningLaw: "the laws of Elsewhere", SiteURL: "https://other.test", EffectiveDate: "January 1, 2030",
		TrialDays: 14, FreeSessions: 5, PassPrice: "49.50 EUR", PassPriceShort: "49.50 EUR", PassDays: 180, RefundDays: 30, MinimumAge: 16, AnswerMinutes: 10,
		SpeechProvider: "speech.other.test", FeedbackProvider: "chat.other.test", SignInIdleDays: 1, SignInMaxDays: 7, DeviceCookieDays: 30, RecordingHours: 48,
	}
	if v := reflect.ValueOf(other); v.NumField() != reflect.ValueOf(testFacts).NumField() {
		t.Fatal("Facts changed: give the new field a value here")
	} else {
		for i := range v.NumField() {
			if v.Field(i).Interface() == reflect.ValueOf(testFacts).Field(i).Interface() {
				t.Fatalf("Facts.%s is the same for both servers: make it differ", v.Type().Field(i).Name)
			}
		}
	}
	templates := func(facts Facts) []PublicPage {
		lib, err := Load(content.FS, facts)
		if err != nil {
			t.Fatal(err)
		}
		pages, err := lib.Templates()
		if err != nil {
			t.Fatal(err)
		}
		return pages
	}
	mine, theirs := templates(testFacts), templates(other)
	if len(mine) != len(PublicPaths()) {
		t.Fatalf("%d templates for %d public pages", len(mine), len(PublicPaths()))
	}
	for i := range mine {
		if mine[i].Fingerprint != theirs[i].Fingerprint {
			a, _ := json.Marshal(mine[i].Responses)
			b, _ := json.Marshal(theirs[i].Responses)
			t.Errorf("%s: the template depends on the configuration:\n%s\n%s", mine[i].Path, a, b)
		}
	}
}

func TestPrerenderedFillsInThisServersValues(t *testing.T) {
	src := minimalContent()
	src["pages/pricing.md"] = file("---\ntitle: Pricing\ndescription: Plans.\n---\n## Can I get a refund?\n\nWrite to {{.SupportEmail}}.\n")
	facts := testFacts
	facts.Company = `Acme & "Sons" <Ltd>`
	lib, err := Load(src, facts)
	if err != nil {
		t.Fatal(err)
	}
	pre, ok := lib.Prerendered("/dental/pricing")
	if !ok {
		t.Fatal("the pricing page has no template")
	}
	var tmpl PublicPage
	for _, p := range must(lib.Templates()) {
		if p.Path == "/dental/pricing" {
			tmpl = p
		}
	}
	if tmpl.Fingerprint != pre.Fingerprint {
		t.Fatalf("the build's template %s and the server's %s", tmpl.Fingerprint, pre.Fingerprint)
	}
	// The values as React would have rendered the template: text and
	// attributes escaped, the page's HTML as it is.
	facts1, _ := json.Marshal(tmpl.Responses["/api/site"])
	page1, _ := json.Marshal(tmpl.Responses["/api/site/pages/dental/pricing"])
	var site map[string]string
	var page struct {
		Title string
		FAQ   []struct{ Question, AnswerHTML string } `json:"faq"`
	}
	_ = json.Unmarshal(facts1, &site)
	_ = json.Unmarshal(page1, &page)
	html := "<p>" + site["company"] + "</p><a href=\"mailto:" + site["supportEmail"] + "\">" + page.Title + "</a>" + page.FAQ[0].AnswerHTML
	want := `<p>Acme &amp; &#34;Sons&#34; &lt;Ltd&gt;</p><a href="mailto:support@example.test">Pricing</a><p>Write to support@example.test.</p>` + "\n"
	if got := pre.Values.Replace(html); got != want {
		t.Errorf("filled in\n%s\nwant\n%s", got, want)
	}
	paths := map[string]bool{}
	for _, p := range pre.Preloaded {
		paths[p.Path] = true
		if p.Path == "/api/site" && !strings.Contains(string(p.Body), `"company":"Acme \u0026 \"Sons\" \u003cLtd\u003e"`) {
			t.Errorf("the facts as the page's first render reads them: %s", p.Body)
		}
	}
	if len(paths) != 3 || !paths["/api/professions"] || !paths["/api/site"] || !paths["/api/site/pages/dental/pricing"] {
		t.Errorf("preloaded %v", paths)
	}
	for _, path := range []string{"/Dental/pricing", "/dental/pricing/", "/dental/dashboard", "/vet", "/", "/dental/resources/unknown"} {
		if _, ok := lib.Prerendered(path); ok {
			t.Errorf("%s has a template", path)
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
