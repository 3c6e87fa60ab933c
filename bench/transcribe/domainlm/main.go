// Command domainlm builds the language model of the project's own texts
// (the question bank, the guides and pages, the feedback exemplars) and
// mixes it into the general English model:
//
//	go run ./bench/transcribe/domainlm -general en-us.arpa -lambda 0.1 -o mixed.arpa
//
// Debian ships the general model only as en-us.lm.bin; write it as ARPA
// first with enusarpa/en-us-arpa.c (bookworm's sphinx_lm_convert aborts on it),
// and the result back to binary with sphinx_lm_convert -i mixed.arpa -o
// mixed.lm.bin. -eval prints the mixture's perplexity on other texts, for
// choosing the weight. Measured (bench/transcribe/real/README.md): weight
// 0.2 cost six words on the real recordings; not used by the engine. The texts the speech benchmark speaks
// (bench/transcribe/corpus, dev, fillers) and the feedback benchmark's
// answers are left out, so that the benchmarks do not hear their own words.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"

	"github.com/whitecoat/whitecoat/internal/transcribe/ngram"
)

func main() {
	general := flag.String("general", "", "the general model, ARPA")
	lambda := flag.Float64("lambda", 0.1, "the domain model's weight in the mixture")
	out := flag.String("o", "", "where to write the mixture (ARPA); with -domain-only the domain model alone")
	domainOnly := flag.Bool("domain-only", false, "write the domain model alone (over the general vocabulary)")
	texts := flag.Bool("texts", false, "print the sentences the domain model is built from and stop")
	eval := flag.String("eval", "", "instead of writing a model, print the perplexity of each weight in -lambdas on these texts (a glob)")
	lambdas := flag.String("lambdas", "0,0.05,0.1,0.2,0.3,0.5", "the weights -eval compares")
	flag.Parse()
	if *eval != "" {
		if err := evaluate(*general, *eval, *lambdas); err != nil {
			fmt.Fprintln(os.Stderr, "domainlm:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*general, *lambda, *out, *domainOnly, *texts); err != nil {
		fmt.Fprintln(os.Stderr, "domainlm:", err)
		os.Exit(1)
	}
}

func repoRoot() string {
	_, self, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(self), "..", "..", "..")
}

// models reads the general model and estimates the domain one over its
// words.
func models(generalPath string) (general, domain *ngram.Model, err error) {
	sentences, err := projectSentences(repoRoot())
	if err != nil {
		return nil, nil, err
	}
	f, err := os.Open(generalPath)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	if general, err = ngram.ReadARPA(f); err != nil {
		return nil, nil, err
	}
	domain, err = ngram.Estimate(sentences, general.Words())
	return general, domain, err
}

func run(generalPath string, lambda float64, out string, domainOnly, printTexts bool) error {
	if printTexts {
		sentences, err := projectSentences(repoRoot())
		for _, s := range sentences {
			fmt.Println(strings.Join(s, " "))
		}
		return err
	}
	general, domain, err := models(generalPath)
	if err != nil {
		return err
	}
	model := domain
	if !domainOnly {
		if model, err = ngram.Interpolate(domain, general, lambda); err != nil {
			return err
		}
	}
	w, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := model.WriteARPA(w); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}

// projectSentences are the sentences of the project's texts, as lists of
// lower-case words.
func projectSentences(root string) ([][]string, error) {
	var docs []string
	bank, err := filepath.Glob(filepath.Join(root, "internal/question/bank/*.json"))
	if err != nil {
		return nil, err
	}
	for _, path := range bank {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		docs = append(docs, jsonStrings(v)...)
	}
	err = filepath.WalkDir(filepath.Join(root, "content"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".md" {
			return err
		}
		b, err := os.ReadFile(path)
		docs = append(docs, markdownText(string(b)))
		return err
	})
	if err != nil {
		return nil, err
	}
	exemplars, err := os.ReadFile(filepath.Join(root, "internal/feedback/llm/exemplars.go"))
	if err != nil {
		return nil, err
	}
	for _, m := range goString.FindAllStringSubmatch(string(exemplars), -1) {
		docs = append(docs, m[1]+m[2])
	}
	var sentences [][]string
	for _, d := range docs {
		sentences = append(sentences, splitSentences(d)...)
	}
	return sentences, nil
}

// jsonStrings are the texts among v's string values: those of more than
// two words (keys, tags and ids are single words).
func jsonStrings(v any) []string {
	switch v := v.(type) {
	case string:
		if len(strings.Fields(v)) > 2 {
			return []string{v}
		}
	case []any:
		var all []string
		for _, e := range v {
			all = append(all, jsonStrings(e)...)
		}
		return all
	case map[string]any:
		var all []string
		for _, e := range v {
			all = append(all, jsonStrings(e)...)
		}
		return all
	}
	return nil
}

var (
	goString     = regexp.MustCompile("`([^`]*)`|\"((?:[^\"\\\\]|\\\\.)*)\"")
	markdownLink = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
	markdownCode = regexp.MustCompile("```[\\s\\S]*?```")
	sentenceEnd  = regexp.MustCompile(`[.!?;:|\n]+(\s|$)|\n`)
	word         = regexp.MustCompile(`[a-z]+(?:'[a-z]+)*|[0-9]+`)
)

// markdownText is md's prose: code blocks dropped, links' text kept.
func markdownText(md string) string {
	md = markdownCode.ReplaceAllString(md, "\n")
	return markdownLink.ReplaceAllString(md, "$1")
}

// splitSentences cuts text into sentences of lower-case words, spoken
// across commas and quotes; a number stays as a token of its own, which
// Estimate, not knowing it, treats as a break in the context.
func splitSentences(text string) [][]string {
	text = strings.NewReplacer("’", "'", "‘", "'", "-", " ", "—", " ", "–", " ", "*", " ", "#", " ", "_", " ").Replace(strings.ToLower(text))
	var sentences [][]string
	for _, s := range sentenceEnd.Split(text, -1) {
		words := word.FindAllString(s, -1)
		if len(words) > 1 {
			sentences = append(sentences, words)
		}
	}
	return sentences
}

// evaluate prints the perplexity of the mixture at each weight on the
// texts matching glob, over their words the general model knows (each
// sentence from <s> to </s>).
func evaluate(generalPath, glob, lambdas string) error {
	general, domain, err := models(generalPath)
	if err != nil {
		return err
	}
	paths, err := filepath.Glob(glob)
	if err != nil || len(paths) == 0 {
		return fmt.Errorf("no texts match %q", glob)
	}
	var sentences [][]string
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sentences = append(sentences, splitSentences(string(b))...)
	}
	for _, f := range strings.Split(lambdas, ",") {
		var lambda float64
		if _, err := fmt.Sscan(f, &lambda); err != nil {
			return fmt.Errorf("-lambdas: %w", err)
		}
		var logSum float64
		var n, oov int
		for _, s := range sentences {
			history := []string{ngram.SentenceStart}
			for _, w := range append(slices.Clone(s), ngram.SentenceEnd) {
				if !general.Has(w) {
					oov++
					history = []string{}
					continue
				}
				pd, pg := math.Pow(10, domain.Prob(history, w)), math.Pow(10, general.Prob(history, w))
				logSum += math.Log10(lambda*pd + (1-lambda)*pg)
				n++
				history = append(history, w)
			}
		}
		fmt.Printf("lambda %.2f: perplexity %.1f over %d words (%d outside the vocabulary)\n", lambda, math.Pow(10, -logSum/float64(n)), n, oov)
	}
	return nil
}
