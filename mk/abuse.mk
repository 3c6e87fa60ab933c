# Abuse: floods of made-up resets, wrong logins from rotating addresses and
# stalled uploads against the real binary on loopback; prints the server's
# peak RSS, its 500s and a signed-in student's dashboard p99 during each
# (targets: <= 300 MB, none, <= 100 ms). About a minute.
BENCH_TARGETS += bench-abuse

.PHONY: bench-abuse
bench-abuse: $(BIN)
	$(GO) run ./bench/abuse -bin $(BIN)
