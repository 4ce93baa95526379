#!/bin/bash
# The encoders alone on our own pictures: how fast x264 + AAC run when the frames `marble render`
# draws cost nothing to make, beside the same encoders on black frames (the ceiling of
# `marble bench --compare-ffmpeg`) and `marble render` itself, in alternating rounds.
#
#   Scripts/encoder-ceiling.sh SONG [WxH] [x264-preset] [rounds] [marble]
#
# Our frames are rendered once, losslessly (--crf 0), and decoded to raw YUV 4:2:0 in /dev/shm; the
# black frames are raw YUV there too, so both encoder-only runs read their pictures the same way
# (ffmpeg -f rawvideo). Needs frames x W x H x 1.5 bytes free in /dev/shm twice (1080p: 5.6 GB for
# 30 s at 60 fps). Prints each round and the medians.
set -euo pipefail
song=${1:?usage: encoder-ceiling.sh SONG [WxH] [x264-preset] [rounds] [marble]}
size=${2:-1920x1080}; preset=${3:-ultrafast}; rounds=${4:-5}
marble=${5:-$(dirname "$0")/../.build/release/marble}
fps=60; crf=23
w=${size%x*}; h=${size#*x}
work=$(mktemp -d /dev/shm/marble-ceiling.XXXXXX)
trap 'rm -rf "$work"' EXIT
seconds=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$song")
frames=$(python3 -c "import math; print(math.ceil($seconds * $fps))")
need=$(( frames * w * h * 3 / 2 * 2 ))
free=$(df --output=avail -B1 /dev/shm | tail -1)
if (( need > free )); then echo "encoder-ceiling: needs $need bytes in /dev/shm, $free free" >&2; exit 1; fi

"$marble" render "$song" -o "$work/lossless.mkv" --size "$size" --fps $fps --crf 0 --encoder-preset ultrafast -q
ffmpeg -v error -i "$work/lossless.mkv" -f rawvideo -pix_fmt yuv420p "$work/ours.yuv"
frames=$(( $(stat -c %s "$work/ours.yuv") / (w * h * 3 / 2) ))
ffmpeg -v error -f lavfi -i "color=c=black:s=${size}:r=$fps" -frames:v "$frames" -f rawvideo -pix_fmt yuv420p "$work/black.yuv"
rm "$work/lossless.mkv"

encode() {  # encode RAW: x264 + AAC into MP4, as marble render does, nothing drawn
    timed ffmpeg -v error -nostdin -y -f rawvideo -pix_fmt yuv420p -s "$size" -r $fps -i "$1" -i "$song" -map 0:v -map 1:a \
        -c:v libx264 -preset "$preset" -crf $crf -threads 4 -c:a aac -b:a 128k "$work/out.mp4"
}
timed() { /usr/bin/time -f "%e %U %S" "$@" 2>&1 >/dev/null | tail -1; }
declare -a ours pictures black
for ((r = 1; r <= rounds; r++)); do
    a=$(timed "$marble" render "$song" -o "$work/out.mp4" --size "$size" --fps $fps --crf $crf --encoder-preset "$preset" --audio-bitrate 128 -q)
    b=$(encode "$work/ours.yuv")
    c=$(encode "$work/black.yuv")
    echo "round $r: marble render $a | encoders alone on our pictures $b | on black $c (wall user sys)"
    ours+=("${a%% *}"); pictures+=("${b%% *}"); black+=("${c%% *}")
done
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
mo=$(median "${ours[@]}"); mp=$(median "${pictures[@]}"); mb=$(median "${black[@]}")
python3 - "$seconds" "$mo" "$mp" "$mb" "$size" "$preset" <<'PY'
import sys
s, o, p, b = map(float, sys.argv[1:5])
print(f"{sys.argv[5]} x264 {sys.argv[6]}: marble render {s/o:.2f}x real time, encoders alone on our pictures {s/p:.2f}x, on black {s/b:.2f}x")
print(f"  ours / encoders on our pictures {p/o:.0%}, ours / encoders on black {b/o:.0%}, our pictures / black {b/p:.0%}")
PY
