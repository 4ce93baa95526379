#!/usr/bin/env bash
# Regenerates the golden images and lists what changed.
#
#   Scripts/update-goldens.sh [--skip-build] [SUITE...]
#
# Runs `swift test --filter SUITE` for each suite (default: ShadersTests, EveryPresetGoldenTests and
# MilkDropGoldenTests, every suite that checks a golden image) with MARBLE_UPDATE_GOLDEN=1: an image
# that differs from its file by more than the test's tolerance, or has no file, is rewritten
# (Tests/**/GoldenImages/NAME.pam; see Tests/TestSupport/GoldenStore.swift). Then prints one line per
# rewritten image (its name, how many pixels changed and by how much at most), any other failure, and
# `git status` of the image folders. Look at the new pictures (Scripts/golden-pngs.sh writes PNG
# copies), then run the suites again without the variable: they must pass.
set -euo pipefail
cd "$(dirname "$0")/.."
build=()
suites=()
for arg in "$@"; do
  case "$arg" in
    --skip-build) build=(--skip-build) ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "update-goldens: unknown option $arg" >&2; exit 2 ;;
    *) suites+=("$arg") ;;
  esac
done
[ ${#suites[@]} -gt 0 ] || suites=(ShadersTests EveryPresetGoldenTests MilkDropGoldenTests)
filters=()
for suite in "${suites[@]}"; do filters+=(--filter "$suite"); done

log=$(mktemp)
trap 'rm -f "$log"' EXIT
echo "update-goldens: MARBLE_UPDATE_GOLDEN=1 swift test ${build[*]} ${filters[*]}"
# Every rewrite is recorded as an issue, so a run that rewrites anything fails: the status says nothing.
MARBLE_UPDATE_GOLDEN=1 swift test "${build[@]}" "${filters[@]}" > "$log" 2>&1 || true
if ! grep -q 'Test run with' "$log"; then
  tail -n 30 "$log" >&2
  echo "update-goldens: the tests did not run (build failed?)" >&2
  exit 1
fi

# Swift Testing prints an issue's comment on the line after it, starting with "↳ ".
changed=$(sed -n 's/^↳ golden \(.*\) rewritten: \(.*\) (MARBLE_UPDATE_GOLDEN=1)$/  \1: \2/p' "$log" | sort -u)
others=$(awk '
  /recorded an issue/ { if (issue != "") print issue; issue = $0; next }
  issue != "" && /^↳ / { if ($0 !~ / rewritten: .*\(MARBLE_UPDATE_GOLDEN=1\)$/) print issue "\n  " $0; issue = ""; next }
  issue != "" { print issue; issue = "" }
  END { if (issue != "") print issue }' "$log")
if [ -n "$changed" ]; then
  echo "rewritten ($(wc -l <<<"$changed")):"
  echo "$changed"
else
  echo "no image changed beyond its tolerance"
fi
if [ -n "$others" ]; then
  echo "other failures:"
  echo "$others" | sed 's/^/  /'
fi
git status --short -- ':(glob)Tests/**/GoldenImages/*.pam'
