#!/usr/bin/env bash
# CPU seconds per test suite, slowest first: where `swift test`'s time goes, whatever else the machine runs.
#
#   Scripts/suite-cpu.sh [FILTER...]
#
# Runs `swift test --skip-build --filter FILTER` for each filter in turn (default: every test target)
# and prints wall seconds and CPU seconds (user + system, the test process and every program it runs).
# `swift test` reports each test's wall time, but its tests run in parallel, so on a busy machine
# every test seems slow; CPU seconds show what each suite costs. Build first: swift build --build-tests.
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
filters=("$@")
if [ ${#filters[@]} -eq 0 ]; then
  mapfile -t filters < <(find Tests -mindepth 1 -maxdepth 1 -type d -name '*Tests' -printf '%f\n' | sort)
fi
results=$(mktemp)
trap 'rm -f "$results"' EXIT
for filter in "${filters[@]}"; do
  # %e wall, %U user, %S system; the run's own output goes to a log only on failure.
  log=$(mktemp)
  if ! /usr/bin/time -f "%e %U %S" -o "$log.time" swift test --skip-build --filter "$filter" > "$log" 2>&1; then
    echo "suite-cpu: $filter failed (output in $log)" >&2
  else
    rm -f "$log"
  fi
  read -r wall user sys < "$log.time"
  rm -f "$log.time"
  awk -v u="$user" -v s="$sys" -v w="$wall" -v f="$filter" 'BEGIN { print u + s, w, f }' >> "$results"
done
printf '%8s %8s  %s\n' "CPU s" "wall s" "suite"
sort -rn "$results" | while read -r cpu wall filter; do printf '%8.1f %8.1f  %s\n' "$cpu" "$wall" "$filter"; done
