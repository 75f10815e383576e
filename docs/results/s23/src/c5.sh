#!/bin/bash
# session 23, call 5: the blocked driver's block sizes swept again (last swept in the fourth
# session, before the tiled panels got faster): double lower, left-looking with lookahead,
# every (nb, recnb) with recnb <= nb of nb 768..2048, recnb 256..1024, median of 3, cuSOLVER once
# per size in the same process; single at the sizes where its table rows change.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c5; mkdir -p $R
make -j16 lib benchmarks/bench_potrf > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
timeout $((560-SECONDS)) ./benchmarks/bench_potrf --prec d --uplo L --variant left --lookahead on -n 12288,16384,20480,24576,32768,40960 \
  --nb 768,1024,1280,1536,2048 --recnb 256,512,1024 --niter 3 --csv $R/nb_d.csv > $R/nb_d.log 2>&1
echo "d t=$((SECONDS-S))"
timeout $((590-SECONDS)) ./benchmarks/bench_potrf --prec s --uplo L --variant left --lookahead on -n 12288,16384,24576,32768 \
  --nb 768,1024,1536,2048 --recnb 256,512,1024 --niter 3 --csv $R/nb_s.csv > $R/nb_s.log 2>&1
echo "s t=$((SECONDS-S))"
python3 - <<'PY'
import csv, os, collections
R = os.environ['OUT'] + '/c5'
for p in ('d', 's'):
    f = f'{R}/nb_{p}.csv'
    if not os.path.exists(f): continue
    rows = list(csv.DictReader(open(f)))
    by = collections.defaultdict(list)
    for r in rows: by[r['n']].append((float(r['gchol_s'])*1e3, r['nb'], r['recnb'], float(r['cusolver_s'])*1e3))
    for n, v in sorted(by.items(), key=lambda x: int(x[0])):
        v.sort()
        print(p, n, 'cusolver %.1f' % v[0][3], ' | '.join('%s/%s %.2f' % (a, b, t) for t, a, b, _ in v[:6]))
PY
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c5.tgz -C $OUT c5 && rm -rf $R
