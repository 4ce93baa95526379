#!/usr/bin/env python3
"""Tempo of real music: MarbleKit next to aubio and librosa, as a Markdown table (docs/ANALYSIS.md).

The songs are freely licensed and come from Debian's own packages (DFSG-free, section main), fetched with
`apt-get download` and unpacked with `dpkg-deb -x` into a cache folder: nothing is installed and no music
is kept in the repository.

  * fretsonfire-songs-muldjord (CC BY-SA 3.0) and fretsonfire-songs-sectoid (MIT-style): rock and metal
    played by people; each song's note chart (notes.mid) carries the tempo it was charted at, shown as
    "chart" (an independent reference, not used for agreement).
  * xmoto-data (GPL-2+): the game's music (rock, funk, electronic).
  * asc-music (GPL-2+): orchestral/rock game music.

Needs: apt-get (Debian), dpkg-deb, aubio (`apt-get install aubio-tools`), a Python with librosa
(`pip install librosa`; give it with LIBROSA_PYTHON=/path/to/python), and a built `marble`
(MARBLE=path; default .build/release/marble, else .build/debug/marble).

Usage: Scripts/tempo-compare.py [--cache DIR]

Agreement: MarbleKit's tempo is said to agree with another tool's when they are within 4 % after
multiplying the other's by 1, 2 or 1/2 (octave relations: which metrical level is "the beat" is a
matter of taste); 3:2 relations (×3/2, ×2/3) are printed too but counted apart. The relation found is
printed (×1 = the same tempo).
"""
import argparse
import json
import os
import pathlib
import re
import shutil
import struct
import subprocess
import sys

PACKAGES = {
    "fretsonfire-songs-muldjord": "usr/share/games/fretsonfire/data/songs/muldjord",
    "fretsonfire-songs-sectoid": "usr/share/games/fretsonfire/data/songs/sectoid",
    "xmoto-data": "usr/share/games/xmoto/Textures/Musics",
    "asc-music": "usr/share/games/asc/music",
}

# (package, path inside the package's folder above). Every song of these packages' music folders, none
# left out: fretsonfire's backing tracks (song.ogg: drums, bass, rhythm; the lead guitar is apart).
SONGS = [
    ("fretsonfire-songs-muldjord", "armygeddon/song.ogg"),
    ("fretsonfire-songs-muldjord", "chaos_god/song.ogg"),
    ("fretsonfire-songs-muldjord", "internal_degeneration/song.ogg"),
    ("fretsonfire-songs-muldjord", "mutilated_mime/song.ogg"),
    ("fretsonfire-songs-sectoid", "Escape from chaosland/song.ogg"),
    ("fretsonfire-songs-sectoid", "Feelings/song.ogg"),
    ("fretsonfire-songs-sectoid", "Metal madness/song.ogg"),
    ("fretsonfire-songs-sectoid", "War of freedom/song.ogg"),
    ("xmoto-data", "MadeiraStew.ogg"),
    ("xmoto-data", "batcave.ogg"),
    ("xmoto-data", "foxrun.ogg"),
    ("xmoto-data", "legolodio.ogg"),
    ("xmoto-data", "menu.ogg"),
    ("xmoto-data", "ridealong.ogg"),
    ("xmoto-data", "speeditup.ogg"),
    ("asc-music", "frontiers.mp3"),
    ("asc-music", "machine_wars.mp3"),
    ("asc-music", "time_to_strike.mp3"),
]

RELATIONS = [(1, "×1"), (2, "×2"), (0.5, "×½"), (1.5, "×3/2"), (2 / 3, "×2/3")]

LIBROSA = """
import sys, warnings
warnings.filterwarnings("ignore")
import numpy as np, librosa
y, sr = librosa.load(sys.argv[1], sr=22050, mono=True)
tempo, _ = librosa.beat.beat_track(y=y, sr=sr)
print(float(np.atleast_1d(tempo)[0]))
"""


def fetch(cache: pathlib.Path) -> None:
    cache.mkdir(parents=True, exist_ok=True)
    for pkg in PACKAGES:
        root = cache / pkg
        if root.exists():
            continue
        debs = sorted(cache.glob(f"{pkg}_*.deb"))
        if not debs:
            subprocess.run(["apt-get", "download", pkg], cwd=cache, check=True)
            debs = sorted(cache.glob(f"{pkg}_*.deb"))
        subprocess.run(["dpkg-deb", "-x", str(debs[-1]), str(root)], check=True)


def chart_tempo(mid: pathlib.Path):
    """The first tempo of a Standard MIDI File (the note chart), BPM; None without one."""
    if not mid.exists():
        return None
    d = mid.read_bytes()
    if d[:4] != b"MThd":
        return None
    pos = 8 + struct.unpack(">I", d[4:8])[0]
    ntracks = struct.unpack(">H", d[10:12])[0]

    def varlen(p):
        v = 0
        while True:
            b = d[p]
            p += 1
            v = (v << 7) | (b & 0x7F)
            if b < 0x80:
                return v, p

    for _ in range(ntracks):
        length = struct.unpack(">I", d[pos + 4:pos + 8])[0]
        p, end, status = pos + 8, pos + 8 + length, 0
        while p < end:
            _, p = varlen(p)
            if d[p] == 0xFF:
                kind = d[p + 1]
                n, p = varlen(p + 2)
                if kind == 0x51:
                    return 60e6 / int.from_bytes(d[p:p + 3], "big")
                p += n
            elif d[p] in (0xF0, 0xF7):
                n, p = varlen(p + 1)
                p += n
            else:
                if d[p] & 0x80:
                    status = d[p]
                    p += 1
                p += 1 if (status & 0xF0) in (0xC0, 0xD0) else 2
        pos = end
    return None


def marble_tempo(marble: str, path: pathlib.Path) -> float:
    out = subprocess.run([marble, "analyze", str(path), "--json"], check=True, capture_output=True, text=True).stdout
    return float(json.loads(out)["tempo"])


def aubio_tempo(path: pathlib.Path) -> float:
    out = subprocess.run(["aubio", "tempo", "-i", str(path)], check=True, capture_output=True, text=True).stdout
    return float(re.findall(r"([0-9.]+) bpm", out)[-1])


def librosa_tempo(python: str, path: pathlib.Path) -> float:
    out = subprocess.run([python, "-c", LIBROSA, str(path)], check=True, capture_output=True, text=True).stdout
    return float(out.split()[-1])


def relation(ours: float, other: float):
    """The relation (other × r ≈ ours within 4 %) closest to exact, or None."""
    best = None
    for r, name in RELATIONS:
        err = abs(ours / (other * r) - 1)
        if err <= 0.04 and (best is None or err < best[1]):
            best = (name, err)
    return best[0] if best else None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cache", default="/tmp/marble-tempo-music", help="where the packages are fetched and unpacked")
    args = ap.parse_args()
    here = pathlib.Path(__file__).resolve().parent.parent
    marble = os.environ.get("MARBLE") or next(
        (str(p) for p in (here / ".build/release/marble", here / ".build/debug/marble") if p.exists()), "marble")
    python = os.environ.get("LIBROSA_PYTHON", sys.executable)
    for tool in ("apt-get", "dpkg-deb", "aubio"):
        if not shutil.which(tool):
            sys.exit(f"{tool} not found (see the header of {__file__})")
    cache = pathlib.Path(args.cache)
    fetch(cache)

    print("| # | File (Debian package: path) | chart | MarbleKit | aubio | librosa | agrees with |")
    print("|---|---|---:|---:|---:|---:|---|")
    agreed = octave = same = 0
    for i, (pkg, rel) in enumerate(SONGS, 1):
        path = cache / pkg / PACKAGES[pkg] / rel
        chart = chart_tempo(path.parent / "notes.mid") if pkg.startswith("fretsonfire") else None
        ours, au, lr = marble_tempo(marble, path), aubio_tempo(path), librosa_tempo(python, path)
        found = [f"{name} {r}" for name, other in (("aubio", au), ("librosa", lr)) if (r := relation(ours, other))]
        agreed += bool(found)
        same += any(f.endswith("×1") for f in found)
        octave += any(f.endswith(("×1", "×2", "×½")) for f in found)
        chart_s = f"{chart:.0f}" if chart else "–"
        print(f"| {i} | {pkg}: {PACKAGES[pkg]}/{rel} | {chart_s} | {ours:.1f} | {au:.1f} | {lr:.1f} | "
              f"{', '.join(found) if found else '**none**'} |", flush=True)
    print(f"\nAgrees with aubio or librosa within 4 %: {octave} of {len(SONGS)} allowing octaves (×1, ×2, ×½), "
          f"{agreed} allowing 3:2 as well, {same} at the same tempo (×1).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
