#!/bin/bash
# A throw-away single-node Slurm cluster for the tune test (tests/slurm/tune_slurm_test.sh):
# munged, slurmctld and slurmd of Debian's slurm-wlm on 127.0.0.1, every file (config, munge key
# and socket, state, spool, logs) under DIR, ports picked free. `start DIR` writes DIR/slurm.conf
# and waits (at most 60 s) until the node is idle; clients then use SLURM_CONF=DIR/slurm.conf.
# `stop DIR` kills the three daemons by their pid files. Needs root (slurmd) and the binaries;
# exit 77 when they are missing.
set -u
cmd=${1:?usage: slurm_cluster.sh start|stop DIR}
dir=${2:?usage: slurm_cluster.sh start|stop DIR}

stop() {
  for d in slurmd slurmctld munged; do
    [ -f "$dir/$d.pid" ] && kill "$(cat "$dir/$d.pid")" 2>/dev/null
  done
  sleep 1
  for d in slurmd slurmctld munged; do
    [ -f "$dir/$d.pid" ] && kill -9 "$(cat "$dir/$d.pid")" 2>/dev/null
    rm -f "$dir/$d.pid"
  done
  return 0
}

if [ "$cmd" = stop ]; then stop; exit 0; fi

for b in munged mungekey slurmctld slurmd sbatch squeue scontrol; do
  command -v "$b" >/dev/null 2>&1 || [ -x "/usr/sbin/$b" ] || {
    echo "skip: $b is not installed (apt-get install slurm-wlm munge; scripts/setup.sh does)"
    exit 77
  }
done
[ "$(id -u)" = 0 ] || { echo "skip: slurmd needs root"; exit 77; }
export PATH=$PATH:/usr/sbin
mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
chmod 700 "$dir/munge"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
ctld_port=$(free_port); slurmd_port=$(free_port)
mungekey --create --keyfile "$dir/munge/munge.key" --force >/dev/null 2>&1 ||
  { dd if=/dev/urandom of="$dir/munge/munge.key" bs=1 count=1024 2>/dev/null; }
chmod 600 "$dir/munge/munge.key"
munged --key-file "$dir/munge/munge.key" --socket "$dir/munge/munge.sock" \
  --pid-file "$dir/munged.pid" --log-file "$dir/munged.log" --seed-file "$dir/munge/seed" \
  --force || { echo "munged failed to start"; cat "$dir/munged.log"; exit 1; }
cpus=$(nproc)
cat >"$dir/slurm.conf" <<CONF
ClusterName=tirxtest
SlurmctldHost=$(hostname)(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.sock
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=2
MinJobAge=300
NodeName=tirxnode NodeHostname=$(hostname) NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=tirx Nodes=tirxnode Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$dir/slurm.conf
slurmctld -i || { echo "slurmctld failed"; cat "$dir/slurmctld.log"; stop; exit 1; }
slurmd -N tirxnode || { echo "slurmd failed"; cat "$dir/slurmd.log"; stop; exit 1; }
for _ in $(seq 60); do
  state=$(timeout 5 sinfo -h -n tirxnode -o %T 2>/dev/null)
  [ "$state" = idle ] && exit 0
  sleep 1
done
echo "the node never became idle (state '$state')"
tail -20 "$dir/slurmctld.log" "$dir/slurmd.log"
stop
exit 1
