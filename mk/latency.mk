# Time to feedback: from the last answer's upload to a complete summary,
# through the real binary with the local engines (issue 6's benchmark),
# with the server recognising the answers and, beside it, with each
# answer's browser transcript aligned instead (issue 39: no slower).
BENCH_TARGETS += bench-latency

.PHONY: bench-latency
bench-latency: $(BIN)
	$(GO) run ./bench/latency -bin $(BIN)

# The same, alone and beside 10 anonymous tries at once (issue 31): the
# students' time to feedback must stay within 20 % of the figure alone.
BENCH_TARGETS += bench-latency-tries

.PHONY: bench-latency-tries
bench-latency-tries: $(BIN)
	$(GO) run ./bench/latency -bin $(BIN) -sessions 5 -tries 10

# The same beside 10 hostile tries (issue 38): each an 8 MB WAV declaring
# a 1 Hz sample rate, whose decode runs behind the students' answers.
BENCH_TARGETS += bench-latency-hostile-tries

.PHONY: bench-latency-hostile-tries
bench-latency-hostile-tries: $(BIN)
	$(GO) run ./bench/latency -bin $(BIN) -sessions 5 -tries 10 -hostile
