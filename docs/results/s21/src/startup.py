#!/usr/bin/env python3
"""Start-up cost of a preloaded LAPACK shim (build machine, no GPU needed): one process per run
making one LAPACKE_dposv call of order 64 (kept on the CPU by the routing), wall time of the
whole process, median / min / max of 15 runs. OLD: session 20's shim built from commit 449aa9a
(gchol and CUDA linked in), e.g. `git archive 449aa9a Makefile src include kernels benchmarks
testing | tar x -C /tmp/old && make -C /tmp/old lib/libgchol_lapack.so`.
    startup.py [OLD_SHIM]"""
import os, statistics, subprocess, sys, time
old = sys.argv[1] if len(sys.argv) > 1 else "/tmp/old/lib/libgchol_lapack.so"
def runs(lib):
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    if lib: env["LD_PRELOAD"] = lib
    xs = []
    for _ in range(15):
        t0 = time.perf_counter()
        subprocess.run(["./testing/preload_probe", "64"], env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=True)
        xs.append(time.perf_counter() - t0)
    return statistics.median(xs), min(xs), max(xs)
for name, lib in (("no shim", None), ("session 20 shim (gchol + CUDA linked)", old),
                  ("engine shim (this tree)", os.path.abspath("lib/libgchol_lapack.so"))):
    med, lo, hi = runs(lib)
    print(f"{name:40s} median {1e3*med:7.1f} ms  min {1e3*lo:7.1f}  max {1e3*hi:7.1f}")
