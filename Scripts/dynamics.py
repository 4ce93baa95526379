#!/usr/bin/env python3
"""How much the bars and the level move on real songs (issue 12, defect 6; issue 25).

    Scripts/dynamics.py SONG [SONG ...] [--marble PATH] [--fps 30]

Reads `marble analyze SONG --json --frames` and prints, per song (the first two seconds left out):

  level p10/p90  the level feature's 10th and 90th percentiles over the song, and their span
  loud - quiet   the mean level over the song's loudest fifth of 3-second stretches (by momentary
                 loudness) minus the mean over its quietest fifth: the loud parts read louder
  band span      within each two-second window, how far a band in use (mean above 0.1) moves
                 (max - min, in bar heights), averaged over windows and bands
  of its max     the same span divided by the band's highest value in the window
  level span     within each two-second window, max - min of the level, averaged
  LUFS           the song's integrated loudness

A straight dB scale over 70 dB kept a mastered song's level between about 0.6 and 0.86 and moved a
bar by about a tenth of its height; the loudness curve and the adaptive level reference should give
a level reaching 1 on the loud parts and bands that move over a third of their height.
Standard library only; needs a marble build (release is faster).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def percentile(values, p):
    ordered = sorted(values)
    return ordered[int(p * (len(ordered) - 1))]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("songs", nargs="+")
    p.add_argument("--marble", default=os.path.join(ROOT, ".build/release/marble"))
    p.add_argument("--fps", type=int, default=30)
    a = p.parse_args()
    if not 1 <= a.fps <= 240:
        sys.exit("dynamics: --fps must be 1…240")
    window = 2 * a.fps
    print("| song | LUFS | level p10 | level p90 | span | loud - quiet | band span | of its max | level span (2 s) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for song in a.songs:
        out = subprocess.run([a.marble, "analyze", song, "--json", "--frames", "--fps", str(a.fps)],
                             capture_output=True, text=True)
        if out.returncode != 0:
            print(f"| {os.path.basename(song)} | {out.stderr.strip()} | | | | | | | |")
            continue
        report = json.loads(out.stdout)
        frames = report["frames"][window:]
        if len(frames) < 2 * window:
            print(f"| {os.path.basename(song)} | too short | | | | | | | |")
            continue
        levels = [f["level"] for f in frames]
        bands = len(frames[0]["bands"])
        spans, relative, level_spans = [], [], []
        for start in range(0, len(frames) - window + 1, window):
            chunk = frames[start:start + window]
            level = [f["level"] for f in chunk]
            level_spans.append(max(level) - min(level))
            for b in range(bands):
                values = [f["bands"][b] for f in chunk]
                if statistics.mean(values) > 0.1:
                    spans.append(max(values) - min(values))
                    relative.append((max(values) - min(values)) / max(values))
        name = os.path.basename(song)
        low, high = percentile(levels, 0.10), percentile(levels, 0.90)
        print(f"| {name} | {report['loudness']['integrated']:.1f} | {low:.2f} | {high:.2f} | {high - low:.2f} | "
              f"{contrast(frames, 3 * a.fps):+.2f} | {statistics.mean(spans):.2f} | {statistics.mean(relative):.2f} | "
              f"{statistics.mean(level_spans):.2f} |")


def contrast(frames, window):
    """Mean level of the loudest fifth of the windows minus that of the quietest fifth."""
    stretches = []
    for start in range(0, len(frames) - window + 1, window):
        chunk = frames[start:start + window]
        stretches.append((statistics.mean(f["loudness"] for f in chunk), statistics.mean(f["level"] for f in chunk)))
    stretches.sort()
    fifth = max(1, len(stretches) // 5)
    return statistics.mean(l for _, l in stretches[-fifth:]) - statistics.mean(l for _, l in stretches[:fifth])


if __name__ == "__main__":
    main()
