/* Writes Debian's en-us.lm.bin as ARPA, which domainlm reads. The file's
   header declares 2051547 bigrams while its trie holds 2051541
   (pocketsphinx PR #501), so bookworm's sphinx_lm_convert aborts on an
   assertion after the unigrams. This loads the model with libsphinxbase
   and corrects the count in memory before writing (n_counts is the second
   field of sphinxbase's struct ngram_model_s, not in its public headers).

   apt-get install libsphinxbase-dev sphinxbase-utils
   gcc -o en-us-arpa en-us-arpa.c $(pkg-config --cflags --libs sphinxbase)
   ./en-us-arpa /usr/share/pocketsphinx/model/en-us/en-us.lm.bin en-us.arpa 2051541 */
#include <stdio.h>
#include <stdlib.h>
#include <sphinxbase/ngram_model.h>
#include <sphinxbase/logmath.h>
int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: conv in.bin out.arpa bigrams\n"); return 2; }
    logmath_t *lmath = logmath_init(1.0001, 0, 0);
    ngram_model_t *m = ngram_model_read(NULL, argv[1], NGRAM_BIN, lmath);
    if (!m) return 1;
    uint32 *counts = *(uint32 **)((char *)m + 8);
    fprintf(stderr, "counts %u %u %u\n", counts[0], counts[1], counts[2]);
    counts[1] = (uint32)atol(argv[3]);
    return ngram_model_write(m, argv[2], NGRAM_ARPA) != 0;
}
