package site

import (
	"bytes"
	"strings"
	"testing"

	"github.com/whitecoat/whitecoat/internal/site/sitetest"
)

func TestPDFHoldsItsWordsAsText(t *testing.T) {
	src := minimalContent()
	src["downloads/interview-tips.md"] = file(`---
title: Interview Tips
description: How to prepare, in one page.
summary: Print it.
---
## The Big 3

Know your **why**, in *your* words — and “practise” aloud. Write to [{{.SupportEmail}}](mailto:{{.SupportEmail}}) or see [the guide](/dental/resources/ethics).

1. Tell me about yourself
2. Why this profession
   - a nested point

> **Strong answer:** "I listened first."

### On the day

- Arrive early…
`)
	src["downloads/interview-tips/dental.md"] = file("---\ntitle: For dental applicants\n---\nDental interviews often use MMI.\n")
	lib := load(t, src)
	pdf, err := lib.PDF(DownloadInterviewTips, "dental")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(pdf.Bytes, []byte("%PDF-1.")) || pdf.Pages != 1 || pdf.FileName != "whitecoat-dental-interview-tips.pdf" {
		t.Fatalf("pdf %d bytes, %d pages, %q: %q", len(pdf.Bytes), pdf.Pages, pdf.FileName, pdf.Bytes[:8])
	}
	text := sitetest.PDFText(t, pdf.Bytes)
	for _, want := range []string{
		"WHITECOAT", "Interview Tips", "How to prepare, in one page.", "For dental applicants",
		"The Big 3", "Know your why, in your words — and “practise” aloud.", "support@example.test", "the guide",
		"1. Tell me about yourself", "2. Why this profession", "a nested point", `Strong answer: "I listened first."`,
		"On the day", "Arrive early…", "For dental applicants", "Dental interviews often use MMI.", "page 1 of 1",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the PDF's text lacks %q:\n%s", want, text)
		}
	}
	if !bytes.Contains(pdf.Bytes, []byte("(https://example.test/dental/resources/ethics)")) || !bytes.Contains(pdf.Bytes, []byte("(mailto:support@example.test)")) {
		t.Error("a link to a page of the site must carry the site's address, and mail links their address")
	}
	general, err := lib.PDF(DownloadInterviewTips, "")
	if err != nil {
		t.Fatal(err)
	}
	if text := sitetest.PDFText(t, general.Bytes); strings.Contains(text, "dental") || !strings.Contains(text, "For all health-profession applicants") {
		t.Errorf("the general edition has no profession's section:\n%s", text)
	}
	again, _ := load(t, src).PDF(DownloadInterviewTips, "dental")
	if !bytes.Equal(again.Bytes, pdf.Bytes) {
		t.Error("the same words must make the same bytes")
	}
}
