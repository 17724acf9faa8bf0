#!/bin/bash
# `tirx tune --device slurm` on a real single-node Slurm cluster (tests/slurm/slurm_cluster.sh,
# started and stopped here): the 12-candidate GEMM space of tests/data/tune/gemm_tiles.py runs as
# one job array with the simulator as the node device and gives the same ranking and the same two
# rejections as a local tune; one array element is scancelled while pending and is resubmitted
# once. Exit 77 (CTest: skipped) with the reason when Slurm or munge is not installed or not root.
# Every wait is bounded (timeout), so the test never hangs.
set -u
tirx=${1:?usage: tune_slurm_test.sh TIRX SOURCE_DIR}
src=${2:?usage: tune_slurm_test.sh TIRX SOURCE_DIR}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/tirx-slurm-test.XXXXXX)
cleanup() { "$here/slurm_cluster.sh" stop "$work/cluster"; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }

timeout 90 "$here/slurm_cluster.sh" start "$work/cluster"
status=$?
[ $status = 77 ] && exit 77
[ $status = 0 ] || fail "the test cluster did not start (status $status)"
export SLURM_CONF=$work/cluster/slurm.conf
export PATH=$PATH:/usr/sbin
gemm=$src/tests/data/tune/gemm_tiles.py

timeout 120 "$tirx" tune "$gemm" --json >"$work/local.json" || fail "the local tune failed"

# The slurm tune in the background; meanwhile cancel one pending array element (the last).
timeout 180 "$tirx" tune "$gemm" --device slurm --node-device sim --work-dir "$work/job" \
  --cache "$work/cache.jsonl" --json >"$work/slurm.json" 2>"$work/slurm.err" &
tune=$!
killed=""
for _ in $(seq 300); do
  job=$(timeout 10 squeue -h -o '%F' -n tirx-tune 2>/dev/null | head -1)
  if [ -n "$job" ] && timeout 10 squeue -h -r -j "$job" -t PD -o '%K' | grep -qx 11; then
    timeout 10 scancel "${job}_11" && killed="${job}_11" && break
  fi
  kill -0 $tune 2>/dev/null || break
  sleep 0.1
done
wait $tune || fail "the slurm tune failed: $(cat "$work/slurm.err")"
cat "$work/slurm.err"
[ -n "$killed" ] || fail "no pending array element 11 to cancel"
echo "cancelled $killed while pending"
grep -q "resubmitting 1 task(s) without a result: 11" "$work/slurm.err" ||
  fail "the cancelled task was not resubmitted"
[ "$(grep -c 'submitted job array' "$work/slurm.err")" = 2 ] || fail "expected two submissions"

python3 - "$work/local.json" "$work/slurm.json" <<'PY' || exit 1
import json, sys
local, slurm = (json.load(open(p)) for p in sys.argv[1:3])
def table(doc):
    return [(tuple(sorted(r["values"].items())), r["outcome"], r["sim_work"], r["reason"])
            for r in doc["results"]]
assert len(slurm["results"]) == 12, slurm
assert table(local) == table(slurm), (table(local), table(slurm))
ranked = [r for r in slurm["results"] if r["outcome"] == "ranked"]
assert len(ranked) == 10
assert all(r["lane"] == "tirxnode:sim" for r in slurm["results"]), slurm["results"]
print("same ranking on slurm as locally:", [r["values"] for r in ranked[:3]], "...")
PY
[ "$(wc -l <"$work/cache.jsonl")" = 12 ] || fail "the cache does not hold 12 results"
[ ! -e "$work/job" ] || fail "the work directory was not removed after a complete tune"
# A second run takes everything from the cache and submits nothing.
timeout 60 "$tirx" tune "$gemm" --device slurm --node-device sim --work-dir "$work/job2" \
  --cache "$work/cache.jsonl" --json >"$work/again.json" 2>"$work/again.err" || fail "re-run failed"
grep -q "submitted" "$work/again.err" && fail "the cached re-run submitted a job"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['cache_hits']==12, d" \
  "$work/again.json" || fail "the re-run did not hit the cache"
echo "PASS"
