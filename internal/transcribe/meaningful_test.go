package transcribe

import (
	"strings"
	"testing"
	"unicode"
)

func TestMeaningful(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"", false},
		{"   \n\t", false},
		{"Thank you.", false},
		{"thank you", false},
		{"THANK YOU!!!", false},
		{"Thank you for watching!", false},
		{"Thanks for watching. Please subscribe.", false},
		{"Shh.", false},
		{"shh shh", false},
		{"Subscribe", false},
		{"[BLANK_AUDIO]", false},
		{"(music)", false},
		{"Um... uh, hmm.", false},
		{"you you you", false},
		{"Thank you. Thank you. Thank you.", false},
		{"Okay.", false},
		{"I don't", false},
		{"I want to help people.", true},
		{"Thank you for having me. I want to be a dentist because I love science.", true},
		{"um I think that uh teamwork matters", true},
		{"Thank you for watching my journey: I shadowed a dentist for two years.", true},
		{"I’d like to serve my community", true},
	}
	for _, tc := range tests {
		if got := Meaningful(tc.text); got != tc.want {
			t.Errorf("Meaningful(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

func TestNormalizeWords(t *testing.T) {
	got := strings.Join(normalizeWords("  Hello, WORLD! It’s 'quoted' -- don't  stop... "), "|")
	want := "hello|world|it's|quoted|don't|stop"
	if got != want {
		t.Errorf("normalizeWords = %q, want %q", got, want)
	}
}

// FuzzMeaningful checks the check never panics and depends only on the
// words: changing ASCII case or adding punctuation and spaces between words
// never changes the verdict.
func FuzzMeaningful(f *testing.F) {
	for _, s := range []string{"", "Thank you.", "thank you for watching", "Shh.", "I want to help people.",
		"um uh", "Subscribe!", "I’d like to", "ẞ straße"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got := Meaningful(text)
		upper := strings.Map(func(r rune) rune {
			if r < unicode.MaxASCII {
				return unicode.ToUpper(r)
			}
			return r
		}, text)
		if lowerASCIIStable(text) && Meaningful(upper) != got {
			t.Fatalf("case changed the verdict for %q", text)
		}
		punctuated := strings.Join(strings.Fields(text), " ,. ") + "?!"
		if Meaningful(punctuated) != got {
			t.Fatalf("punctuation changed the verdict for %q (as %q)", text, punctuated)
		}
		if got && len(normalizeWords(text)) < minMeaningfulWords {
			t.Fatalf("%q meaningful with fewer than %d words", text, minMeaningfulWords)
		}
	})
}

// lowerASCIIStable excludes texts where upper-casing ASCII letters then
// lower-casing them again would not give the same text back (for instance
// Kelvin sign vs k), which are not a case change the check must survive.
func lowerASCIIStable(s string) bool {
	for _, r := range s {
		if r >= unicode.MaxASCII && unicode.ToLower(r) < unicode.MaxASCII {
			return false
		}
	}
	return true
}
