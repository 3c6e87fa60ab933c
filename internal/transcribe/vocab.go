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

// writeDictionary writes to dir the entries of the pronunciation dictionary
// src (all pronunciation variants) for the first n general words, the health
// terms and the hesitations, and returns the new file's path.
func writeDictionary(src string, n int, dir string) (string, error) {
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
				limit--
			}
		}
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return "", fmt.Errorf("transcribe: read dictionary: %w", err)
	}
	var out bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		word, _, _ := strings.Cut(line, " ")
		if base, _, alt := strings.Cut(word, "("); alt {
			word = base
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
