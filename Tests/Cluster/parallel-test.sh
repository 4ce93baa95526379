#!/usr/bin/env bash
# Renders a short song in 4 pieces with GNU parallel, joins them and checks that the result has exactly
# the frames of a one-pass render; then checks parallel's --resume-failed (only the failed piece runs
# again, and its bytes are the same) and what a bad option does under --retries.
#
#   Tests/Cluster/parallel-test.sh                           # MARBLE=.build/release/marble
#   MARBLE=/path/to/marble Tests/Cluster/parallel-test.sh
#
# Needs ffmpeg and GNU parallel (installed with apt-get when missing, as root).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/Tests/Cluster/common.sh"
need parallel parallel

opts=(--size 160x90 --fps 24 --crf 0 --quiet)
q_marble=$(printf %q "$MARBLE")
par() { parallel --will-cite "$@"; }

echo "parallel-test: $(parallel --version | head -1), marble $MARBLE, in $work"
make_song
"$MARBLE" render song.flac -o ref.mp4 "${opts[@]}" || fail "the one-pass render failed"

# 1. Four pieces, two at a time, each retried up to twice.
par -j 2 --joblog jobs.log --retries 2 \
    "$MARBLE" render song.flac -o part-{}.mp4 --segment {}/4 "${opts[@]}" ::: 1 2 3 4 \
    || fail "parallel reported $? failed pieces (see $work/jobs.log)"
# The joblog is tab-separated with a header: Seq Host Starttime JobRuntime Send Receive Exitval Signal Command.
rows=$(awk -F'\t' 'NR > 1' jobs.log | wc -l)
ok=$(awk -F'\t' 'NR > 1 && $7 == 0' jobs.log | wc -l)
[[ $rows -eq 4 && $ok -eq 4 ]] || fail "jobs.log has $rows jobs, $ok with Exitval 0 (want 4 and 4)"
"$MARBLE" join part-*.mp4 --audio song.flac -o joined.mp4 --quiet || fail "marble join failed"
same_frames ref.mp4 joined.mp4
echo "parallel-test: 4 pieces (jobs.log: 4 × Exitval 0) joined = the one-pass render, $(frame_count ref.mp4) frames"

# 2. --resume-failed. piece.sh renders one piece into resume/; while a file resume/fail-K exists (removed
# on use), piece K runs with an 8 KB file size limit, so the write fails as on a full disk: a real marble
# failure (exit 75). It renders from $work as above, since a piece records its input's path as spelled.
mkdir resume
cat > resume/piece.sh <<EOF
#!/usr/bin/env bash
cd $(printf %q "$work")
if [[ -e resume/fail-\$1 ]]; then rm resume/fail-\$1; ulimit -f 8; fi
exec $q_marble render song.flac -o resume/part-\$1.mp4 --segment "\$1/4" ${opts[*]}
EOF
chmod +x resume/piece.sh
cd resume
touch fail-3
if par -j 2 --joblog jobs.log ./piece.sh {} ::: 1 2 3 4 2>first-run.err; then
    fail "the first run should have failed piece 3"
fi
failed=$(awk -F'\t' 'NR > 1 && $7 != 0 { print $1 ":" $7 }' jobs.log)
[[ $failed == "3:75" ]] || fail "after the first run, want piece 3 failed with exit 75 in jobs.log, got '$failed'"
par -j 2 --joblog jobs.log --resume-failed ./piece.sh {} ::: 1 2 3 4 || fail "--resume-failed run failed"
rerun=$(awk -F'\t' 'NR > 5 { print $1 ":" $7 }' jobs.log | tr '\n' ' ')
[[ $rerun == "3:0 " ]] || fail "--resume-failed should have run only piece 3, successfully; it ran: '$rerun'"
for k in 1 2 3 4; do cmp -s "part-$k.mp4" "../part-$k.mp4" || fail "piece $k differs between two renders"; done
cd ..
echo "parallel-test: --resume-failed ran only the failed piece 3 (exit 75 first); all 4 pieces byte-identical to run 1"

# 3. A bad option exits 2 at once and writes nothing. GNU parallel's --retries cannot tell 2 from 75, so
# the job is retried anyway; each attempt costs milliseconds. (--halt soon,fail=1 stops starting others.)
: > attempts
status=0
par --joblog bad.log --retries 3 "echo x >> attempts; $q_marble render song.flac -o bad-{}.mp4 --segment {}/4 ${opts[*]}" \
    ::: 5 2>bad.err || status=$?
exitval=$(awk -F'\t' 'NR == 2 { print $7 }' bad.log)
[[ $status -eq 1 && $exitval == 2 ]] || fail "--segment 5/4: want parallel status 1 and Exitval 2, got $status and '$exitval'"
[[ ! -e bad-5.mp4 ]] || fail "--segment 5/4 wrote a file"
grep -q -- '--segment' bad.err || fail "--segment 5/4: the error does not name the option: $(head -1 bad.err)"
echo "parallel-test: --segment 5/4 exits 2 ($(head -1 bad.err)); parallel ran it $(wc -l <attempts) times, nothing written"

echo "parallel-test: passed"
