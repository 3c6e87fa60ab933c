package rubric

import (
	"slices"
	"strings"
)

// Credit for doing, not for naming: a detail an interviewer can picture
// counts in full when it is told as something someone did ("I shadowed a
// general dentist at a community clinic for 200 hours", "Dr. Okafor did a
// partial for him"), not when it stands on its own ("Second, a community
// clinic with patients").
//
// A deed is found by the shape of the clause rather than by a list of
// verbs: a subject (I, we, he, she, they or a name), then a verb that acts
// — a past tense ("I rebooked her", "I knelt down") or a verb after
// would/will ("I'd thank the grandson") — and the past verbs joined to it
// ("…, asked him what hurt and showed him the chair"). Verbs of being,
// feeling, wanting, knowing and perceiving are not deeds ("I felt",
// "I wanted", "I realized"), nor is a negated verb ("I didn't call").

var (
	// deedAdverbs may stand between the subject and its verb.
	deedAdverbs = wordSet("then", "also", "first", "finally", "immediately", "quickly", "just", "still", "eventually", "later", "carefully", "gently",
		"personally", "actually", "really", "always", "even", "instead", "calmly", "simply", "probably", "quietly", "slowly", "politely", "privately",
		"honestly", "directly", "right", "away", "definitely", "certainly", "now", "next", "only", "both", "each")
	// deedModals make the clause a proposed deed.
	deedModals = wordSet("would", "will", "could", "should", "might")
	// contractedModals are the subject and modal in one word.
	contractedModals = wordSet("i'd", "i'll", "i’d", "i’ll")
	// notDeeds are verbs of being, having, feeling, wanting, knowing and
	// perceiving, in the forms the subject takes: what the applicant was
	// or thought, not what they did.
	notDeeds = wordSet("be", "been", "being", "was", "were", "am", "is", "are", "have", "has", "had", "do", "did", "does", "feel", "felt",
		"think", "thought", "know", "knew", "want", "wanted", "need", "needed", "like", "liked", "love", "loved", "hate", "hated", "hope", "hoped",
		"wish", "wished", "seem", "seemed", "believe", "believed", "guess", "guessed", "mean", "meant", "realize", "realized", "realise", "realised",
		"learn", "learned", "learnt", "understand", "understood", "remember", "remembered", "enjoy", "enjoyed", "appreciate", "appreciated", "get", "got",
		"become", "became", "grow", "grew", "used", "supposed", "see", "saw", "seen", "watch", "watched", "notice", "noticed", "hear", "heard",
		"observe", "observed", "imagine", "imagined", "worry", "worried", "care", "cared", "prefer", "preferred", "expect", "expected", "assume", "assumed",
		"wonder", "decide", "try", "say", "probably", "never", "not", "rather", "definitely", "also", "then", "just", "really", "too", "so",
		"lived", "struggled", "failed", "panicked", "froze", "missed", "forgot", "lost", "ended", "started", "continued", "agreed", "disagreed",
		"figured", "considered", "reflected", "doubted", "recognized", "recognised", "valued", "admired", "respected", "excelled")
	// irregularDeeds are common irregular past tenses of doing.
	irregularDeeds = wordSet("went", "came", "told", "said", "took", "gave", "made", "brought", "kept", "left", "met", "ran", "sat", "spoke", "stood",
		"taught", "wrote", "held", "led", "sent", "spent", "built", "put", "set", "cut", "found", "paid", "drew", "chose", "drove", "rang", "sought",
		"caught", "bought", "knelt", "fed", "wound", "rewrote", "withdrew", "undertook", "split", "shut", "swept", "dealt", "fought", "taped", "won")
	// deedJoins join another verb to a deed in the same sentence.
	deedJoins = wordSet("and", "then", "but", "or")
)

// deedSubjects are who does the deeds of a story: the applicant and the
// people in it (a name stands before its verb too, see named).
var deedSubjects = wordSet("i", "we", "he", "she", "they")

// deeds lists the deeds the answer tells, one match per verb.
func (t *text) deeds() []match {
	var out []match
	for _, s := range t.sentences {
		from, to := t.wordAt(s[0]), t.wordAt(s[1])
		for i := from; i < to; i++ {
			proposed, j := false, i+1
			switch w := t.words[i]; {
			case contractedModals[w]:
				proposed = true
			case deedSubjects[w], t.named(i) && i+1 < to && !deedSubjects[t.words[i+1]]:
			default:
				continue
			}
			for j < to && deedAdverbs[t.words[j]] {
				j++
			}
			if !proposed && j < to && deedModals[t.words[j]] {
				proposed, j = true, j+1
				for j < to && deedAdverbs[t.words[j]] {
					j++
				}
			}
			if j >= to || !t.isDeed(t.words[j], proposed) {
				continue
			}
			out = append(out, t.deedAt(j))
			// Past verbs joined to it share its subject: "I knelt down,
			// asked him what hurt, and showed him the chair". (After a
			// modal a joined base form cannot be told from a noun.)
			for k := j + 1; k < to && !proposed; k++ {
				w := t.words[k]
				if deedSubjects[w] || contractedModals[w] || subjectPronouns[w] {
					break
				}
				joined := deedJoins[t.words[k-1]] || strings.ContainsAny(t.raw[t.wordOffsets[k-1]:t.wordOffsets[k]], ",;")
				if joined && t.isDeed(w, false) {
					out = append(out, t.deedAt(k))
				}
			}
		}
	}
	return out
}

// isDeed: w is a verb of doing, as a past tense or, after a modal, as a
// base form.
func (t *text) isDeed(w string, proposed bool) bool {
	if notDeeds[w] || negations[w] {
		return false
	}
	if proposed {
		return len(w) > 1 && !deedModals[w] && !strings.HasSuffix(w, "ly")
	}
	return irregularDeeds[w] || len(w) > 4 && strings.HasSuffix(w, "ed")
}

func (t *text) deedAt(i int) match {
	end := len(t.raw)
	if i+1 < len(t.wordOffsets) {
		end = t.wordOffsets[i+1]
	}
	return match{at: t.wordOffsets[i], end: end, text: t.words[i]}
}

// named: word i is a name in the middle of a sentence ("Maria") or
// after a title ("Dr. Okafor").
func (t *text) named(i int) bool {
	if i == 0 || !t.punctuated {
		return false
	}
	if r := t.raw[t.wordOffsets[i]]; r < 'A' || r > 'Z' || t.words[i] == "i" {
		return false
	}
	between := t.raw[t.wordOffsets[i-1]+len(t.words[i-1]) : t.wordOffsets[i]]
	return slices.Contains(titles, t.words[i-1]) || !strings.ContainsAny(between, ".!?\n")
}

// episodes counts the sentences that tell someone doing something with
// a concrete detail in it: "I shadowed a general dentist at a community
// clinic for 200 hours", not "Second, a community clinic".
func (t *text) episodes(details []match) int {
	deeds := t.deeds()
	n := 0
	for _, s := range t.sentences {
		in := func(m match) bool { return m.at >= s[0] && m.at < s[1] }
		if slices.ContainsFunc(deeds, in) && slices.ContainsFunc(details, in) {
			n++
		}
	}
	return n
}
