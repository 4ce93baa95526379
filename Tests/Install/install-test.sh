#!/usr/bin/env bash
# Installs marble into a temporary prefix with Scripts/install.sh, hides the build folder (so nothing from
# .build can be used), and checks the installed files: --version, effects (the bundled presets), a render
# checked with ffprobe, bench without the interposer, the completions, the manual page, a moved prefix;
# then the script's input errors, and that --uninstall leaves nothing. Exits 1 on the first failure.
# Usage: Tests/Install/install-test.sh   (as root or not; needs ffprobe, man or groff)
set -euo pipefail
cd "$(dirname "$0")/../.."
repo="$PWD"
tmp="$(mktemp -d)"
hidden="$repo/.build-hidden-by-install-test"
restore() {
    if [[ -d "$hidden" && ! -e "$repo/.build" ]]; then mv "$hidden" "$repo/.build"; fi
    rm -rf "$tmp"
}
trap restore EXIT
fail() { echo "install-test: FAIL: $*" >&2; exit 1; }
pass() { echo "  ok  $*"; }
[[ ! -e "$hidden" ]] || fail "$hidden exists (a previous run was interrupted?): move it back to .build"

version="$(sed -n 's/^ *static let number = "\(.*\)".*/\1/p' Sources/marble/MarbleVersion.swift)"
prefix="$tmp/prefix"

echo "== Scripts/install.sh --prefix $prefix"
Scripts/install.sh --prefix "$prefix"
marble="$prefix/bin/marble"
for f in bin/marble share/man/man1/marble.1 share/bash-completion/completions/marble share/zsh/site-functions/_marble \
         share/fish/vendor_completions.d/marble.fish share/marble/Presets/spectrum.yaml share/marble/install-manifest; do
    [[ -s "$prefix/$f" ]] || fail "$prefix/$f was not installed"
done
pass "files installed"
if ldd "$marble" | grep -E "not found|/opt/swift|\.build|libswift|libFoundation|libMallocInterposer"; then
    fail "the installed binary needs the libraries above"
fi
pass "ldd: nothing from the toolchain or the build folder"

echo "== the installed binary, with the build folder hidden and run from elsewhere"
mv "$repo/.build" "$hidden"
cd "$tmp"
out="$("$marble" --version)"
[[ "$(head -n 1 <<<"$out")" == "marble $version" ]] || fail "--version's first line is not 'marble $version': $out"
for lib in FFmpeg libavformat libavcodec libavutil libpulse SDL2; do
    grep -Eq "^  $lib +[0-9]" <<<"$out" || fail "--version does not give the version of $lib: $out"
done
pass "marble --version: $(head -n 1 <<<"$out"), $(grep -c '^  ' <<<"$out") libraries"

out="$("$marble" effects)"
grep -q "files in $prefix/share/marble/Presets" <<<"$out" || fail "marble effects does not read the installed presets"
for p in spectrum synthwave aurora; do grep -q "^  $p: " <<<"$out" || fail "marble effects does not list preset $p"; done
pass "marble effects lists the installed presets"

"$marble" render "$repo/Samples/sample.ogg" -o "$tmp/x.mp4" --size 160x90 --preset synthwave -q
probe="$(ffprobe -v error -show_entries stream=codec_type,codec_name,width,height -show_entries format=duration -of compact "$tmp/x.mp4")"
grep -q "codec_name=h264|codec_type=video|width=160|height=90" <<<"$probe" || fail "x.mp4 has no 160x90 H.264 video: $probe"
grep -q "codec_name=aac|codec_type=audio" <<<"$probe" || fail "x.mp4 has no AAC audio: $probe"
duration="$(sed -n 's/.*duration=\([0-9.]*\).*/\1/p' <<<"$probe")"
awk -v d="$duration" 'BEGIN { exit !(d > 15.5 && d < 16.5) }' || fail "x.mp4 lasts $duration s, not the sample's 16 s"
pass "marble render → 160x90 H.264 + AAC, $duration s (ffprobe)"

set +e; err="$("$marble" render "$repo/Samples/sample.ogg" -o "$tmp/y.mp4" --size 0x-4 2>&1)"; rc=$?; set -e
[[ $rc -ne 0 && $(wc -l <<<"$err") -eq 1 ]] || fail "a bad --size did not fail with one line (exit $rc): $err"
pass "bad input: exit $rc, one line: $err"

set +e; err="$("$marble" bench --kind shader --filter solid --size 160x90 --frames 3 --warmup 1 2>&1 >/dev/null)"; rc=$?; set -e
[[ $rc -eq 0 ]] || fail "marble bench without the interposer failed (exit $rc): $err"
grep -q "allocations are not counted" <<<"$err" || fail "marble bench did not warn that allocations are not counted: $err"
pass "marble bench runs without libMallocInterposerSwift.so and warns"

echo "== completions and manual page"
bash -c "source '$prefix/share/bash-completion/completions/marble'
         COMP_WORDS=(marble re); COMP_CWORD=1; COMP_LINE='marble re'; COMP_POINT=9
         \$(complete -p marble | sed -n 's/.*-F \([^ ]*\) .*/\1/p') marble re marble
         printf '%s\n' \"\${COMPREPLY[@]}\"" >"$tmp/bash-reply" 2>/dev/null || true
grep -qx "render" "$tmp/bash-reply" || fail "bash completion of 'marble re' does not offer render: $(cat "$tmp/bash-reply")"
pass "bash: 'marble re<TAB>' → render"
grep -q "^#compdef marble" <<<"$(head -n 1 "$prefix/share/zsh/site-functions/_marble")" || fail "_marble is not a zsh completion"
if command -v zsh >/dev/null; then zsh -n "$prefix/share/zsh/site-functions/_marble" || fail "_marble: zsh syntax"; fi
grep -q "^complete -c 'marble'.* -fa 'render'" "$prefix/share/fish/vendor_completions.d/marble.fish" || fail "marble.fish is not a fish completion"
if command -v fish >/dev/null; then fish -n "$prefix/share/fish/vendor_completions.d/marble.fish" || fail "marble.fish: fish syntax"; fi
pass "zsh and fish completions"
page="$prefix/share/man/man1/marble.1"
warnings="$(groff -mandoc -Tutf8 -ww -z "$page" 2>&1)"
[[ -z "$warnings" ]] || fail "groff warns about marble.1: $warnings"
if command -v man >/dev/null; then text="$(MANWIDTH=100 man -l "$page" 2>/dev/null)"; else text="$(groff -mandoc -Tutf8 "$page")"; fi
grep -q "^NAME" <<<"$text" && grep -q "marble.*CPU-only audio visualizer" <<<"$text" && grep -q "render" <<<"$text" \
    || fail "the manual page does not render its NAME and commands"
pass "man -l marble.1 renders ($(wc -l <<<"$text") lines), groff -ww silent"

echo "== a moved prefix still finds its presets"
cp -a "$prefix" "$tmp/moved"
grep -q "files in $tmp/moved/share/marble/Presets" <<<"$("$tmp/moved/bin/marble" effects)" || fail "a moved install does not find its presets"
pass "relocatable"
rm -rf "$tmp/moved"
cd "$repo"
mv "$hidden" "$repo/.build"

echo "== install.sh's input errors: one line, exit 2"
for args in "--prefix relative/dir" "--prefix" "--bogus" "--uninstall --prefix $tmp/nothing-here" "--prefix /"; do
    set +e; err="$(Scripts/install.sh $args 2>&1)"; rc=$?; set -e
    [[ $rc -eq 2 && $(wc -l <<<"$err") -eq 1 && "$err" == install.sh:* ]] || fail "install.sh $args: exit $rc: $err"
    pass "install.sh $args → $err"
done
set +e; err="$(PREFIX=not/absolute Scripts/install.sh 2>&1)"; rc=$?; set -e
[[ $rc -eq 2 && $(wc -l <<<"$err") -eq 1 ]] || fail "PREFIX=not/absolute: exit $rc: $err"
pass "PREFIX=not/absolute → $err"

echo "== Scripts/install.sh --prefix $prefix --uninstall"
touch "$tmp/keep-me"
Scripts/install.sh --prefix "$prefix" --uninstall
[[ ! -e "$prefix" ]] || fail "left behind: $(find "$prefix")"
[[ -e "$tmp/keep-me" ]] || fail "uninstall removed a file it did not install"
pass "uninstalled: $prefix is gone (it did not exist before), other files kept"

# An existing prefix with other files: only marble's files and the folders it created go.
mkdir -p "$tmp/shared/bin" "$tmp/shared/share/man/man1"; touch "$tmp/shared/bin/other" "$tmp/shared/share/man/man1/other.1"
Scripts/install.sh --prefix "$tmp/shared" >/dev/null
Scripts/install.sh --prefix "$tmp/shared" --uninstall >/dev/null
left="$(cd "$tmp/shared" && find . | sort | tr '\n' ' ')"
[[ "$left" == ". ./bin ./bin/other ./share ./share/man ./share/man/man1 ./share/man/man1/other.1 " ]] || fail "after uninstall from a shared prefix: $left"
pass "a shared prefix keeps exactly what it had: $left"
echo "install-test: passed"
