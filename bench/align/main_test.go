package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/whitecoat/whitecoat/internal/transcribe"
)

func TestLoadSaidClipSpacewalk(t *testing.T) {
	c, err := loadSaidClip(filepath.Join("..", "transcribe", "real"), "spacewalk")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.said) != 8 {
		t.Fatalf("%d hesitations, want 8", len(c.said))
	}
	if got := len(strings.Fields(c.text)); got != 63 { // Deepgram's word times have 63
		t.Errorf("true text has %d words, want 63: %q", got, c.text)
	}
	for _, w := range strings.Fields(c.text) {
		if isHesitationWord(w) {
			t.Errorf("true text keeps %q: %q", w, c.text)
		}
	}
	for i := 1; i < len(c.said); i++ {
		if c.said[i].from < c.said[i-1].to {
			t.Errorf("hesitation %d starts before %d ends", i, i-1)
		}
	}
}

func TestMatchSaid(t *testing.T) {
	said := []said{{"um", 1.0, 1.5}, {"uh", 3.0, 3.2}, {"um", 6.0, 6.4}}
	words := []transcribe.Word{
		{Word: "so", Start: 0.5, End: 0.9},
		{Word: "um", Start: 1.1, End: 1.4},  // inside the first
		{Word: "uh", Start: 2.6, End: 2.75}, // 0.25 s before the second
		{Word: "uh", Start: 2.8, End: 2.9},  // also near it, but it is taken
		{Word: "um", Start: 7.0, End: 7.2},  // 0.6 s after the third: too far
	}
	found, paired, beyond := matchSaid(said, words)
	if found != 2 {
		t.Errorf("found %d, want 2", found)
	}
	if paired[0] == nil || paired[0].Start != 1.1 || paired[1] == nil || paired[1].Start != 2.6 || paired[2] != nil {
		t.Errorf("paired %v", paired)
	}
	if len(beyond) != 2 || beyond[0] != 2.8 || beyond[1] != 7.0 {
		t.Errorf("beyond %v, want [2.8 7]", beyond)
	}
}
