# Admin users table: search, sort and paging over 50,000 accounts on SQLite
# (target: a search answered in under 50 ms).
BENCH_TARGETS += bench-users

.PHONY: bench-users
bench-users:
	$(GO) run ./bench/users
