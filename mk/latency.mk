# Time to feedback: from the last answer's upload to a complete summary,
# through the real binary with the local engines (issue 6's benchmark).
BENCH_TARGETS += bench-latency

.PHONY: bench-latency
bench-latency: $(BIN)
	$(GO) run ./bench/latency -bin $(BIN)
