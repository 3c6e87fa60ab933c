# Speech-to-text (internal/transcribe): runtime decoders and the speech benchmark.
# util-linux's prlimit starts ffmpeg and pocketsphinx under memory and CPU limits.
RUNTIME_PACKAGES += ffmpeg pocketsphinx pocketsphinx-en-us util-linux
# The speech benchmark speaks with every English voice Debian ships for
# festival and flite.
TEST_PACKAGES += festival festvox-us-slt-hts festvox-kallpc16k festvox-kdlpc16k flite sox time
BENCH_TARGETS += bench-transcribe

.PHONY: bench-transcribe
bench-transcribe: $(BIN)
	$(GO) run ./bench/transcribe -bin $(BIN)
