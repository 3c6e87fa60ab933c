# Speech-to-text (internal/transcribe): runtime decoders and the speech benchmark.
# util-linux's prlimit starts ffmpeg and pocketsphinx under memory and CPU limits.
RUNTIME_PACKAGES += ffmpeg pocketsphinx pocketsphinx-en-us util-linux
# The speech benchmarks speak with every English voice Debian ships for
# festival and flite.
TEST_PACKAGES += festival festvox-us-slt-hts festvox-kallpc16k festvox-kdlpc16k flite sox time
# It also judges the engine on recordings of real people: pocketsphinx's
# test data holds LibriVox clips and read playing cards with their
# transcriptions (bench/transcribe/real/README.md).
TEST_PACKAGES += pocketsphinx-testdata
BENCH_TARGETS += bench-transcribe bench-fillers

.PHONY: bench-transcribe
bench-transcribe: $(BIN)
	$(GO) run ./bench/transcribe -bin $(BIN)

# Filler recall and precision, and WER, per voice on the held-out filler texts
# (bench/transcribe/fillers/README.md); about a minute and a half.
.PHONY: bench-fillers
bench-fillers:
	$(GO) run ./bench/transcribe -fillers test

# Alignment of a given text (what the student's browser heard) to real
# recordings: hesitations heard (a real speaker's, and spliced ones),
# swapped words spotted by their confidence, times in order
# (bench/align/README.md); about three minutes.
BENCH_TARGETS += bench-align

.PHONY: bench-align
bench-align:
	$(GO) run ./bench/align

# Instructions the decoders execute per second of speech, for each search,
# counted by valgrind's callgrind: the same from run to run whatever else
# the machine does, where CPU seconds are not (issue 43); about ten minutes.
TEST_PACKAGES += valgrind
BENCH_TARGETS += bench-decodecost

.PHONY: bench-decodecost
bench-decodecost:
	$(GO) run ./bench/decodecost
