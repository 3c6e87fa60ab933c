package transcribe

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"unicode"
)

// timed turns a spoken script into timed words: every word lasts 0.3 s and
// follows the one before at once, except where marks say the speaker
// paused: "," 0.15 s, "/" 0.35 s, "//" 0.8 s, "///" 2 s.
func timed(script string) []Word {
	pauses := map[string]float64{",": 0.15, "/": 0.35, "//": 0.8, "///": 2}
	var words []Word
	at := 0.5
	for _, f := range strings.Fields(script) {
		if p, ok := pauses[f]; ok {
			at += p
			continue
		}
		words = append(words, Word{Word: f, Start: at, End: at + 0.3})
		at += 0.3
	}
	return words
}

func joined(words []Word) string {
	texts := make([]string, len(words))
	for i, w := range words {
		texts[i] = w.Word
	}
	return strings.Join(texts, " ")
}

func TestPunctuate(t *testing.T) {
	tests := []struct {
		name, script, want string
	}{{
		name: "the issue's example",
		script: "so i think that the most important thing is listening to the patient , and explaining the plan clearly // " +
			"i would sit down with her / and ask what worries her most // then i would explain the options in simple words",
		want: "So I think that the most important thing is listening to the patient and explaining the plan clearly. " +
			"I would sit down with her and ask what worries her most. Then I would explain the options in simple words.",
	}, {
		name:   "one sentence",
		script: "i want to become a dentist",
		want:   "I want to become a dentist.",
	}, {
		name:   "a long pause after a word that cannot end a sentence",
		script: "i would talk to the /// patient about her fears // and then i would ask the dentist",
		want:   "I would talk to the patient about her fears. And then I would ask the dentist.",
	}, {
		name:   "no over-splitting: short pauses between short phrases",
		script: "yes / i agree // thank you",
		want:   "Yes I agree, thank you.",
	}, {
		name:   "a question that plainly asks",
		script: "what would you do in that situation // i would first ask the patient what she needs",
		want:   "What would you do in that situation? I would first ask the patient what she needs.",
	}, {
		name:   "a wh-clause is not a question",
		script: "what i learned was that patience matters // it changed how i work with people",
		want:   "What I learned was that patience matters. It changed how I work with people.",
	}, {
		name:   "hesitations get commas around them",
		script: "so um i think the hardest part was waiting // uh i stayed with the family the whole night",
		want:   "So, um, I think the hardest part was waiting. Uh, I stayed with the family the whole night.",
	}, {
		name:   "pronoun I and its contractions; days and languages",
		script: "i'm sure i'd do it again // on monday i've a shift where i'll speak spanish with patients",
		want:   "I'm sure I'd do it again. On Monday I've a shift where I'll speak Spanish with patients.",
	}, {
		name:   "no punctuation next to like or after you know",
		script: "it was // like // amazing to see the patient smile / you know // i would like // to do that every day",
		want:   "It was like amazing to see the patient smile you know I would like to do that every day.",
	}, {
		name: "a fast speaker's short pauses are still sentence ends",
		script: "i volunteered at a clinic for two years , i saw many patients there , the work taught me patience " +
			", my supervisor trusted me with intake forms , i also translated for families",
		want: "I volunteered at a clinic for two years. I saw many patients there, the work taught me patience. " +
			"My supervisor trusted me with intake forms. I also translated for families.",
	}, {
		name: "a slow speaker's phrase pauses are commas, not sentence ends",
		script: "i volunteered / at a clinic / for two years /// i saw many patients / who had no insurance /// " +
			"the work taught me / to be patient",
		want: "I volunteered, at a clinic, for two years. I saw many patients who had no insurance. The work taught me to be patient.",
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := punctuate(timed(tc.script)); got != tc.want {
				t.Errorf("punctuate:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestPunctuateSplitsRunOns(t *testing.T) {
	// Sixty words without a pause: sentences of at most maxSentence words,
	// split where a clause opens.
	script := strings.Repeat("we talked with the patient and her family about the plan and i explained each step ", 4)
	got := punctuate(timed(script))
	sentences := strings.Split(strings.TrimSuffix(got, "."), ". ")
	if len(sentences) < 2 {
		t.Fatalf("one run-on sentence: %q", got)
	}
	for _, s := range sentences {
		if n := len(strings.Fields(s)); n > maxSentence || n < minSentence {
			t.Errorf("sentence of %d words: %q", n, s)
		}
	}
}

// A comma before or after "like", or after "you know", would turn them
// into fillers in the metrics; punctuating must never change the count.
func TestPunctuateKeepsFillerCount(t *testing.T) {
	for _, script := range []string{
		"i would like /// to help people",
		"it was /// like /// a second home for me",
		"i really like /// the patients",
		"do you know /// how hard it is",
		"you know /// the answer is simple",
		"so like /// i wanted to help",
		"and basically /// we waited",
		"um /// like /// you know /// i guess",
	} {
		words := timed(script)
		got := punctuate(words)
		if a, b := findFillers(tokenize(got)), findFillers(tokenize(joined(words))); !reflect.DeepEqual(a, b) {
			t.Errorf("%q: fillers %v, unpunctuated %v", got, a, b)
		}
	}
}

// checkPunctuated checks what punctuate must keep for any words: the same
// words in the same order, the same fillers, and sentences no longer than
// maxSentence words.
func checkPunctuated(t *testing.T, words []Word) {
	t.Helper()
	got := punctuate(words)
	plain := joined(words)
	if a, b := normalizeWords(got), normalizeWords(plain); !reflect.DeepEqual(a, b) {
		t.Fatalf("words changed:\n%q\n%q", a, b)
	}
	fields := strings.Fields(got)
	if len(fields) != len(strings.Fields(plain)) {
		t.Fatalf("%d words, want %d: %q", len(fields), len(strings.Fields(plain)), got)
	}
	run := 0
	for i, f := range fields {
		if strings.ToLower(strings.TrimRight(f, ".,?")) != strings.ToLower(strings.Fields(plain)[i]) &&
			strings.ToLower(f) != strings.ToLower(strings.Fields(plain)[i]) {
			t.Fatalf("word %d is %q, was %q", i, f, strings.Fields(plain)[i])
		}
		run++
		if strings.HasSuffix(f, ".") || strings.HasSuffix(f, "?") {
			run = 0
		}
		if run > maxSentence && !strings.Contains(plain, "like") && !strings.Contains(plain, "basically") && !strings.Contains(plain, "know") {
			t.Fatalf("sentence longer than %d words: %q", maxSentence, got)
		}
	}
	if a, b := findFillers(tokenize(got)), findFillers(tokenize(plain)); !reflect.DeepEqual(a, b) {
		t.Fatalf("fillers changed: %v in %q, %v before", a, got, b)
	}
}

var fuzzVocabulary = strings.Fields("i i'm i'd the a to and of my so then but like you know basically um uh " +
	"what would do is patient clinic dentist because when if think learned was it help people after that " +
	"first we they spanish monday Zoë élan x")

func FuzzPunctuate(f *testing.F) {
	f.Add([]byte("\x00\x10\x03\x40\x05\x00\x11\x90"))
	f.Add([]byte(strings.Repeat("\x07\x02", 80)))
	f.Add([]byte("like you know basically"))
	f.Fuzz(func(t *testing.T, data []byte) {
		// Each pair of bytes is a word (from the vocabulary, or the raw
		// byte as a string) and the pause before it.
		var words []Word
		at := 0.0
		for i := 0; i+1 < len(data); i += 2 {
			w := string(data[i : i+1])
			if int(data[i]) < 3*len(fuzzVocabulary) {
				w = fuzzVocabulary[int(data[i])%len(fuzzVocabulary)]
			}
			if strings.TrimSpace(w) == "" {
				continue
			}
			at += float64(data[i+1]) / 64
			words = append(words, Word{Word: w, Start: at, End: at + 0.25})
			at += 0.25
		}
		checkPunctuated(t, words)
	})
}

func TestCountSentenceBoundaries(t *testing.T) {
	tests := []struct {
		ref, hyp              string
		matched, inHyp, inRef int
	}{
		{"I care. I listen. I help.", "I care. I listen. I help.", 2, 2, 2},
		{"I care. I listen. I help.", "I care I listen. I help", 1, 1, 2},
		{"I care. I listen.", "I care for. Them I listen", 1, 1, 1}, // inserted words take the end along
		{"I care. I listen.", "I. Care I listen", 0, 1, 1},
		// A recognition error next to the end still lines up.
		{"We waited for hours. Then she smiled.", "we waited for ours. then she smiled", 1, 1, 1},
		{"We waited for hours. Then she smiled.", "we waited for hours and. then she smiled", 1, 1, 1},
		{"We waited. Then she smiled.", "we. waited then she smiled", 0, 1, 1},
	}
	for _, tc := range tests {
		m, h, r := CountSentenceBoundaries(tc.ref, tc.hyp)
		if m != tc.matched || h != tc.inHyp || r != tc.inRef {
			t.Errorf("CountSentenceBoundaries(%q, %q) = %d, %d, %d; want %d, %d, %d", tc.ref, tc.hyp, m, h, r, tc.matched, tc.inHyp, tc.inRef)
		}
	}
}

// The local engine's transcript of a spoken answer of several sentences
// comes back in sentences, with capitals.
func TestLocalPunctuatesTranscript(t *testing.T) {
	requireSpeechStack(t)
	const answer = "I want to become a dentist because I enjoy working with my hands. " +
		"When I volunteered at a community clinic, I saw how much a healthy smile can change a patient. " +
		"After that summer I knew this was the work I wanted to do."
	e := startLocal(t, localConfig(t))
	res, err := e.Transcribe(context.Background(), Audio{Path: synth(t, answer)})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(res.Text, ". ") + strings.Count(res.Text, "? ") + 1; n < 3 || !strings.HasSuffix(res.Text, ".") {
		t.Errorf("%d sentences, want at least 3: %q", n, res.Text)
	}
	if r := []rune(res.Text); len(r) == 0 || !unicode.IsUpper(r[0]) {
		t.Errorf("transcript does not begin with a capital: %q", res.Text)
	}
	if !strings.Contains(res.Text, " I ") {
		t.Errorf("no capital I: %q", res.Text)
	}
	if got, want := normalizeWords(res.Text), normalizeWords(joined(res.Words)); !reflect.DeepEqual(got, want) {
		t.Errorf("text words %q, timed words %q", got, want)
	}
	if wer := wordErrorRate(answer, res.Text); wer > 0.25 {
		t.Errorf("WER %.2f: %q", wer, res.Text)
	}
}
