# shellcheck shell=bash
# Shared by the cluster tests (sourced, with $root set to the repository): the marble binary, a temp
# folder removed on exit, a short test song and the frame comparison.

: "${root:?set root to the repository before sourcing common.sh}"
MARBLE=${MARBLE:-$root/.build/release/marble}
case $MARBLE in /*) ;; */*) MARBLE=$(realpath "$MARBLE") ;; esac  # the tests cd away
[[ -x "$MARBLE" ]] || command -v "$MARBLE" >/dev/null || {
    echo "$(basename "$0"): no marble binary at '$MARBLE' (swift build -c release, or set MARBLE)" >&2; exit 2; }
# The help is read whole first: `grep -q` leaving early would end marble with SIGPIPE (under pipefail).
render_help=$("$MARBLE" render --help 2>/dev/null || true)
grep -q -- --segment <<<"$render_help" || {
    echo "$(basename "$0"): $MARBLE has no render --segment (too old?)" >&2; exit 2; }
# The bundled presets are found through the working folder or the install prefix; the tests run elsewhere.
export MARBLE_PRESETS=${MARBLE_PRESETS:-$root/Samples/Presets}

fail() { echo "$(basename "$0" .sh): FAILED: $*" >&2; exit 1; }

# need COMMAND PACKAGE: installs PACKAGE quietly when COMMAND is missing.
need() {
    command -v "$1" >/dev/null && return
    [[ $(id -u) -eq 0 ]] || fail "$1 is missing (apt-get install $2)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null 2>&1 \
        || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null; } \
        || fail "cannot install $2"
}
need ffmpeg ffmpeg

work=$(mktemp -d /tmp/marble-cluster.XXXXXX)
# Never the run's verdict: a failed removal inside the EXIT trap would become the exit status.
cleanup_work() { cd /; rm -rf "$work" || true; }
trap cleanup_work EXIT
cd "$work" || exit 1

# A 6 s song: two sine tones mixed, as FLAC.
make_song() {
    ffmpeg -v error -f lavfi -i "sine=f=220:d=6" -f lavfi -i "sine=f=660:d=6" \
        -filter_complex amix=inputs=2 -c:a flac song.flac || fail "ffmpeg could not make the test song"
}

# The decoded pictures' hashes, one a line (the last field of framemd5; the timestamps are left out).
frame_hashes() { ffmpeg -v error -i "$1" -map 0:v -f framemd5 - | grep -v '^#' | awk -F', *' '{ print $NF }'; }
frame_count() { frame_hashes "$1" | wc -l; }

# same_frames A B: fails unless A and B decode to the same number of identical pictures.
same_frames() {
    frame_hashes "$1" > "$1.hashes"; frame_hashes "$2" > "$2.hashes"
    local a b
    a=$(wc -l < "$1.hashes"); b=$(wc -l < "$2.hashes")
    [[ $a -gt 0 && $a -eq $b ]] || fail "$1 has $a frames, $2 has $b"
    cmp -s "$1.hashes" "$2.hashes" \
        || fail "$1 and $2 differ first in frame $(( $(cmp "$1.hashes" "$2.hashes" | sed 's/.*line //') - 1 )) (from 0)"
}
