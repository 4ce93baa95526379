#!/usr/bin/env bash
# Renders a short song as a 3-task Slurm job array on a one-node cluster on this machine
# (Scripts/slurm-one-node.sh), joins the pieces with a dependent job and checks that the result has
# exactly the frames of a one-pass render. On the way: piece 2 fails once with a real marble error
# (exit 75) and must be requeued by Samples/cluster/render-segments.slurm, and a bad option (exit 2)
# must fail the array at once without a requeue.
#
#   Tests/Cluster/slurm-test.sh                          # MARBLE=.build/release/marble
#   MARBLE=/path/to/marble Tests/Cluster/slurm-test.sh
#   RETRY_TEST=0 Tests/Cluster/slurm-test.sh             # skip the requeue (Slurm waits ~3 min before a requeued task starts again)
#
# Runs as root (it starts munged, slurmctld and slurmd, and stops them at the end unless they were
# already running). Needs ffmpeg and slurm-wlm + munge (installed with apt-get when missing).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/Tests/Cluster/common.sh"
[[ $(id -u) -eq 0 ]] || fail "run me as root (I start the Slurm daemons)"
RETRY_TEST=${RETRY_TEST:-1}
slurm=$root/Samples/cluster

started=no
grep -q UP <<<"$(scontrol ping 2>/dev/null)" || started=yes
jobs=()
finish() {
    local rc=$?
    (( ${#jobs[@]} )) && scancel "${jobs[@]}" 2>/dev/null
    [[ $started == yes ]] && "$root/Scripts/slurm-one-node.sh" --stop >/dev/null
    cleanup_work
    exit $rc
}
trap finish EXIT
"$root/Scripts/slurm-one-node.sh"

opts=(--size 160x90 --fps 24 --crf 0 --quiet)
make_song
"$MARBLE" render song.flac -o ref.mp4 "${opts[@]}" || fail "the one-pass render failed"

# flaky-marble: marble, except that the render of piece 2 runs with an 8 KB file size limit while the
# file fail-2 exists (removed on use): its write fails as on a full disk, a real marble failure (exit 75).
[[ $RETRY_TEST == 1 ]] && touch fail-2
cat > flaky-marble <<EOF
#!/usr/bin/env bash
if [[ -e $work/fail-2 && " \$* " == *" --segment 2/"* ]]; then rm $work/fail-2; ulimit -f 8; fi
exec $(printf %q "$MARBLE") "\$@"
EOF
chmod +x flaky-marble

# The array (each task renders a piece into segments/), then the join once all three have succeeded.
export OUT=$work/segments MARBLE=$work/flaky-marble RESULT=$work/joined.mp4
array=$(sbatch --parsable --export=ALL --chdir="$work" --array=1-3 "$slurm/render-segments.slurm" song.flac "${opts[@]}") \
    || fail "sbatch of the array failed"
jobs+=("$array")
echo "slurm-test: array job $array submitted$([[ $RETRY_TEST == 1 ]] && echo ", piece 2 fails once (the requeue takes a few minutes)")"
status=0
timeout 900 sbatch --wait --export=ALL --chdir="$work" --dependency="afterok:$array" --kill-on-invalid-dep=yes \
    "$slurm/join.slurm" song.flac --quiet >join.out || status=$?
echo "slurm-test: what ran:"
for log in marble-seg-"$array"_*.log marble-join-*.log; do
    [[ -e $log ]] && sed "s/^/    $log: /" "$log"
done
# Slurm's completion log (there is no accounting database for sacct): one line per run of a task.
awk -v a="ArrayJobId=$array" '$0 ~ a" " {
        for (i = 1; i <= NF; i++) if ($i ~ /^(JobId|ArrayTaskId|JobState|ExitCode|StartTime)=/) printf "%s ", $i
        print "" }' /var/log/slurm/jobcomp.log | sed 's/^/    jobcomp: /'
[[ $status -eq 0 ]] || fail "the array or the join failed (sbatch --wait exited $status)"
same_frames ref.mp4 joined.mp4
if [[ $RETRY_TEST == 1 ]]; then
    log=marble-seg-${array}_2.log
    grep -q 'exited 75: requeueing' "$log" || fail "piece 2 was not requeued after its failure"
    grep -q 'attempt 2' "$log" || fail "piece 2 was requeued but did not run again"
fi
echo "slurm-test: 3 pieces joined by the dependent job = the one-pass render, $(frame_count ref.mp4) frames"

# A bad option: every task exits 2 at once, nothing is requeued, sbatch --wait reports 2.
status=0
bad=$(sbatch --parsable --chdir="$work" --array=1-2 "$slurm/render-segments.slurm" song.flac --fps 0 --quiet)
jobs+=("$bad")
timeout 300 sbatch --wait --chdir="$work" --dependency="afterany:$bad" --wrap=true >/dev/null || true
for k in 1 2; do
    log=marble-seg-${bad}_$k.log
    grep -q 'exited 2: bad options' "$log" || fail "task $k of the bad-option array: $(cat "$log" 2>/dev/null)"
    ! grep -q 'attempt 2' "$log" || fail "task $k of the bad-option array was requeued"
done
echo "slurm-test: --fps 0 fails every task with exit 2, none requeued: $(grep -h 'marble: error' "marble-seg-${bad}_1.log")"
# A catalogue (LIST): one whole song per task, no pieces, nothing to join.
ffmpeg -v error -f lavfi -i "sine=f=440:d=2" -c:a flac second.flac || fail "ffmpeg could not make the second song"
printf '%s\n' "$work/song.flac" "$work/second.flac" > songs.txt
LIST=$work/songs.txt OUT=$work/catalogue timeout 300 sbatch --wait --export=ALL --chdir="$work" --array=1-2 \
    "$slurm/render-segments.slurm" "${opts[@]}" >/dev/null || fail "the catalogue array failed: $(cat marble-seg-*_[12].log | tail -5)"
same_frames ref.mp4 catalogue/song.mp4
[[ $(frame_count catalogue/second.mp4) -eq 48 ]] || fail "catalogue/second.mp4 has $(frame_count catalogue/second.mp4) frames, not 48"
echo "slurm-test: a catalogue of 2 songs (LIST=songs.txt, --array=1-2): song.mp4 = the one-pass render, second.mp4 48 frames"
echo "slurm-test: passed"
