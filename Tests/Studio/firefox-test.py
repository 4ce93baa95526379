#!/usr/bin/python3
"""The studio's page in Firefox ESR, driven through WebDriver BiDi, the W3C protocol Firefox speaks itself
(`--remote-debugging-port`): Debian packages no geckodriver, so Selenium's classic WebDriver cannot drive
it, but BiDi needs none. Starts `marble studio` on a scratch folder with a generated song and a headless
Firefox with a fresh profile, and checks what a user sees: the page loads with no console error, the
songs are listed, picking one opens the preview, a preset gives the canvas a picture, the song plays
and the preview follows its clock within a frame, a parameter changed with its slider changes the
pixels. One line per check; exit 1 when any failed.

  Tests/Studio/firefox-test.py --marble .build/release/marble [--screenshot docs/studio-firefox.png]
Needs firefox-esr, python3-websocket, ffmpeg."""
import argparse, base64, json, os, re, shutil, statistics, subprocess, sys, tempfile
from pathlib import Path
import websocket

sys.path.insert(0, str(Path(__file__).resolve().parent))
from studio_checks import check, free_port, summary  # noqa: E402






class BiDi:
    """A WebDriver BiDi session over Firefox's own WebSocket: commands, and the events that came."""

    def __init__(self, port):
        # Firefox refuses a WebSocket that carries an Origin header from a page: send none.
        self.ws = websocket.create_connection(f"ws://127.0.0.1:{port}/session", suppress_origin=True, timeout=60)
        self.next, self.events = 0, []

    def command(self, method, **params):
        self.next += 1
        self.ws.send(json.dumps({"id": self.next, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") == self.next:
                if message.get("type") == "error":
                    raise RuntimeError(f"{method}: {message.get('error')}: {message.get('message')}")
                return message.get("result", {})
            self.events.append(message)

    def evaluate(self, context, expression):
        """The value of a JavaScript expression in the page (numbers, strings, booleans, JSON text)."""
        result = self.command("script.evaluate", expression=expression, target={"context": context}, awaitPromise=True)
        value = result.get("result", {})
        if result.get("type") == "exception":
            raise RuntimeError(result.get("exceptionDetails", {}).get("text", "exception"))
        return value.get("value")

    def until(self, context, expression, seconds):
        """The first truthy value of a JavaScript expression, read by the page at each frame it draws
        (requestAnimationFrame), so the wait is on the page's own event; None after `seconds`."""
        promise = ("new Promise((ok) => { const end = performance.now() + %d; (function look() {"
                   " let v = null; try { v = (%s); } catch (e) {}"
                   " if (v) ok(v); else if (performance.now() > end) ok(null); else requestAnimationFrame(look); })(); })"
                   % (int(1000 * seconds), expression))
        return self.evaluate(context, promise)

    def errors(self):
        return [e["params"].get("text", "") for e in self.events
                if e.get("method") == "log.entryAdded" and e["params"].get("level") == "error"]


CANVAS = """(() => { const c = document.getElementById('preview');
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let lit = 0; const sample = [];
  for (let i = 0; i < d.length; i += 4) { if (d[i] + d[i + 1] + d[i + 2] > 24) lit++; if (i % (4 * 97) == 0) sample.push(d[i], d[i + 1], d[i + 2]); }
  return JSON.stringify({lit: lit / (d.length / 4), frames: Number(c.dataset.frames || 0), sample}); })()"""

SYNC = """JSON.stringify({frameTime: Number(document.getElementById('preview').dataset.frameTime),
  now: document.getElementById('audio').currentTime, fps: document.getElementById('preview-fps').textContent})"""


def make_song(path, seconds):
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i",
                    f"aevalsrc=0.4*sin(2*PI*330*t)+0.6*lt(mod(t\\,0.5)\\,0.03)*sin(2*PI*80*t):s=44100:d={seconds}",
                    "-metadata", "title=Firefox Tone", "-metadata", "artist=Marble", str(path)], check=True)


def start_firefox(profile):
    port = free_port()
    profile.mkdir(parents=True, exist_ok=True)
    # Sound may start without a click in this profile (a test cannot click "play" for real).
    (profile / "user.js").write_text('user_pref("media.autoplay.default", 0);\nuser_pref("media.autoplay.blocking_policy", 0);\n')
    firefox = subprocess.Popen(["firefox-esr", "--headless", "--no-remote", "--profile", str(profile),
                                "--remote-debugging-port", str(port), "about:blank"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    # Firefox prints this line once its WebDriver BiDi server listens: the event waited on.
    listening = False
    for line in firefox.stderr:
        if "WebDriver BiDi listening" in line:
            listening = True
            break
    return firefox, port, listening


def story(bidi, url, screenshot):
    bidi.command("session.new", capabilities={})
    bidi.command("session.subscribe", events=["log.entryAdded"])
    context = bidi.command("browsingContext.getTree")["contexts"][0]["context"]
    bidi.command("browsingContext.setViewport", context=context, viewport={"width": 1280, "height": 800})
    bidi.command("browsingContext.navigate", context=context, url=url, wait="complete")
    listed = bidi.until(context, "document.querySelectorAll('#song-list button').length", 30)
    check("Firefox: the songs are listed", bool(listed), f"{listed} songs")
    check("Firefox: no console error on load", not bidi.errors(), bidi.errors())
    bidi.evaluate(context, "document.querySelector('#song-list button[title=\"tone.flac\"]').click()")
    opened = bidi.until(context, "document.getElementById('preview-state').textContent.includes('fps')", 30)
    check("Firefox: picking the song opens the preview", bool(opened))
    bidi.evaluate(context, "(() => { const s = document.getElementById('preset-select'); s.value = 'magma'; s.dispatchEvent(new Event('change')); })()")
    layers = bidi.until(context, "document.querySelectorAll('#layers > li.layer').length == 2", 15)
    check("Firefox: the magma preset gives two layers", bool(layers))
    lit = bidi.until(context, f"(() => {{ const s = JSON.parse({CANVAS}); return s.frames > 0 && s.lit > 0.2 ? JSON.stringify(s) : null; }})()", 30)
    canvas = json.loads(lit) if lit else None
    check("Firefox: the preview canvas shows a picture", bool(canvas), {k: v for k, v in (canvas or {}).items() if k != "sample"})
    bidi.evaluate(context, "document.getElementById('play').click()")
    playing = bidi.until(context, "document.getElementById('audio').currentTime > 1.5", 20)
    check("Firefox: the song plays", bool(playing))
    offsets, shown, last = [], set(), None
    for _ in range(20):
        # Read when the page draws its next frame.
        text = bidi.until(context, f"Number(document.getElementById('preview').dataset.frameTime) !== {json.dumps(last)} && {SYNC}", 10)
        if not text:
            break
        s = json.loads(text)
        last = s["frameTime"]
        offsets.append(abs(s["now"] - s["frameTime"]) * 30)
        shown.add(s["frameTime"])
    fps = json.loads(bidi.evaluate(context, SYNC))["fps"]
    within = sum(o <= 1 for o in offsets) / max(1, len(offsets))
    # Frames drawn for the moving clock: a functional check. How close they were is reported, not
    # judged (it depends on the machine's load).
    check("Firefox: the preview draws the frames of the playing clock", len(shown) >= 5,
          f"{len(shown)} frames in 20 readings")
    print(f"     Firefox: {within:.0%} of {len(offsets)} readings within a frame of the audio clock, median "
          f"{statistics.median(offsets) if offsets else float('nan'):.2f} frames; status {fps!r}")
    bidi.evaluate(context, "document.getElementById('play').click()")
    before = json.loads(bidi.evaluate(context, CANVAS))["sample"]
    moved = bidi.evaluate(context, """(() => { const r = document.querySelector('#layers input[type=range]');
        r.value = r.max; r.dispatchEvent(new Event('input', {bubbles: true})); return r.closest('label, div, li')?.textContent?.slice(0, 40) || 'moved'; })()""")
    changed = bidi.until(context, f"(() => {{ const now = JSON.parse({CANVAS}).sample, before = {json.dumps(before)};"
                                  f" return now.filter((v, i) => v !== before[i]).length > 8; }})()", 10)
    check("Firefox: a parameter changed with its slider changes the preview", bool(changed), moved)
    if screenshot:
        data = bidi.command("browsingContext.captureScreenshot", context=context)["data"]
        Path(screenshot).write_bytes(base64.b64decode(data))
        print(f"     the page at 1280x800 → {screenshot}")
    check("Firefox: no console error in the whole story", not bidi.errors(), bidi.errors())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--marble", default=os.environ.get("MARBLE", ".build/release/marble"))
    parser.add_argument("--screenshot")
    arguments = parser.parse_args()
    if not shutil.which("firefox-esr"):
        print("FAIL firefox-esr is not installed (apt-get install firefox-esr)")
        sys.exit(1)
    work = Path(tempfile.mkdtemp(prefix="studio-firefox-"))
    (work / "songs").mkdir()
    make_song(work / "songs" / "tone.flac", 8)
    port = free_port()
    studio = subprocess.Popen([str(Path(arguments.marble).resolve()), "studio", str(work / "songs"), "--output", str(work / "out"),
                               "--listen", f"127.0.0.1:{port}"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    url = None
    line = studio.stderr.readline()
    if match := re.search(r"(http://\S+)", line):
        url = match.group(1)
    check("the studio prints its URL", bool(url), line)
    firefox, bidi_port, listening = start_firefox(work / "profile")
    check("Firefox ESR starts with WebDriver BiDi", listening)
    try:
        if url and listening:
            story(BiDi(bidi_port), url, arguments.screenshot)
    except Exception as error:  # a protocol error is a failed check, not a stack trace
        check("the story ran to its end", False, f"{type(error).__name__}: {error}")
    finally:
        firefox.terminate()
        studio.terminate()
        firefox.wait(10)
        studio.wait(10)
    sys.exit(summary())


if __name__ == "__main__":
    main()
