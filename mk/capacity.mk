# Students per box: N simulated students streaming festival answers at
# speaking pace through the whole loop, N rising until the time to feedback
# passes 4 s at p95; one instance on SQLite, then two on one PostgreSQL
# (issue 17's benchmark; target: at least 30 students on this 2-core box).
BENCH_TARGETS += bench-capacity

.PHONY: bench-capacity
bench-capacity: $(BIN)
	$(GO) run ./bench/capacity -bin $(BIN)
