// Package sitetest reads the PDFs the site makes, for tests.
package sitetest

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// PDFText is what pdftotext extracts from doc: the words a reader can
// select, search and copy, with runs of white space made one space so a
// phrase is found wherever a line broke. Without pdftotext the test is
// skipped, loudly, except in CI, where the Makefile installs it.
func PDFText(t testing.TB, doc []byte) string {
	t.Helper()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("pdftotext is required in CI but missing: %v", err)
		}
		t.Skip("SKIPPING: pdftotext not installed (apt-get install poppler-utils)")
	}
	cmd := exec.Command("pdftotext", "-", "-")
	cmd.Stdin = bytes.NewReader(doc)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil || stderr.Len() > 0 {
		t.Fatalf("pdftotext: %v: %s", err, stderr.String())
	}
	return strings.Join(strings.Fields(string(out)), " ")
}
