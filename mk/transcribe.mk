# Speech-to-text (internal/transcribe): runtime decoders and the speech benchmark.
RUNTIME_PACKAGES += ffmpeg pocketsphinx pocketsphinx-en-us
TEST_PACKAGES += festival festvox-us-slt-hts festvox-kallpc16k sox
BENCH_TARGETS += bench-transcribe

.PHONY: bench-transcribe
bench-transcribe:
	go run ./bench/transcribe
