# Abuse: floods of made-up resets, wrong logins from rotating addresses,
# stalled uploads and history searches by a student with 1,000 saved
# sessions against the real binary on loopback; prints the server's peak
# RSS, its 500s and a signed-in student's dashboard p99 during each
# (targets: <= 300 MB, none, <= 100 ms). Then it tries again each attack a
# probe of the app found working (forged X-Forwarded-For, the development
# checkout, CSV formulas, rewritten typed answers, webhooks for what was
# never sold or signed at a skewed time) and prints whether each held.
# About three minutes.
BENCH_TARGETS += bench-abuse

.PHONY: bench-abuse
bench-abuse: $(BIN) stripe-mock
	$(GO) run ./bench/abuse -bin $(BIN)
