#!/bin/bash
# session 6, call 2: early ticket order (ItemOrder) A/B: chain harness per (cols, rows); library e0 vs e8/4; quick suites
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L
for v in 0_2 8_4 4_2 8_2 8_8 16_4 16_8 0_2 8_4; do echo "=== early $v"; ./scratch/s6/cp_$v; done > $OUT/chain_order.log 2>&1
echo "harness t=$((SECONDS-S))"
for r in 1 2; do for e in e0 e8; do
  ./scratch/s6/bench_potrf_$e -n 1024,2048,4096,6144,8192,12288,16384 --prec ds --uplo L --niter 5 --csv $OUT/lib_${e}_$r.csv > $OUT/lib_${e}_$r.log 2>&1
done; done
./scratch/s6/bench_potrf_e0 -n 8192,16384 --prec ds --uplo U --niter 5 --csv $OUT/lib_e0_U.csv > $OUT/lib_e0_U.log 2>&1
./scratch/s6/bench_potrf_e8 -n 8192,16384 --prec ds --uplo U --niter 5 --csv $OUT/lib_e8_U.csv > $OUT/lib_e8_U.log 2>&1
echo "bench t=$((SECONDS-S))"
for t in dpotrf spotrf; do ./testing/testing_$t --suite --quick > $OUT/quick_$t.log 2>&1; echo "$t rc=$? $(tail -1 $OUT/quick_$t.log)"; done
for t in dpftrf spftrf; do ./testing/testing_$t --quick > $OUT/quick_$t.log 2>&1; echo "$t rc=$? $(tail -1 $OUT/quick_$t.log)"; done
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_dpotrf --suite --quick > $OUT/memcheck_dpotrf.log 2>&1; echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $OUT/memcheck_dpotrf.log)"
echo "tests t=$((SECONDS-S))"
python3 - <<'PY'
import csv,glob,os,collections
out=os.environ['OUT']; rows=collections.defaultdict(dict)
for f in sorted(glob.glob(out+'/lib_e*_*.csv')):
    tag=os.path.basename(f)[4:-4]
    for r in csv.DictReader(open(f)):
        rows[(r['precision'],r['uplo'],int(r['n']))][tag]=(float(r['gchol_s'])*1e3, float(r['ratio']))
tags=['e0_1','e8_1','e0_2','e8_2','e0_U','e8_U']
print('case'.ljust(16)+''.join(t.rjust(16) for t in tags))
for k in sorted(rows):
    print(str(k).ljust(16)+''.join((('%.3f (%.2f)'%rows[k][t]) if t in rows[k] else '').rjust(16) for t in tags))
PY
grep -E "^(===|.. n=)" $OUT/chain_order.log | awk '/===/{e=$3} /median/{printf "%s %s %s %s\n", e, $1, $3, $7}' | sort -k2,3 -s | awk '{k=$2" "$3; if(k!=pk){printf "\n%s:", k; pk=k} printf " %s=%s", $1, $4}'; echo
echo "done t=$((SECONDS-S))"
