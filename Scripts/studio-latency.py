#!/usr/bin/python3
"""The studio's preview measured as the page uses it (docs/STUDIO.md): against a running `marble studio`,
a client plays a virtual audio clock for SECONDS, keeps at most two frames asked for and not received,
asks for the frame of `clock + round trip`, and reports the frames per second received, how far each
frame's moment is from the clock when it arrives (in frames), the round trip, the time from a new look
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
    p.add_argument("--json", action="store_true")
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
    start = time.monotonic() + 0.2
    clock = lambda: 10 + (time.monotonic() - start)          # the song plays from 10 s
    rtts, offsets, received, in_flight, rtt = [], [], [], {}, 0.02
    next_id = 0
    while time.monotonic() - start < a.seconds:
        while len(in_flight) < 2:
            moment = clock() + rtt
            ws.send(json.dumps({"type": "frame", "id": next_id, "time": moment})); in_flight[next_id] = time.monotonic(); next_id += 1
        m = ws.recv()
        fid, index, ftime = struct.unpack("<IId", m[:16])
        now = time.monotonic(); sent = in_flight.pop(fid)
        rtts.append(now - sent); rtt = statistics.median(rtts[-30:])
        received.append(now); offsets.append((ftime - clock()) / period)
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
        "offset_frames_p50": round(q([abs(o) for o in offsets], 0.5), 2),
        "offset_frames_p95": round(q([abs(o) for o in offsets], 0.95), 2),
        "within_one_frame": round(sum(abs(o) <= 1 for o in offsets) / len(offsets), 3),
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
