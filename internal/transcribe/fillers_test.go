package transcribe

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The reduced "I'm" (AH M) sounds exactly like "um", and the language model
// preferred it: "so um I think" came back as "so I'm I think" (issue #13).
// The dictionary keeps no word that sounds exactly like "um" or "hmm",
// except the most common words' first pronunciations.
func TestDictionaryLeavesHesitationsTheirSound(t *testing.T) {
	src := filepath.Join(t.TempDir(), "src.dict")
	os.WriteFile(src, []byte("a AH\na(2) EY\ni'm AY M\ni'm(2) AH M\n'em AH M\num AH M\nuh AH\ner ER\nare AA R\nare(2) ER\nthink TH IH NG K\nawe AA\nawe(2) AO\nah AA\n"), 0o600)
	path, err := writeDictionary(src, 40000, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	for _, want := range []string{"a AH\n", "i'm AY M\n", "um AH M\n", "uh AH\n", "er ER\n", "are AA R\n", "are(2) ER\n", "awe AA\n", "think TH IH NG K\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("dictionary lost %q:\n%s", want, got)
		}
	}
	for _, gone := range []string{"i'm(2)", "'em"} {
		if strings.Contains(got, gone) {
			t.Errorf("dictionary kept %q, which sounds like a hesitation:\n%s", gone, got)
		}
	}
}

// The case through the real engine: the "um" after "so" is heard.
func TestLocalHearsUm(t *testing.T) {
	requireSpeechStack(t)
	wav := synthAs(t, maleVoice, "So, um, I think the most important thing in dentistry is trust.")
	eng := startLocal(t, localConfig(t))
	res, err := eng.Transcribe(context.Background(), Audio{Path: encode(t, wav, "webm")})
	if err != nil {
		t.Fatal(err)
	}
	// The decoder writes it; the metrics still count no fillers from an
	// engine that drops most of them (ComputeMetrics: not measured).
	um := 0
	for _, f := range FindFillers(res) {
		if f.Word == "um" {
			um++
		}
	}
	if um < 1 {
		t.Errorf("no um written in %q", res.Text)
	}
}
