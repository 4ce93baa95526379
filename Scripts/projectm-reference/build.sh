#!/usr/bin/env bash
# Builds projectm-frames (the projectM reference harness) into $1 (default: <repo>/.build-pm).
# Needs: g++ libprojectm-dev libsdl2-dev libgl-dev pkg-config (see .ci/apt-packages).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$here/../../.build-pm}"
mkdir -p "$out"
src="$here/projectm-frames.cpp"
bin="$out/projectm-frames"
if [[ ! -x "$bin" || "$src" -nt "$bin" ]]; then
    # shellcheck disable=SC2046
    g++ -std=c++17 -O2 -Wall -Wextra -o "$bin" "$src" \
        $(pkg-config --cflags --libs libprojectM sdl2) -lGL
fi
echo "$bin"
