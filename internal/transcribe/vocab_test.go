package transcribe

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteDictionary(t *testing.T) {
	src := filepath.Join(t.TempDir(), "full.dict")
	full := "the DH AH\nthe(2) DH IY\ndentistry D EH N T AH S T R IY\nzymurgy Z AY M ER JH IY\num AH M\nof AH V\n"
	if err := os.WriteFile(src, []byte(full), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		n    int
		want string
	}{
		// "the" is the most probable word, "of" the sixth; "dentistry" is a
		// health term; "um" a hesitation.
		{1, "the DH AH\nthe(2) DH IY\ndentistry D EH N T AH S T R IY\num AH M\n"},
		{6, "the DH AH\nthe(2) DH IY\ndentistry D EH N T AH S T R IY\num AH M\nof AH V\n"},
	}
	for _, tc := range tests {
		path, err := writeDictionary(src, tc.n, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(path)
		if string(got) != tc.want {
			t.Errorf("n=%d:\n%s\nwant\n%s", tc.n, got, tc.want)
		}
	}
	if _, err := writeDictionary(filepath.Join(t.TempDir(), "missing"), 10, t.TempDir()); err == nil {
		t.Error("missing dictionary accepted")
	}
}

func TestVocabularyLists(t *testing.T) {
	var general []string
	for line := range strings.Lines(generalWords) {
		if !strings.HasPrefix(line, "#") {
			general = append(general, strings.TrimSpace(line))
		}
	}
	if len(general) != MaxVocabulary || general[0] != "the" {
		t.Errorf("general list: %d words starting %q", len(general), general[:1])
	}
	if !strings.Contains(healthWords, " dentistry ") {
		t.Error("health list lacks dentistry")
	}
}
