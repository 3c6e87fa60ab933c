package ngram

import (
	"fmt"
	"math"
)

// Interpolate returns the mixture of a and b with weight lambda on a:
// p(w|h) = lambda·pa(w|h) + (1-lambda)·pb(w|h), each by its own back-off,
// written as a back-off model again (as SRILM's ngram -mix-lm does): it
// lists every n-gram either lists, and its back-off weights are
// recomputed so that every history's probabilities sum to one. The
// vocabulary is b's; a's words outside it are dropped (Estimate a over
// b's words).
func Interpolate(a, b *Model, lambda float64) (*Model, error) {
	if lambda < 0 || lambda > 1 {
		return nil, fmt.Errorf("ngram: weight %v outside [0, 1]", lambda)
	}
	m := newModel()
	for _, w := range b.words {
		if _, err := m.id(w); err != nil {
			return nil, err
		}
	}
	// toA maps m's (b's) ids to a's; -1 where a lacks the word.
	toA := make([]int64, len(m.words))
	for id, w := range m.words {
		toA[id] = -1
		if aid, ok := a.ids[w]; ok {
			toA[id] = int64(aid)
		}
	}
	// fromA maps a's ids to m's; -1 for the dropped words.
	fromA := make([]int64, len(a.words))
	for aid, w := range a.words {
		fromA[aid] = -1
		if id, ok := m.ids[w]; ok {
			fromA[aid] = int64(id)
		}
	}
	probA := func(ids []uint32) float64 {
		mapped := make([]uint32, 0, len(ids))
		for _, id := range ids[:len(ids)-1] {
			if toA[id] < 0 {
				mapped = mapped[:0]
				continue
			}
			mapped = append(mapped, uint32(toA[id]))
		}
		if toA[ids[len(ids)-1]] < 0 {
			return 0
		}
		return math.Pow(10, a.prob(mapped, uint32(toA[ids[len(ids)-1]])))
	}
	mix := func(ids []uint32) float32 {
		p := lambda*probA(ids) + (1-lambda)*math.Pow(10, b.prob(ids[:len(ids)-1], ids[len(ids)-1]))
		return float32(math.Log10(p))
	}
	order := max(a.Order(), b.Order())
	for n := 1; n <= order; n++ {
		for k := range b.grams[n-1] {
			m.grams[n-1][k] = entry{prob: mix(k.ids())}
		}
	next:
		for k := range a.grams[n-1] {
			ids := k.ids()
			for i, id := range ids {
				if fromA[id] < 0 {
					continue next
				}
				ids[i] = uint32(fromA[id])
			}
			mk := makeKey(ids)
			if _, ok := m.grams[n-1][mk]; !ok {
				m.grams[n-1][mk] = entry{prob: mix(ids)}
			}
		}
	}
	// Back-off weights, lowest order first: a history's weight uses the
	// order below, complete by then. bow(h) = (1 - Σ p(w|h)) / (1 - Σ p(w|h'))
	// over the words w that h lists.
	for n := 2; n <= order; n++ {
		type sums struct{ listed, lower float64 }
		hist := map[key]sums{}
		for k, e := range m.grams[n-1] {
			ids := k.ids()
			s := hist[k>>idBits]
			s.listed += math.Pow(10, float64(e.prob))
			s.lower += math.Pow(10, m.prob(ids[1:n-1], ids[n-1]))
			hist[k>>idBits] = s
		}
		for h, s := range hist {
			e, ok := m.grams[n-2][h]
			if !ok {
				return nil, fmt.Errorf("ngram: an %d-gram's history is not listed", n)
			}
			// Rounding can leave nothing to back off to; a tiny weight
			// then stands for none.
			left, lowerLeft := max(1-s.listed, 1e-9), max(1-s.lower, 1e-9)
			e.bow = float32(math.Log10(left / lowerLeft))
			m.grams[n-2][h] = e
		}
	}
	return m, nil
}
