#!/usr/bin/env python3
"""Render a catalogue of songs one after another with GNU parallel, and report what it cost.

    Scripts/catalogue.py SONGS_DIR OUT_DIR [--jobs N] [--marble PATH] [-- marble render options...]

Every audio file in SONGS_DIR (mp3, ogg, opus, flac, wav, m4a) becomes OUT_DIR/NAME.mp4 through

    parallel --jobs N --joblog OUT_DIR/joblog.tsv \\
        'marble render {} -o OUT_DIR/{/.}.mp4 OPTIONS --stats 2> OUT_DIR/{/.}.stats' ::: SONGS...

(--jobs 1, the default: one song after another, each render using every core). Then it prints
songs per hour, and per song the fixed cost: what a render spends outside its frames, which does
not grow with the song's length:

  - start-up: loading the binary and its libraries, up to `main` (the median of five
    `marble --version` runs);
  - before the first frame: options, the inputs opened, the whole-song analysis, the encoders
    opened, up to the first frame handed to the encoder (`--stats`: "first frame encoded … after
    main started");
  - after the last frame: the encoder's delayed frames, the rest of the sound, the file closed
    and moved into place (`--stats`: "after the last frame").

Everything else is frames. A file that fails to render is reported and counted; the exit code is 1
then.
"""
import argparse
import csv
import os
import re
import shlex
import statistics
import subprocess
import sys
import time

AUDIO = {'.mp3', '.ogg', '.opus', '.flac', '.wav', '.m4a'}
FIRST = re.compile(r'first frame encoded ([0-9.]+) s after main started .*after the last frame: ([0-9.]+) s')
SUMMARY = re.compile(r'(\d+) frames \(([0-9:]+)\) in ([0-9.]+) s')


def start_up(marble):
    """Median wall time of `marble --version`: the cost of starting the process."""
    times = []
    for _ in range(5):
        t = time.monotonic()
        subprocess.run([marble, '--version'], stdout=subprocess.DEVNULL, check=True)
        times.append(time.monotonic() - t)
    return statistics.median(times)


def clock_seconds(text):
    seconds = 0.0
    for part in text.split(':'):
        seconds = seconds * 60 + float(part)
    return seconds


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('songs')
    parser.add_argument('out')
    parser.add_argument('--jobs', type=int, default=1, help='songs at once (default 1: one after another)')
    parser.add_argument('--marble', default=os.path.join(here, '..', '.build', 'release', 'marble'))
    argv = sys.argv[1:]
    split = argv.index('--') if '--' in argv else len(argv)
    a = parser.parse_args(argv[:split])
    options = argv[split + 1:]   # after --: options for marble render
    if not 1 <= a.jobs <= 64:
        sys.exit('catalogue: --jobs must be 1-64')
    songs = sorted(os.path.join(a.songs, f) for f in os.listdir(a.songs) if os.path.splitext(f)[1].lower() in AUDIO)
    if not songs:
        sys.exit(f'catalogue: no audio files in {a.songs}')
    os.makedirs(a.out, exist_ok=True)
    marble = os.path.abspath(a.marble)
    startup = start_up(marble)

    out = shlex.quote(os.path.abspath(a.out))
    command = (f'{shlex.quote(marble)} render {{}} -o {out}/{{/.}}.mp4 {" ".join(map(shlex.quote, options))} '
               f'--stats 2> {out}/{{/.}}.stats')
    log = os.path.join(a.out, 'joblog.tsv')
    began = time.monotonic()
    subprocess.run(['parallel', '--will-cite', '--jobs', str(a.jobs), '--joblog', log, command, ':::'] + songs)
    wall = time.monotonic() - began

    rows, failed = [], []
    with open(log) as f:
        for job in csv.DictReader(f, delimiter='\t'):
            song = job['Command'].split(' render ', 1)[1]
            name = os.path.splitext(os.path.basename(shlex.split(song)[0]))[0]
            stats = open(os.path.join(a.out, name + '.stats')).read()
            first, summary = FIRST.search(stats), SUMMARY.search(stats)
            if job['Exitval'] != '0' or not first or not summary:
                failed.append((name, stats.strip().split('\n')[-1] if stats.strip() else f'exit {job["Exitval"]}'))
                continue
            runtime = float(job['JobRuntime'])
            fixed = startup + float(first.group(1)) + float(first.group(2))
            rows.append({'name': name, 'seconds': clock_seconds(summary.group(2)), 'frames': int(summary.group(1)),
                         'runtime': runtime, 'fixed': fixed})

    for name, why in failed:
        print(f'FAILED {name}: {why}')
    if not rows:
        sys.exit(1)
    audio = sum(r['seconds'] for r in rows)
    fixed = [r['fixed'] for r in rows]
    busy = sum(r['runtime'] for r in rows)
    print(f'{len(rows)} songs, {audio / 60:.1f} min of sound ({min(r["seconds"] for r in rows):.0f}–'
          f'{max(r["seconds"] for r in rows):.0f} s each), {len(songs)} tried, --jobs {a.jobs}, '
          f'marble render {" ".join(options)}')
    print(f'wall {wall:.1f} s: {len(rows) / wall * 3600:.0f} songs per hour, {audio / wall:.1f}x real time')
    print(f'fixed cost per song (start-up {startup:.3f} s + before the first frame + after the last): '
          f'median {statistics.median(fixed):.3f} s, mean {statistics.mean(fixed):.3f} s, max {max(fixed):.3f} s')
    print(f'time outside frames: {sum(fixed) / busy:.1%} of the renders\' time')
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
