#!/usr/bin/env bash
# Contact sheet of every effect: one frame of each shader and each bundled preset, labelled, in a grid.
#
#   Scripts/contact-sheet.sh [--song FILE] [--at SECONDS] [--size WxH] [--columns N] [-o OUT.jpg]
#
# Defaults: Samples/sample.ogg at 6.1 s, 256x144 tiles, 8 columns, docs/contact-sheet.jpg. The list is
# read from `marble effects --json` (every shader and preset the build has, never a hand-kept list).
# Generators are drawn alone (a one-layer preset; `media` shows the picture below); filters over a picture (Samples/Pictures/magma.jpg,
# under the default preset's bars); presets as they are. Needs a release build (swift build -c release)
# and ffmpeg; labels need ffmpeg's drawtext and the DejaVu font (fonts-dejavu-core), else tiles are
# left unlabelled.
set -euo pipefail
cd "$(dirname "$0")/.."
song=Samples/sample.ogg at=6.1 size=256x144 columns=8 out=docs/contact-sheet.jpg
while [ $# -gt 0 ]; do
  case "$1" in
    --song) song=$2; shift 2 ;;
    --at) at=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    --columns) columns=$2; shift 2 ;;
    -o) out=$2; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "contact-sheet: unknown option $1" >&2; exit 2 ;;
  esac
done
case "$columns" in ''|*[!0-9]*) echo "contact-sheet: --columns must be a whole number" >&2; exit 2 ;; esac
[ "$columns" -ge 1 ] && [ "$columns" -le 16 ] || { echo "contact-sheet: --columns must be 1…16" >&2; exit 2; }
marble=${MARBLE:-.build/release/marble}
[ -x "$marble" ] || { echo "contact-sheet: no $marble (swift build -c release --product marble)" >&2; exit 1; }
export MARBLE_PRESETS=${MARBLE_PRESETS:-$PWD/Samples/Presets}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# name<TAB>kind lines: shaders (generator/filter) then presets.
"$marble" effects --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
for s in d["shaders"]: print(s["name"] + "\t" + s["kind"])
for p in d["presets"]: print(p["name"] + "\tpreset")
' > "$work/list"

font=$(fc-match -f '%{file}' 'DejaVu Sans:bold' 2>/dev/null || true)
label() {   # label IN OUT TEXT
  if [ -n "$font" ] && [ -f "$font" ]; then
    ffmpeg -v error -y -i "$1" -vf "drawtext=fontfile=$font:text='$3':x=6:y=h-th-6:fontsize=h/11:fontcolor=white:box=1:boxcolor=black@0.55:boxborderw=4" "$2" < /dev/null
  else
    cp "$1" "$2"
  fi
}

n=0
while IFS=$'\t' read -r name kind; do
  tile="$work/$(printf '%03d' "$n").png"
  case "$kind" in
    generator)
      picture=(); [ "$name" = media ] && picture=(--background Samples/Pictures/magma.jpg)
      printf 'name: %s\nlayers:\n  - shader: %s\n' "$name" "$name" > "$work/$name.yaml"
      "$marble" render "$song" -o "$work/raw.png" --at "${at}s" --size "$size" --preset "$work/$name.yaml" "${picture[@]}" --quiet < /dev/null ;;
    filter)
      "$marble" render "$song" -o "$work/raw.png" --at "${at}s" --size "$size" --background Samples/Pictures/magma.jpg \
        --effect "$name" --quiet < /dev/null ;;
    preset)
      "$marble" render "$song" -o "$work/raw.png" --at "${at}s" --size "$size" --preset "$name" --quiet < /dev/null ;;
  esac
  suffix=""; [ "$kind" = preset ] && suffix=" (preset)"
  label "$work/raw.png" "$tile" "$name$suffix"
  n=$((n + 1))
done < "$work/list"

rows=$(( (n + columns - 1) / columns ))
ffmpeg -v error -y -framerate 1 -i "$work/%03d.png" -vf "tile=${columns}x${rows}:padding=4:color=0x111111" -frames:v 1 -q:v 5 "$out"
echo "contact-sheet: $n effects → $out"
