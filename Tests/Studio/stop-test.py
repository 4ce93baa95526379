#!/usr/bin/python3
"""`marble studio` stopped by SIGINT (Ctrl-C) or SIGTERM while a render runs and two pages hold their
sockets open: it exits 0 promptly, says it cancelled the render, and leaves nothing of it in the output
folder (no file, no hidden work folder); the pages' sockets are closed by the studio.

  Tests/Studio/stop-test.py --marble .build/release/marble
Needs python3-websocket and ffmpeg. One line per check; exit 1 when any failed."""
import argparse, json, os, signal, subprocess, sys, tempfile, threading, time, urllib.request
from pathlib import Path
import websocket

sys.path.insert(0, str(Path(__file__).resolve().parent))
from studio_checks import check, free_port, summary  # noqa: E402





def drain(ws, closed):
    """Reads until the studio closes the socket (answering its close, as a browser does)."""
    try:
        while ws.recv():
            pass
    except Exception:
        pass
    closed.append(ws)


def story(marble, folder, number):
    out = Path(tempfile.mkdtemp(prefix="studio-stop-out-"))
    port = free_port()
    studio = subprocess.Popen([marble, "studio", str(folder), "--output", str(out), "--listen", f"127.0.0.1:{port}"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    name = signal.Signals(number).name
    # The studio prints its URL once it listens: that line is the event waited on.
    announced = studio.stderr.readline()
    check(f"{name}: the studio listens", f"127.0.0.1:{port}" in announced, announced.strip())
    base = f"http://127.0.0.1:{port}"
    events = websocket.create_connection(base.replace("http", "ws") + "/api/events")
    events.recv()
    preview = websocket.create_connection(base.replace("http", "ws") + "/api/preview")
    preview.send(json.dumps({"type": "open", "song": "long.wav", "size": "320x180"}))
    preview.recv()
    body = {"song": "long.wav", "preset": "magma", "settings": {"size": "1280x720", "fps": 60}}
    request = urllib.request.Request(base + "/api/renders", data=json.dumps(body).encode(), method="POST")
    urllib.request.urlopen(request).read()
    # The stop comes in the middle: once the render's events say it draws frames.
    while True:
        event = json.loads(events.recv())
        if event.get("render", {}).get("state") == "rendering" and event["render"]["frames"] > 0:
            break
    work = [p.name for p in out.iterdir()]
    check(f"{name}: the render is under way, in a hidden work folder", any(n.startswith(".render-") for n in work), work)
    closed = []
    threads = [threading.Thread(target=drain, args=(ws, closed)) for ws in (events, preview)]
    for t in threads:
        t.start()
    started = time.monotonic()
    studio.send_signal(number)
    try:
        _, stderr = studio.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        studio.kill()
        _, stderr = studio.communicate()
    stderr = announced + stderr
    took = time.monotonic() - started
    for t in threads:
        t.join(5)
    check(f"{name}: exit 0", studio.returncode == 0, f"exit {studio.returncode}: {stderr.strip()[-200:]}")
    check(f"{name}: gone within 5 s", took < 5, f"{took:.2f} s")
    check(f"{name}: says the render was cancelled", "1 render(s) cancelled" in stderr, stderr.strip()[-200:])
    left = sorted(p.name for p in out.iterdir() if p.name != "presets")
    check(f"{name}: nothing of the render is left", left == [], left)
    check(f"{name}: both pages' sockets were closed by the studio", len(closed) == 2, f"{len(closed)} closed")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--marble", default=os.environ.get("MARBLE", ".build/release/marble"))
    marble = str(Path(parser.parse_args().marble).resolve())
    folder = Path(tempfile.mkdtemp(prefix="studio-stop-songs-"))
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i",
                    "aevalsrc=0.4*sin(2*PI*220*t)+0.5*lt(mod(t\\,0.5)\\,0.02)*sin(2*PI*90*t):s=44100:d=120",
                    str(folder / "long.wav")], check=True)
    for number in (signal.SIGINT, signal.SIGTERM):
        story(marble, folder, number)
    sys.exit(summary())


if __name__ == "__main__":
    main()
