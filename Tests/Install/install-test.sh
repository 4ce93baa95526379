#!/usr/bin/env bash
# Installs marble into a temporary prefix with Scripts/install.sh, hides the build folder (so nothing from
# .build can be used), and checks the installed files: --version, effects (the bundled presets), a render
# checked with ffprobe, bench without the allocation counter, the completions, the manual page, a moved prefix;
# then that --uninstall leaves nothing. First, with no build: the script's input errors and that it never
# touches anything outside its prefix (prefixes that are / however spelled, relative or with "..", and
# tampered manifests on a made-up prefix, with a decoy beside it). Exits 1 on the first failure.
# Usage: Tests/Install/install-test.sh [--quick]   (--quick: only the part without a build; as root or
#        not; needs ffprobe, man or groff)
set -euo pipefail
quick=no
case "${1:-}" in --quick) quick=yes ;; "") ;; *) echo "usage: Tests/Install/install-test.sh [--quick]" >&2; exit 2 ;; esac
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

# run_install EXPECTED_STATUS WHAT ARGS...: install.sh's stderr must be one line starting "install.sh:"
# and its status EXPECTED_STATUS; sets $err.
run_install() {
    local expected="$1" what="$2" rc; shift 2
    set +e; err="$(Scripts/install.sh "$@" 2>&1 >/dev/null)"; rc=$?; set -e
    [[ $rc -eq $expected && $(wc -l <<<"$err") -eq 1 && "$err" == install.sh:* ]] || fail "$what: exit $rc (not $expected): $err"
}

echo "== install.sh's input errors: one line, exit 2 (no build)"
for args in "--prefix relative/dir" "--prefix" "--bogus" "--uninstall --prefix $tmp/nothing-here"; do
    # shellcheck disable=SC2086  # the words are the arguments
    run_install 2 "install.sh $args" $args
    pass "install.sh $args → $err"
done
set +e; err="$(PREFIX=not/absolute Scripts/install.sh 2>&1)"; rc=$?; set -e
[[ $rc -eq 2 && $(wc -l <<<"$err") -eq 1 ]] || fail "PREFIX=not/absolute: exit $rc: $err"
pass "PREFIX=not/absolute → $err"

# The decoys: what a tampered manifest or prefix would reach outside the prefix. None may change.
echo "a decoy" >"$tmp/decoy"; mkdir "$tmp/decoy-dir"
decoys_intact() { [[ "$(cat "$tmp/decoy")" == "a decoy" && -d "$tmp/decoy-dir" ]] || fail "$1: the decoy outside the prefix is gone"; }

echo "== prefixes that are /, relative or with '..': refused before anything, exit 2 (no build)"
ln -s / "$tmp/root-link"
for p in / /. /.. // /./ /// relative/path a/../b /a/../b "$tmp/../${tmp##*/}/prefix" "$tmp/root-link" "$tmp/root-link/."; do
    # Install mode with --stage: were the refusal missing, it would build and copy into $tmp/stage, not /.
    run_install 2 "--prefix '$p'" --prefix "$p" --stage "$tmp/stage"
    [[ "$err" == *"refusing to install into /"* || "$err" == *"must be an absolute path"* || "$err" == *"must not contain '..'"* ]] \
        || fail "--prefix '$p': not refused as a prefix: $err"
    run_install 2 "--prefix '$p' --uninstall" --prefix "$p" --uninstall
    [[ "$err" != *"nothing to uninstall"* ]] || fail "--prefix '$p' --uninstall: the prefix was not refused: $err"
    [[ ! -e "$tmp/stage" ]] || fail "--prefix '$p': $tmp/stage was created"
    pass "--prefix '$p' → $err"
done
set +e; err="$(PREFIX=/./ Scripts/install.sh --uninstall 2>&1)"; rc=$?; set -e
[[ $rc -eq 2 && "$err" == *"refusing to install into /"* ]] || fail "PREFIX=/./: exit $rc: $err"
pass "PREFIX=/./ → $err"
decoys_intact "the prefixes"

echo "== --uninstall on a made-up prefix: a manifest naming anything outside it is refused whole (no build)"
fab="$tmp/made-up"
# The made-up install: files and folders as install.sh records them, a link to outside ($tmp) among them.
make_fab() {
    rm -rf "$fab"; mkdir -p "$fab/bin" "$fab/share/marble/Presets" "$fab/share/man/man1"
    echo "marble" >"$fab/bin/marble"; echo "preset" >"$fab/share/marble/Presets/a.yaml"; echo "page" >"$fab/share/man/man1/marble.1"
    echo "theirs" >"$fab/bin/theirs"  # not marble's: stays
    ln -s "$tmp" "$fab/share/outside"
    printf 'd\t%s\n' "$fab" "$fab/bin" "$fab/share" "$fab/share/marble" "$fab/share/marble/Presets" "$fab/share/man" "$fab/share/man/man1" \
        >"$fab/share/marble/install-manifest"
    printf 'f\t%s\n' "$fab/bin/marble" "$fab/share/marble/Presets/a.yaml" "$fab/share/man/man1/marble.1" >>"$fab/share/marble/install-manifest"
}
snapshot() { (cd "$fab" && find . -printf '%p %y %s\n' | sort); }
# Each line below is added last to a good manifest: the old script removed the good lines' files first.
bad_lines=(
    "f	$fab/../decoy"                                   # out through ..
    "f	$fab/../../../../../../../../..$tmp/decoy"      # the attack as found (…/../etc/passwd), aimed at the decoy
    "f	$fab/share/outside/decoy"                        # through a link in the prefix that leads out
    "d	$fab/share/outside/decoy-dir"                    # a folder through that link
    "f	$tmp/decoy"                                      # outside the prefix
    "d	$tmp/decoy-dir"                                  # a folder outside the prefix
    "f	$fab/share/outside"                              # the link itself (install.sh makes none)
    "d	$fab/share/outside"
    "f	$fab/./bin/marble"                               # not written like the prefix
    "f	$fab//bin/marble"
    "f	$fab/bin"                                        # a folder on a file line
    "d	$fab/bin/marble"                                 # a file on a folder line
    "x	$fab/bin/marble"                                 # neither f nor d
    "f $fab/bin/marble"                                  # no tab
    ""                                                   # an empty line
    "f	relative/decoy"
)
for line in "${bad_lines[@]}"; do
    make_fab; printf '%s\n' "$line" >>"$fab/share/marble/install-manifest"
    before="$(snapshot)"
    run_install 1 "manifest line '$line'" --prefix "$fab" --uninstall
    [[ "$err" == *"refusing to uninstall: line 11 of "*"nothing removed" ]] || fail "manifest line '$line': not named: $err"
    [[ "$(snapshot)" == "$before" ]] || fail "manifest line '$line': the prefix changed: $(diff <(echo "$before") <(snapshot))"
    decoys_intact "manifest line '$line'"
    pass "${line:-(empty line)} → refused, nothing removed"
done

# The manifest itself a link to one outside, and a re-install over a tampered manifest (it uninstalls
# first, with the same checks, before the build).
make_fab; mv "$fab/share/marble/install-manifest" "$tmp/manifest-outside"; ln -s "$tmp/manifest-outside" "$fab/share/marble/install-manifest"
before="$(snapshot)"
run_install 1 "a manifest that is a link" --prefix "$fab" --uninstall
[[ "$(snapshot)" == "$before" && -f "$tmp/manifest-outside" ]] || fail "a manifest that is a link: something was removed"
pass "a manifest that is a link → $err"
make_fab; printf 'f\t%s\n' "$fab/share/outside/decoy" >>"$fab/share/marble/install-manifest"
before="$(snapshot)"
run_install 1 "re-install over a tampered manifest" --prefix "$fab"
[[ "$(snapshot)" == "$before" ]] || fail "re-install over a tampered manifest: the prefix changed"
decoys_intact "re-install over a tampered manifest"
pass "re-install over a tampered manifest → $err"

# Installing writes through no link that leads out of the prefix either (checked before the build).
make_fab; rm "$fab/bin/marble" "$fab/share/marble/install-manifest"; mv "$fab/bin" "$tmp/bin-outside"; ln -s "$tmp/bin-outside" "$fab/bin"
run_install 2 "install through a link" --prefix "$fab"
[[ "$err" == *"leads outside"* && ! -e "$tmp/bin-outside/marble" ]] || fail "install through a link: $err"
pass "install with PREFIX/bin a link to outside → $err"
rm -rf "$fab" "$tmp/bin-outside" "$tmp/manifest-outside"

# A good manifest: its files and its empty folders go, deepest first; what it does not list stays, and
# a parent of the prefix it lists (install.sh recorded those before) is left alone.
make_fab; printf 'd\t%s\n' "$tmp" >>"$fab/share/marble/install-manifest"
Scripts/install.sh --prefix "$fab/" --uninstall >/dev/null
left="$(cd "$fab" && find . | sort | tr '\n' ' ')"
[[ "$left" == ". ./bin ./bin/theirs ./share ./share/outside " ]] || fail "a good manifest: left $left"
[[ -d "$tmp" ]] || fail "a good manifest: the parent of the prefix was removed"
decoys_intact "a good manifest"
pass "a good manifest: marble's files and empty folders removed, the rest kept: $left"
rm -rf "$fab"
if [[ "$quick" == yes ]]; then echo "install-test: passed (--quick: no build, no install)"; exit 0; fi

echo "== Scripts/install.sh --prefix $prefix"
Scripts/install.sh --prefix "$prefix"
marble="$prefix/bin/marble"
for f in bin/marble share/man/man1/marble.1 share/bash-completion/completions/marble share/zsh/site-functions/_marble \
         share/fish/vendor_completions.d/marble.fish share/marble/Presets/spectrum.yaml share/marble/install-manifest; do
    [[ -s "$prefix/$f" ]] || fail "$prefix/$f was not installed"
done
pass "files installed"
outside="$(grep -v "	$prefix\(/\|\$\)" "$prefix/share/marble/install-manifest" || true)"
[[ -z "$outside" ]] || fail "the manifest names paths outside $prefix: $outside"
pass "the manifest names only paths in the prefix"
if ldd "$marble" | grep -E "not found|/opt/swift|\.build|libswift|libFoundation|libMarbleAllocationCounter"; then
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
[[ $rc -eq 0 ]] || fail "marble bench without the allocation counter failed (exit $rc): $err"
grep -q "allocations are not counted" <<<"$err" || fail "marble bench did not warn that allocations are not counted: $err"
pass "marble bench runs without libMarbleAllocationCounter.so and warns"

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
