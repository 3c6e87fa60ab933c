package rubric

import (
	"strings"
	"unicode"

	"github.com/whitecoat/whitecoat/internal/feedback"
)

// What the feedback does with the words the speech engine may have
// misheard (feedback.Input.Uncertain), whichever engine judged the answer:
// it never quotes them back as said, and where they are too much of the
// answer, its content is not judged at all.

// TooUncertainShare is the share of an answer's words that may have been
// misheard from which its content is not judged: half. On the bench's
// real recordings (bench/transcribe -set real) the local engine marks 39%
// of the words, and 40% of those were misheard against 14% of the rest;
// an answer marked past half is one the engine mostly failed on (the
// Austen clip that came out "but mr john guess would have been a
// leisure…", 55% marked; JFK's, 68%), not one with a few words to check.
// And the content criteria rest on phrases of two to five words ("I
// shadowed a dentist", "what it taught me"): with half the words in doubt
// a three-word phrase is wholly certain one time in eight (0.5³), so what
// they find, or miss, would be the engine's guess, not the student's words.
const TooUncertainShare = 0.5

// minCertainQuoteWords is the shortest quote left when a quote is cut down
// to the words heard for certain: fewer says nothing about the answer.
const minCertainQuoteWords = 3

// Texts of the abstention.
const (
	msgContentUnjudged = "We could not hear enough of this answer to judge this: check the words we may have misheard in the transcript, then score it again."
	msgSummaryUnjudged = "We could not hear enough of this answer to judge its content, so its score comes from its structure and delivery alone. " +
		"Check the words we may have misheard in the transcript and correct them; the answer is then scored again on your words."
	msgSuggestCheck = "Correct the words we may have misheard in the transcript, then score again: the content of this answer can then be judged."
	// unquoted stands for a quote of misheard words in a suggestion.
	unquoted = "what you said there"
)

// contentUnjudged reports whether too much of the answer may have been
// misheard to judge its content (TooUncertainShare).
func (a *Assessment) contentUnjudged() bool {
	return a.words > 0 && float64(len(a.in.Uncertain)) >= TooUncertainShare*float64(a.words)
}

// heedUncertainty makes fb, any engine's feedback on the answer, honest
// about the words that may have been misheard: no quote, evidence, red
// flag or suggestion keeps one (a quote is cut down to the words heard for
// certain, or left out), and when they are too much of the answer the
// content criteria abstain.
func (a *Assessment) heedUncertainty(fb *feedback.Feedback) {
	if len(a.in.Uncertain) == 0 {
		return
	}
	for i := range fb.Evidence {
		fb.Evidence[i].Quote = a.certainAnswerQuote(fb.Evidence[i].Quote)
	}
	for i := range fb.RedFlags {
		fb.RedFlags[i].Quote = a.certainAnswerQuote(fb.RedFlags[i].Quote)
	}
	for i, s := range fb.Suggestions {
		fb.Suggestions[i] = a.certainSuggestion(s)
	}
	if !a.contentUnjudged() {
		return
	}
	fb.ContentUnjudged = true
	fb.SectionScores.Content = 0
	for i, e := range fb.Evidence {
		if e.Section == feedback.SectionContent {
			fb.Evidence[i] = feedback.Evidence{Section: e.Section, Criterion: e.Criterion, Note: msgContentUnjudged, Unjudged: feedback.UnjudgedTooUncertain}
		}
	}
	// The competencies an answer shows are read off its content too.
	fb.Competencies = []feedback.Competency{}
	fb.Summary = msgSummaryUnjudged
	// Every other suggestion would rest on the misheard words too.
	fb.Suggestions = []string{msgSuggestCheck}
}

// certainAnswerQuote is q, a quote of the answer (evidence, a red flag),
// as it may be shown: see certainQuote; a quote the transcript does not
// say as such is reworded, and is left out when it holds a word the
// transcript has only where it may have been misheard.
func (a *Assessment) certainAnswerQuote(q string) string {
	certain, found := a.certainQuote(q)
	if !found && a.onlyMisheardWordIn(q) {
		return ""
	}
	return certain
}

// certainQuote is q as it may be shown: q itself where the transcript
// says it without a word that may have been misheard, or does not say it
// at all (found false: a question, an example phrase); else its longest
// stretch of certain words, when that still says something; else nothing.
func (a *Assessment) certainQuote(q string) (certain string, found bool) {
	if q == "" {
		return "", false
	}
	best := ""
	for from := 0; ; {
		i := strings.Index(a.t.lower[from:], strings.ToLower(q))
		if i < 0 {
			break
		}
		found = true
		at, end := from+i, from+i+len(q)
		if !a.uncertainIn(at, end) {
			return q, true
		}
		if run := a.certainRun(at, end); len(strings.Fields(run)) > len(strings.Fields(best)) {
			best = run
		}
		from = at + 1
	}
	if !found {
		return q, false
	}
	if len(strings.Fields(best)) < minCertainQuoteWords {
		return "", true
	}
	return best, true
}

// certainOnly are the matches of ms without a word that may have been
// misheard: what a red flag may be raised on.
func (a *Assessment) certainOnly(ms []match) []match {
	if len(a.in.Uncertain) == 0 {
		return ms
	}
	out := ms[:0:0]
	for _, m := range ms {
		if !a.uncertainIn(m.at, m.end) {
			out = append(out, m)
		}
	}
	return out
}

// uncertainIn reports whether bytes [at, end) of the transcript hold any
// of a word that may have been misheard.
func (a *Assessment) uncertainIn(at, end int) bool {
	for _, r := range a.in.Uncertain {
		if r[0] < end && at < r[1] {
			return true
		}
	}
	return false
}

// certainRun is the longest run of whole words heard for certain in bytes
// [at, end) of the transcript, as said, without the punctuation around it.
func (a *Assessment) certainRun(at, end int) string {
	best, runFrom, runWords, bestWords := "", -1, 0, 0
	for i, off := range a.t.wordOffsets {
		wordEnd := a.wordEnd(i)
		switch {
		case off < at || wordEnd > end:
			continue
		case a.uncertainIn(off, wordEnd):
			runFrom, runWords = -1, 0
			continue
		case runFrom < 0:
			runFrom = off
		}
		runWords++
		if runWords > bestWords {
			best, bestWords = a.t.raw[runFrom:wordEnd], runWords
		}
	}
	return strings.TrimFunc(best, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSpace(r) })
}

// wordEnd is where the transcript's i-th word ends.
func (a *Assessment) wordEnd(i int) int {
	end := a.t.wordOffsets[i]
	for _, r := range a.t.raw[end:] {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '’') {
			break
		}
		end += len(string(r))
	}
	return end
}

// onlyMisheardWordIn reports whether q has a word the transcript has only
// where it may have been misheard: a quote reworded around a misheard word
// still quotes it.
func (a *Assessment) onlyMisheardWordIn(q string) bool {
	certain, misheard := map[string]bool{}, map[string]bool{}
	for i, off := range a.t.wordOffsets {
		if a.uncertainIn(off, a.wordEnd(i)) {
			misheard[a.t.words[i]] = true
		} else {
			certain[a.t.words[i]] = true
		}
	}
	for _, w := range newText(q).words {
		if misheard[w] && !certain[w] {
			return true
		}
	}
	return false
}

// certainSuggestion is suggestion s with every quote of the answer in it
// (“…”, or "…" as a model may write it) heard for certain: a quote of
// misheard words is cut down to the certain ones (certainQuote), or, when
// none are left, its pointer ("after “…”", "(as in “…”)") goes and another
// quote becomes unquoted.
func (a *Assessment) certainSuggestion(s string) string {
	for _, marks := range [][2]string{{"“", "”"}, {`"`, `"`}} {
		s = a.certainQuotes(s, marks[0], marks[1])
	}
	return s
}

// certainQuotes is certainSuggestion for the quotes between open and
// closing.
func (a *Assessment) certainQuotes(s, open, closing string) string {
	var b strings.Builder
	for {
		from := strings.Index(s, open)
		if from < 0 {
			break
		}
		to := strings.Index(s[from+len(open):], closing)
		if to < 0 {
			break
		}
		to += from + len(open)
		inner := s[from+len(open) : to]
		said := strings.TrimPrefix(inner, "…")
		q, _ := a.certainQuote(said)
		switch {
		case q == said:
			b.WriteString(s[:to+len(closing)])
		case q != "":
			b.WriteString(s[:from] + open + strings.TrimSuffix(inner, said) + q + closing)
		case strings.HasSuffix(s[:from], " after "):
			b.WriteString(strings.TrimSuffix(s[:from], " after "))
		case strings.HasSuffix(s[:from], " (as in ") && strings.HasPrefix(s[to+len(closing):], ")"):
			b.WriteString(strings.TrimSuffix(s[:from], " (as in "))
			to += len(")")
		default:
			b.WriteString(s[:from] + unquoted)
		}
		s = s[to+len(closing):]
	}
	b.WriteString(s)
	return b.String()
}
