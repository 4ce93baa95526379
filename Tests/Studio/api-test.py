#!/usr/bin/python3
"""The studio's security rules and validation (docs/STUDIO.md), each with a request that must fail.

Starts a real `marble studio` (the binary in $MARBLE, default .build/release/marble) on a scratch folder
with a generated song, twice: on loopback with a 1 MB upload bound, and on 0.0.0.0 with the token it
prints. Talks to it with http.client and raw sockets (the WebSocket handshakes and frames by hand), so
every header is the one the test means to send. One line per check; exit status 1 when any failed.

  Tests/Studio/api-test.py --marble .build/release/marble     # or MARBLE=… (default .build/release/marble)

Needs: ffmpeg (the song), a build of marble with the Studio trait.
"""
import argparse, base64, hashlib, http.client, json, os, re, socket, struct, subprocess, sys, tempfile, time, urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

def arguments():
    parser = argparse.ArgumentParser(description="The studio's security rules, each with a failing request.")
    parser.add_argument("--marble", default=os.environ.get("MARBLE", str(ROOT / ".build/release/marble")),
                        help="the marble binary (default: $MARBLE or .build/release/marble)")
    return parser.parse_args()


ARGS = arguments()
MARBLE = str(Path(ARGS.marble).resolve()) if os.sep in ARGS.marble else ARGS.marble
FAILED = []


def check(name, condition, detail=""):
    """Prints one line for a check and remembers a failure."""
    print(f"{'ok  ' if condition else 'FAIL'} {name}" + (f": {detail}" if detail and not condition else ""))
    if not condition:
        FAILED.append(name)
    return condition


# ---------------------------------------------------------------- the studio under test

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def make_song(path, seconds=3, title="Test Tone"):
    """A few seconds of two tones over a 120 bpm kick, with a title and an artist tag."""
    expr = ("0.3*sin(2*PI*220*t)+0.2*sin(2*PI*330*t)+0.7*sin(2*PI*55*t)*exp(-10*mod(t\\,0.5))")
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", f"aevalsrc={expr}:s=44100:d={seconds}",
                    "-metadata", f"title={title}", "-metadata", "artist=Marble", str(path)], check=True)


class Studio:
    """`marble studio` in a child process; its first line (the URL) read; stopped with SIGINT."""

    def __init__(self, folders, output, listen, extra=()):
        self.port = int(listen.rsplit(":", 1)[1])
        self.process = subprocess.Popen([MARBLE, "studio", *map(str, folders), "--listen", listen,
                                         "--output", str(output), *extra],
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.url = self.read_url()
        self.token = (re.search(r"token=([A-Za-z0-9_-]+)", self.url or "") or [None, None])[1]

    def read_url(self):
        deadline = time.monotonic() + 60
        lines = []
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                break
            lines.append(line)
            match = re.search(r"https?://\S+", line)
            if match:   # printed once the studio listens
                return match.group(0)
        raise SystemExit(f"api test: the studio did not print its URL:\n{''.join(lines)}")

    def alive(self):
        return self.process.poll() is None

    def stop(self):
        if self.alive():
            self.process.send_signal(2)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


# ---------------------------------------------------------------- requests with exact headers

def request(port, method, path, body=None, headers=None, host=None):
    """One HTTP request; returns (status, headers, body bytes), or (0, {}, error) when the connection broke."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        connection.putheader("Host", host or f"127.0.0.1:{port}")
        for key, value in (headers or {}).items():
            connection.putheader(key, value)
        if body is not None:
            connection.putheader("Content-Length", str(len(body)))
        try:
            connection.endheaders(body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server may answer (413) before reading a large body
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    except (OSError, http.client.HTTPException) as error:
        return 0, {}, str(error).encode()
    finally:
        connection.close()


def post_json(port, path, value, headers=None):
    body = value if isinstance(value, bytes) else json.dumps(value).encode()
    return request(port, "POST", path, body, {"Content-Type": "application/json", **(headers or {})})


def json_of(body):
    """The JSON of a body, or {} when it is not JSON."""
    try:
        value = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return {}
    return value if isinstance(value, dict) else {}


def error_of(body):
    """The sentence of a JSON error body, or None when the body is not one."""
    try:
        value = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return None
    return value.get("error") if isinstance(value, dict) and isinstance(value.get("error"), str) else None


def expect(name, answer, status, mentions=None):
    """Checks a status, that the body is a JSON error sentence, and that it names the field."""
    got, _, body = answer
    if not check(f"{name} → {status}", got == status, f"got {got}: {body[:200]!r}"):
        return
    if status >= 400:
        sentence = error_of(body)
        check(f"{name}: JSON error sentence", bool(sentence), f"body {body[:200]!r}")
        if mentions and sentence is not None:
            check(f"{name}: names '{mentions}'", mentions.lower() in sentence.lower(), sentence)


# ---------------------------------------------------------------- a WebSocket by hand

class Socket:
    """A connected socket and the bytes read past the last frame."""

    def __init__(self, sock, leftover):
        self.sock, self.leftover = sock, leftover

    def sendall(self, data):
        self.sock.sendall(data)

    def recv(self, count):
        return self.sock.recv(count)

    def close(self):
        self.sock.close()


def ws_connect(port, path, origin=None, host=None):
    """Opens a WebSocket; returns (status, socket or None). The socket is open only on 101."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [f"GET {path} HTTP/1.1", f"Host: {host or f'127.0.0.1:{port}'}", "Upgrade: websocket",
             "Connection: Upgrade", f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
    if origin:
        lines.append(f"Origin: {origin}")
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        if not chunk:
            break
        head += chunk
    match = re.match(rb"HTTP/1\.[01] (\d{3})", head)
    status = int(match.group(1)) if match else 0
    if status != 101:
        sock.close()
        return status, None
    accept = base64.b64encode(hashlib.sha1((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest())
    if accept not in head:
        sock.close()
        return -1, None
    return 101, Socket(sock, head.split(b"\r\n\r\n", 1)[1])


def ws_send(sock, text):
    payload = text.encode()
    mask = os.urandom(4)
    header = bytes([0x81])
    if len(payload) < 126:
        header += bytes([0x80 | len(payload)])
    elif len(payload) < 65536:
        header += bytes([0x80 | 126]) + struct.pack(">H", len(payload))
    else:
        header += bytes([0x80 | 127]) + struct.pack(">Q", len(payload))
    sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))


def ws_read_exact(sock, count):
    data = sock.leftover
    while len(data) < count:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed")
        data += chunk
    sock.leftover = data[count:]
    return data[:count]


def ws_receive(sock):
    """The next data message as (opcode, bytes); pings and fragments handled simply."""
    while True:
        first, second = ws_read_exact(sock, 2)
        opcode, length = first & 0x0F, second & 0x7F
        if length == 126:
            length = struct.unpack(">H", ws_read_exact(sock, 2))[0]
        elif length == 127:
            length = struct.unpack(">Q", ws_read_exact(sock, 8))[0]
        payload = ws_read_exact(sock, length)
        if opcode in (1, 2, 8):
            return opcode, payload


def ws_json(sock):
    """The next text message as JSON (binary messages skipped)."""
    while True:
        opcode, payload = ws_receive(sock)
        if opcode == 8:
            raise ConnectionError("closed by the server")
        if opcode == 1:
            return json.loads(payload)


# ---------------------------------------------------------------- the checks

def check_host_and_origin(port):
    expect("GET / with a loopback Host", request(port, "GET", "/"), 200)
    status, _, _ = request(port, "GET", "/api/songs", host=f"evil.example:{port}")
    check("Host evil.example on a loopback bind → refused", status in (400, 403, 421), f"got {status}")
    status, _, _ = request(port, "GET", "/", host=f"rebind.attacker.test:{port}")
    check("GET / with a DNS-rebinding Host → refused", status in (400, 403, 421), f"got {status}")
    look = {"name": "o", "layers": [{"shader": "bars"}]}
    expect("POST /api/presets with a foreign Origin",
           post_json(port, "/api/presets", {"name": "origin-test", "look": look}, {"Origin": "http://evil.example"}), 403)
    check("  … and no preset written", not (OUTPUT / "presets/origin-test.yaml").exists())
    expect("DELETE /api/renders/r1 with a foreign Origin",
           request(port, "DELETE", "/api/renders/r1", headers={"Origin": "http://evil.example"}), 403)
    status, _, _ = post_json(port, "/api/presets", {"name": "own-origin", "look": look},
                             {"Origin": f"http://127.0.0.1:{port}"})
    check("POST /api/presets with the studio's own Origin → 201", status == 201, f"got {status}")
    # A refused handshake is answered by SwiftNIO's upgrader, always 400 (docs/STUDIO.md): no socket.
    status, _ = ws_connect(port, "/api/events", origin="http://evil.example")
    check("WebSocket /api/events with a foreign Origin → refused (400, no socket)", status == 400, f"got {status}")
    status, _ = ws_connect(port, "/api/preview", origin="http://evil.example")
    check("WebSocket /api/preview with a foreign Origin → refused (400, no socket)", status == 400, f"got {status}")
    status, sock = ws_connect(port, "/api/events", origin=f"http://127.0.0.1:{port}")
    check("WebSocket /api/events with the own Origin → 101", status == 101, f"got {status}")
    if sock:
        message = ws_json(sock)
        check("  … sends the renders on connect", message.get("type") == "renders", str(message)[:200])
        sock.close()


def check_paths(port):
    outside = "../outside/secret.flac"
    cases = {
        "..": outside,
        "absolute": str(WORK / "outside/secret.flac"),
        "NUL": "song.flac\0.txt",
        "symlink out of the folder": "link.flac",
        "symlinked folder out": "linkdir/secret.flac",
    }
    for what, song in cases.items():
        for route in ("media", "cover"):
            path = f"/api/{route}?" + urllib.parse.urlencode({"song": song, "folder": 0})
            expect(f"GET /api/{route} with a path ({what})", request(port, "GET", path), 403)
    expect("GET /api/media with %2e%2e", request(port, "GET", "/api/media?song=%2e%2e/outside/secret.flac&folder=0"), 403)
    expect("GET /api/media with %2E%2E%2F", request(port, "GET", "/api/media?song=%2E%2E%2Foutside%2Fsecret.flac&folder=0"), 403)
    status, _, body = request(port, "GET", "/api/media?song=..%5Coutside%5Csecret.flac&folder=0")
    check("GET /api/media with ..\\ (a file name on Linux) → 403 or 404", status in (403, 404) and error_of(body), f"got {status}")
    status, _, body = request(port, "GET", "/%2e%2e/%2e%2e/etc/passwd")
    check("GET /%2e%2e/%2e%2e/etc/passwd → not served", status in (403, 404) and b"root:" not in body, f"got {status}")
    status, _, body = request(port, "GET", "/../../etc/passwd")
    check("GET /../../etc/passwd → not served", status in (400, 403, 404) and b"root:" not in body, f"got {status}")
    songs = json_of(request(port, "GET", "/api/songs")[2]).get("songs", [])
    paths = [s.get("path") for s in songs]
    check("GET /api/songs lists the song", "song.flac" in paths, str(paths))
    check("GET /api/songs lists no link leading out", not any("link" in p for p in paths), str(paths))
    status, _, body = request(port, "GET", "/api/media?song=song.flac&folder=7")
    check("GET /api/media with a folder out of range → 400 or 404", status in (400, 404) and error_of(body), f"got {status}")
    status, headers, body = request(port, "GET", "/api/media?song=song.flac&folder=0", headers={"Range": "bytes=0-99"})
    check("GET /api/media with a Range → 206 and 100 bytes", status == 206 and len(body) == 100, f"got {status}, {len(body)} bytes")
    look = {"name": "x", "layers": [{"shader": "milkdrop", "parameters": {"file": str(WORK / "outside/evil.milk")}}]}
    expect("POST /api/presets with a milkdrop file outside", post_json(port, "/api/presets", {"name": "outside-file", "look": look}), 403)
    look["layers"][0]["parameters"]["file"] = "../outside/evil.milk"
    expect("POST /api/presets with a milkdrop file ../", post_json(port, "/api/presets", {"name": "outside-file", "look": look}), 403)
    look = {"name": "x", "layers": [{"shader": "text", "parameters": {"font": "/etc/passwd"}}]}
    expect("POST /api/presets with a text font path outside", post_json(port, "/api/presets", {"name": "outside-font", "look": look}), 403)
    expect("GET /api/milkdrop/thumbnail with ../",
           request(port, "GET", "/api/milkdrop/thumbnail?path=" + urllib.parse.quote("../../../etc/passwd")), 403)


def upload(port, name, body):
    return request(port, "POST", "/api/upload?" + urllib.parse.urlencode({"name": name}), body,
                   {"Content-Type": "application/octet-stream"})


def listing(folder):
    """Every name under a folder, hidden ones too (a half-written upload must not stay behind)."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def check_uploads(port):
    small = (WORK / "small.flac").read_bytes()
    before = listing(SONGS)
    expect("upload over --max-upload", upload(port, "big.flac", os.urandom(1_600_000)), 413)
    check("  … nothing left in the folder", listing(SONGS) == before, str(sorted(set(listing(SONGS)) - set(before))))
    expect("upload of non-media bytes", upload(port, "junk.mp3", b"this is not a song " * 200), 400)
    check("  … nothing left in the folder", listing(SONGS) == before, str(sorted(set(listing(SONGS)) - set(before))))
    before = (SONGS / "song.flac").read_bytes()
    expect("upload over an existing name", upload(port, "song.flac", small), 409)
    check("  … the existing file unchanged", (SONGS / "song.flac").read_bytes() == before)
    status, _, _ = upload(port, "../escape.flac", small)
    check("upload with a name ../ → 400 or 403", status in (400, 403), f"got {status}")
    check("  … nothing outside the folder", not (WORK / "escape.flac").exists())
    status, _, body = upload(port, "new.flac", small)
    check("upload of a real song → 201", status == 201, f"got {status}: {body[:200]!r}")
    check("  … written to the first folder", (SONGS / "new.flac").read_bytes() == small)
    expect("upload of the same name again", upload(port, "new.flac", small), 409)


def check_validation(port):
    good = {"name": "bars", "layers": [{"shader": "bars"}]}
    presets = [
        ("invalid JSON", b"{not json", None),
        ("a JSON array", b"[1, 2]", None),
        ("a name with /", {"name": "../x", "look": good}, "name"),
        ("an empty name", {"name": "", "look": good}, "name"),
        ("a name of 65 characters", {"name": "a" * 65, "look": good}, "name"),
        ("a bundled name", {"name": "magma", "look": good}, "magma"),
        ("no look", {"name": "nolook"}, "look"),
        ("an unknown shader", {"name": "x1", "look": {"layers": [{"shader": "nope"}]}}, "shader"),
        ("a parameter out of range", {"name": "x2", "look": {"layers": [{"shader": "bars", "parameters": {"count": 1000}}]}}, "count"),
        ("an unknown parameter", {"name": "x3", "look": {"layers": [{"shader": "bars", "parameters": {"wobble": 1}}]}}, "wobble"),
        ("an unknown blend", {"name": "x4", "look": {"layers": [{"shader": "bars", "blend": "xor"}]}}, "blend"),
        ("an unknown feature", {"name": "x5", "look": {"layers": [{"shader": "bars", "bind": {"height": {"feature": "cowbell"}}}]}}, "feature"),
        ("a smoothing of 2", {"name": "x6", "look": {"layers": [{"shader": "bars", "bind": {"height": {"feature": "bass", "smoothing": 2}}}]}}, "smoothing"),
    ]
    for what, body, field in presets:
        expect(f"POST /api/presets with {what}", post_json(port, "/api/presets", body), 400, field)
    expect("POST /api/presets over 1 MB", post_json(port, "/api/presets", b'{"name": "' + b"a" * 1_100_000 + b'"}'), 413)
    expect("POST /api/presets without replace over a saved one",
           post_json(port, "/api/presets", {"name": "own-origin", "look": good}), 409)
    expect("GET /api/presets/no-such", request(port, "GET", "/api/presets/no-such"), 404)
    base = {"song": "song.flac", "folder": 0, "preset": "magma"}
    settings = [
        ("an odd size", {"size": "641x361"}, "size"),
        ("a size of text", {"size": "big"}, "size"),
        ("a huge size", {"size": "100000x100000"}, "size"),
        ("fps 0", {"fps": 0}, "fps"),
        ("fps 10000", {"fps": 10000}, "fps"),
        ("format avi", {"format": "avi"}, "format"),
        ("segments 17", {"segments": 17}, "segments"),
        ("segments 0", {"segments": 0}, "segments"),
        ("crf 99", {"crf": 99}, "crf"),
        ("fit stretch", {"fit": "stretch"}, "fit"),
        ("background 7", {"background": 7}, "background"),
        ("encoderPreset bogus", {"encoderPreset": "warp-speed"}, "encoderPreset"),
    ]
    for route in ("/api/command", "/api/renders"):
        for what, value, field in settings:
            expect(f"POST {route} with {what}", post_json(port, route, {**base, "settings": value}), 400, field)
        expect(f"POST {route} with an unknown preset", post_json(port, route, {**base, "preset": "no-such"}), 404)
        expect(f"POST {route} with a song outside", post_json(port, route, {**base, "song": "../outside/secret.flac"}), 403)
        expect(f"POST {route} with a background outside",
               post_json(port, route, {**base, "settings": {"background": {"song": "../outside/secret.flac", "folder": 0}}}), 403)
        expect(f"POST {route} with fps as text", post_json(port, route, {**base, "settings": {"fps": "fast"}}), 400, "fps")
        expect(f"POST {route} without a song", post_json(port, route, {"folder": 0, "preset": "magma"}), 400, "song")
    status, _, body = post_json(port, "/api/command", base)
    command = json_of(body).get("command", "") if status == 200 else ""
    check("POST /api/command with a good body → 200 and a marble render line",
          command.startswith("marble render"), f"got {status}: {body[:200]!r}")
    expect("GET /api/renders/nope/file", request(port, "GET", "/api/renders/nope/file"), 404)
    expect("DELETE /api/renders/nope", request(port, "DELETE", "/api/renders/nope"), 404)
    expect("GET /api/no-such-route", request(port, "GET", "/api/no-such-route"), 404)


def check_preview_socket(port):
    status, sock = ws_connect(port, "/api/preview")
    if not check("WebSocket /api/preview → 101", status == 101, f"got {status}"):
        return
    try:
        ws_send(sock, "not json")
        check("preview: a message that is not JSON → error", ws_json(sock).get("type") == "error")
        ws_send(sock, json.dumps({"type": "open", "song": "../outside/secret.flac", "folder": 0,
                                  "look": {"layers": [{"shader": "bars"}]}, "size": "640x360", "fps": 30}))
        check("preview: open a song outside → error", ws_json(sock).get("type") == "error")
        ws_send(sock, json.dumps({"type": "open", "song": "song.flac", "folder": 0,
                                  "look": {"layers": [{"shader": "bars"}]}, "size": "99999x99999", "fps": 30}))
        check("preview: open at 99999x99999 → error", ws_json(sock).get("type") == "error")
        ws_send(sock, json.dumps({"type": "open", "song": "song.flac", "folder": 0,
                                  "look": {"layers": [{"shader": "bars"}]}, "size": "320x180", "fps": 30}))
        opened = ws_json(sock)
        check("preview: open a good song → opened", opened.get("type") == "opened", str(opened)[:200])
        ws_send(sock, json.dumps({"type": "look", "look": {"layers": [{"shader": "bars", "parameters": {"count": 1}}]}}))
        check("preview: a look out of range → error", ws_json(sock).get("type") == "error")
        ws_send(sock, json.dumps({"type": "frame", "id": 7, "time": 1.0}))
        opcode, payload = ws_receive(sock)
        ident, index, time_ = struct.unpack("<IId", payload[:16]) if opcode == 2 and len(payload) > 16 else (0, 0, 0)
        check("preview: frame 7 at 1 s → a JPEG with its header", opcode == 2 and ident == 7 and index == 30
              and abs(time_ - 1.0) < 1e-9 and payload[16:18] == b"\xff\xd8", f"opcode {opcode}, id {ident}, index {index}, time {time_}")
    except (OSError, ValueError, ConnectionError) as error:
        check("preview socket answered", False, str(error))
    finally:
        sock.close()


def check_token(folders):
    port = free_port()
    studio = Studio(folders, OUTPUT, f"0.0.0.0:{port}")
    try:
        token = studio.token
        check("--listen 0.0.0.0 prints a URL with a token", bool(token and len(token) >= 16), studio.url)
        expect("no token", request(port, "GET", "/api/songs"), 401)
        expect("a wrong token", request(port, "GET", "/api/songs", headers={"X-Marble-Token": "x" * 24}), 401)
        expect("a wrong ?token=", request(port, "GET", "/api/songs?token=" + "y" * 24), 401)
        expect("no token on the page", request(port, "GET", "/"), 401)
        expect("the right token", request(port, "GET", "/api/songs", headers={"X-Marble-Token": token}), 200)
        expect("the right ?token=", request(port, "GET", f"/api/songs?token={token}"), 200)
        expect("the page with ?token=", request(port, "GET", f"/?token={token}"), 200)
        status, _ = ws_connect(port, "/api/events")
        check("WebSocket without a token → refused (400, no socket)", status == 400, f"got {status}")
        status, sock = ws_connect(port, f"/api/events?token={token}")
        check("WebSocket with ?token= → 101", status == 101, f"got {status}")
        if sock:
            sock.close()
        check("the token studio is still alive", studio.alive())
    finally:
        studio.stop()
    bad = subprocess.run([MARBLE, "studio", str(SONGS), "--listen", f"127.0.0.1:{free_port()}", "--token", "short"],
                         capture_output=True, text=True, timeout=60)
    check("--token short → refused with a message", bad.returncode != 0 and "token" in (bad.stderr + bad.stdout).lower(),
          f"exit {bad.returncode}: {bad.stderr.strip()[:200]}")


def prepare(work):
    """The songs folder, a file outside it and two links that lead out."""
    (work / "songs").mkdir()
    (work / "outside").mkdir()
    make_song(work / "songs/song.flac")
    make_song(work / "small.flac", seconds=1, title="Small")
    make_song(work / "outside/secret.flac", seconds=1, title="Secret")
    (work / "outside/evil.milk").write_text("[preset00]\nzoom=1\n")
    os.symlink(work / "outside/secret.flac", work / "songs/link.flac")
    os.symlink(work / "outside", work / "songs/linkdir")


def main():
    global WORK, SONGS, OUTPUT
    if not os.access(MARBLE, os.X_OK):
        sys.exit(f"api test: no marble binary at {MARBLE} (set MARBLE)")
    with tempfile.TemporaryDirectory(prefix="studio-api-") as scratch:
        WORK = Path(scratch)
        SONGS, OUTPUT = WORK / "songs", WORK / "output"
        prepare(WORK)
        port = free_port()
        studio = Studio([SONGS], OUTPUT, f"127.0.0.1:{port}", ["--max-upload", "1"])
        try:
            check("loopback studio prints its URL without a token", studio.token is None, studio.url)
            for part in (check_host_and_origin, check_paths, check_uploads, check_validation, check_preview_socket):
                part(port)
                check(f"still alive after {part.__name__}", studio.alive())
            expect("GET /api/songs at the end", request(port, "GET", "/api/songs"), 200)
        finally:
            studio.stop()
        check_token([SONGS])
    print(f"{len(FAILED)} failed" if FAILED else "all passed")
    sys.exit(1 if FAILED else 0)


if __name__ == "__main__":
    main()
