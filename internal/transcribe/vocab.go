package transcribe

import (
	"bufio"
	"bytes"
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The decoder searches every dictionary word its language model knows: 72,000
// for Debian's en-us model, most of which never occur in an interview answer
// but all of which cost search time and compete with the right word. The
// local engine therefore hands pocketsphinx a dictionary cut down to the most
// probable general English words plus a list of health-profession terms.
var (
	//go:embed vocab/general.txt
	generalWords string
	//go:embed vocab/health.txt
	healthWords string
)

// MaxVocabulary is how many general words vocab/general.txt lists: every
// word of Debian's en-us language model.
const MaxVocabulary = 72545

// commonWords is how many of the most probable general words keep their
// first pronunciation even when it is a hesitation's.
const commonWords = 100

// writeDictionary writes to dir the entries of the pronunciation dictionary
// src (all pronunciation variants) for the first n general words, the health
// terms and the hesitations, and returns the new file's path.
//
// Entries that sound exactly like "um" or "hmm" are left out (except the
// first pronunciation of the commonWords most probable words): with them the
// language model, which knows "I'm" far better than "um", wrote "is um
// listening" as "is I'm listening" (I'm's second pronunciation is AH M).
func writeDictionary(src string, n int, dir string) (string, error) {
	common := make(map[string]bool, commonWords)
	keep := make(map[string]bool, n+1000)
	for w := range hesitations {
		keep[w] = true
	}
	for _, list := range []string{healthWords, generalWords} {
		limit := n
		if list == healthWords {
			limit = -1
		}
		for line := range strings.Lines(list) {
			if strings.HasPrefix(line, "#") {
				continue
			}
			for _, w := range strings.Fields(line) {
				if limit == 0 {
					break
				}
				keep[w] = true
				if list == generalWords && n-limit < commonWords {
					common[w] = true
				}
				limit--
			}
		}
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return "", fmt.Errorf("transcribe: read dictionary: %w", err)
	}
	hesitant := map[string]bool{} // the hesitations' pronunciations
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		word, phones, _ := strings.Cut(sc.Text(), " ")
		// Only the hesitations of more than one phone: "um" (AH M) and
		// "hmm" (HH M). Leaving the one-phone ones theirs cost more than it
		// gained: without are(2) (ER, like "er") the benchmark lost words.
		if base, _, _ := strings.Cut(word, "("); hesitations[base] && strings.Contains(strings.TrimSpace(phones), " ") {
			hesitant[strings.TrimSpace(phones)] = true
		}
	}
	// A word whose first pronunciation goes, goes whole: the decoder refuses
	// an alternate ("awe(2)") without its base word.
	sc = bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		word, phones, _ := strings.Cut(sc.Text(), " ")
		if !strings.Contains(word, "(") && !hesitations[word] && !common[word] && hesitant[strings.TrimSpace(phones)] {
			delete(keep, word)
		}
	}
	var out bytes.Buffer
	sc = bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		word, phones, _ := strings.Cut(line, " ")
		base, _, alt := strings.Cut(word, "(")
		word = base
		if !hesitations[word] && hesitant[strings.TrimSpace(phones)] && (alt || !common[word]) {
			continue
		}
		if keep[word] {
			out.WriteString(line)
			out.WriteByte('\n')
		}
	}
	if err := sc.Err(); err != nil {
		return "", fmt.Errorf("transcribe: read dictionary: %w", err)
	}
	if out.Len() == 0 {
		return "", fmt.Errorf("transcribe: dictionary %s has none of the vocabulary", src)
	}
	path := filepath.Join(dir, "vocabulary.dict")
	if err := os.WriteFile(path, out.Bytes(), 0o600); err != nil {
		return "", fmt.Errorf("transcribe: write dictionary: %w", err)
	}
	return path, nil
}
