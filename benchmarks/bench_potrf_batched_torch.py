#!/usr/bin/env python3
"""bench_potrf_batched_torch.py -- PyTorch's batched Cholesky on the GPU, the
peer beside bench_potrf_batched (same orders and batch sizing: the matrices
take about --bytes, and a batch of --small): torch.linalg.cholesky on a
(batch, n, n) tensor of SPD matrices (X X^T / n + I), and
torch.cholesky_solve with 1 and 16 right-hand sides on its factors.
CUDA events, a warm-up, the median of --niter runs (--small-niter for the
small batch), a fresh copy of the input per run outside the timed region.
GB/s counts 2 n^2 elements per matrix, as bench_potrf_batched does. A call whose warm-up takes longer than
--limit seconds (a solve that loops over the matrices) is not timed: nan.
The solves' times include the copies torch.cholesky_solve makes.

  python3 benchmarks/bench_potrf_batched_torch.py [--prec d|s] [-n LIST]
          [--bytes B] [--small K] [--niter K] [--small-niter K] [--csv FILE]
"""
import argparse
import statistics
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--prec", choices=["d", "s"], default="d")
    ap.add_argument("-n", default="4,8,16,32,64,128,256,512")
    ap.add_argument("--bytes", type=int, default=2 << 30)
    ap.add_argument("--small", type=int, default=100)
    ap.add_argument("--niter", type=int, default=5)
    ap.add_argument("--small-niter", type=int, default=51)
    ap.add_argument("--limit", type=float, default=5.0)
    ap.add_argument("--csv")
    args = ap.parse_args()
    try:
        import torch
    except ImportError as e:
        sys.exit(f"bench_potrf_batched_torch: no PyTorch ({e})")
    if not torch.cuda.is_available():
        sys.exit("bench_potrf_batched_torch: no CUDA device")
    dev = torch.device("cuda")
    dtype = torch.float64 if args.prec == "d" else torch.float32
    es = 8 if args.prec == "d" else 4

    def time_it(prepare, run, niter):
        times = []
        for it in range(niter + 1):
            prepare()
            torch.cuda.synchronize()
            start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            run()
            stop.record()
            stop.synchronize()
            t = start.elapsed_time(stop) / 1e3
            if it:
                times.append(t)
            elif t > args.limit:
                return float("nan")
        return statistics.median(times)

    out = open(args.csv, "w") if args.csv else None
    if out:
        out.write("prec,n,batch,torch_s,torch_gbs,torch_solve1_s,torch_solve16_s\n")
    print(f"torch {torch.__version__}, {torch.cuda.get_device_name()}, "
          f"{'double' if args.prec == 'd' else 'single'}, median of {args.niter} "
          f"(small batch {args.small_niter}), "
          f"linalg library {torch.backends.cuda.preferred_linalg_library()}")
    print(f"{'n':>5} {'batch':>9} | {'cholesky ms':>11} {'GFLOP/s':>8} {'GB/s':>8} | "
          f"{'solve1 ms':>9} {'solve16 ms':>10}")
    for n in (int(v) for v in args.n.split(",")):
        big = max(1, min(args.bytes // (n * n * es), 0x7fffffff // 16))
        for batch, niter in ([(big, args.niter), (args.small, args.small_niter)]
                             if args.small > 0 else [(big, args.niter)]):
            x = torch.randn(batch, n, n, device=dev, dtype=dtype)
            a0 = x @ x.transpose(-1, -2) / n + torch.eye(n, device=dev, dtype=dtype)
            del x
            a = torch.empty_like(a0)
            # cholesky_ex: no host check of info inside the timed call
            t = time_it(lambda: a.copy_(a0), lambda: torch.linalg.cholesky_ex(a), niter)
            factor = torch.linalg.cholesky(a0)
            solve = []
            for nrhs in (1, 16):
                b = torch.randn(batch, n, nrhs, device=dev, dtype=dtype)
                solve.append(time_it(lambda: None, lambda: torch.cholesky_solve(b, factor),
                                     niter))
                del b
            moved = 2.0 * n * n * batch * es
            flops = batch * (n ** 3 / 3.0 + n ** 2 / 2.0 + n / 6.0)
            print(f"{n:5d} {batch:9d} | {1e3 * t:11.3f} {flops / t / 1e9:8.1f} "
                  f"{moved / t / 1e9:8.1f} | {1e3 * solve[0]:9.3f} {1e3 * solve[1]:10.3f}",
                  flush=True)
            if out:
                out.write(f"{args.prec},{n},{batch},{t:.6e},{moved / t / 1e9:.2f},"
                          f"{solve[0]:.6e},{solve[1]:.6e}\n")
            del a0, a, factor
            torch.cuda.empty_cache()
    if out:
        out.close()


if __name__ == "__main__":
    main()
