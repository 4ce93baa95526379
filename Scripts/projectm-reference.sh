#!/usr/bin/env bash
# projectM's own rendering of MilkDrop presets, on Mesa's llvmpipe under Xvfb: the reference pictures
# and the speed anchor of docs/MILKDROP-REFERENCE.md.
#
#   Scripts/projectm-reference.sh PRESET.milk... --song FILE --size WxH --frames N --out DIR
#        [--list FILE] [--save 60,300,600 ("" saves none)] [--display :N] [--mesh 48x36] [--seed 1]
#        [--lp-threads N] [--thumbs DIR --thumb-width 480]
#
# --list adds the presets named in FILE, one a line (# comments and blank lines skipped), relative
# to /usr/share/projectM/presets unless absolute: Scripts/milkdrop-reference-presets.txt is the
# comparison set of docs/MILKDROP-REFERENCE.md (Scripts/milkdrop-compare.sh compares the frames).
#
# Per preset: DIR/<stem>-frameNNN.png for each --save frame (1-based), one JSON line in DIR/fps.jsonl
# and one markdown table row in DIR/fps.md (ms per frame p50/p99, fps, CPU ms per frame, load).
# <stem> is the preset's file name without .milk, lower case, runs of other characters as "-".
# --thumbs also writes <stem>-WxH-frameNNN.jpg downscaled to --thumb-width for the docs.
# Without --display it starts its own Xvfb on a free display and stops it at the end.
# Needs (Debian): libprojectm-dev projectm-data xvfb libsdl2-dev libgl-dev mesa-utils ffmpeg g++
# pkg-config. The harness is built into <repo>/.build-pm (gitignored) when its source is newer.
set -euo pipefail
shopt -s nullglob

repo="$(cd "$(dirname "$0")/.." && pwd)"
presets=() song="" size="1280x720" frames=600 out="" save="60,300,600" display="" mesh="48x36" seed=1
lp_threads="" thumbs="" thumb_width=480
while (($#)); do
    case "$1" in
        --song) song="$2"; shift 2 ;;
        --size) size="$2"; shift 2 ;;
        --frames) frames="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --save) save="$2"; shift 2 ;;
        --display) display="$2"; shift 2 ;;
        --mesh) mesh="$2"; shift 2 ;;
        --seed) seed="$2"; shift 2 ;;
        --lp-threads) lp_threads="$2"; shift 2 ;;
        --thumbs) thumbs="$2"; shift 2 ;;
        --thumb-width) thumb_width="$2"; shift 2 ;;
        --list)
            [[ -r "$2" ]] || { echo "cannot read --list $2" >&2; exit 2; }
            while IFS= read -r line || [[ -n "$line" ]]; do
                [[ -z "$line" || "$line" == \#* ]] && continue
                [[ "$line" == /* ]] && presets+=("$line") || presets+=("/usr/share/projectM/presets/$line")
            done <"$2"
            shift 2 ;;
        -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
        --*) echo "unknown option $1" >&2; exit 2 ;;
        *) presets+=("$1"); shift ;;
    esac
done
[[ ${#presets[@]} -gt 0 && -n "$song" && -n "$out" ]] || { sed -n '5,7p' "$0" >&2; exit 2; }
for preset in "${presets[@]}"; do [[ -r "$preset" ]] || { echo "cannot read preset $preset" >&2; exit 2; }; done
[[ "$size" =~ ^([0-9]+)x([0-9]+)$ ]] || { echo "bad --size $size" >&2; exit 2; }
width="${BASH_REMATCH[1]}" height="${BASH_REMATCH[2]}"
mkdir -p "$out"
[[ -n "$thumbs" ]] && mkdir -p "$thumbs"

work="$(mktemp -d)"
xvfb_pid=""
cleanup() {
    [[ -n "$xvfb_pid" ]] && kill "$xvfb_pid" 2>/dev/null && wait "$xvfb_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

harness="$("$repo/Scripts/projectm-reference/build.sh" "$repo/.build-pm")"

if [[ -z "$display" ]]; then
    # Xvfb picks a free display itself and writes its number to the file descriptor.
    screen_w=$((width > 1920 ? width : 1920)) screen_h=$((height > 1080 ? height : 1080))
    Xvfb -displayfd 3 -screen 0 "${screen_w}x${screen_h}x24" -nolisten tcp 3>"$work/display" >"$work/xvfb.log" 2>&1 &
    xvfb_pid=$!
    for _ in $(seq 50); do [[ -s "$work/display" ]] && break; sleep 0.1; done
    [[ -s "$work/display" ]] || { cat "$work/xvfb.log" >&2; echo "Xvfb did not start" >&2; exit 1; }
    display=":$(head -n1 "$work/display")"
fi
export DISPLAY="$display" LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=llvmpipe
[[ -n "$lp_threads" ]] && export LP_NUM_THREADS="$lp_threads"
renderer="$(glxinfo -B | grep 'OpenGL renderer string')"
echo "display $DISPLAY: $renderer"
[[ "$renderer" == *llvmpipe* ]] || { echo "not llvmpipe: $renderer" >&2; exit 1; }

ffmpeg -v error -nostdin -y -i "$song" -f f32le -ac 2 -ar 44100 "$work/song.f32"

[[ -s "$out/fps.md" ]] || {
    echo "| preset | size | frames | p50 ms | p99 ms | fps (mean) | CPU ms/frame | load before → after |"
    echo "|---|---|---:|---:|---:|---:|---:|---|"
} >"$out/fps.md"

for preset in "${presets[@]}"; do
    name="$(basename "$preset" .milk)"
    stem="$(tr '[:upper:]' '[:lower:]' <<<"$name" | sed -E 's/[^a-z0-9]+/-/g; s/^-+|-+$//g')"
    load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
    json="$("$harness" --preset "$preset" --pcm "$work/song.f32" --size "$size" --frames "$frames" \
        --save "$save" --mesh "$mesh" --seed "$seed" --out-prefix "$work/$stem" 2>"$work/stderr")" || {
        cat "$work/stderr" >&2; echo "projectM failed on $preset" >&2; exit 1; }
    load_after="$(cut -d' ' -f1-3 /proc/loadavg)"
    json="${json%\}},\"load_before\":\"$load_before\",\"load_after\":\"$load_after\",\"lp_num_threads\":\"${LP_NUM_THREADS:-default}\"}"
    echo "$json" | tee -a "$out/fps.jsonl"
    for ppm in "$work/$stem"-frame*.ppm; do
        frame="${ppm##*-frame}" frame="${frame%.ppm}"
        ffmpeg -v error -nostdin -y -i "$ppm" "$out/$stem-frame$frame.png"
        [[ -n "$thumbs" ]] && ffmpeg -v error -nostdin -y -i "$ppm" -vf "scale=$thumb_width:-2:flags=area" \
            -q:v 4 "$thumbs/$stem-$size-frame$frame.jpg"
        rm -f "$ppm"
    done
    python3 - "$json" "$name" >>"$out/fps.md" <<'EOF'
import json, sys
r = json.loads(sys.argv[1])
print(f"| {sys.argv[2]} | {r['size']} | {r['frames']} | {r['p50_ms']:.1f} | {r['p99_ms']:.1f} | "
      f"{r['fps_mean']:.1f} | {r['cpu_ms_per_frame']:.1f} | {r['load_before']} → {r['load_after']} |")
EOF
done
