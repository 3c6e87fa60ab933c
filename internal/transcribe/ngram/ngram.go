// Package ngram builds trigram language models in the ARPA format that
// pocketsphinx reads: one estimated from a text (Estimate), and the mixture
// of two (Interpolate), so that a model of the project's own interview
// texts can be mixed into the general English one instead of replacing it.
package ngram

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// MaxOrder is the longest n-gram a Model holds: trigrams, like Debian's
// en-us model.
const MaxOrder = 3

// Sentence markers, as pocketsphinx's models spell them.
const (
	SentenceStart = "<s>"
	SentenceEnd   = "</s>"
)

// noProb is ARPA's log10 probability of a word never predicted (<s>).
const noProb = -99

// idBits is the width of a word id in a key: three ids fit in 63 bits, and
// 2^21 words is far more than any model here (en-us has 72,547).
const (
	idBits = 21
	maxIDs = 1 << idBits
)

// A key is an n-gram of word ids, the first word in the highest bits.
type key uint64

func makeKey(ids []uint32) key {
	var k key
	for _, id := range ids {
		k = k<<idBits | key(id+1) // +1: no id is 0, so (a) and (0 a) differ
	}
	return k
}

func (k key) ids() []uint32 {
	var ids []uint32
	for ; k != 0; k >>= idBits {
		ids = append(ids, uint32(k&(maxIDs-1))-1)
	}
	slices.Reverse(ids)
	return ids
}

// entry is an n-gram's log10 probability and, below the highest order,
// log10 back-off weight.
type entry struct{ prob, bow float32 }

// Model is a back-off n-gram model: p(w|h) is h w's probability when the
// model lists h w, else bow(h) times p(w|h without its first word).
type Model struct {
	words []string
	ids   map[string]uint32
	// grams[n-1] holds the n-grams.
	grams [MaxOrder]map[key]entry
}

func newModel() *Model {
	m := &Model{ids: map[string]uint32{}}
	for i := range m.grams {
		m.grams[i] = map[key]entry{}
	}
	return m
}

// Order is the length of the model's longest n-grams.
func (m *Model) Order() int {
	n := 0
	for i, g := range m.grams {
		if len(g) > 0 {
			n = i + 1
		}
	}
	return n
}

// Words is the model's vocabulary, markers included.
func (m *Model) Words() []string { return slices.Clone(m.words) }

// Has says whether w is in the vocabulary.
func (m *Model) Has(w string) bool {
	_, ok := m.ids[w]
	return ok
}

func (m *Model) id(w string) (uint32, error) {
	if id, ok := m.ids[w]; ok {
		return id, nil
	}
	if len(m.words) >= maxIDs-1 {
		return 0, fmt.Errorf("ngram: more than %d words", maxIDs-1)
	}
	id := uint32(len(m.words))
	m.words = append(m.words, w)
	m.ids[w] = id
	return id, nil
}

// Prob is log10 p(word | history) by back-off; history holds at most the
// last Order()-1 words that count. A word outside the vocabulary has
// probability 0 (-Inf).
func (m *Model) Prob(history []string, word string) float64 {
	w, ok := m.ids[word]
	if !ok {
		return math.Inf(-1)
	}
	h := make([]uint32, 0, len(history))
	for _, s := range history {
		id, ok := m.ids[s]
		if !ok {
			h = h[:0] // the context ends at a word the model does not know
			continue
		}
		h = append(h, id)
	}
	return m.prob(h, w)
}

func (m *Model) prob(h []uint32, w uint32) float64 {
	if len(h) > MaxOrder-1 {
		h = h[len(h)-(MaxOrder-1):]
	}
	bow := 0.0
	for ; ; h = h[1:] {
		if e, ok := m.grams[len(h)][makeKey(append(slices.Clip(h), w))]; ok {
			return bow + float64(e.prob)
		}
		if len(h) == 0 {
			return math.Inf(-1)
		}
		if e, ok := m.grams[len(h)-1][makeKey(h)]; ok {
			bow += float64(e.bow)
		}
	}
}

// ReadARPA reads a model in the ARPA text format (up to trigrams).
func ReadARPA(r io.Reader) (*Model, error) {
	m := newModel()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	order := 0 // the section being read; 0 before the first
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		switch {
		case text == "" || text == `\data\` || strings.HasPrefix(text, "ngram "):
			continue
		case text == `\end\`:
			return m, nil
		case strings.HasPrefix(text, `\`) && strings.HasSuffix(text, "-grams:"):
			n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(text, `\`), "-grams:"))
			if err != nil || n < 1 || n > MaxOrder {
				return nil, fmt.Errorf("ngram: line %d: section %q (at most %d-grams)", line, text, MaxOrder)
			}
			order = n
			continue
		case order == 0:
			continue // the header's free text
		}
		f := strings.Fields(text)
		if len(f) != order+1 && len(f) != order+2 {
			return nil, fmt.Errorf("ngram: line %d: want %d words with a probability", line, order)
		}
		var e entry
		p, err := strconv.ParseFloat(f[0], 32)
		if err != nil {
			return nil, fmt.Errorf("ngram: line %d: %w", line, err)
		}
		e.prob = float32(p)
		if len(f) == order+2 {
			b, err := strconv.ParseFloat(f[order+1], 32)
			if err != nil {
				return nil, fmt.Errorf("ngram: line %d: %w", line, err)
			}
			e.bow = float32(b)
		}
		ids := make([]uint32, order)
		for i, w := range f[1 : order+1] {
			if order > 1 && !m.Has(w) {
				return nil, fmt.Errorf("ngram: line %d: %q is not among the unigrams", line, w)
			}
			if ids[i], err = m.id(w); err != nil {
				return nil, err
			}
		}
		m.grams[order-1][makeKey(ids)] = e
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("ngram: %w", err)
	}
	return nil, fmt.Errorf("ngram: no \\end\\ line")
}

// WriteARPA writes m in the ARPA format, each order's n-grams sorted by
// their words' ids (first appearance), so the same model writes the same
// bytes.
func (m *Model) WriteARPA(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	order := m.Order()
	fmt.Fprintln(bw, `\data\`)
	for n := 1; n <= order; n++ {
		fmt.Fprintf(bw, "ngram %d=%d\n", n, len(m.grams[n-1]))
	}
	for n := 1; n <= order; n++ {
		fmt.Fprintf(bw, "\n\\%d-grams:\n", n)
		keys := make([]key, 0, len(m.grams[n-1]))
		for k := range m.grams[n-1] {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, func(a, b key) int { return cmp.Compare(a, b) })
		for _, k := range keys {
			e := m.grams[n-1][k]
			fmt.Fprintf(bw, "%.6f", e.prob)
			for _, id := range k.ids() {
				bw.WriteByte('\t')
				bw.WriteString(m.words[id])
			}
			if n < order {
				fmt.Fprintf(bw, "\t%.6f", e.bow)
			}
			bw.WriteByte('\n')
		}
	}
	fmt.Fprintln(bw, "\n\\end\\")
	return bw.Flush()
}
