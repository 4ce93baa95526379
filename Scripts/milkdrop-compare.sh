#!/usr/bin/env bash
# MarbleKit's MilkDrop frames next to projectM's: per preset and frame, the mean luma and clipped share
# of both pictures and the SSIM of ours against projectM's, as a markdown table (and TSV) for
# docs/MILKDROP-REFERENCE.md.
#
#   Scripts/milkdrop-compare.sh --list Scripts/milkdrop-reference-presets.txt --reference DIR \
#        --out DIR [--marble .build/release/marble] [--song Samples/sample.ogg] [--size 1280x720]
#        [--frames 60,300,600] [--label NAME] [--before OTHER.tsv] [--render-only]
#
# --reference is the --out folder of Scripts/projectm-reference.sh run on the same list, song, size and
# frames (<stem>-frameNNN.png, frames counted from 1). Ours are `marble render SONG --milkdrop PRESET
# --size WxH --at T` PNGs with T = (N − 1)/60 s: projectM's frame N is MarbleKit's frame N − 1 from 0,
# both at 60 fps and fed the sound up to the same instant (see MILKDROP-REFERENCE.md). They are kept in
# --out as <stem>-frameNNN.png (frames already there are reused: delete them to render again);
# OUT/compare-LABEL.tsv and OUT/compare-LABEL.md hold the figures. --render-only renders ours and stops
# (before projectM's frames exist). --before adds OUT/summary-LABEL.md: one row per preset, the
# frames' figures as "a / b / c", an earlier run's (OTHER.tsv, e.g. of an older build) next to these.
#
# Definitions (the same for both pictures; ffmpeg filters only):
#   luma     mean of 0.299 R + 0.587 G + 0.114 B over the frame, 0…255 (colorchannelmixer, signalstats);
#   clipped  share of pixels with at least one of R, G, B at 255 (saturated: gamma or additive overflow;
#            black is not counted, most presets have black backgrounds);
#   SSIM     ffmpeg's ssim filter on the two frames' luma (gray), 1 = identical.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
list="" reference="" out="" marble="$repo/.build/release/marble" song="$repo/Samples/sample.ogg"
size="1280x720" frames="60,300,600" label="current" render_only=0 before=""
while (($#)); do
    case "$1" in
        --list) list="$2"; shift 2 ;;
        --reference) reference="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --marble) marble="$2"; shift 2 ;;
        --song) song="$2"; shift 2 ;;
        --size) size="$2"; shift 2 ;;
        --frames) frames="$2"; shift 2 ;;
        --label) label="$2"; shift 2 ;;
        --render-only) render_only=1; shift ;;
        --before) before="$2"; shift 2 ;;
        -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
        *) echo "unknown argument $1" >&2; exit 2 ;;
    esac
done
[[ -r "$list" && -n "$out" ]] && { ((render_only)) || [[ -d "$reference" ]]; } || { sed -n '6,8p' "$0" >&2; exit 2; }
[[ -x "$marble" ]] || { echo "no marble binary at $marble (swift build -c release --product marble)" >&2; exit 2; }
[[ "$size" =~ ^[0-9]+x[0-9]+$ ]] || { echo "bad --size $size" >&2; exit 2; }
[[ "$frames" =~ ^[0-9]+(,[0-9]+)*$ ]] || { echo "bad --frames $frames" >&2; exit 2; }
mkdir -p "$out"

# Mean luma, clipped share (percent) of one PNG.
stats() {
    local luma clipped
    luma="$(ffmpeg -v error -nostdin -i "$1" -vf "format=gbrp,colorchannelmixer=rr=0.299:rg=0.587:rb=0.114,extractplanes=r,signalstats,metadata=print:key=lavfi.signalstats.YAVG:file=-" -f null - | sed -n 's/.*YAVG=//p')"
    clipped="$(ffmpeg -v error -nostdin -i "$1" -vf "format=gbrp,lutrgb=r='if(eq(val,255),255,0)':g='if(eq(val,255),255,0)':b='if(eq(val,255),255,0)',colorchannelmixer=rr=1:rg=1:rb=1,extractplanes=r,signalstats,metadata=print:key=lavfi.signalstats.YAVG:file=-" -f null - | sed -n 's/.*YAVG=//p')"
    awk -v l="$luma" -v c="$clipped" 'BEGIN { printf "%.1f\t%.1f", l, c / 255 * 100 }'
}

# SSIM of the luma of $1 against $2.
ssim() {
    ffmpeg -v info -nostdin -i "$1" -i "$2" -lavfi "[0:v]format=gray[a];[1:v]format=gray[b];[a][b]ssim" -f null - 2>&1 \
        | sed -n 's/.*SSIM .*All:\([0-9.]*\).*/\1/p' | tail -n1
}

tsv="$out/compare-$label.tsv" md="$out/compare-$label.md"
printf "preset\tframe\tpm_luma\tpm_clipped\tour_luma\tour_clipped\tssim\n" >"$tsv"
{
    echo "| preset | frame | projectM luma | projectM clipped % | MarbleKit luma | MarbleKit clipped % | SSIM |"
    echo "|---|---:|---:|---:|---:|---:|---:|"
} >"$md"

while IFS= read -r line || [[ -n "$line" ]]; do
    [[ -z "$line" || "$line" == \#* ]] && continue
    [[ "$line" == /* ]] && preset="$line" || preset="/usr/share/projectM/presets/$line"
    name="$(basename "$preset" .milk)"
    stem="$(tr '[:upper:]' '[:lower:]' <<<"$name" | sed -E 's/[^a-z0-9]+/-/g; s/^-+|-+$//g')"
    for n in ${frames//,/ }; do
        tag="$(printf '%03d' "$n")"
        ref="$reference/$stem-frame$tag.png" ours="$out/$stem-frame$tag.png"
        at="$(awk -v n="$n" 'BEGIN { printf "%dms", int((n - 1) * 1000 / 60 + 0.5) + 1 }')"
        [[ -s "$ours" ]] || "$marble" render "$song" -o "$ours" --milkdrop "$preset" --size "$size" --at "$at" >/dev/null 2>"$out/render.log" || {
            cat "$out/render.log" >&2; echo "marble failed on $preset" >&2; exit 1; }
        ((render_only)) && continue
        [[ -r "$ref" ]] || { echo "missing $ref" >&2; exit 1; }
        pm="$(stats "$ref")" mk="$(stats "$ours")" s="$(ssim "$ours" "$ref")"
        printf "%s\t%s\t%s\t%s\t%s\n" "$name" "$n" "$pm" "$mk" "$s" | tee -a "$tsv"
        IFS=$'\t' read -r pl pc <<<"$pm"; IFS=$'\t' read -r ml mc <<<"$mk"
        echo "| $name | $n | $pl | $pc | $ml | $mc | $s |" >>"$md"
    done
done <"$list"
echo "wrote $tsv and $md"
((render_only)) && exit 0
[[ -n "$before" ]] || exit 0
python3 - "$before" "$tsv" >"$out/summary-$label.md" <<'EOF'
import csv, sys
def load(path):
    rows = {}
    with open(path) as f:
        for r in csv.DictReader(f, delimiter="\t"):
            rows.setdefault(r["preset"], []).append(r)
    return rows
old, new = load(sys.argv[1]), load(sys.argv[2])
def cells(rows, key, digits):
    return " / ".join(f"{float(r[key]):.{digits}f}" for r in rows)
print("| preset | projectM luma | projectM clipped % | before: luma | clipped % | SSIM | after: luma | clipped % | SSIM |")
print("|---|---|---|---|---|---|---|---|---|")
for name, rows in new.items():
    b = old.get(name, rows)
    print(f"| {name} | {cells(rows, 'pm_luma', 0)} | {cells(rows, 'pm_clipped', 0)} | {cells(b, 'our_luma', 0)} | "
          f"{cells(b, 'our_clipped', 0)} | {cells(b, 'ssim', 2)} | {cells(rows, 'our_luma', 0)} | "
          f"{cells(rows, 'our_clipped', 0)} | {cells(rows, 'ssim', 2)} |")
EOF
echo "wrote $out/summary-$label.md"
