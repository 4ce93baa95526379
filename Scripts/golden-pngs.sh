#!/usr/bin/env bash
# PNG copies of the golden images, for viewers that do not read PAM.
#
#   Scripts/golden-pngs.sh [OUTDIR]
#
# Writes OUTDIR/TARGET/NAME.png (default OUTDIR: .build/golden-pngs) for every
# Tests/**/GoldenImages/NAME.pam, with ffmpeg. The PAM files stay the reference; the copies are not
# committed.
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in -h|--help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
out=${1:-.build/golden-pngs}
count=0
while IFS= read -r -d '' pam; do
  target=${pam#Tests/}
  target=${target%%/*}
  mkdir -p "$out/$target"
  ffmpeg -nostdin -v error -y -i "$pam" "$out/$target/$(basename "$pam" .pam).png"
  count=$((count + 1))
done < <(find Tests -path '*/GoldenImages/*.pam' -print0 | sort -z)
echo "golden-pngs: $count images → $out"
