package ngram

import (
	"fmt"
	"math"
	"slices"
)

// Estimate builds a trigram model of sentences (each a list of words,
// without markers) over vocabulary: every word of vocabulary gets a
// probability, those the sentences never use an equal share of the mass
// held back from the ones they do. Words outside vocabulary end the
// context: the n-grams across them are not counted.
//
// The estimate is interpolated absolute discounting: a seen n-gram h w has
// (c(h w) - D) / c(h) plus the weight D·N(h)/c(h), where N(h) is how many
// different words follow h, times the lower order's p(w|h'); an unseen one
// that weight times p(w|h'). D is each order's n1 / (n1 + 2 n2) (Ney),
// from how many n-grams occur once and twice.
func Estimate(sentences [][]string, vocabulary []string) (*Model, error) {
	m := newModel()
	for _, w := range slices.Concat([]string{SentenceStart, SentenceEnd}, vocabulary) {
		if _, err := m.id(w); err != nil {
			return nil, err
		}
	}
	start, end := m.ids[SentenceStart], m.ids[SentenceEnd]
	var counts [MaxOrder]map[key]float64
	for i := range counts {
		counts[i] = map[key]float64{}
	}
	count := func(run []uint32) {
		for i := 1; i < len(run); i++ { // run[0] is <s>, never predicted
			for n := 1; n <= MaxOrder && n <= i+1; n++ {
				counts[n-1][makeKey(run[i+1-n:i+1])]++
			}
		}
	}
	for _, s := range sentences {
		run := []uint32{start}
		for _, w := range s {
			id, ok := m.ids[w]
			if !ok || id == start || id == end {
				if len(run) > 1 {
					count(run)
				}
				run = []uint32{start}
				continue
			}
			run = append(run, id)
		}
		if len(run) > 1 {
			count(append(run, end))
		}
	}
	if len(counts[0]) == 0 {
		return nil, fmt.Errorf("ngram: no words of the vocabulary in the text")
	}

	// Unigrams: discounted counts, and the held-back mass spread evenly.
	d := discount(counts[0])
	var total float64
	for _, c := range counts[0] {
		total += c
	}
	predicted := float64(len(m.words) - 1) // every word but <s>
	floor := d * float64(len(counts[0])) / total / predicted
	for id := range m.words {
		k := makeKey([]uint32{uint32(id)})
		if uint32(id) == start {
			m.grams[0][k] = entry{prob: noProb}
			continue
		}
		m.grams[0][k] = entry{prob: float32(math.Log10(max(counts[0][k]-d, 0)/total + floor))}
	}

	for n := 2; n <= MaxOrder; n++ {
		d := discount(counts[n-1])
		// c(h) and N(h) for every history h of this order.
		type history struct{ total, followers float64 }
		hist := map[key]history{}
		for k, c := range counts[n-1] {
			h := k >> idBits
			s := hist[h]
			s.total += c
			s.followers++
			hist[h] = s
		}
		// Back-off weights first: the n-grams below use them through prob.
		for h, s := range hist {
			e := m.grams[n-2][h]
			e.bow = float32(math.Log10(d * s.followers / s.total))
			m.grams[n-2][h] = e
		}
		for k, c := range counts[n-1] {
			ids := k.ids()
			s := hist[k>>idBits]
			lower := math.Pow(10, m.prob(ids[1:n-1], ids[n-1]))
			p := (c-d)/s.total + d*s.followers/s.total*lower
			m.grams[n-1][k] = entry{prob: float32(math.Log10(p))}
		}
	}
	return m, nil
}

// discount is Ney's absolute discount for an order's counts: n1/(n1+2 n2),
// or a half when the text is too small to tell.
func discount(counts map[key]float64) float64 {
	var n1, n2 float64
	for _, c := range counts {
		switch c {
		case 1:
			n1++
		case 2:
			n2++
		}
	}
	if n1 == 0 || n2 == 0 {
		return 0.5
	}
	return n1 / (n1 + 2*n2)
}
