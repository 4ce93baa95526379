#!/usr/bin/env bash
# The README's gallery: one picture per bundled preset, Samples/Pictures/NAME.jpg.
#
#   Scripts/gallery.sh [--at SECONDS] [--size WxH]
#
# Each preset is drawn at 6.1 s (default) of Samples/sample.ogg at 960x540, from a copy of the sample
# that has what a song file has: tags (title "Marble Sample", artist "MarbleKit") and an embedded cover
# picture (a frame of the `magma` shader), so the title and cover layers show. Needs a release
# build and ffmpeg.
set -euo pipefail
cd "$(dirname "$0")/.."
at=6.1 size=960x540
while [ $# -gt 0 ]; do
  case "$1" in
    --at) at=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "gallery: unknown option $1" >&2; exit 2 ;;
  esac
done
marble=${MARBLE:-.build/release/marble}
[ -x "$marble" ] || { echo "gallery: no $marble (swift build -c release --product marble)" >&2; exit 1; }
export MARBLE_PRESETS=${MARBLE_PRESETS:-$PWD/Samples/Presets}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A song file with tags and a cover.
printf 'name: cover\nlayers:\n  - shader: magma\n' > "$work/cover.yaml"
"$marble" render Samples/sample.ogg -o "$work/cover.png" --at 3s --size 500x500 --preset "$work/cover.yaml" --quiet < /dev/null
ffmpeg -v error -y -i Samples/sample.ogg -i "$work/cover.png" -map 0:a -map 1:v -c:a libmp3lame -q:a 4 -c:v mjpeg \
  -disposition:v attached_pic -id3v2_version 3 -metadata title="Marble Sample" -metadata artist="MarbleKit" \
  -metadata album="Samples" "$work/song.mp3" < /dev/null

for name in $("$marble" effects --json | python3 -c 'import json,sys; print("\n".join(p["name"] for p in json.load(sys.stdin)["presets"]))'); do
  "$marble" render "$work/song.mp3" -o "$work/$name.png" --at "${at}s" --size "$size" --preset "$name" --quiet < /dev/null
  ffmpeg -v error -y -i "$work/$name.png" -q:v 3 "Samples/Pictures/$name.jpg" < /dev/null
  echo "gallery: Samples/Pictures/$name.jpg"
done
