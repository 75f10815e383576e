#!/bin/bash
# session 8, call 4: the split's cost: R1 (hi rounded by integer ops, lo left to the mma's truncation), K1 (hi truncated), C1 (cvt.rna both); SASS instruction mix of C1 / R1
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c4; mkdir -p $R
for c in C1 R1; do
  cuobjdump -sass -fun '_ZN5gchol45_GLOBAL__N__b9c8ed48_12_syrk_diag_cu_e072562116syrk_diag_kernelIfLb1ELb1EEEvllT_PKS2_lS4_S2_PS2_NS0_6OutMapEilS5_' scratch/s8/$c.cubin > $R/sass_$c.txt 2>&1 || cuobjdump -sass scratch/s8/$c.cubin > $R/sass_$c.txt
  echo "== $c SASS mix (whole cubin if the function filter failed): $(wc -l < $R/sass_$c.txt) lines"
  grep -oE '^\s+/\*[0-9a-f]+\*/\s+[A-Z0-9_.]+' $R/sass_$c.txt | awk '{print $2}' | sed 's/\..*//' | sort | uniq -c | sort -rn | head -14 | tr '\n' ' '; echo
done
for v in R1 K1; do
  timeout 100 scratch/s8/tss_$v --suite --quick > $R/quick_$v.log 2>&1; echo "$v quick: $(grep SUMMARY $R/quick_$v.log)"; grep FAILED $R/quick_$v.log | head -3 | cut -c1-200
  timeout 60 scratch/s8/tss_$v -m 1024,4096 -n 65536,4096 --d rand > $R/acc_$v.log 2>&1; grep -vE '^#|^$' $R/acc_$v.log | tail -5 | cut -c1-160
  echo "t=$((SECONDS-S))"
done
for v in R1 K1 C1; do
  timeout 120 scratch/s8/bsd_$v --prec s --runs 5 > $R/bench_$v.log 2>&1; echo "== $v"; grep -vE '^#|^$' $R/bench_$v.log | cut -c1-170
  echo "t=$((SECONDS-S))"
done
tar czf $OUT/c4.tgz -C $OUT c4 && rm -rf $R
