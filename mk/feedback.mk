# Feedback: the rubric engine's calibration against interviewer-labelled
# answers (bench/feedback/answers), and its speed per answer.
BENCH_TARGETS += bench-feedback

.PHONY: bench-feedback
bench-feedback:
	$(GO) run ./bench/feedback
	$(GO) test -run '^$$' -bench BenchmarkRubric -benchmem ./internal/feedback
