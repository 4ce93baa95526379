#!/usr/bin/env bash
# The live-mode soak: `marble live` records what a headless PulseAudio plays, at 720p30 on this machine,
# for DURATION (default 30m), and the run is judged on what users feel: no frame dropped, memory flat
# (resident size sampled every 10 s: the last sample may exceed the one at 1 minute by at most
# 10 MB), the file complete (exactly ceil(duration × fps) frames) and its sound as long as its picture.
#
#   Tests/Soak/live-soak.sh                 # 30 minutes (release build)
#   DURATION=20s Tests/Soak/live-soak.sh    # what CI runs
#
# Needs: pulseaudio, pulseaudio-utils, ffmpeg (ffprobe), a release build (swift build -c release).
set -euo pipefail
cd "$(dirname "$0")/../.."
DURATION=${DURATION:-30m}
SIZE=${SIZE:-1280x720}
FPS=${FPS:-30}
MARBLE=${MARBLE:-.build/release/marble}
[ -x "$MARBLE" ] || { echo "soak: $MARBLE not found: run swift build -c release" >&2; exit 2; }

work=$(mktemp -d /tmp/marble-soak.XXXXXX)
export XDG_RUNTIME_DIR="$work/run"; mkdir -p "$XDG_RUNTIME_DIR"; chmod 700 "$XDG_RUNTIME_DIR"
pulseaudio --daemonize=yes -n --exit-idle-time=-1 --load=module-native-protocol-unix \
  --load="module-null-sink sink_name=viz rate=48000" --load=module-always-sink
for _ in $(seq 50); do [ -f "$XDG_RUNTIME_DIR/pulse/pid" ] && pactl info >/dev/null 2>&1 && break; sleep 0.1; done
PA_PID=$(cat "$XDG_RUNTIME_DIR/pulse/pid")
pactl set-default-sink viz
player=""
# The cleanup must not fail the run: `set -e` holds inside the EXIT trap, so a failed command there
# would become the script's exit status. The player loop is stopped and waited for, and PulseAudio
# is waited for before its runtime folder is removed (it deletes its pid file and socket as it exits,
# and `rm -rf` racing that once said "Directory not empty").
cleanup() {
  set +e
  if [ -n "$player" ]; then kill "$player" 2>/dev/null; wait "$player" 2>/dev/null; fi
  if [ -n "${PA_PID:-}" ] && kill "$PA_PID" 2>/dev/null; then
    for _ in $(seq 100); do kill -0 "$PA_PID" 2>/dev/null || break; sleep 0.05; done
  fi
  rm -rf "$work"
  return 0
}
trap cleanup EXIT

# Something musical playing the whole time: a 120 BPM kick, a bass line and hats, looped.
ffmpeg -v error -f lavfi -i "aevalsrc='0.6*sin(2*PI*55*t)*exp(-12*mod(t,0.5))+0.2*sin(2*PI*110*(1+floor(mod(t,4)))*t)*0.5+0.08*(random(0)-0.5)*lt(mod(t,0.25),0.03)':s=48000:d=16" \
  -ac 2 "$work/loop.wav"
# (The loop stops its paplay when it is stopped itself.)
( trap 'kill "$p" 2>/dev/null; exit 0' TERM
  while true; do paplay -d viz "$work/loop.wav" & p=$!; wait "$p" || exit 0; done ) &
player=$!

out="$work/soak.mp4"
"$MARBLE" live -o "$out" --size "$SIZE" --fps "$FPS" --duration "$DURATION" 2>"$work/live.log" &
live=$!
rss=()
while kill -0 "$live" 2>/dev/null; do
  r=$(awk '/VmRSS/ {print $2}' "/proc/$live/status" 2>/dev/null || true)
  [ -n "$r" ] && rss+=("$r")
  sleep 10
done
wait "$live"
status=$?
cat "$work/live.log"
[ "$status" -eq 0 ] || { echo "soak: marble live exited with $status" >&2; exit 1; }

# The summary line ("SOURCE: N frames in … s (… fps), D dropped, I idle"); report lines may follow it.
summary=$(grep -E ' frames in .*, [0-9]+ dropped' "$work/live.log" | tail -n 1)
dropped=$(echo "$summary" | sed -n 's/.*, \([0-9]*\) dropped.*/\1/p')
frames=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 "$out")
vdur=$(ffprobe -v error -select_streams v:0 -show_entries stream=duration -of csv=p=0 "$out")
adur=$(ffprobe -v error -select_streams a:0 -show_entries stream=duration -of csv=p=0 "$out")
expected=$(python3 -c "
import math,re,sys
d='$DURATION'
m=re.fullmatch(r'([0-9.]+)(ms|s|m|h)?',d)
v=float(m.group(1)); u=m.group(2) or 's'
s=v*{'ms':0.001,'s':1,'m':60,'h':3600}[u]
print(math.ceil(s*$FPS-1e-9))")
# About one minute in; in a short run the sample 10 s in (the one at 0 s is before the set-up).
first=${rss[6]:-${rss[1]:-${rss[0]:-0}}}
last=${rss[${#rss[@]}-1]:-0}
echo "soak: $frames frames (expected $expected), dropped ${dropped:-?}, video ${vdur}s, audio ${adur}s, RSS ${first} kB at 1 min → ${last} kB at the end (${#rss[@]} samples: ${rss[*]})"
fail=0
[ "$frames" = "$expected" ] || { echo "soak: FAIL frame count" >&2; fail=1; }
[ "${dropped:-1}" = "0" ] || { echo "soak: FAIL dropped frames" >&2; fail=1; }
python3 -c "import sys; sys.exit(0 if abs($vdur-$adur) < 0.05 else 1)" || { echo "soak: FAIL sound and picture lengths differ" >&2; fail=1; }
[ $((last - first)) -le 10240 ] || { echo "soak: FAIL memory grew by $((last - first)) kB" >&2; fail=1; }
[ $fail -eq 0 ] && echo "soak: passed"
exit $fail
