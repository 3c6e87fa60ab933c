package content_test

import (
	"strings"
	"testing"

	"github.com/whitecoat/whitecoat/content"
	"github.com/whitecoat/whitecoat/internal/profession"
	"github.com/whitecoat/whitecoat/internal/site"
	"github.com/whitecoat/whitecoat/internal/site/sitetest"
)

var facts = site.Facts{
	Company: "Whitecoat", SupportEmail: "support@example.test", ContactEmail: "hello@example.test", PrivacyEmail: "privacy@example.test",
	GoverningLaw: "the laws of Testland", SiteURL: "https://example.test", EffectiveDate: site.EffectiveDate,
	TrialDays: 7, FreeSessions: 2, PassPrice: "$29.00", PassDays: 365, RefundDays: 7, MinimumAge: 13, AnswerMinutes: 3,
	SignInIdleDays: 3, SignInMaxDays: 30, DeviceCookieDays: 180, RecordingHours: 1,
}

// TestEveryPageAndPDF renders content/ as it ships: every page for every
// profession, with sections, a description that fits a search result and
// no placeholder; and every PDF, whose text must hold its title and each
// of its headings.
func TestEveryPageAndPDF(t *testing.T) {
	lib, err := site.Load(content.FS, facts)
	if err != nil {
		t.Fatal(err)
	}
	for _, slug := range profession.Slugs() {
		for _, key := range site.PageKeys {
			page, ok := lib.Page(key, slug)
			if !ok || len(page.Headings) == 0 || page.Description == "" || len(page.Description) > 160 || strings.Contains(strings.ToLower(page.HTML), "coming soon") {
				t.Errorf("%s for %s: %d headings, a description of %d characters, or a placeholder", key, slug, len(page.Headings), len(page.Description))
			}
			if key.IsGuide() && !strings.Contains(page.HTML, `class="example example-strong"`) {
				t.Errorf("%s for %s has no worked example", key, slug)
			}
		}
		for _, key := range site.DownloadKeys {
			for _, edition := range []string{"", slug} {
				pdf, err := lib.PDF(key, edition)
				if err != nil {
					t.Fatal(err)
				}
				text := sitetest.PDFText(t, pdf.Bytes)
				for _, h := range pdf.Headings {
					if !strings.Contains(text, strings.Join(strings.Fields(h.Text), " ")) {
						t.Errorf("%s for %q: the PDF's text lacks the heading %q", key, edition, h.Text)
					}
				}
			}
		}
	}
}
