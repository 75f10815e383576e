#!/bin/bash
# session 6, call 4: gemm rate vs odd leading dimension (RFP 'N'); nb/recnb grid at n = 8192 (double lower)
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L
./scratch/s6/ldgemm | tee $OUT/ldgemm.log
echo "ldgemm t=$((SECONDS-S))"
for nb in 512 768 1024 1536; do for rec in 256 512 1024; do
  [ $rec -gt $nb ] && continue
  ./benchmarks/bench_potrf -n 8191,8192,8193 --prec d --uplo L --variant left --lookahead on --nb $nb --recnb $rec --niter 7 --csv $OUT/g_${nb}_${rec}.csv > /dev/null 2>&1
done; done
./benchmarks/bench_potrf -n 8191,8192,8193 --prec d --uplo L --niter 7 --csv $OUT/g_auto.csv > /dev/null 2>&1
echo "grid t=$((SECONDS-S))"
python3 - <<'PY'
import csv,glob,os
out=os.environ['OUT']
for f in sorted(glob.glob(out+'/g_*.csv')):
    rs=list(csv.DictReader(open(f)))
    print(os.path.basename(f).ljust(14), '  '.join('%s: %.3f ms (%.2f) [%s %s/%s]'%(r['n'],float(r['gchol_s'])*1e3,float(r['ratio']),r['variant'],r['nb'],r['recnb']) for r in rs))
PY
echo "done t=$((SECONDS-S))"
