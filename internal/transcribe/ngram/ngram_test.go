package ngram

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

const smallARPA = `\data\
ngram 1=5
ngram 2=4
ngram 3=1

\1-grams:
-99	<s>	-0.176091
-0.60206	</s>
-0.60206	a	-0.30103
-0.60206	b	-0.477121
-0.60206	c

\2-grams:
-0.30103	<s> a	-0.39794
-0.30103	a b	0
-0.124939	b </s>
-0.60206	a c

\3-grams:
-0.09691	<s> a b

\end\
`

func read(t *testing.T, text string) *Model {
	t.Helper()
	m, err := ReadARPA(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func near(t *testing.T, what string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 1e-4 {
		t.Errorf("%s = %.6f, want %.6f", what, got, want)
	}
}

func TestProbBacksOff(t *testing.T) {
	m := read(t, smallARPA)
	for _, h := range [][]string{nil, {"<s>"}, {"a"}, {"b"}, {"c"}, {"<s>", "a"}, {"a", "b"}} {
		sumsToOne(t, m, h...)
	}
	near(t, "p(b|<s> a)", m.Prob([]string{"<s>", "a"}, "b"), -0.09691)
	near(t, "p(c|<s> a)", m.Prob([]string{"<s>", "a"}, "c"), -0.39794-0.60206)          // bow(<s> a) + p(c|a)
	near(t, "p(</s>|a)", m.Prob([]string{"a"}, "</s>"), -0.30103-0.60206)               // bow(a) + p(</s>)
	near(t, "p(a|x b)", m.Prob([]string{"x", "b"}, "a"), -0.477121-0.60206)             // x unknown: context is b
	near(t, "p(b) in a long history", m.Prob([]string{"c", "<s>", "a"}, "b"), -0.09691) // the last two words count
	if p := m.Prob(nil, "zebra"); !math.IsInf(p, -1) {
		t.Errorf("p(zebra) = %v, want -Inf for a word outside the vocabulary", p)
	}
}

func TestARPARoundTrip(t *testing.T) {
	m := read(t, smallARPA)
	var out bytes.Buffer
	if err := m.WriteARPA(&out); err != nil {
		t.Fatal(err)
	}
	again := read(t, out.String())
	if again.Order() != 3 || len(again.Words()) != 5 {
		t.Fatalf("read back order %d with %d words, want 3 and 5", again.Order(), len(again.Words()))
	}
	for _, c := range [][]string{{"<s>", "a", "b"}, {"<s>", "a", "c"}, {"b", "</s>"}, {"a", "</s>"}, {"c"}} {
		h, w := c[:len(c)-1], c[len(c)-1]
		near(t, "p("+strings.Join(c, " ")+")", again.Prob(h, w), m.Prob(h, w))
	}
	var twice bytes.Buffer
	if err := again.WriteARPA(&twice); err != nil {
		t.Fatal(err)
	}
	if twice.String() != out.String() {
		t.Errorf("the same model wrote different bytes:\n%s\n---\n%s", out.String(), twice.String())
	}
}

func TestReadARPARefusesBrokenFiles(t *testing.T) {
	for name, text := range map[string]string{
		"4-grams":         "\\data\\\n\\4-grams:\n-1 a b c d\n\\end\\\n",
		"unknown word":    "\\data\\\n\\1-grams:\n-1 a\n\\2-grams:\n-1 a b\n\\end\\\n",
		"no end":          "\\data\\\n\\1-grams:\n-1 a\n",
		"bad probability": "\\data\\\n\\1-grams:\nx a\n\\end\\\n",
	} {
		if _, err := ReadARPA(strings.NewReader(text)); err == nil {
			t.Errorf("%s: read without an error", name)
		}
	}
}

// sumsToOne checks that p(w|history) over m's vocabulary (but <s>) sums to 1.
func sumsToOne(t *testing.T, m *Model, history ...string) {
	t.Helper()
	var sum float64
	for _, w := range m.Words() {
		if w != SentenceStart {
			sum += math.Pow(10, m.Prob(history, w))
		}
	}
	if math.Abs(sum-1) > 1e-4 {
		t.Errorf("p(.|%s) sums to %.6f, want 1", strings.Join(history, " "), sum)
	}
}

var text = [][]string{
	{"i", "shadowed", "a", "dentist"},
	{"i", "shadowed", "a", "nurse", "in", "a", "clinic"},
	{"a", "dentist", "in", "a", "clinic"},
	{"the", "patient", "was", "afraid", "of", "the", "dentist"},
	{"i", "listened", "to", "the", "patient", "zzz", "first"}, // zzz: outside the vocabulary
}

var vocabulary = strings.Fields("i shadowed a dentist nurse in clinic the patient was afraid of listened to first cat")

func TestEstimateIsAProbabilityEverywhere(t *testing.T) {
	m, err := Estimate(text, vocabulary)
	if err != nil {
		t.Fatal(err)
	}
	if m.Order() != 3 {
		t.Fatalf("order %d, want 3", m.Order())
	}
	for _, h := range [][]string{nil, {"a"}, {"<s>"}, {"i", "shadowed"}, {"in", "a"}, {"cat"}, {"cat", "a"}, {"<s>", "i"}} {
		sumsToOne(t, m, h...)
	}
	if m.Prob([]string{"i"}, "shadowed") <= m.Prob([]string{"i"}, "nurse") {
		t.Error("a seen bigram is no likelier than an unseen one")
	}
	if p := m.Prob(nil, "cat"); math.IsInf(p, -1) || p >= m.Prob(nil, "dentist") {
		t.Errorf("p(cat) = %v: a word the text never uses wants a small share, below its words'", p)
	}
	if m.Has("zzz") {
		t.Error("a word outside the vocabulary joined the model")
	}
	if p := m.Prob([]string{"patient"}, "first"); p > m.Prob(nil, "first") {
		t.Error("the n-gram across a word outside the vocabulary was counted")
	}
}

func TestEstimateNeedsWordsOfTheVocabulary(t *testing.T) {
	if _, err := Estimate([][]string{{"zzz"}}, vocabulary); err == nil {
		t.Error("a text without a word of the vocabulary estimated a model")
	}
}

func TestInterpolateMixesAndStaysAProbability(t *testing.T) {
	general := read(t, smallARPA)
	domain, err := Estimate([][]string{{"a", "c"}, {"a", "c", "b"}, {"c", "c"}, {"d", "a"}}, general.Words())
	if err != nil {
		t.Fatal(err)
	}
	const lambda = 0.3
	m, err := Interpolate(domain, general, lambda)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range [][]string{nil, {"a"}, {"<s>"}, {"<s>", "a"}, {"a", "c"}, {"c"}, {"b", "a"}} {
		sumsToOne(t, m, h...)
	}
	// Listed by either model: exactly the mixture.
	for _, c := range [][]string{{"<s>", "a", "b"}, {"a", "c"}, {"a", "c", "b"}, {"b"}} {
		h, w := c[:len(c)-1], c[len(c)-1]
		want := math.Log10(lambda*math.Pow(10, domain.Prob(h, w)) + (1-lambda)*math.Pow(10, general.Prob(h, w)))
		near(t, "p_mix("+strings.Join(c, " ")+")", m.Prob(h, w), want)
	}
	for _, l := range []float64{-0.1, 1.5} {
		if _, err := Interpolate(domain, general, l); err == nil {
			t.Errorf("weight %v accepted", l)
		}
	}
}

func TestInterpolateAtTheEndsIsOneModel(t *testing.T) {
	general := read(t, smallARPA)
	domain, err := Estimate([][]string{{"a", "c"}, {"c", "b"}}, []string{"a", "b", "c"})
	if err != nil {
		t.Fatal(err)
	}
	m, err := Interpolate(domain, general, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range [][]string{{"<s>", "a", "b"}, {"a", "c"}, {"c", "b"}, {"b", "a"}, {"c"}} {
		h, w := c[:len(c)-1], c[len(c)-1]
		near(t, "weight 0: p("+strings.Join(c, " ")+")", m.Prob(h, w), general.Prob(h, w))
	}
}
