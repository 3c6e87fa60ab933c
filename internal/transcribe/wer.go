package transcribe

// WordErrors is the word-level edit distance between a reference and a
// hypothesis (substitutions, insertions and deletions): the numerator of
// the word error rate. Callers tokenise both sides the same way first.
func WordErrors(ref, hyp []string) int {
	d := make([]int, len(hyp)+1)
	for j := range d {
		d[j] = j
	}
	for i := 1; i <= len(ref); i++ {
		prev := d[0]
		d[0] = i
		for j := 1; j <= len(hyp); j++ {
			cur := d[j]
			cost := 1
			if ref[i-1] == hyp[j-1] {
				cost = 0
			}
			d[j] = min(d[j]+1, d[j-1]+1, prev+cost)
			prev = cur
		}
	}
	return d[len(hyp)]
}

// CountWordErrors returns the word errors of the transcript hyp against the
// text ref, both lower-cased and split into words the same way, and the
// number of words in ref: the word error rate is their ratio.
func CountWordErrors(ref, hyp string) (errors, words int) {
	r := normalizeWords(ref)
	return WordErrors(r, normalizeWords(hyp)), len(r)
}
