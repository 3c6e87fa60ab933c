package rubric

import (
	"math"
	"strings"
	"testing"

	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/feedback/feedbacktest"
)

// Issue 29 items 4 and 9: the feedback never quotes back a word the speech
// engine may have misheard, and does not judge the content of an answer
// it mostly could not hear.

// quotesOf are every quote of the answer in fb: evidence, red flags, and
// the “…” in suggestions (without the ellipsis that points into them).
func quotesOf(fb feedback.Feedback) []string {
	var out []string
	for _, e := range fb.Evidence {
		out = append(out, e.Quote)
	}
	for _, f := range fb.RedFlags {
		out = append(out, f.Quote)
	}
	for _, s := range fb.Suggestions {
		for _, part := range strings.Split(s, "“")[1:] {
			inner, _, _ := strings.Cut(part, "”")
			out = append(out, strings.TrimPrefix(inner, "…"))
		}
	}
	return out
}

// wordRange is the byte range of the word of transcript that starts at
// byte at.
func wordRange(transcript string, at int) [2]int {
	end := at
	for end < len(transcript) && strings.IndexByte(" ,.;:?!", transcript[end]) < 0 {
		end++
	}
	return [2]int{at, end}
}

// certainSomewhere reports whether q is said in transcript at least once
// without a byte of an uncertain range.
func certainSomewhere(transcript, q string, uncertain [][2]int) bool {
	for from := 0; ; {
		i := strings.Index(transcript[from:], q)
		if i < 0 {
			return false
		}
		at, end := from+i, from+i+len(q)
		clear := true
		for _, r := range uncertain {
			if r[0] < end && at < r[1] {
				clear = false
			}
		}
		if clear {
			return true
		}
		from = at + 1
	}
}

func TestNoQuoteHoldsAWordThatMayHaveBeenMisheard(t *testing.T) {
	for name, in := range map[string]feedback.Input{
		"a strong answer":  {Profession: "dental", Question: "Tell me about a time you helped a frightened patient.", Subtag: "Behavioral", Transcript: feedbacktest.StarAnswer, Delivery: &feedback.Delivery{DurationSeconds: 75, WordsPerMinute: 150}},
		"a red flag":       {Profession: "medical", Question: "A patient refuses a blood transfusion on religious grounds. What do you do?", Subtag: "Ethical", Transcript: feedbacktest.OverrideAndHide},
		"a vague answer":   whyDentistry(vagueWhyDentistry),
		"a list of pieces": whyDentistry(signpostList),
	} {
		t.Run(name, func(t *testing.T) {
			// Every quote the feedback makes when every word is certain
			// gets a word in its middle marked as possibly misheard,
			// wherever the transcript says it.
			var uncertain [][2]int
			for _, q := range quotesOf(score(t, in)) {
				words := strings.Fields(q)
				if len(words) == 0 {
					continue
				}
				middle := strings.Index(q, words[len(words)/2])
				for from := 0; ; {
					i := strings.Index(in.Transcript[from:], q)
					if i < 0 {
						break
					}
					uncertain = append(uncertain, wordRange(in.Transcript, from+i+middle))
					from += i + 1
				}
			}
			if len(uncertain) == 0 {
				t.Fatal("the feedback quotes nothing of the answer; the test needs an answer it quotes")
			}
			in.Uncertain = uncertain
			fb := score(t, in)
			for _, q := range quotesOf(fb) {
				if q != "" && strings.Contains(in.Transcript, q) && !certainSomewhere(in.Transcript, q, uncertain) {
					t.Errorf("quotes %q, which holds a word that may have been misheard", q)
				}
			}
			if fb.ContentUnjudged {
				t.Errorf("%d words in doubt of %d: the content is judged", len(uncertain), len(strings.Fields(in.Transcript)))
			}
		})
	}
}

// The suggestion "…after “…us to project the practice”" points
// into the answer with misheard words: it points nowhere rather than at
// them, and another suggestion's quote is left out, not shown.
func TestASuggestionDropsItsPointerToMisheardWords(t *testing.T) {
	a := Assess(feedback.Input{Profession: "dental", Question: whyDentist, Transcript: "I want us to project the practice and help people.",
		Uncertain: [][2]int{{13, 20}}}) // "project"
	for in, want := range map[string]string{
		"Back your answer with one real example after “…us to project the practice”.": "Back your answer with one real example.",
		"Cut the fillers (as in “us to project”). Pause instead.":                     "Cut the fillers. Pause instead.",
		"Rethink “to project”: say what you would do.":                                "Rethink what you said there: say what you would do.",
		"Replace “I want us to project the practice and help” with an example.":       "Replace “I want us to” with an example.",
		"Answer the question you were asked — “" + whyDentist + "”.":                  "Answer the question you were asked — “" + whyDentist + "”.",
		`A model's straight quotes: "to project the practice" and "help people".`:     `A model's straight quotes: what you said there and "help people".`,
	} {
		if got := a.certainSuggestion(in); got != want {
			t.Errorf("%q\n got %q\nwant %q", in, got, want)
		}
	}
}

func TestMostlyMisheardContentIsNotJudged(t *testing.T) {
	in := whyDentistry(doneWhyDentistry)
	judged := score(t, in)
	// Every other word in doubt: half the answer.
	words := newText(in.Transcript)
	for i, off := range words.wordOffsets {
		if i%2 == 0 {
			in.Uncertain = append(in.Uncertain, wordRange(in.Transcript, off))
		}
	}
	fb := score(t, in)
	if !fb.ContentUnjudged || fb.SectionScores.Content != 0 {
		t.Fatalf("content judged (%v, %d) with half the words in doubt", fb.ContentUnjudged, fb.SectionScores.Content)
	}
	content := 0
	for _, e := range fb.Evidence {
		if e.Section != feedback.SectionContent {
			continue
		}
		content++
		if e.Unjudged != feedback.UnjudgedTooUncertain || e.Level != 0 || e.Met || e.Quote != "" ||
			!strings.HasPrefix(e.Note, "We could not hear enough of this answer to judge") {
			t.Errorf("content evidence judged: %+v", e)
		}
	}
	if content == 0 {
		t.Error("no content criterion says it abstains")
	}
	// The overall is what could be judged, structure and delivery, in
	// their own proportion; the same answer heard for certain is judged.
	s := fb.SectionScores
	want := (feedback.WeightStructure*float64(s.ClarityStructure) + feedback.WeightImpression*float64(s.OverallImpression)) /
		(feedback.WeightStructure + feedback.WeightImpression)
	if math.Abs(float64(fb.OverallScore)-want) > 1 {
		t.Errorf("overall %d, want about %.1f from structure %d and impression %d", fb.OverallScore, want, s.ClarityStructure, s.OverallImpression)
	}
	if !strings.HasPrefix(fb.Summary, "We could not hear enough") || len(fb.Suggestions) != 1 || !strings.Contains(fb.Suggestions[0], "transcript") || len(fb.Competencies) != 0 {
		t.Errorf("summary %q, first suggestion %q, competencies %v", fb.Summary, fb.Suggestions[0], fb.Competencies)
	}
	if judged.ContentUnjudged || judged.SectionScores.Content == 0 {
		t.Errorf("the answer heard for certain is not judged: %+v", judged.SectionScores)
	}
}

// A few words in doubt are the student's to check; the content is still
// judged, under TooUncertainShare.
func TestAFewMisheardWordsLeaveTheContentJudged(t *testing.T) {
	in := whyDentistry(doneWhyDentistry)
	words := newText(in.Transcript)
	for i, off := range words.wordOffsets {
		if i%4 == 0 {
			in.Uncertain = append(in.Uncertain, wordRange(in.Transcript, off))
		}
	}
	if fb := score(t, in); fb.ContentUnjudged || fb.SectionScores.Content == 0 {
		t.Errorf("a quarter of the words in doubt: content not judged (%+v)", fb.SectionScores)
	}
}

// Issue 39 item 4: a red flag is not raised on words that may have been
// misheard — "I wouldn't mention it to him" misheard is not deception —
// and the score is not capped for it; the same words heard for certain
// raise it.
func TestNoRedFlagIsRaisedOnAWordThatMayHaveBeenMisheard(t *testing.T) {
	in := feedback.Input{Profession: "medical", Question: "A patient refuses a blood transfusion on religious grounds. What do you do?", Subtag: "Ethical", Transcript: feedbacktest.OverrideAndHide}
	certain := score(t, in)
	if len(certain.RedFlags) == 0 {
		t.Fatal("the answer heard for certain raises no red flag")
	}
	// Every word of the answer that a red flag's trigger spans is in doubt;
	// the rest, most of the answer, is certain.
	a := Assess(in)
	for _, h := range a.flags {
		for i, off := range a.t.wordOffsets {
			if end := a.wordEnd(i); off < h.m.end && h.m.at < end {
				in.Uncertain = append(in.Uncertain, [2]int{off, end})
			}
		}
	}
	fb := score(t, in)
	if fb.ContentUnjudged {
		t.Fatalf("content unjudged with %d words in doubt", len(in.Uncertain))
	}
	if len(fb.RedFlags) != 0 {
		t.Errorf("red flags raised on misheard words: %+v", fb.RedFlags)
	}
}
