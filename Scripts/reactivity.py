#!/usr/bin/env python3
"""How visibly every effect responds to a real song: frame difference and luminance against the
sound's level and beats (issue 12, defect 7).

    Scripts/reactivity.py SONG [--start 30] [--seconds 12] [--size 160x90] [--marble PATH] [--only NAME ...]

For each shader and bundled preset that `marble effects --json` lists (generators alone, filters over
Samples/Pictures/magma.jpg, presets as they are), renders the stretch of SONG at 30 fps with
`marble render --frames` and measures, per frame, the mean luminance and the mean absolute difference
from the previous frame (0-255). Against `marble analyze SONG --json --frames --fps 30` it prints:

  area      share of the frame that changes at all (8 levels or more) during the clip
  silence   share of the drawn pixels (8 levels or more in either) that differ by 12 levels or more
            from the same render of silence at the same frame, averaged over frames (what the music
            changes; EveryEffectReactsTests measures the same on generated music)
  motion    mean frame difference over that area (how much the picture moves)
  beat      frame difference in the 3 frames from each beat over the difference elsewhere (>1: beats show)
  onset r   correlation of the frame difference with the onset strength
  level r   correlation of the luminance with the level
  verdict   "reacts" when silence >= 5 %, motion >= 0.5 and (beat >= 1.25 or onset r >= 0.25 or
            |level r| >= 0.25)

Needs a release build (`swift build -c release --product marble`) and ffmpeg; the standard library,
and numpy when it is installed (the same figures, about fifty times sooner).
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

try:
    import numpy
except ImportError:   # the standard library does the same, slowly
    numpy = None

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FPS = 30
# Layers that do not follow the sound by design: plain colours, the picture, text from the tags and
# clock, lyrics, the cover, and the whole song's overview (its playhead follows time).
STATIC = {"solid", "gradient", "media", "text", "lyrics", "cover", "overview"}


def run(args, **kw):
    return subprocess.run(args, check=True, capture_output=True, **kw).stdout


def correlation(a, b):
    n = min(len(a), len(b))
    if n < 3:
        return 0.0
    a, b = a[:n], b[:n]
    ma, mb = sum(a) / n, sum(b) / n
    va = sum((x - ma) ** 2 for x in a)
    vb = sum((y - mb) ** 2 for y in b)
    if va <= 1e-12 or vb <= 1e-12:
        return 0.0
    return sum((x - ma) * (y - mb) for x, y in zip(a, b)) / math.sqrt(va * vb)


def frames_of(video, width, height):
    raw = run(["ffmpeg", "-v", "error", "-i", video, "-f", "rawvideo", "-pix_fmt", "gray", "-"])
    size = width * height
    return [raw[i:i + size] for i in range(0, len(raw) - size + 1, size)]


def silence_change(frames, silent):
    """Mean over frames of the share of drawn pixels (8 or more in either) differing by 12 or more."""
    if numpy is not None:
        n = min(len(frames), len(silent))
        a = numpy.array([numpy.frombuffer(f, numpy.uint8) for f in frames[:n]], dtype=numpy.int16)
        b = numpy.array([numpy.frombuffer(f, numpy.uint8) for f in silent[:n]], dtype=numpy.int16)
        drawn = (a >= 8) | (b >= 8)
        changed = drawn & (numpy.abs(a - b) >= 12)
        shares = changed.sum(axis=1) / numpy.maximum(1, drawn.sum(axis=1))
        return float(shares.mean()) if n else 0.0
    total = 0.0
    n = min(len(frames), len(silent))
    for f, g in zip(frames[:n], silent[:n]):
        drawn = changed = 0
        for a, b in zip(f, g):
            if a >= 8 or b >= 8:
                drawn += 1
                if abs(a - b) >= 12:
                    changed += 1
        total += changed / drawn if drawn else 0.0
    return total / n if n else 0.0


def measure(frames, width, columns=None):
    """Per frame: mean luminance and mean absolute difference from the previous frame, over the
    pixels that change by 8 levels or more at some point of the clip (a panel like the meters or a
    cover covers part of the frame: its motion is measured where it is), and the share of the frame
    those pixels cover. `columns` limits everything to a range of columns."""
    if columns is not None:
        frames = [bytes(b for i, b in enumerate(f) if i % width in columns) for f in frames]
    if numpy is not None:
        f = numpy.array([numpy.frombuffer(x, numpy.uint8) for x in frames], dtype=numpy.int16)
        active = (f.max(axis=0) - f.min(axis=0)) >= 8
        if not active.any():
            active[:] = True
        luma = f[:, active].mean(axis=1).tolist()
        diff = [0.0] + numpy.abs(numpy.diff(f[:, active], axis=0)).mean(axis=1).tolist()
        return luma, diff, float(active.sum()) / f.shape[1]
    first = frames[0]
    lo, hi = bytearray(first), bytearray(first)
    for f in frames[1:]:
        for i, v in enumerate(f):
            if v < lo[i]: lo[i] = v
            if v > hi[i]: hi[i] = v
    active = [i for i in range(len(first)) if hi[i] - lo[i] >= 8] or list(range(len(first)))
    luma, diff = [], [0.0]
    for k, f in enumerate(frames):
        luma.append(sum(f[i] for i in active) / len(active))
        if k:
            prev = frames[k - 1]
            diff.append(sum(abs(f[i] - prev[i]) for i in active) / len(active))
    return luma, diff, len(active) / len(first)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("song")
    p.add_argument("--start", type=float, default=30, help="seconds into the song (default 30)")
    p.add_argument("--seconds", type=float, default=12, help="length measured (default 12)")
    p.add_argument("--size", default="160x90")
    p.add_argument("--marble", default=os.path.join(ROOT, ".build/release/marble"))
    p.add_argument("--only", nargs="*", help="effect names to measure (default: all)")
    a = p.parse_args()
    if not (0 <= a.start <= 36000 and 1 <= a.seconds <= 600):
        sys.exit("reactivity: --start must be 0…36000 and --seconds 1…600")
    width, height = (int(v) for v in a.size.split("x"))
    if not (16 <= width <= 1920 and 16 <= height <= 1080):
        sys.exit("reactivity: --size must be between 16x16 and 1920x1080")
    env = dict(os.environ, MARBLE_PRESETS=os.environ.get("MARBLE_PRESETS", os.path.join(ROOT, "Samples/Presets")))

    catalogue = json.loads(run([a.marble, "effects", "--json"], env=env))
    effects = [(s["name"], s["kind"]) for s in catalogue["shaders"]] + [(q["name"], "preset") for q in catalogue["presets"]]
    if a.only:
        effects = [e for e in effects if e[0] in a.only]

    with tempfile.TemporaryDirectory() as work:
        # Only the song up to the end of the stretch is analysed and drawn: a render analyses its whole
        # input first (tempo, beat grid), which for a long song would cost more than the frames.
        clip = os.path.join(work, "clip.wav")
        run(["ffmpeg", "-v", "error", "-i", a.song, "-t", str(a.start + a.seconds + 0.5), clip])
        song = clip
        first = int(a.start * FPS)
        last = first + int(a.seconds * FPS) - 1
        analysis = json.loads(run([a.marble, "analyze", song, "--json", "--frames", "--fps", str(FPS)], env=env))
        frames = analysis["frames"][first:last + 1]
        if len(frames) < 30:
            sys.exit("reactivity: the song is too short for --start/--seconds")
        level = [f["level"] for f in frames]
        onset = [f["onset"] for f in frames]
        near_beat = [False] * len(frames)
        for i, f in enumerate(frames):
            if f["beat"]:
                for k in range(i, min(len(frames), i + 3)):
                    near_beat[k] = True

        print("| effect | kind | area | silence | motion | beat | onset r | level r | verdict |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---|")
        # Silence as long as the song's part measured plus its start, so frame numbers match.
        quiet = os.path.join(work, "silence.wav")
        run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "anullsrc=r=44100:cl=stereo", "-t", str(last / FPS + 1), quiet])
        for name, kind in effects:
            video = os.path.join(work, name + ".mp4")
            args = [a.marble, "render", song, "-o", video, "--size", a.size, "--fps", str(FPS),
                    "--frames", f"{first}-{last}", "--quiet", "--crf", "12"]
            if kind == "generator":
                scene = os.path.join(work, name + ".yaml")
                with open(scene, "w") as out:
                    out.write(f"name: {name}\nlayers:\n  - shader: {name}\n")
                args += ["--preset", scene]
                if name == "media":
                    args += ["--background", os.path.join(ROOT, "Samples/Pictures/magma.jpg")]
            elif kind == "filter":
                args += ["--background", os.path.join(ROOT, "Samples/Pictures/magma.jpg"), "--effect", name]
            else:
                args += ["--preset", name]
            run(args, env=env, stdin=subprocess.DEVNULL)
            silent_video = os.path.join(work, name + "-silence.mp4")
            run([silent_video if x == video else quiet if x == song else x for x in args], env=env, stdin=subprocess.DEVNULL)
            silence = silence_change(frames_of(video, width, height), frames_of(silent_video, width, height))
            # A history view is measured where it draws the newest sound (the spectrogram scrolls
            # left: its right edge); the rest of it is the past, moving by design.
            columns = range(width - max(2, width // 16), width) if name == "spectrogram" else None
            luma, diff, area = measure(frames_of(video, width, height), width, columns)
            motion = sum(diff[1:]) / max(1, len(diff) - 1)
            on = [d for d, b in zip(diff[1:], near_beat[1:]) if b]
            off = [d for d, b in zip(diff[1:], near_beat[1:]) if not b]
            beat = (sum(on) / len(on)) / max(1e-6, sum(off) / len(off)) if on and off else 1.0
            onset_r = correlation(diff[1:], onset[1:])
            level_r = correlation(luma, level)
            reacts = silence >= 0.05 and motion >= 0.5 and (beat >= 1.25 or onset_r >= 0.25 or abs(level_r) >= 0.25)
            verdict = "reacts" if reacts else ("static by design" if name in STATIC else "WEAK")
            print(f"| {name} | {kind} | {area:.2f} | {silence * 100:.0f} % | {motion:.2f} | {beat:.2f} | {onset_r:+.2f} | {level_r:+.2f} | {verdict} |",
                  flush=True)


if __name__ == "__main__":
    main()
