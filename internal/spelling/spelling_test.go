package spelling

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/scanner"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// root is the repository, from this package's directory.
const root = "../.."

// allowed are UK forms that are identifiers, not prose, as written (case
// counts): values that code, databases or the API match on, names from
// other APIs, and patterns that accept either spelling in what a student
// says or in a question an admin wrote. Each is allowed in its file only.
var allowed = map[string][]string{
	// Stored values, API enums and keys, routes and query values.
	"internal/feedback/score.go":                              {"judgement"},
	"internal/feedback/llm/prompt.go":                         {"judgement"}, // the criterion's key
	"internal/auth/http.go":                                   {"enrol", "enrolment"},
	"internal/auth/secondfactor.go":                           {"enrol"},
	"internal/billing/store.go":                               {"unrecognised"},
	"internal/billing/checkout.go":                            {"cancelled"},
	"internal/transcribe/metrics.go":                          {"recognised"},
	"internal/transcribe/transcribe.go":                       {"recognised"},
	"web/src/features/admin/components/payments-dialog.tsx":   {"unrecognised"},
	"web/src/features/auth/api/second-factor.ts":              {"enrolment"},
	"web/src/features/auth/components/login-form.tsx":         {"enrol"},
	"web/src/features/billing/components/checkout-return.tsx": {"cancelled", "CANCELLED"},
	"web/src/features/billing/components/test-checkout.tsx":   {"cancelled"},
	"web/src/routes/dashboard.tsx":                            {"cancelled"},
	// Code names: Web Audio's AnalyserNode, a TypeScript interface, local
	// variables.
	"web/src/features/practice/components/mic-level.tsx":   {"analyser"},
	"web/src/lib/speech-recognition.ts":                    {"Recogniser"},
	"web/src/features/practice/hooks/use-media-stream.ts":  {"cancelled"},
	"web/src/features/progress/components/trend-chart.tsx": {"labelled"},
	// Patterns that hear both spellings.
	"internal/feedback/questiontype.go":      {"programme", "behavioural"},
	"internal/feedback/rubric/cues.go":       {"programme", "realise", "centre", "paediatric", "wellbeing"},
	"internal/feedback/rubric/deeds.go":      {"realise", "realised", "learnt", "recognised"},
	"internal/feedback/rubric/transcript.go": {"realise", "recognise"},
	"internal/feedback/rubric/redflags.go":   {"grey", "neighbours", "judgement", "realise"},
}

// bankFields are the bank's JSON fields a student reads; the others
// (seedKey, mainTags, subtag) are identifiers.
var bankFields = []string{"text", "tip", "scenario", "followUps", "cues"}

// TestUSSpelling fails on each UK spelling in a text a student reads: the
// question bank, content/, the Go server's string literals, and the web
// app's index.html and sources (comments aside).
func TestUSSpelling(t *testing.T) {
	var hits []string
	report := func(path string, src []byte, off int, text string) {
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		for _, h := range Find(text) {
			if slices.Contains(allowed[rel], h.UK) {
				continue
			}
			line := 1 + bytes.Count(src[:off+h.Offset], []byte("\n"))
			hits = append(hits, fmt.Sprintf("%s:%d: %q: use %q", rel, line, h.UK, h.US))
		}
	}

	for _, name := range []string{"questions.json", "scenarios.json"} {
		path := filepath.Join(root, "internal/question/bank", name)
		src := read(t, path)
		for off, s := range bankStrings(t, src) {
			report(path, src, off, s)
		}
	}

	walk(t, "content", func(path string) {
		if ext := filepath.Ext(path); ext == ".md" || ext == ".txt" {
			src := read(t, path)
			report(path, src, 0, string(src))
		}
	})

	walk(t, "internal", func(path string) {
		// Tests and test helpers (practicetest, sitetest...) hold
		// fixtures, and this package holds the UK forms.
		dir := filepath.Base(filepath.Dir(path))
		if filepath.Ext(path) != ".go" || strings.HasSuffix(path, "_test.go") || strings.HasSuffix(dir, "test") || dir == "spelling" {
			return
		}
		src := read(t, path)
		for off, s := range goStrings(t, path, src) {
			report(path, src, off, s)
		}
	})

	// The page every route starts from: its title and description.
	index := filepath.Join(root, "web/index.html")
	src := read(t, index)
	report(index, src, 0, string(src))

	walk(t, "web/src", func(path string) {
		ext := filepath.Ext(path)
		if ext != ".ts" && ext != ".tsx" || strings.Contains(path, ".test.") ||
			strings.HasPrefix(filepath.ToSlash(path), root+"/web/src/api/") || strings.HasPrefix(filepath.ToSlash(path), root+"/web/src/test/") {
			return
		}
		src := read(t, path)
		report(path, src, 0, withoutComments(src))
	})

	if len(hits) > 0 {
		t.Errorf("%d UK spellings; Whitecoat writes US English (the list is in internal/spelling/spelling.go):\n%s",
			len(hits), strings.Join(hits, "\n"))
	}
}

func read(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func walk(t *testing.T, dir string, visit func(path string)) {
	t.Helper()
	err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "node_modules" {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			visit(path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// bankStrings returns the student-visible strings of a bank file, by the
// byte offset of each in src.
func bankStrings(t *testing.T, src []byte) map[int]string {
	t.Helper()
	out := map[int]string{}
	dec := json.NewDecoder(bytes.NewReader(src))
	// keys holds, for each open object, its last key, and "" for an array,
	// which takes its field from the object around it.
	var keys []string
	expectKey := false
	for {
		before := dec.InputOffset()
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{':
				keys = append(keys, "")
				expectKey = true
			case '[':
				keys = append(keys, "[")
				expectKey = false
			case '}', ']':
				keys = keys[:len(keys)-1]
				expectKey = len(keys) > 0 && keys[len(keys)-1] != "["
			}
			continue
		case string:
			if expectKey {
				keys[len(keys)-1] = v
				expectKey = false
				continue
			}
			field := ""
			for i := len(keys) - 1; i >= 0; i-- {
				if keys[i] != "[" {
					field = keys[i]
					break
				}
			}
			if slices.Contains(bankFields, field) {
				// The token starts after the separator and spaces
				// that InputOffset counted before it.
				off := int(before) + bytes.IndexByte(src[before:], '"')
				out[off] = v
			}
		}
		expectKey = len(keys) > 0 && keys[len(keys)-1] != "["
	}
	return out
}

// goStrings returns the string literals of a Go file, by byte offset.
func goStrings(t *testing.T, path string, src []byte) map[int]string {
	t.Helper()
	out := map[int]string{}
	fset := token.NewFileSet()
	var s scanner.Scanner
	s.Init(fset.AddFile(path, -1, len(src)), src, func(pos token.Position, msg string) { t.Errorf("%s: %s", pos, msg) }, 0)
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		if tok != token.STRING {
			continue
		}
		v, err := strconv.Unquote(lit)
		if err != nil {
			t.Fatalf("%s: %v", fset.Position(pos), err)
		}
		if lit[0] == '`' {
			// A raw string's offsets are the source's.
			out[fset.Position(pos).Offset+1] = v
		} else {
			// Escapes are rare in prose; the line is what matters.
			out[fset.Position(pos).Offset] = v
		}
	}
}

var (
	// A comment starts a line or follows a space, or "{" in JSX, so that
	// "https://" and "audio/*" are not comments.
	blockComment = regexp.MustCompile(`(?s)(^|[\s{])/\*.*?\*/`)
	lineComment  = regexp.MustCompile(`(?m)(^|\s)//.*$`)
)

// withoutComments blanks the comments of a TypeScript file, keeping its
// offsets: block comments and line comments.
// JSX text and string literals stay.
func withoutComments(src []byte) string {
	out := []byte(string(src))
	blank := func(from, to int) {
		for i := from; i < to; i++ {
			if out[i] != '\n' {
				out[i] = ' '
			}
		}
	}
	for _, loc := range blockComment.FindAllIndex(out, -1) {
		blank(loc[0], loc[1])
	}
	for _, loc := range lineComment.FindAllIndex(out, -1) {
		blank(loc[0], loc[1])
	}
	return string(out)
}

// TestFind checks the list's reach: inflections, hyphenated and possessive
// words, capitals, and words that only look like UK forms.
func TestFind(t *testing.T) {
	for text, want := range map[string]string{
		"A patient-centred plan":                                 "centred>centered",
		"Recognise the signs":                                    "Recognise>recognize",
		"the centre's director":                                  "centre>center's",
		"She counselled him; the counsellor":                     "counselled>counseled counsellor>counselor",
		"to practise, then practising":                           "practise>practice practising>practicing",
		"their wellbeing and judgement":                          "wellbeing>well-being judgement>judgment",
		"an unrecognised enrolment":                              "unrecognised>unrecognized enrolment>enrollment",
		"realistic analyses of realism, a promise, the practice": "",
		"practised_at practisedAt":                               "",
	} {
		var got []string
		for _, h := range Find(text) {
			got = append(got, h.UK+">"+h.US)
		}
		if g := strings.Join(got, " "); g != want {
			t.Errorf("Find(%q) = %q, want %q", text, g, want)
		}
	}
}
