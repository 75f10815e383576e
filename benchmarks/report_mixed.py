"""report_mixed.py -- the report's tables of the mixed-precision solve (dxposv
rows and its kappa table), the batched Cholesky and the seed's weighted least
squares tables, from their CSVs (report_tables.py calls them)."""
from report_format import DASH, PREC_NAME, div, f_ms, f_num, f_pct, median, num, table  # noqa: F401


def xposv_table(rows, system):
    rows = sorted(rows, key=lambda r: (int(r["nrhs"]), int(r["n"])))
    fp16 = any(r.get("fp16_s") for r in rows)  # the FP16 rung asked for, where measured
    out = []
    for r in rows:
        x, cus = num(r["xposv_s"]), num(r["cusolver_dposv_s"])
        tf32, dbl = num(r["tf32_s"]), num(r["dposv_s"])
        irs = [num(r[k]) for k in ("irs_fp16_s", "irs_bf16_s", "irs_tf32_s")]
        best = min((t for t in irs if t), default=None)
        berrs = [num(r[k]) for k in ("berr_xposv", "berr_tf32", "berr_dposv", "berr_irs_fp16",
                                     "berr_irs_bf16", "berr_irs_tf32")]
        asked = []
        if fp16:
            x16 = num(r.get("fp16_s") or "")
            berrs.append(num(r.get("berr_fp16") or ""))
            asked = ([f"{r['fp16_rung']} ({r['fp16_iter']})", f_ms(x16), f_num(div(cus, x16))]
                     if r.get("fp16_s") else [DASH, DASH, DASH])
        worst = max((b for b in berrs if b is not None), default=None)
        out.append([r["n"], r["nrhs"], f"{r['xposv_rung']} ({r['xposv_iter']})", f_ms(x),
                    f_num(div(cus, x))] + asked + [f_ms(tf32), f_num(div(cus, tf32)), f_ms(dbl),
                    f_num(div(cus, dbl)), f_ms(cus)] + [f_ms(t) for t in irs]
                   + [f_num(div(best, x)), f_num(worst, ".1e")])
    head = ["n", "nrhs", "rung (iter)", "dxposv ms", "ratio"]
    if fp16:
        head += ["FP16 asked: rung (iter)", "ms", "ratio"]
    head += ["dsposv TF32 ms", "ratio", "dposv ms", "ratio", "cuSOLVER potrf+potrs ms",
             "IRS FP16 ms", "IRS BF16 ms", "IRS TF32 ms", "best IRS / dxposv",
             "worst backward error"]
    return table(head, out) + [
        "",
        "A X = B in double, A SPD with κ = 10² (geometric spectrum): gchol `dxposv_gpu` "
        "(automatic: the rung it ended on and its ITER; −1 below the tuning table's crossover, "
        "where it answers with the double solve at once)"
        + (", the same with the FP16 rung asked for (the ladder above it answers a failure)"
           if fp16 else "")
        + ", gchol's TF32 `dsposv`, gchol `dpotrf + dpotrs`, cuSOLVER `Xpotrf + Xpotrs` and "
        "`IRSXgesv` (LU) with FP16, BF16 and TF32 as the lowest precision; ratio = cuSOLVER "
        "potrf+potrs time / the column's; backward errors in units of ε·‖A‖·‖x‖, the largest of "
        "any contender. " + median(system, "niter")]


def xposv_kappa_table(rows, system):
    rows = sorted(rows, key=lambda r: (int(r["n"]), float(r["kappa"])))
    out = []
    for r in rows:
        t, t32, td = num(r["xposv_s"]), num(r["xposv_fp32_s"]), num(r["dposv_s"])
        out.append([r["n"], r["kappa"], f"{r['rung']} ({r['iter']})", r["inner"], r["syncs"],
                    f_ms(t), f_num(num(r["berr"]), ".1e"), f_num(div(t, td)),
                    f"{r['rung_fp32']} ({r['iter_fp32']})", f_ms(t32), f_num(div(t32, td)),
                    f_ms(td)])
    return table(["n", "κ", "rung (iter)", "GMRES its", "read-backs", "dxposv ms",
                  "backward error", "/ dposv", "with FP32: rung (iter)", "ms", "/ dposv",
                  "dposv ms"], out) + [
        "",
        "gchol `dxposv_gpu` (automatic, under its time limit) at each n, one right-hand side, on "
        "SPD matrices of condition κ (geometric spectrum): the rung that answered and its ITER "
        "(−1: below the tuning table's crossover, the double solve at once), GMRES iterations, "
        "read-backs, time and backward error (ε·‖A‖·‖x‖); the same with the FP32 rung in the "
        "ladder; / dposv = time over gchol `dpotrf + dpotrs`'s. "
        + median(system, "niter")]


def wls_seed_table(rows, system):
    out = []
    for r in sorted(rows, key=lambda r: (int(r["table"]), int(r["m"]))):
        paper = [f_num(num(r["paper_err_sgl"]), ".2e"), f_num(num(r["paper_err_refined"]), ".2e"),
                 r["paper_iter"] if int(r["paper_iter"]) >= 0 else DASH,
                 f_num(num(r["paper_gpu_s"])), f_num(num(r["paper_cpu_s"])),
                 f_num(num(r["paper_speedup"]))]
        ours = [f_num(num(r["err_sgl"]), ".2e"), f_num(num(r["err_refined"]), ".2e"), r["iter"],
                f_ms(num(r["swls_s"])), f_ms(num(r["dswls_s"])), f_ms(num(r["openblas_s"])),
                f_num(num(r["speedup"]), ".1f")]
        out.append([r["table"], r["m"]] + paper + ours)
    return table(["table", "m", "paper: error x⁰", "error refined", "iter", "GPU s", "CPU s",
                  "speedup", "gchol: error x⁰", "error refined", "iter", "swls ms",
                  "dswls ms", "OpenBLAS ms", "speedup"], out) + [
        "",
        "Jung and O'Leary's Tables 1 (random) and 2 (ill-conditioned, D² from 10⁻⁴ to 10⁴) "
        "weighted least squares, n = 2m, A, D² and b uniform in (0, 1): the paper's numbers "
        "(2008 GPU against MATLAB/MKL) beside gchol's host forms on this GPU: x⁰ from "
        "`gchol_swls` (single), the refined x and its ITER from `gchol_dswls`; relative errors "
        "against OpenBLAS in double; speedup = OpenBLAS time / dswls time. Wall-clock times, "
        "transfers included. " + median(system, "niter")]


def batched_table(rows, system):
    rows = sorted(rows, key=lambda r: (r["prec"], int(r["n"]), -int(r["batch"])))
    # PyTorch's columns only where its CSV was joined (report_tables.load), its solves' where
    # that CSV has them
    torch = any("torch_s" in r for r in rows)
    torch_solve = any("torch_solve1_s" in r for r in rows)
    out = []
    for r in rows:
        g, p, c = num(r["gchol_s"]), num(r["gchol_ptr_s"]), num(r["cusolver_s"])
        s1, s16 = num(r["potrs1_s"]), num(r["potrs16_s"])
        t = num(r.get("torch_s"))
        n, batch = int(r["n"]), int(r["batch"])
        gflops = div(batch * n ** 3 / 3.0, g)
        out.append([PREC_NAME.get(r["prec"], r["prec"]), r["n"], r["batch"], f_ms(g),
                    f_num(div(gflops, 1e9), ".1f"), f_num(num(r["gchol_gbs"]), ".0f"),
                    f_pct(num(r["gchol_gbs"]), num(r["copy_gbs"])), f_ms(p), f_ms(c),
                    f_num(div(c, g))]
                   + ([f_ms(t), f_num(div(t, g))] if torch else [])
                   + [f_ms(s1), f_num(div(num(r["cusolver_potrs1_s"]), s1))]
                   + ([f_num(div(num(r.get("torch_solve1_s")), s1))] if torch_solve else [])
                   + [f_ms(s16), f_num(div(num(r["cusolver_potrs16_s"]), s16))]
                   + ([f_num(div(num(r.get("torch_solve16_s")), s16))] if torch_solve else [])
                   + ["ok" if r["info_ok"] == "1" else "INFO"])
    headers = (["precision", "n", "batch", "potrf ms", "GFLOP/s", "GB/s", "of copy",
                "pointer form ms", "cuSOLVER ms", "ratio"]
               + (["PyTorch ms", "ratio"] if torch else [])
               + ["potrs 1 ms", "ratio"] + (["PyTorch ratio"] if torch_solve else [])
               + ["potrs 16 ms", "ratio"] + (["PyTorch ratio"] if torch_solve else [])
               + ["info"])
    version = f" {system['torch']}" if system.get("torch") else ""
    peer = (f" PyTorch{version}, timed by `bench_potrf_batched_torch.py` in the same run on "
            "batches of the same order and size (its own process and SPD matrices): "
            "`torch.linalg.cholesky_ex`"
            + (" and `torch.cholesky_solve` on its factors" if torch_solve else "")
            + "; its ratios = PyTorch time / gchol time; – where a call's warm-up took over "
            "5 s (not timed)." if torch else "")
    return table(headers, out, "l" + "r" * (len(headers) - 1)) + [
        "",
        "Batched Cholesky of SPD matrices, lower: gchol `?potrf_strided_batched_gpu` (and the "
        "pointer form) against cuSOLVER `?potrfBatched`; GB/s counts each matrix read once and "
        "written once, \"of copy\" against a device-to-device copy of the same bytes; solves "
        "`?potrs_strided_batched_gpu` with 1 and 16 right-hand sides against cuSOLVER "
        "`?potrsBatched` (one right-hand side a call: 16 calls for 16); ratio = cuSOLVER time / "
        "gchol time." + peer + " " + median(system, "niter")
        + (f" The batch of 100: median of {system['small_niter']}." if system.get("small_niter")
           else "")]
