#!/bin/bash
# session 8, call 13: traced single-precision factorizations, lower against upper (n = 16384 and 32768): where upper loses
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c13; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
for n in 16384 32768; do for u in L U; do
  ./benchmarks/timeline_potrf -n $n --prec s --uplo $u --variant left --out $R/tl_$u > $R/tl_${n}_$u.log 2>&1
  echo "== $n $u"; grep -v "^#" $R/tl_${n}_$u.log | grep -v "^$" | head -12
done; done
python3 - $R <<'PY'
import csv, glob, sys, collections
for f in sorted(glob.glob(sys.argv[1] + '/tl_*_on.csv')):
    t = collections.defaultdict(float)
    for r in csv.DictReader(open(f)):
        t[(r['stream'], r['op'])] += float(r['end_ms']) - float(r['start_ms'])
    print(f.split('/')[-1], {k: round(v, 2) for k, v in sorted(t.items())})
PY
echo "t=$((SECONDS-S))"
tar czf $OUT/c13.tgz -C $OUT c13 && rm -rf $R
