#!/usr/bin/env bash
# Runs `CI=true make test` three times in a row, each in a fresh clone of
# COMMIT (default HEAD), with a CPU burner per core running the whole time:
# issue 28's check that the suite does not fail on a loaded machine. Stops
# at the first failing run. Logs and a summary go to OUT (default
# /tmp/loaded-runs-COMMIT).
set -u
commit=$(git -C "$(dirname "$0")/.." rev-parse --short "${1:-HEAD}")
out=${2:-/tmp/loaded-runs-$commit}
rm -rf "$out" && mkdir -p "$out"
git clone -q "$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)" "$out/src" && git -C "$out/src" checkout -q "$commit" || exit 1
# Each burner runs in a session of its own, as another program on a busy
# machine would. Linux's autogroup scheduling shares the CPU between
# sessions; inside one session, burners at normal priority would starve
# the phases `make test` runs at nice 10 almost entirely, which says
# nothing about the tests and stretches a run past half an hour.
burners=()
for _ in $(seq "$(nproc)"); do
  setsid bash -c 'while :; do :; done' &
  burners+=($!)
done
trap 'kill "${burners[@]}" 2>/dev/null' EXIT
for run in 1 2 3; do
  start=$(date +%s)
  (cd "$out/src" && git clean -qfdx -e web/node_modules && CI=true make test) > "$out/run$run.log" 2>&1
  rc=$?
  echo "run $run: exit $rc after $(($(date +%s) - start)) s, load average $(cut -d' ' -f1-3 /proc/loadavg), retried browser tests: $(grep -c '(retry #' "$out/run$run.log")" | tee -a "$out/summary"
  if [ "$rc" -ne 0 ]; then exit "$rc"; fi
done
