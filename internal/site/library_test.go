package site

import (
	"maps"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/whitecoat/whitecoat/internal/profession"
)

var testFacts = Facts{
	Company: "Whitecoat", SupportEmail: "support@example.test", ContactEmail: "hello@example.test", PrivacyEmail: "privacy@example.test",
	GoverningLaw: "the laws of Testland", SiteURL: "https://example.test", EffectiveDate: EffectiveDate,
	TrialDays: 7, FreeSessions: 2, PassPrice: "$29.00", PassDays: 365, RefundDays: 7, MinimumAge: 13, AnswerMinutes: 3,
	SignInIdleDays: 3, SignInMaxDays: 30, DeviceCookieDays: 180, RecordingHours: 1,
}

func file(body string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(body)} }

// minimalContent is a content tree with every file Load needs, each as
// short as the rules allow; tests change one file at a time.
func minimalContent() fstest.MapFS {
	src := fstest.MapFS{}
	for _, key := range PageKeys {
		src[key.source()] = file("---\ntitle: " + string(key) + " title\ndescription: About " + string(key) + ".\nsummary: Read " + string(key) + ".\n---\n## First\n\nText.\n")
	}
	for _, key := range DownloadKeys {
		src[key.source()] = file("---\ntitle: " + string(key) + " title\ndescription: A download.\nsummary: Print it.\n---\n## Before\n\n- One\n- Two\n")
	}
	return src
}

func load(t *testing.T, src fstest.MapFS) *Library {
	t.Helper()
	lib, err := Load(src, testFacts)
	if err != nil {
		t.Fatal(err)
	}
	return lib
}

func TestLoadComposesAGuideWithTheProfessionsSection(t *testing.T) {
	src := minimalContent()
	src["guides/ethics.md"] = file("---\ntitle: Ethical Frameworks Cheat Sheet\ndescription: Principles.\n---\n## Autonomy\n\nWrite to {{.SupportEmail}}.\n")
	src["guides/ethics/dental.md"] = file(`---
title: For dental applicants
---
### Worked example: a refusal

**Question:** "What would you do?"

> **Strong answer:** "I would ask why."

> **Weak answer:** "I would insist."

**Why:** One listens.
`)
	lib := load(t, src)
	dental, _ := lib.Page(GuideEthics, "dental")
	for _, want := range []string{
		`<h2 id="autonomy">Autonomy</h2>`,
		"Write to support@example.test.",
		`<h2 id="for-dental-applicants">For dental applicants</h2>`,
		`<blockquote class="example example-strong">`,
		`<blockquote class="example example-weak">`,
	} {
		if !strings.Contains(dental.HTML, want) {
			t.Errorf("dental ethics lacks %s:\n%s", want, dental.HTML)
		}
	}
	if got := dental.Headings; len(got) != 3 || got[1] != (Heading{ID: "for-dental-applicants", Text: "For dental applicants", Level: 2}) || got[2].Level != 3 {
		t.Errorf("headings %+v", got)
	}
	if dental.Practice == nil || *dental.Practice != (Practice{Label: "Practice an ethics scenario", Path: "/dental/setup?focus=Ethical", Focus: "Ethical"}) {
		t.Errorf("practice %+v", dental.Practice)
	}
	medical, _ := lib.Page(GuideEthics, "medical")
	if strings.Contains(medical.HTML, "dental") || medical.Path != "/medical/resources/ethics" {
		t.Errorf("medical has no section of its own and must not get dental's: %s %s", medical.Path, medical.HTML)
	}
	about, _ := lib.Page(PageAbout, "pa")
	if about.Practice != nil || about.Path != "/pa/about" {
		t.Errorf("about is no guide: %+v", about)
	}
}

func TestLoadReportsEveryBrokenFileByName(t *testing.T) {
	for name, tc := range map[string]struct {
		path, body, want string
	}{
		"unknown field":          {"pages/about.md", "---\ntitle: About\ndescription: d\n---\nWrite to {{.Nobody}}.\n", `pages/about.md: template: pages/about.md:5:11: executing "pages/about.md" at <.Nobody>: can't evaluate field Nobody`},
		"no front matter":        {"pages/terms.md", "## Terms\n", "pages/terms.md: must start with front matter"},
		"no title":               {"pages/terms.md", "---\ndescription: d\n---\ntext\n", "pages/terms.md: front matter has no title"},
		"no description":         {"guides/pitfalls.md", "---\ntitle: Pitfalls\n---\ntext\n", "guides/pitfalls.md: front matter has no description"},
		"unknown front matter":   {"pages/about.md", "---\ntitle: About\nauthor: me\n---\ntext\n", `front matter line "author: me"`},
		"a second title":         {"pages/about.md", "---\ntitle: About\ndescription: d\n---\n# About\n", "pages/about.md: line 5: heading level 1"},
		"raw html":               {"pages/about.md", "---\ntitle: About\ndescription: d\n---\nText\n\n<script>alert(1)</script>\n", "pages/about.md: line 7: raw HTML"},
		"an image":               {"pages/about.md", "---\ntitle: About\ndescription: d\n---\n![me](me.jpg)\n", "Image is not supported"},
		"deep list":              {"pages/about.md", "---\ntitle: About\ndescription: d\n---\n- a\n  - b\n    - c\n", "lists nest at most one level"},
		"a character pdfs lack":  {"pages/privacy.md", "---\ntitle: Privacy\ndescription: d\n---\nSafe \u2713\n", `line 5: '✓' cannot be printed`},
		"a section that is bad":  {"guides/ethics/ot.md", "---\ntitle: For OT applicants\n---\n{{.Oops}}\n", "guides/ethics/ot.md"},
		"a download without one": {"downloads/thank-you-emails.md", "---\ntitle: Thanks\n---\n## Mail\n", "downloads/thank-you-emails.md: front matter has no description"},
	} {
		t.Run(name, func(t *testing.T) {
			src := minimalContent()
			src[tc.path] = file(tc.body)
			_, err := Load(src, testFacts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
	t.Run("a missing page", func(t *testing.T) {
		src := minimalContent()
		delete(src, "pages/privacy.md")
		if _, err := Load(src, testFacts); err == nil || !strings.Contains(err.Error(), "pages/privacy.md") {
			t.Fatalf("error %v", err)
		}
	})
}

func TestResourcesListGuidesAndDownloadsWithTheirSize(t *testing.T) {
	lib := load(t, minimalContent())
	page, _ := lib.Page(PageResources, "ot")
	if len(page.Guides) != 3 || page.Guides[0] != (GuideCard{Key: GuideEthics, Title: "ethics title", Summary: "Read ethics.", Path: "/ot/resources/ethics"}) {
		t.Errorf("guides %+v", page.Guides)
	}
	if len(page.Downloads) != 3 {
		t.Fatalf("downloads %+v", page.Downloads)
	}
	d := page.Downloads[1]
	if d.Key != DownloadChecklist || d.Path != "/public/resources/interview-day-checklist.pdf" || d.FileName != "whitecoat-interview-day-checklist.pdf" || d.Pages != 1 || d.Bytes < 1000 {
		t.Errorf("a download with no section for OT is the general edition: %+v", d)
	}
	src := minimalContent()
	src["downloads/interview-day-checklist/ot.md"] = file("---\ntitle: For OT applicants\n---\nBring splints.\n")
	page, _ = load(t, src).Page(PageResources, "ot")
	if d := page.Downloads[1]; d.Path != "/public/resources/ot/interview-day-checklist.pdf" || d.FileName != "whitecoat-ot-interview-day-checklist.pdf" {
		t.Errorf("a download with a section for OT is OT's own: %+v", d)
	}
}

func TestHeadsOfPublicPages(t *testing.T) {
	src := minimalContent()
	src["pages/pricing.md"] = file("---\ntitle: Pricing\ndescription: Plans.\n---\n## Can I get a refund?\n\nYes, within {{.RefundDays}} days.\n\n## Does it renew?\n\nNo.\n")
	lib := load(t, src)
	pricing, _ := lib.Page(PagePricing, "pt")
	if want := []FAQItem{{"Can I get a refund?", "<p>Yes, within 7 days.</p>\n", "Yes, within 7 days."}, {"Does it renew?", "<p>No.</p>\n", "No."}}; !slices.Equal(pricing.FAQ, want) {
		t.Errorf("faq %+v", pricing.FAQ)
	}
	dental, _ := profession.Lookup("dental")
	for _, tc := range []struct {
		path                          string
		title, description, canonical string
		structuredDataHas             string
	}{
		{"/Dental", "Dental interview practice · Whitecoat", dental.HeroSubtitle, "https://example.test/dental", ""},
		{"/medical/resources/ethics", "ethics title · Whitecoat", "About ethics.", "https://example.test/medical/resources/ethics", ""},
		{"/pa/privacy/", "privacy title · Whitecoat", "About privacy.", "https://example.test/pa/privacy", ""},
		{"/vet/privacy", "", "", "", ""},
		{"/dental/dashboard", "", "", "", ""},
		{"/dental/pricing", "Pricing · Whitecoat", "Plans.", "https://example.test/dental/pricing",
			`{"@type":"Question","name":"Can I get a refund?","acceptedAnswer":{"@type":"Answer","text":"Yes, within 7 days."}}`},
	} {
		h, ok := lib.Head(tc.path)
		if ok != (tc.title != "") {
			t.Errorf("%s: public %v", tc.path, ok)
			continue
		}
		if h.Title != tc.title || h.Description != tc.description || h.Canonical != tc.canonical || !strings.Contains(h.StructuredData, tc.structuredDataHas) {
			t.Errorf("%s: head %+v", tc.path, h)
		}
	}
}

func TestPublicPathsCoverEveryProfession(t *testing.T) {
	paths := PublicPaths()
	set := map[string]bool{}
	for _, p := range paths {
		set[p] = true
	}
	if len(set) != len(paths) || len(paths) != len(profession.Slugs())*(1+len(PageKeys)) {
		t.Fatalf("%d paths, %d distinct: %v", len(paths), len(set), paths)
	}
	for _, want := range []string{"/veterinary", "/veterinary/pricing", "/ot/resources/pitfalls", "/pt/terms"} {
		if !set[want] {
			t.Errorf("missing %s in %v", want, slices.Sorted(maps.Keys(set)))
		}
	}
}
