#!/usr/bin/env bash
# The shared-memory pair of tests/data/diff (shared_a.py: 32-way conflicts; shared_b.py: rows padded
# to 36 floats) under `tirx profile` and under ncu directly (shared load and store wavefronts and
# bank conflicts), so the per-line hardware counts of the fold can be compared with what ncu reports
# for the kernel (issue 25). Builds the CLI only. Usage: OUT=DIR tests/gpu/shared_pair_profile.sh
set -u
B=build-gpu; D=$OUT/sp; mkdir -p $D; t0=$(date +%s)
cmake -S . -B $B -G Ninja -DCMAKE_BUILD_TYPE=Release -DTIRX_BUILD_GUI=OFF -DTIRX_BUILD_TESTS=OFF > $D/configure.log 2>&1
cmake --build $B -j 16 --target tirx > $D/build.log 2>&1 || { tail -20 $D/build.log; exit 1; }
echo "build $(( $(date +%s) - t0 )) s"; nvidia-smi -L | tee $D/machine.txt
T=$B/bin/tirx
for v in a b; do
  f=tests/data/diff/shared_$v.py
  $T compile $f --emit sass -o $D/tirx_$v.sass 2> $D/compile_$v.err
  timeout 60 $T profile $f --sass $D/tirx_$v.sass -o $D/prof_$v > $D/prof_$v.txt 2>&1; echo "profile $v rc=$?"; head -12 $D/prof_$v.txt
  timeout 60 ncu --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum $T run $f --device cuda > $D/ncu_direct_$v.txt 2>&1; grep -E "l1tex|rc" $D/ncu_direct_$v.txt
done
rm -f $D/*.ncu-rep; tar czf $OUT/sp.tgz -C $OUT sp; echo "total $(( $(date +%s) - t0 )) s"
