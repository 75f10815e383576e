"""report_mp.py -- the report's tables of the distributed potrf (bench_mp_potrf: strong and
weak scaling against cuSOLVERMp, one traced factorization) and of an unchanged ScaLAPACK
program through the drop-in (bench_scalapack_llt), from their CSVs (report_tables.py calls
them)."""
from report_format import DASH, PREC_NAME, div, f_ms, f_num, f_pct, median, num, table

RESID_OK = 30.0


def _flops(r):
    n = int(r["n"])
    return n * n * n / 3.0


def _gpus(r):
    return int(r["p"]) * int(r["q"])


def _resid(r):
    """The bench's solve check of the timed factor: its value and ok, or FAILED."""
    v = num(r.get("resid"))
    if v is None:
        return DASH if "resid" not in r else "FAILED"
    return f"{v:.1e} " + ("ok" if v <= RESID_OK and r.get("info", "0") == "0" else "FAILED")


def _ms_or_info(r):
    return f_ms(num(r["mp_s"])) if r["info"] == "0" else f"info {r['info']}"


def _peer_note(system):
    version = system.get("cusolvermp")
    return (f"cuSOLVERMp{' ' + version if version else ''} `cusolverMpPotrf` on the same matrix "
            "and grid in the same run (ratio = cuSOLVERMp time / gchol time)")


def _resid_note():
    return ("resid: each timed factor solves A x = b (`gchol_mp_?potrs`), "
            "‖b − A x‖∞ / (‖A‖∞ ‖x‖∞ n ε), ok at most 30")


def mp_table(rows, system):
    """Strong scaling: the report's mp_one, mp_all and mp_all_s steps."""
    rows = sorted(rows, key=lambda r: ("ds".find(r["prec"]), _gpus(r), int(r["n"]), int(r["nb"])))
    # one GPU's gchol_?potrf_gpu rate in the same run, at the largest order measured
    ref = {}
    for r in rows:
        single = num(r["single_s"])
        if single and int(r["n"]) >= ref.get(r["prec"], (0, None))[0]:
            ref[r["prec"]] = (int(r["n"]), _flops(r) / single * 1e-12)
    sustained = any(num(r.get("gemm_sustained_tflops")) for r in rows)
    out = []
    for r in rows:
        t, peer, ceil = num(r["mp_s"]), num(r["cusolvermp_s"]), num(r["gemm_tflops"])
        per_gpu = num(r["tflops_per_gpu"])
        eff = num(r["ratio"])  # the bench's, where one GPU held the whole matrix
        if eff is None and _gpus(r) > 1:
            eff = div(per_gpu, ref.get(r["prec"], (0, None))[1])
        long_run = [f_num(num(r.get("gemm_sustained_tflops")), ".1f")] if sustained else []
        out.append([str(_gpus(r)), f"{r['p']}×{r['q']}", r["n"], r["nb"],
                    PREC_NAME.get(r["prec"], r["prec"]), _ms_or_info(r), f_num(per_gpu),
                    f_num(eff), f_ms(peer), f_num(div(peer, t)), f_num(ceil, ".1f")] + long_run
                   + [f_pct(per_gpu, ceil), _resid(r)])
    refs = "; ".join(f"{PREC_NAME.get(p, p)} {f_num(v)} TFLOP/s at n = {n}"
                     for p, (n, v) in sorted(ref.items()))
    return table(["GPUs", "grid", "n", "nb", "prec", "gchol ms", "TFLOP/s per GPU",
                  "efficiency", "cuSOLVERMp ms", "ratio", "GEMM ceiling TFLOP/s"]
                 + (["GEMM for 3 s TFLOP/s"] if sustained else [])
                 + ["per GPU of ceiling", "resid"], out) + [
        "",
        "Strong scaling. `gchol_mp_?potrf` under `mpirun`, one rank a GPU, panels on NCCL, the "
        f"slowest rank's time between barriers, and {_peer_note(system)}. On one GPU the efficiency "
        "is `gchol_?potrf_gpu`'s time over the distributed driver's (its overhead); on several, "
        "TFLOP/s per GPU over one GPU's `gchol_?potrf_gpu` on the same matrix in the same run "
        f"where it fits, else over the largest measured ({refs or 'none'}). Ceiling: cuBLAS "
        "`?gemm` at n = 16384 on rank 0's GPU, in the same run"
        + (" (the median of single calls; for 3 s: calls back to back, the rate the power "
           "limit leaves to a long run)" if sustained else "") + f"; {_resid_note()}. "
        + median(system, "niter")]


def mp_weak_table(rows, system):
    """Weak scaling: the report's mp_weak_P steps, about the same bytes a GPU."""
    rows = sorted(rows, key=_gpus)
    one = next((r for r in rows if _gpus(r) == 1 and num(r["single_s"])), None)
    one_rate = _flops(one) / num(one["single_s"]) * 1e-12 if one else None
    out = []
    for r in rows:
        t, peer = num(r["mp_s"]), num(r["cusolvermp_s"])
        n, es = int(r["n"]), 8 if r["prec"] == "d" else 4
        per_gpu = num(r["tflops_per_gpu"])
        out.append([str(_gpus(r)), f"{r['p']}×{r['q']}", r["n"],
                    f"{n * n * es / _gpus(r) / 1e9:.0f}", r.get("source") or "host",
                    PREC_NAME.get(r["prec"], r["prec"]),
                    _ms_or_info(r), f_num(per_gpu), f_num(div(per_gpu, one_rate)), f_ms(peer),
                    f_num(div(peer, t)), _resid(r)])
    base = (f"one GPU's `gchol_?potrf_gpu` at n = {one['n']} in the same run, "
            f"{f_num(one_rate)} TFLOP/s" if one else "none measured")
    return table(["GPUs", "grid", "n", "GB a GPU", "source", "prec", "gchol ms", "TFLOP/s per GPU",
                  "efficiency", "cuSOLVERMp ms", "ratio", "resid"], out) + [
        "",
        "Weak scaling: about 106 GB of matrix a GPU (n grows with √GPUs); before each run, "
        "outside the timed region, each rank uploads its part from a page-locked host copy "
        f"(source host) or regenerates it on the way (source gen). Efficiency: TFLOP/s per GPU over {base}; {_peer_note(system)}; {_resid_note()}. "
        + median(system, "niter")]


def mp_timeline_table(rows, system):
    """One traced factorization a rank (bench_mp_potrf --timeline, its summary CSV)."""
    rows = sorted(rows, key=lambda r: int(r["rank"]))
    out = []
    for r in rows:
        side, hidden = num(r["side_ms"]), num(r["hidden_ms"])
        out.append([r["rank"], f"{r['p']}×{r['q']}", r["n"], r["nb"],
                    f_num(num(r["total_ms"]), ".1f"), f_num(num(r["updates_ms"]), ".1f"),
                    f_num(side, ".1f"), f_num(hidden, ".1f"), f_pct(hidden, side),
                    f_num(num(r["moves_main_ms"]), ".3f")])
    return table(["rank", "grid", "n", "nb", "total ms", "updates ms", "transport ms",
                  "hidden ms", "hidden", "moves on the updates' stream ms"], out) + [
        "",
        "One factorization with each rank's timeline from CUDA events (`gchol_mp_grid_set_trace`): "
        "the updates' stream busy time, the transport's (NCCL broadcasts of the panels and their "
        "copies) on its side stream, and how much of the transport ran while the updates did "
        "(hidden). Each rank's events: mp_timeline_*_rank*.csv, drawn in mp_timeline.png."]


def scalapack_llt_table(rows, system):
    """bench_scalapack_llt through the drop-in (gpu) and on ScaLAPACK itself (cpu)."""
    cpu = {int(r["n"]): r for r in rows if r["where"] == "cpu"}
    out = []
    for r in sorted((r for r in rows if r["where"] == "gpu"), key=lambda r: int(r["n"])):
        t = num(r["seconds"])
        c = cpu.get(int(r["n"]))
        tc = num(c["seconds"]) if c else None
        ok = r["info"] == "0" and (num(r["resid"]) or 1e9) <= RESID_OK
        out.append([r["n"], r["nb"], f"{r['p']}×{r['q']}", PREC_NAME.get(r["prec"], r["prec"]),
                    f_num(t, ".3f"), f_num(num(r["gflops"]) and num(r["gflops"]) / 1e3),
                    f_num(tc, ".3f"), f_num(div(tc, t)),
                    f"{num(r['resid']):.1e} " + ("ok" if ok else "FAILED")])
    return table(["n", "nb", "grid", "prec", "drop-in s", "TFLOP/s", "ScaLAPACK (CPU) s",
                  "ratio", "resid"], out) + [
        "",
        "An unchanged ScaLAPACK program, `bench_scalapack_llt` (linked with ScaLAPACK only, "
        "never gchol: xdllt's factor-and-solve at large n), one rank a GPU, run with "
        "`LD_PRELOAD=libgchol_scalapack.so`: `pdpotrf_` on its host arrays, the slowest rank's "
        "time between barriers, host-to-device and back included; the same binary on "
        "ScaLAPACK and OpenBLAS on the host cores (nb 256, one run) where measured, ratio = "
        "its time / the drop-in's; resid: ‖b − A x‖∞ / (‖A‖∞ ‖x‖∞ n ε) from its "
        "`pdpotrs_` and `pdgemv_`. " + median(system, "niter")]
