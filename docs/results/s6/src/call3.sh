#!/bin/bash
# session 6, call 3: single precision tile products as 3xTF32 (mma m16n8k8) vs FFMA
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L
for v in tf0 tf1 tf0 tf1; do echo "=== $v"; ./scratch/s6/cp_$v; done > $OUT/chain_tf32.log 2>&1
echo "harness t=$((SECONDS-S))"
for r in 1 2; do for e in e0 tf1; do
  ./scratch/s6/bench_potrf_$e -n 1024,2048,4096,6144,8192,12288,16384 --prec s --uplo LU --niter 5 --csv $OUT/lib_${e}_$r.csv > /dev/null 2>&1
done; done
echo "bench t=$((SECONDS-S))"
./testing/testing_spotrf --suite > $OUT/suite_spotrf.log 2>&1; echo "spotrf suite rc=$? $(tail -1 $OUT/suite_spotrf.log)"
./testing/testing_spftrf > $OUT/suite_spftrf.log 2>&1; echo "spftrf suite rc=$? $(tail -1 $OUT/suite_spftrf.log)"
./testing/testing_dpotrf --suite --quick > /tmp/q.log 2>&1; echo "dpotrf quick rc=$? $(tail -1 /tmp/q.log)"
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_spotrf --suite --quick > /tmp/mc.log 2>&1; echo "memcheck spotrf rc=$? $(grep -E 'ERROR SUMMARY' /tmp/mc.log)"
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_spotrf --suite --quick > /tmp/rc.log 2>&1; echo "racecheck spotrf rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' /tmp/rc.log)"
grep -E "illcond|resid" $OUT/suite_spotrf.log | head -3
echo "tests t=$((SECONDS-S))"
python3 - <<'PY'
import csv,glob,os,collections
out=os.environ['OUT']; rows=collections.defaultdict(dict)
for f in sorted(glob.glob(out+'/lib_*_*.csv')):
    tag=os.path.basename(f)[4:-4]
    for r in csv.DictReader(open(f)):
        rows[(r['precision'],r['uplo'],int(r['n']))][tag]=(float(r['gchol_s'])*1e3, float(r['ratio']))
tags=['e0_1','tf1_1','e0_2','tf1_2']
print('case'.ljust(16)+''.join(t.rjust(16) for t in tags))
for k in sorted(rows):
    print(str(k).ljust(16)+''.join((('%.3f (%.2f)'%rows[k][t]) if t in rows[k] else '').rjust(16) for t in tags))
PY
awk '/===/{e=$2} /median/{printf "%s %s %s %s %s %s\n", e, $1, $3, $7, $NF, $(NF-2)}' $OUT/chain_tf32.log | sort -k2,3 -s | awk '{k=$2" "$3; if(k!=pk){printf "\n%s:", k; pk=k} printf " %s=%s(err %s)", $1, $4, $5}'; echo
grep -E "===|avg k" $OUT/chain_tf32.log | head -12
echo "done t=$((SECONDS-S))"
