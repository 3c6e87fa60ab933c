# Feedback: the rubric engine's calibration against interviewer-labelled
# answers (bench/feedback/answers and calibration-v2), clean, as a speech
# engine writes them, and a subset read aloud by festival through the local
# speech engine; and its speed per answer.
BENCH_TARGETS += bench-feedback

.PHONY: bench-feedback
bench-feedback:
	$(GO) run ./bench/feedback -spoken 6
	$(GO) test -run '^$$' -bench BenchmarkRubric -benchmem ./internal/feedback/rubric
