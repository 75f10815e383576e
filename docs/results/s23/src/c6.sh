#!/bin/bash
# session 23, call 6: single precision's block sizes again (call 5 found 1536/1024 up to 16384
# and 1536-2048/512 above faster than the table's 1024/512 and 1024/256): both triangles,
# nb 1024/1536/2048 x recnb 256/512/1024, median of 5.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c6; mkdir -p $R
make -j16 lib benchmarks/bench_potrf > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
timeout $((590-SECONDS)) ./benchmarks/bench_potrf --prec s --uplo LU --variant left --lookahead on -n 9216,12288,16384,20480,24576,32768,40960 \
  --nb 1024,1536,2048 --recnb 256,512,1024 --niter 5 --csv $R/nb_s.csv > $R/nb_s.log 2>&1
echo "s t=$((SECONDS-S))"
python3 - <<'PY'
import csv, os, collections
R = os.environ['OUT'] + '/c6'
rows = list(csv.DictReader(open(f'{R}/nb_s.csv')))
by = collections.defaultdict(list)
for r in rows: by[(int(r['n']), r['uplo'])].append((float(r['gchol_s'])*1e3, r['nb'], r['recnb'], float(r['cusolver_s'])*1e3))
for (n, u), v in sorted(by.items()):
    d = {(a, b): t for t, a, b, _ in v}
    v.sort()
    print('s', n, u, 'cusolver %.1f' % v[0][3], ' | '.join('%s/%s %.2f' % (a, b, t) for t, a, b, _ in v[:9]))
PY
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c6.tgz -C $OUT c6 && rm -rf $R
