#!/usr/bin/python3
"""The studio's story in a real browser: headless Chromium driven through Debian's chromium-driver.

Starts `marble studio` (the binary in $MARBLE, default .build/release/marble) on a scratch folder with a
generated song, opens the page and walks what a user does: the page loads with no console error, the
song is picked, a preset gives the preview pixels, the audio plays and the preview follows its clock
within a frame at the shown frame rate, a parameter change changes the pixels, a parameter is bound,
the look is saved (and `marble render --preset` reads the file), the command is copied, a short video
is rendered, its progress reaches the end, it is downloaded and checked with ffprobe and against the
bytes of the command the page shows, and after a reload the render is still listed. One line per
check; exit status 1 when any failed.

  Tests/Studio/browser-test.py --marble .build/release/marble
  STUDIO_SCREENSHOT=docs/studio.png Tests/Studio/browser-test.py       # also the page at 1280x800
  Tests/Studio/browser-test.py --marble .build/debug/marble --min-fps 5

Options (or environment): --marble (MARBLE), --screenshot (STUDIO_SCREENSHOT), --min-fps
(STUDIO_MIN_FPS: a preview rate the status line must show while playing; default 0, reported only),
--in-step (STUDIO_IN_STEP: a share of frames that must be within one frame of the clock; default 0).
The timings are printed either way: CI's verdict never depends on the machine's load.
MARBLE_STUDIO_PAGE is passed on: the studio serves the page from that folder instead of its own copy.
Needs: chromium, chromium-driver, python3-selenium, ffmpeg (apt-get install chromium chromium-driver
python3-selenium ffmpeg). Firefox ESR is driven only when a geckodriver is installed (Debian has none).
"""
import argparse, base64, hashlib, json, os, re, shlex, shutil, socket, statistics, subprocess, sys, tempfile, time, urllib.request
from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

ROOT = Path(__file__).resolve().parents[2]

def arguments():
    parser = argparse.ArgumentParser(description="The studio's story in headless Chromium.")
    parser.add_argument("--marble", default=os.environ.get("MARBLE", str(ROOT / ".build/release/marble")),
                        help="the marble binary (default: $MARBLE or .build/release/marble)")
    parser.add_argument("--screenshot", default=os.environ.get("STUDIO_SCREENSHOT"),
                        help="save the page at 1280x800 there (default: $STUDIO_SCREENSHOT, else none)")
    parser.add_argument("--in-step", type=float, default=float(os.environ.get("STUDIO_IN_STEP", "0")),
                        help="the share of drawn frames that must be within one frame of the audio clock (default 0: reported only)")
    parser.add_argument("--min-fps", type=float, default=float(os.environ.get("STUDIO_MIN_FPS", "0")),
                        help="a preview rate the status line must show while playing (default 0: reported only)")
    return parser.parse_args()


ARGS = arguments()
MARBLE = str(Path(ARGS.marble).resolve()) if os.sep in ARGS.marble else ARGS.marble
MIN_FPS = ARGS.min_fps   # timing is reported; a bound is checked only when asked (it depends on the load)
IN_STEP = ARGS.in_step
SONG_SECONDS = 10
RENDER_SIZE, RENDER_FPS = (640, 360), 30
FAILED = []
SONGS_FOLDER = []  # the scratch song folder of the story


def check(name, condition, detail=""):
    """Prints one line for a check and remembers a failure."""
    detail = " ".join(str(detail).split())
    if condition and len(detail) > 160:
        detail = detail[:157] + "…"
    print(f"{'ok  ' if condition else 'FAIL'} {name}" + (f": {detail}" if detail else ""), flush=True)
    if not condition:
        FAILED.append(name)
    return condition


def note(text):
    print(f"     {text}", flush=True)


# ---------------------------------------------------------------- the studio

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def make_song(path, seconds, title="Browser Tone"):
    """Two tones over a 120 bpm kick (so bindings to bass and beat move), with title and artist tags and
    an embedded cover picture."""
    expr = "0.3*sin(2*PI*220*t)+0.2*sin(2*PI*330*t*(1+0.1*floor(t)))+0.7*sin(2*PI*55*t)*exp(-10*mod(t\\,0.5))"
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", f"aevalsrc={expr}:s=44100:d={seconds}",
                    "-f", "lavfi", "-i", "testsrc2=s=320x320:r=1:d=1", "-map", "0:a", "-map", "1:v", "-frames:v", "1",
                    "-c:v", "mjpeg", "-disposition:v", "attached_pic",
                    "-metadata", f"title={title}", "-metadata", "artist=Marble", str(path)], check=True)


def start_studio(songs, output, port, host="127.0.0.1"):
    process = subprocess.Popen([MARBLE, "studio", str(songs), "--listen", f"{host}:{port}", "--output", str(output)],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        match = re.search(r"https?://\S+", line)
        if match:   # printed once the studio listens
            return process, match.group(0)
    process.kill()
    sys.exit("browser test: the studio did not print its URL")


def stop(process):
    if process.poll() is None:
        process.send_signal(2)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()


# ---------------------------------------------------------------- the browsers

def chromium():
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,800",
                 "--autoplay-policy=no-user-gesture-required", "--hide-scrollbars", "--mute-audio"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver")
    return webdriver.Chrome(options=options, service=service)


def geckodriver_report():
    """Whether Firefox ESR can be driven: a geckodriver on the PATH or in Debian's archive."""
    found = shutil.which("geckodriver")
    policy = subprocess.run(["apt-cache", "policy", "geckodriver"], capture_output=True, text=True).stdout.strip()
    firefox = shutil.which("firefox-esr") or shutil.which("firefox")
    return found, firefox, policy


def console_errors(driver):
    """The browser log's SEVERE entries since the last call (Chromium only)."""
    try:
        return [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
    except WebDriverException:
        return []


def wait(driver, condition, timeout, what):
    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda d: condition(d))
    except TimeoutException:
        return None


# ---------------------------------------------------------------- reading the page

CANVAS_STATS = """
const canvas = document.getElementById('preview');
const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
let lit = 0, sum = 0;
for (let i = 0; i < data.length; i += 4) {
  const v = data[i] + data[i + 1] + data[i + 2];
  if (v > 24) lit++;
  sum += v;
}
return {lit: lit / (data.length / 4), mean: sum / (data.length / 4 * 3), frames: Number(canvas.dataset.frames || 0),
        width: canvas.width, height: canvas.height};
"""

CANVAS_PIXELS = """
const canvas = document.getElementById('preview');
const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
const out = [];
for (let i = 0; i < data.length; i += 4 * 97) out.push(data[i], data[i + 1], data[i + 2]);
return out;
"""

SYNC_SAMPLE = """
const canvas = document.getElementById('preview');
return {clock: Number(canvas.dataset.clock), frameTime: Number(canvas.dataset.frameTime),
        index: Number(canvas.dataset.frameIndex), now: document.getElementById('audio').currentTime,
        fps: document.getElementById('preview-fps').textContent,
        latency: document.getElementById('preview-latency').textContent};
"""


NEXT_FRAME = """
const [after, seconds] = [arguments[0], arguments[1]];
const done = arguments[arguments.length - 1];
const canvas = document.getElementById('preview');
const end = performance.now() + 1000 * seconds;
(function look() {
  const index = Number(canvas.dataset.frameIndex);
  if (canvas.dataset.frameIndex !== undefined && index !== after) {
    done({clock: Number(canvas.dataset.clock), frameTime: Number(canvas.dataset.frameTime), index: index});
  } else if (performance.now() > end) {
    done(null);
  } else {
    requestAnimationFrame(look);
  }
})();
"""

STILL_FRAME = """
const done = arguments[arguments.length - 1];
const canvas = document.getElementById('preview'), audio = document.getElementById('audio');
const end = performance.now() + 10000;
(function look() {
  const drawn = Math.abs(Number(canvas.dataset.frameTime) - audio.currentTime) <= 1 / 30 + 1e-3;
  if (audio.paused && drawn) done(true); else if (performance.now() > end) done(false); else requestAnimationFrame(look);
})();
"""

ROW_CHANGE = """
const [id, before, seconds] = [arguments[0], arguments[1], arguments[2]];
const done = arguments[arguments.length - 1];
const end = performance.now() + 1000 * seconds;
function row() {
  const li = document.querySelector(`#renders li[data-id="${id}"]`);
  if (!li) return {state: 'missing', value: 0, max: 0, text: '', href: null};
  const bar = li.querySelector('progress');
  return {state: li.dataset.state, value: bar.value, max: bar.max, text: li.textContent,
          href: li.querySelector('a.download')?.href ?? null};
}
(function look() {
  const now = row();
  if (now.state + '/' + now.value !== before || performance.now() > end) done(now); else requestAnimationFrame(look);
})();
"""

RENDER_ROW = """
const li = document.querySelector(`#renders li[data-id="${arguments[0]}"]`);
if (!li) return {state: 'missing', value: 0, max: 0, text: '', href: null};
const bar = li.querySelector('progress');
return {state: li.dataset.state, value: bar.value, max: bar.max, text: li.textContent,
        href: li.querySelector('a.download')?.href ?? null};
"""


def pixels_differ(a, b):
    """Mean absolute difference of two samples of the canvas, 0–255."""
    if not a or not b or len(a) != len(b):
        return 0
    return sum(abs(x - y) for x, y in zip(a, b)) / len(a)


def message(driver):
    return driver.find_element(By.ID, "message").text


def number(text):
    match = re.search(r"[-\d.]+", text or "")
    return float(match.group(0)) if match else float("nan")


# ---------------------------------------------------------------- the story

def load_page(driver, url):
    driver.get(url)
    ok = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#song-list button"), 30, "songs")
    check("page loads and lists the song", bool(ok))
    check("the shader list is filled from /api/effects",
          len(driver.find_elements(By.CSS_SELECTOR, "#shader-select option")) > 10)
    favicon = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        Promise.all(['favicon.svg', 'favicon.ico'].map((u) => fetch(u).then((r) => r.status)))
          .then(done, (e) => done(String(e)));""")
    check("favicon.svg and favicon.ico load", favicon == [200, 200], str(favicon))
    errors = console_errors(driver)
    check("no console error on load", not errors, json.dumps(errors)[:500])


DROP_FILE = """
const [name, base64] = arguments;
const done = arguments[arguments.length - 1];
Promise.resolve(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))).then((bytes) => {
  const transfer = new DataTransfer();
  transfer.items.add(new File([bytes], name, {type: 'audio/flac'}));
  for (const type of ['dragenter', 'dragover', 'drop']) {
    document.body.dispatchEvent(new DragEvent(type, {dataTransfer: transfer, bubbles: true, cancelable: true}));
  }
  done(true);
}, (e) => done(String(e)));
"""


def upload_by_drop(driver, songs, work):
    """A file dropped onto the page is uploaded into the first folder and listed."""
    make_song(work / "second.flac", 3, "Second Tone")
    data = base64.b64encode((work / "second.flac").read_bytes()).decode()
    result = driver.execute_async_script(DROP_FILE, "dropped.flac", data)
    titles = "return [...document.querySelectorAll('#song-list button')].map((b) => b.title)"
    listed = wait(driver, lambda d: "dropped.flac" in d.execute_script(titles), 30, "dropped")
    check("a file dropped onto the page is uploaded and listed", bool(listed) and (songs / "dropped.flac").exists(),
          f"{result}; {message(driver)}")


def pick_song_and_preset(driver):
    driver.find_element(By.CSS_SELECTOR, '#song-list button[title="tone.flac"]').click()
    ok = wait(driver, lambda d: "fps" in d.find_element(By.ID, "preview-state").text, 30, "opened")
    check("picking the song opens the preview", bool(ok), driver.find_element(By.ID, "preview-state").text)
    Select(driver.find_element(By.ID, "preset-select")).select_by_value("magma")
    ok = wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#layers > li.layer")) == 2, 10, "layers")
    check("preset magma gives two layers", bool(ok))
    stats = wait(driver, lambda d: (s := d.execute_script(CANVAS_STATS))["frames"] > 0 and s["lit"] > 0.2 and s, 30, "pixels")
    check("the preview canvas shows a frame that is not black", bool(stats), str(stats or driver.execute_script(CANVAS_STATS)))


LAYER_NAMES = "return [...document.querySelectorAll('#layers > li.layer strong')].map((s) => s.textContent.replace(/^\\d+\\. /, ''))"


def edit_layers_by_keyboard(driver):
    """Add a layer, move it up, remove it: with the keyboard only, the focus staying on the controls."""
    before = driver.execute_script(CANVAS_PIXELS)
    select = driver.find_element(By.ID, "shader-select")
    Select(select).select_by_value("solid")
    select.send_keys(Keys.TAB)
    add = driver.switch_to.active_element
    check("Tab from the shader list reaches Add layer", add.get_attribute("id") == "add-layer", add.get_attribute("outerHTML")[:80])
    add.send_keys(Keys.ENTER)
    check("Enter on Add layer adds it on top", driver.execute_script(LAYER_NAMES) == ["magma", "waveform", "solid"],
          str(driver.execute_script(LAYER_NAMES)))
    changed = wait(driver, lambda d: pixels_differ(before, d.execute_script(CANVAS_PIXELS)) > 8, 10, "a black layer on top")
    check("  … and the preview shows it (a black solid over everything)", bool(changed))
    driver.find_element(By.CSS_SELECTOR, "#layers > li.layer:nth-child(3) button.up").send_keys(Keys.ENTER)
    focused = driver.switch_to.active_element.get_attribute("aria-label")
    check("Enter on ↑ moves it below waveform, the focus following it", driver.execute_script(LAYER_NAMES) ==
          ["magma", "solid", "waveform"] and focused == "Move solid up", f"{driver.execute_script(LAYER_NAMES)}, focus on {focused!r}")
    driver.switch_to.active_element.send_keys(Keys.TAB, Keys.TAB, Keys.ENTER)
    check("Tab, Tab, Enter reaches ✕ and removes it", driver.execute_script(LAYER_NAMES) == ["magma", "waveform"],
          str(driver.execute_script(LAYER_NAMES)))


def measure_playback(driver, seconds):
    """The drawn frames while the audio plays, each read when the page draws it (no polling on the
    test's clock): (fps shown, round trip shown, |clock − frame time| of each)."""
    samples, last = [], None
    driver.set_script_timeout(seconds + 15)
    for _ in range(int(30 * seconds)):
        sample = driver.execute_async_script(NEXT_FRAME, last, 10)
        if sample is None:
            break
        last = sample["index"]
        samples.append(sample)
    fps_shown = number(driver.find_element(By.ID, "preview-fps").text)
    latency = number(driver.find_element(By.ID, "preview-latency").text)
    return fps_shown, latency, [abs(s["clock"] - s["frameTime"]) for s in samples]


def check_in_step(name, offsets, share=0.0):
    """The drawn frames come from the audio clock: frames were drawn while it played (a functional
    check). How close they were is reported, not judged, unless `--in-step SHARE` asks for a share
    within one frame: a verdict on timing would depend on the machine's load."""
    frame = 1 / 30
    within = sum(o <= frame + 1e-3 for o in offsets)
    detail = (f"{len(offsets)} frames seen, median offset {1000 * statistics.median(offsets):.1f} ms, "
              f"{within} within one frame ({1000 * frame:.1f} ms)") if offsets else "no frames"
    share = max(share, IN_STEP)
    check(name, len(offsets) >= 5 and within >= share * len(offsets), detail)


def play_and_follow(driver):
    driver.find_element(By.ID, "play").click()
    playing = wait(driver, lambda d: d.execute_script("return document.getElementById('audio').currentTime") > 0.5, 15, "playing")
    check("the play button plays the audio", bool(playing))
    fps_shown, latency, offsets = measure_playback(driver, 3.5)
    check(f"the status line shows the preview's rate{f' (at least {MIN_FPS:g} fps)' if MIN_FPS else ''}",
          fps_shown > 0 and fps_shown >= MIN_FPS, f"{fps_shown:g} fps, latency {latency:g} ms")
    check_in_step("the drawn frames come from audio.currentTime while it plays", offsets)
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.SPACE)
    paused = wait(driver, lambda d: d.execute_script("return document.getElementById('audio').paused"), 5, "paused")
    check("space pauses (keyboard)", bool(paused))
    return fps_shown, latency


def preview_beside_render(driver, done_id):
    """The preview while a 1920x1080 60 fps render runs: reported, and still in step with the sound."""
    for id, value in (("render-size", "1920x1080"), ("render-fps", "60")):
        field = driver.find_element(By.ID, id)
        field.clear()
        field.send_keys(value)
    driver.execute_script("const s = document.getElementById('scrub'); s.value = 0; s.dispatchEvent(new Event('input'));")
    driver.find_element(By.ID, "render").click()
    new_id = wait(driver, lambda d: (i := d.execute_script("return document.querySelector('#renders li.render')?.dataset.id")) != done_id and i, 15, "queued")
    wait(driver, lambda d: d.execute_script(RENDER_ROW, new_id)["state"] == "rendering", 30, "rendering")
    driver.find_element(By.ID, "play").click()
    fps_shown, latency, offsets = measure_playback(driver, 3)
    state = driver.execute_script(RENDER_ROW, new_id)["state"]
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.SPACE)
    note(f"preview beside a 1920x1080 60 fps render ({state} at the end): {fps_shown:g} fps shown, round trip {latency:g} ms")
    # Both cores are the render's too (and, on a shared machine, others'): half the frames, not nine in ten.
    check_in_step("beside a render, the drawn frames still come from audio.currentTime", offsets)
    doomed = queue_a_render_that_will_fail(driver)
    driver.execute_script(f"document.querySelector('#renders li[data-id=\"{new_id}\"] button.cancel')?.click()")
    wait(driver, lambda d: d.execute_script(RENDER_ROW, new_id)["state"] in ("cancelled", "done"), 60, "stopped")
    if doomed:
        row = wait(driver, lambda d: (r := d.execute_script(RENDER_ROW, doomed))["state"] == "failed" and r, 60, "failed")
        check("a render that fails says why on the page", bool(row) and "no such file" in row["text"],
              (row or driver.execute_script(RENDER_ROW, doomed))["text"])
    return fps_shown, latency


def queue_a_render_that_will_fail(driver):
    """While a render runs (one at a time), another is queued for a copy of the song that is then
    deleted: when its turn comes it fails, and the page must say why. Queued through the API: the page
    lists every render the studio runs, whoever asked for it."""
    songs = SONGS_FOLDER[0]
    shutil.copy(songs / "tone.flac", songs / "doomed.flac")
    base = driver.current_url.split("?")[0].rstrip("/")
    body = json.dumps({"song": "doomed.flac", "folder": 0, "preset": "magma", "settings": {"size": "320x180", "fps": 30}}).encode()
    request = urllib.request.Request(base + "/api/renders", data=body, method="POST", headers={"Content-Type": "application/json"})
    try:
        render = json.loads(urllib.request.urlopen(request).read())["render"]
    except Exception as error:
        check("a render is queued behind the running one", False, str(error))
        return None
    (songs / "doomed.flac").unlink()
    return render["id"]


def still_frame(driver):
    """Until the page, paused, shows the frame of the audio's position (the pause's own frame)."""
    driver.set_script_timeout(15)
    return driver.execute_async_script(STILL_FRAME)


def change_parameter(driver):
    check("paused, the preview shows the frame of the audio's position", still_frame(driver))
    before = driver.execute_script(CANVAS_PIXELS)
    field = driver.find_element(By.ID, "layer0-opacity")
    started = time.monotonic()
    field.clear()
    field.send_keys("0.1", Keys.TAB)
    changed = wait(driver, lambda d: pixels_differ(before, d.execute_script(CANVAS_PIXELS)) > 8, 10, "change")
    elapsed = time.monotonic() - started
    in_page = driver.execute_script("return document.getElementById('preview').dataset.changeMs")
    check("a parameter change (opacity 1 → 0.1) changes the preview's pixels", bool(changed),
          f"on the canvas {in_page} ms after the change (page's clock); {1000 * elapsed:.0f} ms through WebDriver")
    scrub = driver.find_element(By.ID, "scrub")
    before = driver.execute_script(CANVAS_PIXELS)
    driver.execute_script("const s = arguments[0]; s.value = 5; s.dispatchEvent(new Event('input'));", scrub)
    moved = wait(driver, lambda d: abs(d.execute_script(SYNC_SAMPLE)["frameTime"] - 5) < 0.05, 10, "scrub")
    check("scrubbing to 5 s shows the frame at 5 s", bool(moved), str(driver.execute_script(SYNC_SAMPLE)))
    check("  … with other pixels", pixels_differ(before, driver.execute_script(CANVAS_PIXELS)) > 1)


def bind_parameter(driver):
    toggle = driver.find_element(By.CSS_SELECTOR, '#layers > li.layer .bind-toggle[aria-pressed="false"]')
    toggle.click()
    check("the bind toggle opens the binding", toggle.get_attribute("aria-pressed") == "true")
    panel = driver.find_element(By.ID, toggle.get_attribute("aria-controls"))
    Select(panel.find_element(By.CSS_SELECTOR, "select.feature")).select_by_value("beat")
    smoothing = panel.find_element(By.CSS_SELECTOR, "input.smoothing")
    smoothing.clear()
    smoothing.send_keys("0.3", Keys.TAB)
    return re.sub(r"^layer\d+-|-bind$", "", toggle.get_attribute("aria-controls"))


def title_and_background(driver):
    before = driver.execute_script(CANVAS_PIXELS)
    Select(driver.find_element(By.ID, "set-background")).select_by_value("cover")
    title = driver.find_element(By.ID, "set-title")
    title.send_keys("{artist} — {title}")
    changed = wait(driver, lambda d: pixels_differ(before, d.execute_script(CANVAS_PIXELS)) > 4, 15, "cover")
    check("a title and the cover as background change the preview", bool(changed))


def save_preset(driver, output, song, bound):
    name = driver.find_element(By.ID, "save-name")
    name.clear()
    name.send_keys("browser-test")
    driver.find_element(By.ID, "save").click()
    path = output / "presets/browser-test.yaml"
    ok = wait(driver, lambda d: path.exists() and "Saved" in message(d), 15, "saved")
    check("Save preset writes OUTPUT/presets/browser-test.yaml", bool(ok), message(driver))
    if not ok:
        return
    text = path.read_text()
    check("  … with the binding to beat", "beat" in text and bound in text and "0.3" in text, text[:400])
    check("  … with the changed opacity", "0.1" in text, text[:400])
    png = output / "check.png"
    result = subprocess.run([MARBLE, "render", str(song), "-o", str(png), "--at", "2s", "--size", "320x180",
                             "--preset", str(path)], capture_output=True, text=True, timeout=300)
    check("marble render --preset browser-test.yaml reads it", result.returncode == 0 and png.exists(),
          result.stderr.strip()[-300:])
    driver.find_element(By.ID, "save").click()
    exists = wait(driver, lambda d: "exist" in message(d).lower(), 10, "409")
    check("saving again without replace says it exists", bool(exists), message(driver))
    # Chromium logs every answer ≥ 400 as a SEVERE network entry: this one was asked for.
    errors = console_errors(driver)
    expected = [e for e in errors if "/api/presets" in e.get("message", "") and "409" in e.get("message", "")]
    check("  … the console holds only that 409", len(expected) == len(errors), json.dumps(errors)[:500])


def copy_command(driver):
    driver.find_element(By.ID, "copy-command").click()
    ok = wait(driver, lambda d: d.find_element(By.ID, "command").text.startswith("marble render"), 15, "command")
    check("Copy command shows the marble render line", bool(ok), driver.find_element(By.ID, "command").text[:300])


def render_video(driver):
    for id, value in (("render-size", "x".join(map(str, RENDER_SIZE))), ("render-fps", str(RENDER_FPS)), ("render-segments", "1")):
        field = driver.find_element(By.ID, id)
        field.clear()
        field.send_keys(value)
    Select(driver.find_element(By.ID, "render-format")).select_by_value("mp4")
    driver.find_element(By.ID, "render").click()
    render_id = wait(driver, lambda d: d.execute_script("return document.querySelector('#renders li.render')?.dataset.id"), 15, "queued")
    if not check("Render queues a render", bool(render_id), message(driver)):
        return None
    states, progress = set(), []
    deadline = time.monotonic() + 600
    driver.set_script_timeout(120)
    row = driver.execute_script(RENDER_ROW, render_id)
    while time.monotonic() < deadline:
        states.add(row["state"])
        progress.append((row["value"], row["max"]))
        if row["state"] in ("done", "failed", "cancelled"):
            break
        # The next change of the row, as the page draws it (the events socket moves it).
        row = driver.execute_async_script(ROW_CHANGE, render_id, f"{row['state']}/{row['value']}", 60)
    note(f"states seen: {sorted(states)}; progress samples: {len(progress)}")
    check("the render reaches done", row["state"] == "done", row["text"])
    value, maximum = progress[-1]
    check("  … its progress bar is full", value == maximum and maximum > 1, f"{value}/{maximum}")
    unfinished = [f"{v:g}/{m:g}" for v, m in progress if v < m]
    check("  … after being seen unfinished", bool(unfinished), ", ".join(unfinished[:8]))
    return render_id


def cancel_a_render(driver, output, done_id):
    """A second, bigger render cancelled from its button: the list says so and no file is left."""
    before = sorted(p.name for p in output.iterdir() if p.is_file())
    size = driver.find_element(By.ID, "render-size")
    size.clear()
    size.send_keys("1920x1080")
    driver.find_element(By.ID, "render").click()
    new_id = wait(driver, lambda d: (i := d.execute_script("return document.querySelector('#renders li.render')?.dataset.id")) != done_id and i, 15, "queued")
    if not check("a second render is queued", bool(new_id)):
        return
    clicked = driver.execute_script(f"const b = document.querySelector('#renders li[data-id=\"{new_id}\"] button.cancel'); b?.click(); return !!b")
    state = wait(driver, lambda d: (r := d.execute_script(RENDER_ROW, new_id)["state"]) in ("cancelled", "done", "failed") and r, 60, "cancelled")
    row = driver.execute_script(RENDER_ROW, new_id)
    base = driver.execute_script("return location.origin")
    with urllib.request.urlopen(base + "/api/renders", timeout=60) as response:
        server = next((r["state"] for r in json.load(response)["renders"] if r["id"] == new_id), None)
    check("its Cancel button cancels it", clicked and state == "cancelled",
          f"button {clicked}, the page says {row['state']}, the server {server}; {message(driver)}")
    # `cancelled` comes only once the render's files are gone (the queue reports it after removing them).
    after = sorted(p.name for p in output.iterdir() if p.is_file())
    check("  … and leaves no file in the output folder", after == before, str(sorted(set(after) - set(before))))


def download_and_probe(driver, render_id, song, work):
    href = driver.execute_script(RENDER_ROW, render_id)["href"]
    path = work / "download.mp4"
    with urllib.request.urlopen(href, timeout=60) as response, open(path, "wb") as out:
        shutil.copyfileobj(response, out)
    probe = json.loads(subprocess.run(["ffprobe", "-v", "error", "-print_format", "json", "-show_format", "-show_streams",
                                       str(path)], capture_output=True, text=True).stdout or "{}")
    video = next((s for s in probe.get("streams", []) if s.get("codec_type") == "video"), {})
    duration = float(probe.get("format", {}).get("duration", 0))
    check("the download is an H.264 video of the render's size",
          video.get("codec_name") == "h264" and (video.get("width"), video.get("height")) == RENDER_SIZE,
          f"{video.get('codec_name')} {video.get('width')}x{video.get('height')}")
    check("  … as long as the song", abs(duration - SONG_SECONDS) < 0.5, f"{duration:.2f} s")
    check("  … with sound", any(s.get("codec_type") == "audio" for s in probe.get("streams", [])))
    with urllib.request.urlopen(href.split("/api/")[0] + "/api/renders", timeout=60) as response:
        renders = json.load(response)["renders"]
    command = next(r["command"] for r in renders if r["id"] == render_id)
    same_bytes(command, path, work)


def same_bytes(command, downloaded, work):
    """The render's command line, run by hand into another file, gives the downloaded bytes."""
    argv = shlex.split(command)
    if not argv or argv[0] != "marble" or "-o" not in argv:
        check("the render's command is a marble render line with -o", False, command)
        return
    argv[0] = MARBLE
    again = work / ("again" + downloaded.suffix)
    argv[argv.index("-o") + 1] = str(again)
    result = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    digest = lambda p: hashlib.sha256(p.read_bytes()).hexdigest() if p.exists() else "missing"
    check("the render's command gives the same bytes as the download",
          result.returncode == 0 and digest(again) == digest(downloaded), result.stderr.strip()[-300:])


MILKDROP_TITLES = "return [...document.querySelectorAll('#milkdrop-list button')].map((b) => b.title)"


def browse_milkdrop(driver):
    """The MilkDrop panel: thumbnails, a search, and a preset played as a look of one milkdrop layer."""
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '#song-list button[title="tone.flac"]'), 30, "songs")[0].click()
    wait(driver, lambda d: "fps" in d.find_element(By.ID, "preview-state").text, 30, "opened")
    panel = driver.find_element(By.ID, "milkdrop-panel")
    if not check("the MilkDrop panel is offered", bool(wait(driver, lambda d: panel.is_displayed(), 30, "panel"))):
        return
    panel.find_element(By.TAG_NAME, "summary").click()
    loaded = wait(driver, lambda d: d.execute_script(
        "return [...document.querySelectorAll('#milkdrop-list img')].some((i) => i.complete && i.naturalWidth > 0)"), 120, "thumbnail")
    if not check("MilkDrop presets are listed with thumbnails", bool(loaded), driver.find_element(By.ID, "milkdrop-page").text):
        return
    driver.find_element(By.ID, "milkdrop-search").send_keys("geiss")
    narrowed = wait(driver, lambda d: (t := d.execute_script(MILKDROP_TITLES)) and all("geiss" in x.lower() for x in t), 30, "search")
    if not check("the MilkDrop search narrows the list", bool(narrowed), driver.find_element(By.ID, "milkdrop-page").text):
        return
    path = driver.execute_script(MILKDROP_TITLES)[0]
    driver.find_element(By.CSS_SELECTOR, "#milkdrop-list button").click()
    layers = driver.find_elements(By.CSS_SELECTOR, "#layers > li.layer")
    value = driver.find_element(By.ID, "layer0-file").get_attribute("value") if layers else None
    check("choosing one makes the look a single milkdrop layer with its file", len(layers) == 1 and value == path,
          f"{len(layers)} layers, file {value!r}")
    # MilkDrop draws into feedback that starts black and builds up with the music: play and watch it light up.
    driver.find_element(By.ID, "play").click()
    lit = wait(driver, lambda d: d.execute_script(CANVAS_STATS)["mean"] > 15, 20, "milkdrop frames")
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.SPACE)
    check("  … and the preview plays it", bool(lit), message(driver))
    # A preset that does not load has a 400 thumbnail (docs/STUDIO.md), which Chromium logs: tolerated, shown.
    errors = console_errors(driver)
    others = [e for e in errors if not re.search(r"/api/milkdrop/thumbnail\S* - .* status of 400", e.get("message", ""))]
    check("no console error while browsing MilkDrop (but thumbnails of presets that do not load)", not others,
          f"{len(errors) - len(others)} thumbnails refused; " + json.dumps(others)[:400])


def reload_keeps_renders(driver, render_id):
    driver.refresh()
    ok = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'#renders li[data-id="{render_id}"][data-state="done"]'), 15, "list")
    check("after a reload the render is still listed as done", bool(ok))


def screenshot(driver, url, path):
    """The page at 1280x800 as a user leaves it: the saved look (opacity back to 1), a title, the MilkDrop
    thumbnails, the finished render, the song paused at 3 s (for the README)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False})
    driver.get(url)
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '#song-list button[title="tone.flac"]'), 30, "songs")[0].click()
    wait(driver, lambda d: "fps" in d.find_element(By.ID, "preview-state").text, 30, "opened")
    Select(driver.find_element(By.ID, "preset-select")).select_by_value("browser-test")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#layers > li.layer"), 10, "layers")
    opacity = driver.find_element(By.ID, "layer0-opacity")
    opacity.clear()
    opacity.send_keys("1", Keys.TAB)
    driver.find_element(By.ID, "set-title").send_keys("{artist} — {title}")
    panel = driver.find_element(By.ID, "milkdrop-panel")
    if panel.is_displayed():
        panel.find_element(By.TAG_NAME, "summary").click()
        wait(driver, lambda d: d.execute_script(
            "return [...document.querySelectorAll('#milkdrop-list img')].every((i) => i.complete)"), 60, "thumbnails")
    driver.find_element(By.ID, "play").click()
    wait(driver, lambda d: d.execute_script("return document.getElementById('audio').currentTime") > 3, 15, "playing")
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.SPACE)
    still_frame(driver)
    driver.execute_script("document.activeElement.blur()")
    size = driver.execute_script("return [innerWidth, innerHeight]")
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(path))
    check(f"screenshot saved to {path}", Path(path).stat().st_size > 10_000, f"viewport {size[0]}x{size[1]}")


def token_mode(driver, songs, output):
    """On 0.0.0.0 the page works from the printed URL: its token goes on every request, socket and media URL."""
    port = free_port()
    process, url = start_studio(songs, output, port, host="0.0.0.0")
    try:
        token = re.search(r"token=([A-Za-z0-9_-]+)", url)
        if not check("--listen 0.0.0.0 prints a URL with a token", bool(token), url):
            return
        console_errors(driver)
        driver.get(f"http://127.0.0.1:{port}/?token={token.group(1)}")
        songs_listed = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#song-list button"), 30, "songs")
        check("with a token: the page loads and lists the song", bool(songs_listed),
              f"{message(driver)!r}; " + json.dumps(console_errors(driver))[:400])
        if not songs_listed:
            return
        songs_listed[0].click()
        frame = wait(driver, lambda d: d.execute_script(CANVAS_STATS)["frames"] > 0, 30, "frame")
        check("with a token: the preview socket gives frames", bool(frame))
        media = wait(driver, lambda d: d.execute_script("return document.getElementById('audio').readyState") >= 1, 30, "media")
        check("with a token: the audio loads", bool(media))
        errors = console_errors(driver)
        check("with a token: no console error", not errors, json.dumps(errors)[:500])
    finally:
        stop(process)


def firefox_report():
    found, firefox, policy = geckodriver_report()
    if found and firefox:
        note(f"firefox: geckodriver at {found} and {firefox}: this script drives Chromium only")
    else:
        note("firefox: no WebDriver here: " + ("no firefox-esr installed; " if not firefox else "")
             + ("no geckodriver (Debian packages none: `apt-cache policy geckodriver` prints "
                + (repr(policy) if policy else "nothing") + ")" if not found else "")
             + "; Tests/Studio/firefox-test.py drives Firefox ESR through WebDriver BiDi instead")


def main():
    if not os.access(MARBLE, os.X_OK):
        sys.exit(f"browser test: no marble binary at {MARBLE} (set MARBLE)")
    shot = ARGS.screenshot
    with tempfile.TemporaryDirectory(prefix="studio-browser-") as scratch:
        work = Path(scratch)
        songs, output = work / "songs", work / "output"
        songs.mkdir()
        SONGS_FOLDER[:] = [songs]
        make_song(songs / "tone.flac", SONG_SECONDS)
        process, url = start_studio(songs, output, free_port())
        driver = chromium()
        try:
            load_page(driver, url)
            upload_by_drop(driver, songs, work)
            pick_song_and_preset(driver)
            edit_layers_by_keyboard(driver)
            fps, latency = play_and_follow(driver)
            change_parameter(driver)
            bound = bind_parameter(driver)
            title_and_background(driver)
            save_preset(driver, output, songs / "tone.flac", bound)
            copy_command(driver)
            render_id = render_video(driver)
            if render_id:
                download_and_probe(driver, render_id, songs / "tone.flac", work)
                cancel_a_render(driver, output, render_id)
                beside = preview_beside_render(driver, render_id)
                reload_keeps_renders(driver, render_id)
            errors = console_errors(driver)
            check("no console error during the story", not errors, json.dumps(errors)[:500])
            browse_milkdrop(driver)
            if shot:
                screenshot(driver, url, ROOT / shot if not os.path.isabs(shot) else shot)
            check("the studio is still running", process.poll() is None)
            token_mode(driver, songs, work / "output-token")
            note(f"preview while playing: {fps:g} fps shown, round trip {latency:g} ms"
                 + (f"; beside a render: {beside[0]:g} fps, {beside[1]:g} ms" if render_id else ""))
        finally:
            driver.quit()
            stop(process)
    firefox_report()
    print(f"{len(FAILED)} failed" if FAILED else "all passed")
    sys.exit(1 if FAILED else 0)


if __name__ == "__main__":
    main()
