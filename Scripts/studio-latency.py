#!/usr/bin/python3
"""The studio's preview measured as the page uses it (docs/STUDIO.md): against a running `marble studio`,
a client plays a virtual audio clock for SECONDS, asks for each frame of the preview's grid once, when
the clock is the slowest recent round trip from its moment, with at most two asked for and not received, and reports
the frames per second received, how late each frame arrives for its moment (in frames: 0 when it came
before it and waits to be shown), the round trip, the time from a new look
to the first frame drawn with it, and the time from a scrub to the new moment's frame.

  Scripts/studio-latency.py URL SONG [--seconds 20] [--size 640x360] [--fps 30] [--render]

--render starts a render of the song (1280x720 60 fps, the `bars` preset) first and measures while it runs.
Needs python3-websocket (Debian). Prints one table row per measure, and JSON with --json."""
import argparse, json, statistics, struct, time, urllib.request
import websocket

def main():
    p = argparse.ArgumentParser()
    p.add_argument("url"); p.add_argument("song"); p.add_argument("--folder", type=int, default=0)
    p.add_argument("--seconds", type=float, default=20); p.add_argument("--size", default="640x360")
    p.add_argument("--fps", type=int, default=30); p.add_argument("--render", action="store_true")
    p.add_argument("--json", action="store_true"); p.add_argument("--verbose", action="store_true")
    a = p.parse_args()
    base = a.url.rstrip("/")
    if a.render:
        body = {"song": a.song, "folder": a.folder, "preset": "bars", "settings": {"size": "1280x720", "fps": 60}}
        req = urllib.request.Request(base + "/api/renders", data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
        urllib.request.urlopen(req).read()
    ws = websocket.create_connection(base.replace("http", "ws", 1) + "/api/preview")
    look = {"layers": [{"shader": "aura"}, {"shader": "bars", "blend": "screen", "parameters": {"top_color": "#ff2ebd"}}]}
    t0 = time.monotonic()
    ws.send(json.dumps({"type": "open", "song": a.song, "folder": a.folder, "size": a.size, "fps": a.fps, "look": look}))
    opened = json.loads(ws.recv()); open_s = time.monotonic() - t0
    period = 1 / a.fps
    # The page shows the song's position before it plays: the first frame (a jump from 0) comes first.
    ws.send(json.dumps({"type": "frame", "id": 0, "time": 10})); ws.recv()
    start = time.monotonic()
    clock = lambda: 10 + (time.monotonic() - start)          # the song plays from 10 s
    rtts, offsets, received, in_flight, rtt = [], [], [], {}, 0.02
    last_asked = -1
    ws.settimeout(0.002)
    while time.monotonic() - start < a.seconds:
        # Ask for each frame of the grid once, when the clock is the slowest recent round trip from its moment, at most
        # two at a time: what the page does.
        due = int((clock() + rtt + period / 4) * a.fps)   # a quarter frame of margin over the round trip
        if due > last_asked and len(in_flight) < 2:
            last_asked = due
            ws.send(json.dumps({"type": "frame", "id": due, "time": due / a.fps})); in_flight[due] = time.monotonic()
            continue
        try:
            m = ws.recv()
        except websocket.WebSocketTimeoutException:
            continue
        fid, index, ftime = struct.unpack("<IId", m[:16])
        now = time.monotonic(); sent = in_flight.pop(fid)
        rtts.append(now - sent); rtt = max(rtts[-30:])   # lead by the slowest recent round trip
        # How late the frame came: 0 when it arrived before its moment (it waits to be shown).
        received.append(now); offsets.append(max(0.0, clock() - ftime) / period)
        if offsets[-1] > 1 and a.verbose: print(f"late: frame {index} by {offsets[-1]:.2f} frames, round trip {1000 * (now - sent):.1f} ms, lead {1000 * rtt:.1f} ms")
    ws.settimeout(None)
    while in_flight:
        fid = struct.unpack("<IId", ws.recv()[:16])[0]; in_flight.pop(fid, None)
    duration = received[-1] - received[0]
    # A new look: the time to the first frame drawn with it (the next frame asked for).
    changes = []
    for i in range(10):
        t = time.monotonic()
        look["layers"][1]["parameters"]["top_color"] = "#%02x8020" % (i * 25)
        ws.send(json.dumps({"type": "look", "look": look})); ws.recv()
        ws.send(json.dumps({"type": "frame", "id": 1000 + i, "time": clock()})); ws.recv()
        changes.append(time.monotonic() - t)
    scrubs = []
    for target in [60, 20, 150, 5, 90, 30, 120, 45]:
        t = time.monotonic()
        ws.send(json.dumps({"type": "frame", "id": 2000, "time": target})); ws.recv()
        scrubs.append(time.monotonic() - t)
    q = lambda xs, f: sorted(xs)[min(len(xs) - 1, int(f * len(xs)))]
    result = {
        "render": a.render, "open_s": round(open_s, 3), "frames": len(received),
        "fps": round((len(received) - 1) / duration, 1),
        "late_frames_p50": round(q(offsets, 0.5), 2), "late_frames_p99": round(q(offsets, 0.99), 2),
        "shown_within_one_frame": round(sum(o <= 1 for o in offsets) / len(offsets), 3),
        "rtt_ms_p50": round(q(rtts, 0.5) * 1000, 1), "rtt_ms_p95": round(q(rtts, 0.95) * 1000, 1),
        "look_change_ms_p50": round(q(changes, 0.5) * 1000, 1), "look_change_ms_max": round(max(changes) * 1000, 1),
        "scrub_ms_p50": round(q(scrubs, 0.5) * 1000, 1), "scrub_ms_max": round(max(scrubs) * 1000, 1),
    }
    if a.json:
        print(json.dumps(result))
    else:
        for k, v in result.items(): print(f"{k:>22}  {v}")

if __name__ == "__main__":
    main()
