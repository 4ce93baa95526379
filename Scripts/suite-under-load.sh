#!/usr/bin/env bash
# Runs the whole test suite several times in a row while another process keeps every core busy, and
# prints one line per run and the count of passes: the proof that no test's verdict depends on the
# machine's load or on wall time.
#
#   Scripts/suite-under-load.sh [RUNS]          (default 10; build first: swift build --build-tests)
#   MARBLE_LOAD='COMMAND' Scripts/suite-under-load.sh [RUNS]
#
# The load is `stress-ng --cpu N` with N = the number of cores (each of its workers spins on one core at
# the lowest priority it is given: none, so it competes with the tests as an equal), or MARBLE_LOAD, a
# shell command that keeps the cores busy as long as it runs (e.g. one fuzz harness per core: see
# docs/FUZZING.md), run in a process group of its own and stopped with it after the last run. Each
# run's log is kept in /tmp/suite-under-load.N.log; a failing run's failures are printed, and a run
# still going after 30 minutes is stopped and counted as failed (hung).
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
runs=${1:-10}
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "suite-under-load: RUNS must be a positive whole number, not \"$runs\"" >&2; exit 2; }
cores=$(nproc)
if [ -n "${MARBLE_LOAD:-}" ]; then
  described="$MARBLE_LOAD"
  setsid bash -c "$MARBLE_LOAD" > /tmp/suite-under-load.load.log 2>&1 &
else
  command -v stress-ng >/dev/null || { echo "suite-under-load: stress-ng is not installed (apt-get install stress-ng)" >&2; exit 2; }
  described="stress-ng --cpu $cores"
  setsid stress-ng --cpu "$cores" --timeout 0 --quiet &
fi
load=$!
trap 'kill -- -"$load" 2>/dev/null; wait "$load" 2>/dev/null || true' EXIT
passes=0
for run in $(seq 1 "$runs"); do
  log=/tmp/suite-under-load.$run.log
  start=$(date +%s)
  # A run that hangs is a failure too, not a wait for ever: 30 minutes is five times a loaded run.
  if timeout -k 10 1800 swift test --skip-build > "$log" 2>&1; then
    passes=$((passes + 1)); verdict=passed
  else
    status=$?
    verdict=FAILED
    [ "$status" -eq 124 ] && verdict="FAILED (hung: stopped after 30 minutes)"
  fi
  loadavg=$(cut -d' ' -f1 /proc/loadavg)
  echo "run $run: $verdict in $(( $(date +%s) - start )) s, load average $loadavg ($(grep -E '^. Test run with' "$log" | tail -n 1))"
  [ "$verdict" = passed ] || grep -E "✘|Precondition failed|Assertion|Fatal error|crashed" "$log" | grep -v "known issue" | head -n 20
done
echo "$passes of $runs runs passed with $cores cores kept busy by $described"
[ "$passes" -eq "$runs" ]
