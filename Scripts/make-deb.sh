#!/usr/bin/env bash
# Builds dist/marble_VERSION_ARCH.deb: the files Scripts/install.sh installs, with prefix /usr, plus what
# Debian policy asks of a package (copyright, changelog, compressed manual page, md5sums). Depends is
# computed by dpkg-shlibdeps from the binary's NEEDED libraries. Needs dpkg-dev (and swift for the build).
#
# Usage: Scripts/make-deb.sh [--output DIR]    (default dist/; MAINTAINER="Name <mail>" sets Maintainer)
set -euo pipefail

die() { echo "make-deb.sh: $*" >&2; exit 2; }
output=dist
while [[ $# -gt 0 ]]; do
    case "$1" in
        --output) [[ $# -ge 2 && -n "$2" ]] || die "--output needs a directory"; output="$2"; shift 2 ;;
        -h|--help) sed -n '2,6s/^# \{0,1\}//p' "$0"; exit 0 ;;
        *) die "unknown argument '$1' (see Scripts/make-deb.sh --help)" ;;
    esac
done
cd "$(dirname "$0")/.."
root="$PWD"
for tool in dpkg-deb dpkg-shlibdeps dpkg-architecture; do
    command -v "$tool" >/dev/null || die "$tool not found (apt-get install dpkg-dev)"
done
mkdir -p "$output" || die "cannot create $output"
output="$(cd "$output" && pwd)"

# The version is written once, in Sources/marble/MarbleVersion.swift.
version="$(sed -n 's/^ *static let number = "\([0-9][0-9A-Za-z.+~-]*\)".*/\1/p' Sources/marble/MarbleVersion.swift)"
[[ -n "$version" ]] || die "no version found in Sources/marble/MarbleVersion.swift"
arch="$(dpkg --print-architecture)"
maintainer="${MAINTAINER:-MarbleKit maintainers <maintainers@marblekit.example>}"

work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
pkg="$work/marble"
Scripts/install.sh --stage "$pkg" --prefix /usr

# Debian's places and forms: zsh's vendor folder, a gzipped manual page, a stripped binary.
mkdir -p "$pkg/usr/share/zsh/vendor-completions"
mv "$pkg/usr/share/zsh/site-functions/_marble" "$pkg/usr/share/zsh/vendor-completions/_marble"
rmdir "$pkg/usr/share/zsh/site-functions"
gzip -9n "$pkg/usr/share/man/man1/marble.1"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$pkg/usr/bin/marble"

# Yams (the YAML parser of the presets) compiles its own copy of libyaml into the binary; SwiftPM has
# no way to use Debian's libyaml-0-2 instead. Explained in docs/INSTALL.md.
mkdir -p "$pkg/usr/share/lintian/overrides"
cat >"$pkg/usr/share/lintian/overrides/marble" <<'OVERRIDES'
# Yams, the Swift YAML library, builds its own copy of libyaml (CYaml) into the binary.
marble: embedded-library libyaml [usr/bin/marble]
OVERRIDES

doc="$pkg/usr/share/doc/marble"
mkdir -p "$doc"
cat >"$doc/copyright" <<'COPYRIGHT'
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: marble
Comment: /usr/bin/marble is MarbleKit's command-line tool. Its Swift runtime, Foundation and Swift
 package dependencies are linked into it statically; their licences follow.

Files: *
Copyright: The MarbleKit authors
License: MarbleKit
 The MarbleKit authors have not published a licence for MarbleKit yet; until they do, they reserve
 all rights, and this package is for internal use.

Files: usr/bin/marble (Swift runtime, Foundation, swift-argument-parser, swift-numerics, hdrhistogram-swift)
Copyright: Apple Inc. and the Swift project authors; the HdrHistogram authors
License: Apache-2.0 with Runtime Library Exception
 Licensed under the Apache License, Version 2.0, with the Runtime Library Exception of the Swift
 project (https://swift.org/LICENSE.txt). On Debian systems, the full text of the Apache License,
 Version 2.0 is in /usr/share/common-licenses/Apache-2.0.

Files: usr/bin/marble (Yams)
Copyright: 2016 JP Simard
License: Expat
 Permission is hereby granted, free of charge, to any person obtaining a copy of this software and
 associated documentation files (the "Software"), to deal in the Software without restriction,
 including without limitation the rights to use, copy, modify, merge, publish, distribute,
 sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is
 furnished to do so, subject to the following conditions:
 .
 The above copyright notice and this permission notice shall be included in all copies or
 substantial portions of the Software.
 .
 THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT
 NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
 NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM,
 DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT
 OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
COPYRIGHT
# A native package's changelog (changelog.gz); the date is the last commit's, so rebuilds are identical.
date="$(git -C "$root" log -1 --format=%cD 2>/dev/null || date -R)"
cat >"$work/changelog" <<CHANGELOG
marble ($version) unstable; urgency=medium

  * marble $version: render, analyze, play, live, effects, bench; installable with
    Scripts/install.sh or this package (see docs/INSTALL.md).

 -- $maintainer  $date
CHANGELOG
gzip -9n <"$work/changelog" >"$doc/changelog.gz"

# Depends: the packages that provide the binary's shared libraries (dpkg-shlibdeps reads the symbols
# files of the installed -dev/runtime packages; it wants a debian/control to run from).
mkdir -p "$work/src/debian"
printf 'Source: marble\n\nPackage: marble\nArchitecture: any\n' >"$work/src/debian/control"
depends="$(cd "$work/src" && dpkg-shlibdeps -O -e"$pkg/usr/bin/marble" 2>"$work/shlibdeps.log" | sed -n 's/^shlibs:Depends=//p')" \
    || { cat "$work/shlibdeps.log" >&2; die "dpkg-shlibdeps failed"; }
[[ -n "$depends" ]] || { cat "$work/shlibdeps.log" >&2; die "dpkg-shlibdeps found no dependencies"; }

mkdir -p "$pkg/DEBIAN"
installed_size="$(du -sk --exclude=DEBIAN "$pkg" | cut -f1)"
cat >"$pkg/DEBIAN/control" <<CONTROL
Package: marble
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $installed_size
Depends: $depends, fonts-dejavu-core
Recommends: fonts-noto-core, fonts-noto-cjk, fonts-noto-color-emoji, fonts-droid-fallback
Section: sound
Priority: optional
Description: CPU-only audio visualizer
 marble turns songs and videos into audio-reactive videos on the CPU (FFmpeg in,
 shader-like SIMD kernels, FFmpeg out), shows what the machine is playing live
 (PulseAudio or PipeWire) in the terminal or a window, streams and records it,
 and analyses songs: tempo, beats, loudness.
CONTROL
(cd "$pkg" && find usr -type f -print0 | sort -z | xargs -0 md5sum) >"$pkg/DEBIAN/md5sums"
chmod 644 "$pkg/DEBIAN/control" "$pkg/DEBIAN/md5sums"
find "$pkg" -type d -exec chmod 755 {} +

deb="$output/marble_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$pkg" "$deb" >/dev/null
echo "built $deb (Depends: $depends)"
