#!/usr/bin/env bash
# Installs marble (or uninstalls it): builds a release binary with the Swift runtime linked in statically,
# generates the shell completions and the manual page from its ArgumentParser definitions, and copies
#   PREFIX/bin/marble
#   PREFIX/share/marble/Presets/*.yaml                    (the bundled presets, found by the binary)
#   PREFIX/share/man/man1/marble.1
#   PREFIX/share/bash-completion/completions/marble
#   PREFIX/share/zsh/site-functions/_marble
#   PREFIX/share/fish/vendor_completions.d/marble.fish
#   PREFIX/share/marble/install-manifest                  (what was installed, for --uninstall)
#
# Usage: Scripts/install.sh [--prefix DIR] [--uninstall]     (PREFIX=DIR works too; default /usr/local)
#        Scripts/install.sh --stage DIR [--prefix DIR]       (copy into DIR+PREFIX without a manifest: for packaging)
# Everything else marble needs at run time is a Debian package (see docs/INSTALL.md).
set -euo pipefail

die() { echo "install.sh: $*" >&2; exit 2; }
# A manifest that names what install.sh never installs: one line, nothing removed, exit 1.
refuse() { echo "install.sh: $*" >&2; exit 1; }
self="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"

prefix="${PREFIX:-/usr/local}"
stage=""
mode=install
while [[ $# -gt 0 ]]; do
    case "$1" in
        --prefix) [[ $# -ge 2 && -n "$2" ]] || die "--prefix needs a directory"; prefix="$2"; shift 2 ;;
        --prefix=*) prefix="${1#--prefix=}"; [[ -n "$prefix" ]] || die "--prefix needs a directory"; shift ;;
        --stage) [[ $# -ge 2 && -n "$2" ]] || die "--stage needs a directory"; stage="$2"; shift 2 ;;
        --uninstall) mode=uninstall; shift ;;
        -h|--help) sed -n '2,14s/^# \{0,1\}//p' "$self"; exit 0 ;;
        *) die "unknown argument '$1' (see Scripts/install.sh --help)" ;;
    esac
done

# --- the prefix: absolute, no "..", not / however it is spelled (/., //, a link to /) -----------------
# Written with single slashes and without "." ("/usr/./local/" → "/usr/local"): every path below, and
# every line of the manifest, is compared with this one spelling.
[[ "$prefix" == /* ]] || die "the prefix must be an absolute path (got '$prefix')"
[[ "$prefix" != *$'\n'* && "$prefix" != *$'\t'* ]] || die "the prefix must not contain newlines or tabs"
given="$prefix"; prefix=""
IFS=/ read -ra parts <<<"$given"
for part in "${parts[@]}"; do
    case "$part" in
        ""|.) ;;
        ..) die "the prefix must not contain '..' (got '$given')" ;;
        *) prefix+="/$part" ;;
    esac
done
[[ -n "$prefix" ]] || die "refusing to install into / (got '$given'; use --prefix /usr or /usr/local)"
real_prefix="$(realpath -m -- "$prefix" 2>/dev/null)" || die "cannot resolve the prefix '$given' (a loop of links?)"
[[ "$real_prefix" != / ]] || die "refusing to install into / ('$given' leads there; use --prefix /usr or /usr/local)"
if [[ -n "$stage" ]]; then
    [[ "$stage" == /* ]] || die "the stage directory must be an absolute path (got '$stage')"
    [[ "$mode" == install ]] || die "--stage and --uninstall do not go together"
fi
manifest="$prefix/share/marble/install-manifest"

# What is wrong with removing the manifest entry KIND PATH (f: a file, d: a folder), or nothing when it
# may go: PATH is written like the prefix (absolute, single slashes, no "." or ".."), it lies in the
# prefix (a folder may be the prefix itself), its real path — its folder resolved, PATH itself not
# followed — lies in the real prefix, and it is not a link (install.sh never makes one) nor of another
# kind than its line says. Nothing checked here follows PATH if it is a link.
entry_problem() {
    local kind="$1" path="$2" part parts real
    [[ "$kind" == f || "$kind" == d ]] || { echo "is not a file (f) or a folder (d) line"; return; }
    [[ "$path" == /?* ]] || { echo "is not an absolute path below /"; return; }
    IFS=/ read -ra parts <<<"${path#/}"
    for part in "${parts[@]}"; do
        [[ -n "$part" && "$part" != . && "$part" != .. ]] || { echo "has an empty, '.' or '..' part"; return; }
    done
    [[ "${path%/}" == "$path" ]] || { echo "ends with /"; return; }
    [[ "$kind" == d && "$path" == "$prefix" ]] && return  # rmdir removes the prefix only if it is an empty folder
    [[ "$path" == "$prefix"/* ]] || { echo "is outside $prefix"; return; }
    real="$(realpath -m -- "$(dirname -- "$path")" 2>/dev/null)" || { echo "cannot be resolved"; return; }
    real="${real%/}/$(basename -- "$path")"
    [[ "$real" == "$real_prefix"/* ]] || { echo "leads outside $prefix (to $real)"; return; }
    if [[ -L "$path" ]]; then echo "is a symbolic link"; return; fi
    if [[ "$kind" == f && -e "$path" && ! -f "$path" ]]; then echo "is not a regular file"; return; fi
    if [[ "$kind" == d && -e "$path" && ! -d "$path" ]]; then echo "is not a folder"; return; fi
    return 0
}

# --- uninstall: remove exactly the files and the empty folders the manifest lists, all in the prefix ---
# The whole manifest is checked first: one line that entry_problem rejects and nothing is removed.
if [[ "$mode" == uninstall ]]; then
    [[ -f "$manifest" || -L "$manifest" ]] || die "nothing to uninstall: $manifest not found"
    problem="$(entry_problem f "$manifest")"
    [[ -z "$problem" ]] || refuse "refusing to uninstall: the manifest $manifest $problem; nothing removed"
    (( $(wc -c <"$manifest") <= 1048576 )) || refuse "refusing to uninstall: $manifest is over 1 MB (install.sh writes about 2 KB); nothing removed"
    files=(); dirs=(); number=0
    while IFS= read -r line || [[ -n "$line" ]]; do
        number=$((number + 1))
        [[ "$line" == ?$'\t'* ]] || refuse "refusing to uninstall: line $number of $manifest is not 'f|d TAB PATH': '$line'; nothing removed"
        kind="${line:0:1}"; path="${line:2}"
        # install.sh used to record the parents of the prefix it created too: they are left alone.
        if [[ "$kind" == d && "$path" == /?* && "$prefix" == "$path"/* ]]; then continue; fi
        problem="$(entry_problem "$kind" "$path")"
        [[ -z "$problem" ]] || refuse "refusing to uninstall: line $number of $manifest: '$path' $problem; nothing removed"
        if [[ "$kind" == f ]]; then files+=("$path"); else dirs+=("$path"); fi
    done <"$manifest"
    # Checked again just before each removal: a folder swapped for a link meanwhile stops the uninstall.
    for path in "${files[@]}" "$manifest"; do
        problem="$(entry_problem f "$path")"
        [[ -z "$problem" ]] || refuse "stopped uninstalling: '$path' $problem now"
        if [[ -f "$path" ]]; then rm -f -- "$path"; fi
    done
    # Deepest first (by the number of slashes); a folder that holds something else now stays.
    while IFS=$'\t' read -r _ path; do
        [[ -n "$path" && -z "$(entry_problem d "$path")" && -d "$path" && ! -L "$path" ]] || continue
        rmdir -- "$path" 2>/dev/null || true
    done < <(for path in "${dirs[@]}"; do slashes="${path//[^\/]/}"; printf '%d\t%s\n' "${#slashes}" "$path"; done | sort -rn -k1,1)
    echo "uninstalled marble from $prefix"
    exit 0
fi

# --- build --------------------------------------------------------------------------------------------
cd "$(dirname "$0")/.."
command -v swift >/dev/null || PATH="/opt/swift/usr/bin:$PATH"
command -v swift >/dev/null || die "swift not found (add the toolchain's usr/bin to PATH)"
# Every file it will write, checked before the build like a manifest's lines: in the prefix, reached
# through no link that leads out of it, not a link itself.
if [[ -z "$stage" ]]; then
    for path in bin/marble share/man/man1/marble.1 share/bash-completion/completions/marble share/zsh/site-functions/_marble \
                share/fish/vendor_completions.d/marble.fish share/marble/install-manifest Samples/Presets/*.yaml; do
        [[ "$path" != Samples/* ]] || path="share/marble/Presets/${path#Samples/Presets/}"
        problem="$(entry_problem f "$prefix/$path")"
        [[ -z "$problem" ]] || die "cannot install into $prefix: $prefix/$path $problem"
    done
fi
if [[ -z "$stage" && ( -f "$manifest" || -L "$manifest" ) ]]; then
    echo "== removing the previous install in $prefix"
    "$self" --prefix "$prefix" --uninstall
fi
# Fail before the build when the prefix cannot be written (its nearest existing folder is not writable).
if [[ -n "$stage" ]]; then mkdir -p -- "$stage" || die "cannot create $stage"; fi
target="$stage$prefix"; probe="$target"
while [[ ! -e "$probe" ]]; do probe="$(dirname "$probe")"; done
[[ -d "$probe" && -w "$probe" ]] || die "cannot write to $target ($probe is not a writable directory; run as root or choose --prefix)"

work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT

# The manual page: swift-argument-parser's generate-manual plugin reads marble's definitions
# (`marble --experimental-dump-help`). It builds the package in release first.
echo "== generating the manual page (swift package plugin generate-manual)"
swift package plugin generate-manual --configuration release --authors "The MarbleKit authors" \
    >"$work/manual.log" 2>&1 || { cat "$work/manual.log" >&2; die "generate-manual failed"; }
page="$(find .build/plugins/GenerateManual -name marble.1 -newer "$work" -print -quit 2>/dev/null || true)"
[[ -n "$page" ]] || { cat "$work/manual.log" >&2; die "generate-manual wrote no marble.1"; }
# mdoc wants no empty lines (paragraphs in the help texts): make them paragraph breaks.
sed 's/^[[:space:]]*$/.Pp/' "$page" >"$work/marble.1"

# The binary: the Swift runtime linked in, so it needs nothing from the toolchain or the build folder.
# Built in its own scratch folder: --static-swift-stdlib recompiles every module, and in .build it would
# do so each time it alternates with the everyday `swift build -c release`. The dependencies' clones are
# copied from .build when it has them (no second download).
echo "== building marble (release, static Swift runtime, in .build/static)"
scratch=.build/static
if [[ ! -d "$scratch/checkouts" && -d .build/checkouts ]]; then
    mkdir -p "$scratch"
    cp -a .build/checkouts .build/repositories .build/workspace-state.json "$scratch/" 2>/dev/null || true
fi
# -z now: the dynamic linker binds every symbol at start-up (full RELRO), as Debian's hardening asks.
static_build=(swift build -c release --static-swift-stdlib -Xlinker -z -Xlinker now --product marble --scratch-path "$scratch")
"${static_build[@]}" >"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; die "the release build failed"; }
grep -E "warning:|Build" "$work/build.log" || true
binary="$("${static_build[@]}" --show-bin-path)/marble"
[[ -x "$binary" ]] || die "the build produced no $binary"
if ldd "$binary" | grep -E "not found|/opt/swift|\.build/|libswift|libFoundation|libMarbleAllocationCounter" >&2; then
    die "$binary still needs the libraries above: not installable"
fi
cp "$binary" "$work/marble"
# Symbols are for debuggers (the build folder keeps them): a third of the file.
strip --strip-unneeded --remove-section=.comment "$work/marble"

echo "== generating the shell completions"
# (bash's is sourced, not run: its #! line goes.)
"$work/marble" --generate-completion-script bash | sed '1{/^#!/d}' >"$work/marble.bash"
"$work/marble" --generate-completion-script zsh >"$work/_marble"
"$work/marble" --generate-completion-script fish >"$work/marble.fish"

# --- copy, recording every file and every directory created --------------------------------------------
entries=()
make_dir() {  # creates $1 and its missing parents; records those it created in the prefix (outermost first)
    local dir="$1" missing=()
    while [[ ! -d "$stage$dir" && "$dir" != / ]]; do missing=("$dir" "${missing[@]}"); dir="$(dirname "$dir")"; done
    for dir in "${missing[@]}"; do
        mkdir -- "$stage$dir"
        # Parents of the prefix it had to create stay after --uninstall: it removes nothing outside the prefix.
        if [[ "$dir" == "$prefix" || "$dir" == "$prefix"/* ]]; then entries+=("d	$dir"); fi
    done
}
put() {  # put MODE SOURCE DESTINATION
    make_dir "$(dirname "$3")"
    install -m "$1" -- "$2" "$stage$3"
    entries+=("f	$3")
}
echo "== installing into $target"
put 755 "$work/marble" "$prefix/bin/marble"
for preset in Samples/Presets/*.yaml; do put 644 "$preset" "$prefix/share/marble/Presets/$(basename "$preset")"; done
put 644 "$work/marble.1" "$prefix/share/man/man1/marble.1"
put 644 "$work/marble.bash" "$prefix/share/bash-completion/completions/marble"
put 644 "$work/_marble" "$prefix/share/zsh/site-functions/_marble"
put 644 "$work/marble.fish" "$prefix/share/fish/vendor_completions.d/marble.fish"
if [[ -z "$stage" ]]; then
    make_dir "$(dirname "$manifest")"
    printf '%s\n' "${entries[@]}" >"$manifest"
    echo "installed marble $("$prefix/bin/marble" --version | head -n 1 | cut -d' ' -f2) into $prefix (uninstall: Scripts/install.sh --prefix $prefix --uninstall)"
else
    echo "staged marble into $target"
fi
