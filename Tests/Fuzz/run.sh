#!/usr/bin/env bash
# Fuzz the three inputs users feed MarbleKit, with libFuzzer (swiftc -sanitize=fuzzer,address):
#   FuzzMedia    media bytes → demux → decode → analysis (MediaInput, AudioDecoder, OfflineAnalyzer, FeatureExtractor)
#   FuzzPreset   preset YAML → preset → scene → compositor → a 64x36 frame
#   FuzzOptions  command-line values (NUL-separated) → parsers and options validation
#   FuzzShader   MilkDrop 2 shader text → ShaderCompiler → program invariants → one pixel on ShaderReference
#   FuzzMilk     .milk files → parser → compiled equations → two frames, every one within the work budget
#   FuzzPlaylist M3U playlists → bounded read → decoding → entries (play's path)
#   FuzzOSC      UDP datagrams → OSC packets (bundles) → session events (--osc's path)
# Usage: Tests/Fuzz/run.sh [SECONDS_PER_HARNESS (default 60)] [HARNESS...]
# Builds into .build-fuzz (MARBLE_FUZZ=1 adds the harness targets to the package), seeds corpora in
# .build-fuzz/corpus/NAME (generated: ffmpeg lavfi clips, the bundled presets, argument vectors), keeps
# what each run learns there, and writes crashing inputs to .build-fuzz/crashes/. Exits 1 if any harness
# crashed, leaked or timed out. See docs/FUZZING.md.
set -uo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}
shift || true
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(FuzzMedia FuzzPreset FuzzOptions FuzzShader FuzzMilk FuzzPlaylist FuzzOSC)
scratch=.build-fuzz
corpus=$scratch/corpus
mkdir -p "$scratch/crashes"

seed_media() {
    local dir=$corpus/FuzzMedia sine="sine=frequency=440:duration=0.2:sample_rate=8000"
    mkdir -p "$dir"
    [ -n "$(ls -A "$dir" 2>/dev/null)" ] && return
    local ff=(ffmpeg -nostdin -loglevel error -y)
    "${ff[@]}" -f lavfi -i "$sine" "$dir/seed.wav"
    "${ff[@]}" -f lavfi -i "$sine" -c:a pcm_f32le "$dir/seed-float.wav"
    "${ff[@]}" -f lavfi -i "$sine" -ac 2 -c:a libvorbis "$dir/seed.ogg"
    "${ff[@]}" -f lavfi -i "$sine" -c:a libopus "$dir/seed.opus"
    "${ff[@]}" -f lavfi -i "$sine" -c:a libmp3lame -b:a 8k "$dir/seed.mp3"
    "${ff[@]}" -f lavfi -i "$sine" -c:a flac "$dir/seed.flac"
    "${ff[@]}" -f lavfi -i "$sine" -f lavfi -i "color=c=red:size=16x16:rate=5:duration=0.2" \
        -c:a aac -b:a 16k -c:v libx264 -preset ultrafast -shortest "$dir/seed.mp4"
    "${ff[@]}" -f lavfi -i "$sine" -f lavfi -i "color=c=blue:size=16x16:rate=5:duration=0.2" \
        -c:a libvorbis -c:v libx264 -preset ultrafast -shortest "$dir/seed.mkv"
}

seed_preset() {
    local dir=$corpus/FuzzPreset
    mkdir -p "$dir"
    cp Samples/Presets/*.yaml "$dir/"
    # The hostile shapes PresetTextShape refuses (issue 27): deep brackets, deep "- ", aliases that expand.
    printf '%*s' 5000 '' | tr ' ' '[' > "$dir/hostile-brackets.yaml"
    { printf 'layers:\n'; printf '%*s' 4000 '' | sed 's/ /- /g'; printf 'x\n'; } > "$dir/hostile-dashes.yaml"
    printf 'a: &a [x, x, x, x]\nb: &b [*a, *a, *a, *a]\nlayers: [*b, *b, *b]\n' > "$dir/hostile-aliases.yaml"
}

seed_options() {
    local dir=$corpus/FuzzOptions i=0
    mkdir -p "$dir"
    while IFS= read -r line; do
        printf '%s' "$line" | tr '|' '\0' > "$dir/argv-$i"
        i=$((i + 1))
    done <<'VECTORS'
song.mp3|out.mp4|1920x1080|60|42|23
song.ogg|look.png|1280x720|30000/1001|6.1|0
clip.mp4|out.webm|640x360|29.97||63
in.wav|out.mkv|16x16|1|0|8
in.flac|out.mov|7680x4320|240|1e300|512
in.ogg|x.png|0x0|0/1|-1|-5
in.ogg|x.gif|-2x4|-9223372036854775807|nan|99999999999999999999
#ff8000|orange|#fff|transparent|#00000000|ultrafast
VECTORS
}

# The warp and composite shaders of the installed projectm-data presets (none when it is absent).
seed_shader() {
    local dir=$corpus/FuzzShader i=0
    mkdir -p "$dir"
    [ -n "$(ls -A "$dir" 2>/dev/null)" ] && return
    [ -d /usr/share/projectM/presets ] || { printf 'shader_body { ret = tex2D(sampler_main, uv).xyz; }' > "$dir/seed"; return; }
    find /usr/share/projectM/presets -name '*.milk' | sort | awk 'NR % 8 == 0' | while IFS= read -r file; do
        for kind in warp comp; do
            grep -a "^${kind}_[0-9]*=" "$file" | sed 's/^[a-z]*_[0-9]*=`\{0,1\}//' > "$dir/$kind-$i"
            [ -s "$dir/$kind-$i" ] || rm -f "$dir/$kind-$i"
        done
        i=$((i + 1))
    done
}

# Every eighth installed projectm-data preset (when present), and the hostile cases of issue 27: loops
# per pixel, nested loops per frame and in init code, a loop per wave point and per shape instance,
# while(1), memset of the whole megabuf per pixel, a per-pixel block too long for the budget.
seed_milk() {
    local dir=$corpus/FuzzMilk i=0
    mkdir -p "$dir"
    [ -n "$(ls -A "$dir" 2>/dev/null)" ] && return
    if [ -d /usr/share/projectM/presets ]; then
        find /usr/share/projectM/presets -name '*.milk' -size -8k | sort | awk 'NR % 8 == 0' | while IFS= read -r file; do
            cp "$file" "$dir/debian-$i.milk"
            i=$((i + 1))
        done
    fi
    while IFS= read -r line; do
        printf '[preset00]\n%b\n' "$line" > "$dir/hostile-$i.milk"
        i=$((i + 1))
    done <<'HOSTILE'
per_pixel_1=loop(1000000000, n = n + 1);
per_pixel_1=while(1);
per_pixel_1=memset(0, 1, 8388608);
per_pixel_1=loop(100000, loop(100000, n = n + 1));
per_frame_1=loop(1000000, loop(1000000, m = m + 1));
per_frame_init_1=loop(1000000, while(k = k + 1; 1));
wavecode_0_enabled=1\nwave_0_per_point1=loop(1000000, a = a + 1);
shapecode_0_enabled=1\nshapecode_0_num_inst=1024\nshape_0_per_frame1=loop(1000000, a = a + 1);
per_frame_1=memcpy(0, 4194304, 4194304); memcpy(4194304, 0, 4194304);
HOSTILE
    printf '[preset00]\nper_pixel_1=' > "$dir/hostile-long.milk"
    for _ in $(seq 1 6000); do printf 'a=a+1;' >> "$dir/hostile-long.milk"; done
}

# Playlists as players write them (extended M3U, relative and absolute paths, file:// and stream URLs,
# a byte-order mark, CRLF, Latin-1), and hostile ones: a line of 100,000 bytes, 20,000 short entries
# (past the 10,000-song bound), NUL bytes, only comments.
seed_playlist() {
    local dir=$corpus/FuzzPlaylist
    mkdir -p "$dir"
    [ -n "$(ls -A "$dir" 2>/dev/null)" ] && return
    printf '#EXTM3U\n#EXTINF:123,Artist - Song\nsongs/a.mp3\n/music/b.flac\nfile:///music/c%%20d.ogg\nhttp://radio.example/stream\n' > "$dir/extended.m3u"
    printf '\xef\xbb\xbfa.mp3\r\nb.mp3\r\n' > "$dir/bom-crlf.m3u8"
    printf 'caf\xe9.mp3\n#comment\n\n   spaced.mp3   \n' > "$dir/latin1.m3u"
    head -c 100000 /dev/zero | tr '\0' 'a' > "$dir/long-line.m3u"
    seq 1 20000 | sed 's/$/.mp3/' > "$dir/many.m3u"
    printf 'a.mp3\0b.mp3\n' > "$dir/nul.m3u"
    printf '#EXTM3U\n#only comments\n' > "$dir/comments.m3u"
}

# OSC datagrams as controllers send them (each Marble address with its arguments, a bundle, nested
# bundles) and broken ones (a blob whose size runs past the end, a string without its NUL).
seed_osc() {
    local dir=$corpus/FuzzOSC
    mkdir -p "$dir"
    [ -n "$(ls -A "$dir" 2>/dev/null)" ] && return
    python3 - "$dir" <<'PY'
import struct, sys
def pad(b): return b + b'\0' * (4 - len(b) % 4)
def msg(address, *args):
    tags, data = ',', b''
    for a in args:
        if isinstance(a, int): tags, data = tags + 'i', data + struct.pack('>i', a)
        elif isinstance(a, float): tags, data = tags + 'f', data + struct.pack('>f', a)
        else: tags, data = tags + 's', data + pad(a.encode())
    return pad(address.encode()) + pad(tags.encode()) + data
def bundle(*elements): return b'#bundle\0' + bytes(8) + b''.join(struct.pack('>i', len(e)) + e for e in elements)
seeds = {
    'preset': msg('/marble/preset', 'tunnel'), 'next': msg('/marble/next'), 'flash': msg('/marble/flash'),
    'param': msg('/marble/param', 1, 'gap', 0.5), 'param-name': msg('/marble/param', 'gradient', 'from', '#ff0000'),
    'sensitivity': msg('/marble/sensitivity', 1.5), 'milkdrop': msg('/marble/milkdrop/next'),
    'bundle': bundle(msg('/marble/flash'), bundle(msg('/marble/next'), msg('/marble/sensitivity', 2))),
    'blob-past-end': pad(b'/a') + pad(b',b') + struct.pack('>i', 1 << 30),
    'no-nul': b'/marble/preset',
}
for name, data in seeds.items(): open(f'{sys.argv[1]}/{name}.osc', 'wb').write(data)
PY
}

# lld, because gold crashes ("internal error in format_file_lineno") linking the sanitized objects.
echo "== building ${harnesses[*]} (MARBLE_FUZZ=1, -sanitize=fuzzer,address, $scratch)"
for name in "${harnesses[@]}"; do
    MARBLE_FUZZ=1 swift build -c debug --scratch-path "$scratch" -Xswiftc -sanitize=fuzzer,address \
        -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld \
        --product "$name" 2>&1 | grep -E "error|warning:|Compiling|Build complete" | grep -v "^\[" | tail -n 20
    [ -x "$scratch/debug/$name" ] || { echo "build of $name failed"; exit 1; }
done
echo "== built in ${SECONDS}s"

failed=()
for name in "${harnesses[@]}"; do
    case $name in
        FuzzMedia) seed_media; extra=(-max_len=65536 -timeout=20) ;;
        FuzzPreset) seed_preset; extra=(-max_len=8192 -timeout=10 -dict=Tests/Fuzz/preset.dict) ;;
        FuzzOptions) seed_options; extra=(-max_len=512 -timeout=5) ;;
        FuzzShader) seed_shader; extra=(-max_len=16384 -timeout=10 -dict=Tests/Fuzz/shader.dict) ;;
        FuzzMilk) seed_milk; extra=(-max_len=65536 -timeout=10 -dict=Tests/Fuzz/milk.dict) ;;
        FuzzPlaylist) seed_playlist; extra=(-max_len=262144 -timeout=10) ;;
        FuzzOSC) seed_osc; extra=(-max_len=65507 -timeout=5) ;;
        *) echo "unknown harness $name"; exit 2 ;;
    esac
    echo "== $name for ${seconds}s"
    log=$scratch/$name.log
    # Leak checks stay off: the Swift runtime's metadata caches read as leaks to LeakSanitizer.
    # No Swift backtracer: its crash handler reads memory in ways AddressSanitizer reports instead of the crash.
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$scratch/debug/$name" "$corpus/$name" "${extra[@]}" -rss_limit_mb=2048 \
        -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$scratch/crashes/$name-" >"$log" 2>&1
    status=$?
    grep -E "^#[0-9]+.*(DONE|pulse)|^stat::number_of_executed_units|^stat::average_exec_per_sec|^Done [0-9]+ runs" "$log" | tail -n 3
    if [ $status -ne 0 ]; then
        failed+=("$name")
        echo "!! $name failed (exit $status); the input is in $scratch/crashes/, the report in $log:"
        grep -E "ERROR|Fatal error|SUMMARY|Test unit written|deadly signal" "$log" | head -n 8
    fi
done
[ ${#failed[@]} -eq 0 ] || { echo "== fuzz: crashes in ${failed[*]}"; exit 1; }
echo "== fuzz: no crash (${SECONDS}s in all)"
