#!/usr/bin/env python3
"""Synthesises Samples/sample.ogg: 16 s of 120 BPM electronic music (kick, snare, hats, bass, chords).

Made from scratch with numpy so the project ships no third-party audio. Run: python3 make-sample.py
(needs numpy and the ffmpeg command for the Vorbis encoding).
"""
import subprocess, wave
import numpy as np

RATE, BPM, BARS = 44100, 120, 8
beat = 60 / BPM
n = int(RATE * beat * 4 * BARS)
t = np.arange(n) / RATE
out = np.zeros((n, 2))
rng = np.random.default_rng(7)

def place(sound, start, gain=1.0, pan=0.0):
    i = int(start * RATE)
    j = min(n, i + len(sound))
    out[i:j, 0] += sound[: j - i] * gain * (1 - pan)
    out[i:j, 1] += sound[: j - i] * gain * (1 + pan)

def env(length, decay):
    x = np.arange(int(length * RATE)) / RATE
    return np.exp(-x / decay)

kick = np.sin(2 * np.pi * (50 + 120 * env(0.35, 0.03)) * np.arange(int(0.35 * RATE)) / RATE) * env(0.35, 0.12)
snare = (rng.standard_normal(int(0.25 * RATE)) * 0.6 + np.sin(2 * np.pi * 190 * np.arange(int(0.25 * RATE)) / RATE)) * env(0.25, 0.06)
hat = np.diff(rng.standard_normal(int(0.06 * RATE) + 1)) * env(0.06, 0.015)

notes = [45, 45, 48, 43]  # A, A, C, G (MIDI) per bar
for b in range(BARS * 4):
    t0 = b * beat
    place(kick, t0, 0.9)
    if b % 2 == 1:
        place(snare, t0, 0.45)
    for k in range(2):
        place(hat, t0 + k * beat / 2, 0.25 if k else 0.15, pan=0.3)
    root = notes[(b // 4) % 4]
    f = 440 * 2 ** ((root - 69) / 12)
    x = np.arange(int(beat * RATE)) / RATE
    bass = np.sign(np.sin(2 * np.pi * f * x)) * 0.5 + np.sin(2 * np.pi * f * x) * 0.5
    place(bass * np.exp(-x / 0.25), t0 + beat / 2, 0.22)
    if b % 4 == 0:
        y = np.arange(int(4 * beat * RATE)) / RATE
        chord = sum(np.sin(2 * np.pi * 440 * 2 ** ((root + 24 + k - 69) / 12) * y) for k in (0, 3, 7))
        place(chord * np.minimum(1, y / 0.3) * np.exp(-y / 2.0), t0, 0.08, pan=-0.2)

out /= np.max(np.abs(out)) * 1.12
pcm = (out * 32767).astype("<i2")
with wave.open("sample.wav", "wb") as w:
    w.setnchannels(2); w.setsampwidth(2); w.setframerate(RATE); w.writeframes(pcm.tobytes())
subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-i", "sample.wav", "-c:a", "libvorbis", "-q:a", "3",
                "-fflags", "+bitexact", "sample.ogg"], check=True)
subprocess.run(["rm", "sample.wav"], check=True)
