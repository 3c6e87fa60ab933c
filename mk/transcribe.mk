# Speech-to-text (internal/transcribe): runtime decoders and the speech benchmark.
# util-linux's prlimit starts ffmpeg and pocketsphinx under memory and CPU limits.
RUNTIME_PACKAGES += ffmpeg pocketsphinx pocketsphinx-en-us util-linux
TEST_PACKAGES += festival festvox-us-slt-hts festvox-kallpc16k sox time
BENCH_TARGETS += bench-transcribe

.PHONY: bench-transcribe
bench-transcribe: $(BIN)
	$(GO) run ./bench/transcribe -bin $(BIN)
