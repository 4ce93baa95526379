#!/usr/bin/env bash
# Builds the Debian package (Scripts/make-deb.sh), checks it with lintian (no error or warning), installs
# it with apt-get, runs /usr/bin/marble (--version, effects, a render checked with ffprobe, the man page),
# removes it with apt-get and checks that none of its files is left. Exits 1 on the first failure.
# Usage: Tests/Install/deb-test.sh   (as root, on Debian 12; needs dpkg-dev, lintian, ffprobe)
set -euo pipefail
cd "$(dirname "$0")/../.."
repo="$PWD"
fail() { echo "deb-test: FAIL: $*" >&2; exit 1; }
pass() { echo "  ok  $*"; }
[[ $(id -u) -eq 0 ]] || fail "run as root (apt-get installs the package)"
if dpkg -s marble >/dev/null 2>&1; then fail "a marble package is installed already: apt-get remove marble first"; fi
[[ ! -e /usr/bin/marble ]] || fail "/usr/bin/marble exists and is not from the marble package"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"; if dpkg -s marble >/dev/null 2>&1; then apt-get remove -y -qq marble >/dev/null 2>&1 || true; fi' EXIT
version="$(sed -n 's/^ *static let number = "\(.*\)".*/\1/p' Sources/marble/MarbleVersion.swift)"

echo "== Scripts/make-deb.sh"
Scripts/make-deb.sh
deb="$repo/dist/marble_${version}_$(dpkg --print-architecture).deb"
[[ -f "$deb" ]] || fail "$deb was not built"
depends="$(dpkg-deb -f "$deb" Depends)"
for lib in libavformat59 libavcodec59 libavutil57 libswscale6 libswresample4 libpulse0 libsdl2-2.0-0 libfreetype6 libharfbuzz0b libfontconfig1 libfribidi0 fonts-dejavu-core; do
    grep -q "$lib" <<<"$depends" || fail "Depends lacks $lib: $depends"
done
pass "Depends: $depends"
contents="$(dpkg-deb -c "$deb" | awk '{ print $6 }')"
for f in ./usr/bin/marble ./usr/share/man/man1/marble.1.gz ./usr/share/doc/marble/copyright ./usr/share/doc/marble/changelog.gz \
         ./usr/share/bash-completion/completions/marble ./usr/share/zsh/vendor-completions/_marble \
         ./usr/share/fish/vendor_completions.d/marble.fish ./usr/share/marble/Presets/spectrum.yaml; do
    grep -qx "$f" <<<"$contents" || fail "the package lacks $f"
done
pass "contents"

echo "== lintian"
findings="$(lintian "$deb" 2>&1 | grep -v "running with root privileges" || true)"
[[ -z "$findings" ]] || fail "lintian: $findings"
pass "lintian: no errors or warnings (one documented override: embedded-library libyaml)"

echo "== apt-get install $deb"
apt-get install -y -qq "$deb" >"$tmp/apt.log" 2>&1 || { cat "$tmp/apt.log" >&2; fail "apt-get install failed"; }
[[ "$(dpkg-query -W -f '${Version} ${db:Status-Status}' marble)" == "$version installed" ]] || fail "dpkg does not show marble $version installed"
cd "$tmp"
[[ "$(/usr/bin/marble --version | head -n 1)" == "marble $version" ]] || fail "/usr/bin/marble --version: $(/usr/bin/marble --version)"
pass "/usr/bin/marble --version: $(/usr/bin/marble --version | head -n 1)"
grep -q "files in /usr/share/marble/Presets" <<<"$(/usr/bin/marble effects)" || fail "/usr/bin/marble does not find /usr/share/marble/Presets"
pass "presets from /usr/share/marble/Presets"
/usr/bin/marble render "$repo/Samples/sample.ogg" -o "$tmp/x.mp4" --size 160x90 --preset aurora -q
probe="$(ffprobe -v error -show_entries stream=codec_name,width,height -of compact "$tmp/x.mp4")"
grep -q "codec_name=h264|width=160|height=90" <<<"$probe" && grep -q "codec_name=aac" <<<"$probe" || fail "x.mp4: $probe"
pass "render → 160x90 H.264 + AAC (ffprobe)"
if command -v man >/dev/null; then
    grep -q "CPU-only audio visualizer" <<<"$(man -P cat marble 2>/dev/null)" || fail "man marble does not show the page"
    pass "man marble"
fi
files="$(dpkg -L marble | while read -r f; do [[ -f "$f" ]] && echo "$f"; done)"
cd "$repo"

echo "== apt-get remove marble"
apt-get remove -y -qq marble >"$tmp/apt.log" 2>&1 || { cat "$tmp/apt.log" >&2; fail "apt-get remove failed"; }
[[ ! -e /usr/bin/marble ]] || fail "/usr/bin/marble is still there"
left="$(while read -r f; do [[ -e "$f" ]] && echo "$f"; done <<<"$files" || true)"
[[ -z "$left" ]] || fail "left after remove: $left"
[[ ! -e /usr/share/marble ]] || fail "/usr/share/marble is still there"
pass "removed: /usr/bin/marble and the $(wc -l <<<"$files") files are gone"
echo "deb-test: passed"
