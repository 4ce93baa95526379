#!/usr/bin/env bash
# Brings up a one-node Slurm cluster on this Debian 12 machine, for trying the job-array samples in
# Samples/cluster/ (and for Tests/Cluster/slurm-test.sh). Runs as root, needs no systemd (a container is
# fine): installs slurm-wlm and munge if missing, creates a munge key if there is none, starts munged,
# writes /etc/slurm/slurm.conf for this host (its real CPUs and memory, as `slurmd -C` reports them; no
# cgroups, no accounting database), starts slurmctld and slurmd and waits until the node is idle.
# Running it again is harmless: daemons already running are kept (restarted only if slurm.conf changed).
#
# Usage: Scripts/slurm-one-node.sh           # start (or check) the cluster
#        Scripts/slurm-one-node.sh --stop    # stop slurmd, slurmctld and munged
set -euo pipefail

die() { echo "slurm-one-node: $*" >&2; exit 1; }
[[ $(id -u) -eq 0 ]] || die "run me as root"

conf=/etc/slurm/slurm.conf
run=/run/slurm
ctld_pid=$run/slurmctld.pid
slurmd_pid=$run/slurmd.pid
munge_pid=/run/munge/munged.pid

alive() { [[ -s "$1" ]] && kill -0 "$(cat "$1")" 2>/dev/null; }

# Sends SIGTERM to the daemon behind a pid file and waits (up to 10 s) for it to go.
stop_daemon() {
    local pidfile=$1 pid
    alive "$pidfile" || { rm -f "$pidfile"; return 0; }
    pid=$(cat "$pidfile")
    kill "$pid"
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && die "pid $pid (from $pidfile) did not stop"
    rm -f "$pidfile"
}

if [[ ${1:-} == --stop ]]; then
    stop_daemon "$slurmd_pid"; stop_daemon "$ctld_pid"; stop_daemon "$munge_pid"
    echo "slurm-one-node: stopped"
    exit 0
fi
[[ $# -eq 0 ]] || die "usage: $0 [--stop]"

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null \
   || ! command -v munged >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq slurm-wlm munge >/dev/null
fi

# munge: the key is shared by every daemon and client (here all on one host).
install -d -o munge -g munge -m 0700 /etc/munge /var/lib/munge /var/log/munge
install -d -o munge -g munge -m 0755 /run/munge
if [[ ! -s /etc/munge/munge.key ]]; then
    mungekey --create --keyfile=/etc/munge/munge.key
    chown munge:munge /etc/munge/munge.key; chmod 0400 /etc/munge/munge.key
fi
alive "$munge_pid" || runuser -u munge -- munged --pid-file="$munge_pid"
munge -n | unmunge >/dev/null || die "munge does not work (see /var/log/munge/munged.log)"

# slurm.conf for one node. The node line is what slurmd itself measures, minus its uptime.
node=$(hostname -s)
node_line=$(slurmd -C | sed -n 's/ UpTime=.*//; /^NodeName=/p')
[[ -n "$node_line" ]] || die "slurmd -C printed no node line"
install -d -o slurm -g slurm -m 0755 "$run" /var/lib/slurm/slurmctld /var/log/slurm
install -d -m 0755 /var/lib/slurm/slurmd
new_conf=$(cat <<EOF
# Written by Scripts/slurm-one-node.sh: one node, no cgroups, no accounting database.
ClusterName=onenode
SlurmctldHost=$node
SlurmUser=slurm
AuthType=auth/munge
StateSaveLocation=/var/lib/slurm/slurmctld
SlurmdSpoolDir=/var/lib/slurm/slurmd
SlurmctldPidFile=$ctld_pid
SlurmdPidFile=$slurmd_pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
# No cgroups in a container: track processes through /proc, bind no tasks.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
# Without an accounting database sacct has nothing; finished jobs are logged here instead.
JobCompType=jobcomp/filetxt
JobCompLoc=/var/log/slurm/jobcomp.log
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
$node_line State=UNKNOWN
PartitionName=main Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
)
changed=no
if [[ ! -f $conf ]] || [[ "$(cat "$conf")" != "$new_conf" ]]; then
    printf '%s\n' "$new_conf" > "$conf"
    changed=yes
fi
if [[ $changed == yes ]]; then stop_daemon "$slurmd_pid"; stop_daemon "$ctld_pid"; fi

# Both daemons fork into the background and write their pid files themselves.
alive "$ctld_pid" || slurmctld
for _ in $(seq 100); do grep -q UP <<<"$(scontrol ping 2>/dev/null)" && break; sleep 0.2; done
grep -q UP <<<"$(scontrol ping)" || die "slurmctld did not come up (see /var/log/slurm/slurmctld.log)"
alive "$slurmd_pid" || slurmd

# Wait for the node to register; a node left down or drained by an earlier run is resumed.
state=""
for _ in $(seq 150); do
    state=$(sinfo -h -n "$node" -o %T 2>/dev/null | head -1) || true
    case "$state" in
        idle|mixed|allocated) break ;;
        down*|drain*) scontrol update NodeName="$node" State=RESUME 2>/dev/null || true ;;
    esac
    sleep 0.2
done
case "$state" in idle|mixed|allocated) ;; *) die "node $node is '$state', not idle (see /var/log/slurm/slurmd.log)" ;; esac

cpus=$(sed -n 's/.* CPUs=\([0-9]*\).*/\1/p' <<<"$node_line")
mem=$(sed -n 's/.* RealMemory=\([0-9]*\).*/\1/p' <<<"$node_line")
echo "slurm-one-node: $(sinfo -V) up, node $node ($cpus CPUs, $mem MB) $state, partition main"
