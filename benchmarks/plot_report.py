#!/usr/bin/env python3
"""plot_report.py -- the PNGs of `make bench-report` (matplotlib, Agg backend).

    python3 benchmarks/plot_report.py OUT_DIR      (the same as report_tables.py --plots OUT_DIR)

Reads the CSVs in OUT_DIR (see report_tables.py) and writes there, for each CSV present:
    potrf_d.png, potrf_s.png  TFLOP/s against n (gchol L / U, cuSOLVER, OpenBLAS, the cuBLAS
                              GEMM ceiling) and cuSOLVER time / gchol time against n
    syrk_diag.png             TFLOP/s per shape: gchol full and RFP, the cuBLAS compositions,
                              cuBLAS GEMM on the shape; one panel per precision
    pftrf.png                 TFLOP/s per n: pftrf in each RFP form, gchol potrf, cuSOLVER
    posv.png                  ms against n for each solver, and cuSOLVER time / each
    wls.png                   ms per shape for each contender (log scale)
    lapack_shim.png           ?potrf_ ms against n per precision; OpenBLAS / GPU for ?potrs_
                              and ?posv_ against n at each nrhs
"""
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import NullFormatter  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report_tables import PREC_NAME, RFP_FORMS, div, load, num  # noqa: E402


def save(fig, outdir, name):
    path = os.path.join(outdir, name)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    print(f"plot_report: wrote {path}")


def log2_axis(ax, sizes):
    ax.set_xscale("log", base=2)
    if not sizes:
        return
    ax.set_xticks(sizes)
    ax.set_xticklabels([str(n) for n in sizes], rotation=45, fontsize=8)
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("n")
    ax.grid(True, which="both", alpha=0.3)


def line(ax, points, **style):
    """points: {x: y or None}; draws the measured ones."""
    xs = sorted(x for x, y in points.items() if y is not None)
    if xs:
        ax.plot(xs, [points[x] for x in xs], **style)


def bars(ax, groups, series, fmt="{:.1f}", log=False):
    """series: [(label, [value or None per group], style dict)]; one cluster per group."""
    width = 0.8 / max(len(series), 1)
    for k, (label, values, style) in enumerate(series):
        xs = [g + (k - (len(series) - 1) / 2) * width for g in range(len(groups))]
        hs = [v if v is not None else 0.0 for v in values]
        drawn = ax.bar(xs, hs, width, label=label, edgecolor="black", linewidth=0.4, **style)
        for bar, v in zip(drawn, values):
            if v is not None and fmt:
                ax.annotate(fmt.format(v), (bar.get_x() + bar.get_width() / 2, v), ha="center",
                            va="bottom", fontsize=6, rotation=90, xytext=(0, 2),
                            textcoords="offset points")
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups, fontsize=8)
    if log:
        ax.set_yscale("log")
    else:
        ax.set_ylim(top=ax.get_ylim()[1] * 1.15)
    ax.grid(True, axis="y", which="both", alpha=0.3)


def plot_potrf(rows, outdir, gpu):
    rows = [r for r in rows if r["variant"] == "auto"]
    for prec in sorted({r["precision"] for r in rows}):
        sel = [r for r in rows if r["precision"] == prec]
        sizes = sorted({int(r["n"]) for r in sel})
        fig, (ax, bx) = plt.subplots(1, 2, figsize=(13, 5))
        for uplo, dash in (("L", "-"), ("U", "-.")):
            part = [r for r in sel if r["uplo"] == uplo]
            if not part:
                continue
            col = lambda c: {int(r["n"]): num(r[c]) for r in part}  # noqa: E731
            line(ax, col("gchol_tflops"), marker="o", linestyle=dash, color="tab:blue",
                 label=f"gchol {prec}potrf {uplo}")
            line(ax, col("cusolver_tflops"), marker="s", linestyle=dash, color="black",
                 label=f"cuSOLVER Xpotrf {uplo}")
            line(ax, col("openblas_tflops"), marker="^", linestyle=dash, color="saddlebrown",
                 label=f"OpenBLAS {uplo}")
            line(bx, col("ratio"), marker="o", linestyle=dash, color="tab:blue", label=uplo)
        gemm = [num(r["gemm_tflops"]) for r in sel if num(r["gemm_tflops"])]
        if gemm:
            ax.axhline(max(gemm), color="gray", linestyle="--",
                       label=f"cuBLAS {prec}gemm ceiling ({max(gemm):.1f})")
        bx.axhline(1.0, color="black", linewidth=0.8)
        log2_axis(ax, sizes)
        log2_axis(bx, sizes)
        ax.set_ylabel("TFLOP/s  (n³/3 + n²/2 + n/6 flops)")
        ax.set_title(f"{prec}potrf, {PREC_NAME.get(prec, prec)}, {gpu}")
        bx.set_ylabel("cuSOLVER time / gchol time")
        bx.set_title(f"{prec}potrf against cusolverDnXpotrf")
        ax.legend(fontsize=7)
        bx.legend(fontsize=8)
        save(fig, outdir, f"potrf_{prec}.png")


def plot_syrk(rows, outdir, gpu):
    precs = sorted({r["precision"] for r in rows}, key="ds".find)
    fig, axes = plt.subplots(len(precs), 1, figsize=(12, 4.8 * len(precs)), squeeze=False)
    for ax, prec in zip(axes[:, 0], precs):
        sel = sorted((r for r in rows if r["precision"] == prec),
                     key=lambda r: (int(r["m"]), int(r["n"])))
        series = [("gchol syrk_diag (full)", [num(r["gchol_full_tflops"]) for r in sel],
                   {"color": "tab:blue"}),
                  ("gchol sfrk_diag (RFP N,L)", [num(r["gchol_rfp_tflops"]) for r in sel],
                   {"color": "tab:cyan"}),
                  (f"cuBLAS {prec}dgmm + {prec}syrk", [num(r["dgmm_syrk_tflops"]) for r in sel],
                   {"color": "tab:orange"}),
                  (f"cuBLAS {prec}dgmm + {prec}syrkx", [num(r["dgmm_syrkx_tflops"]) for r in sel],
                   {"color": "tab:red"})]
        shape = [num(r.get("gemm_shape_tflops")) for r in sel]
        if any(v is not None for v in shape):
            series.append((f"cuBLAS {prec}gemm (N,T) on the shape (reference)", shape,
                           {"color": "silver", "hatch": "//"}))
        bars(ax, [f"{r['m']} x {r['n']}" for r in sel], series)
        ax.set_ylabel("TFLOP/s  (n·m·(m+1) flops)")
        ax.set_title(f"C = A·D²·Aᵀ, A m x n, {PREC_NAME.get(prec, prec)}, {gpu}")
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    save(fig, outdir, "syrk_diag.png")


def plot_pftrf(rows, outdir, gpu):
    precs = sorted({r["precision"] for r in rows}, key="ds".find)
    fig, axes = plt.subplots(1, len(precs), figsize=(7 * len(precs), 5), squeeze=False)
    for ax, prec in zip(axes[0], precs):
        sel = [r for r in rows if r["precision"] == prec]
        sizes = sorted({int(r["n"]) for r in sel})

        def value(col, pred):
            vals = [[num(r[col]) for r in sel if int(r["n"]) == n and pred(r)] for n in sizes]
            return [next((v for v in vs if v is not None), None) for vs in vals]
        blues = ["tab:blue", "tab:cyan", "steelblue", "lightskyblue"]
        series = [(f"pftrf RFP {t},{u}", value("pftrf_tflops", lambda r, t=t, u=u:
                                               (r["transr"], r["uplo"]) == (t, u)),
                   {"color": blues[k]})
                  for k, (t, u) in enumerate(RFP_FORMS)
                  if any(r["transr"] == t and r["uplo"] == u for r in sel)]
        series.append(("gchol potrf (full, L)",
                       value("potrf_tflops", lambda r: r["uplo"] == "L"), {"color": "tab:green"}))
        series.append(("cuSOLVER Xpotrf (full, L)",
                       value("cusolver_tflops", lambda r: r["uplo"] == "L"), {"color": "gray"}))
        bars(ax, [str(n) for n in sizes], series)
        ax.set_xlabel("n")
        ax.set_ylabel("TFLOP/s  (n³/3 + n²/2 + n/6 flops)")
        ax.set_title(f"Cholesky in RFP against full storage, {PREC_NAME.get(prec, prec)}, {gpu}",
                     fontsize=10)
        ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=3)
    save(fig, outdir, "pftrf.png")


def plot_posv(rows, outdir, gpu):
    sizes = sorted({int(r["n"]) for r in rows})
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(13, 5))
    cols = [("gchol_dsposv_s", "gchol dsposv", "tab:blue", "o"),
            ("gchol_dsposv_tf32_s", "gchol dsposv, TF32 products", "tab:cyan", "o"),
            ("gchol_dposv_s", "gchol dpotrf + dpotrs", "tab:green", "s"),
            ("cusolver_dposv_s", "cuSOLVER Xpotrf + Xpotrs", "black", "s"),
            ("cusolver_dsgesv_s", "cuSOLVER DSgesv (LU, mixed)", "gray", "^")]
    for col, label, color, marker in cols:
        pts = {int(r["n"]): num(r[col]) for r in rows}
        line(ax, {n: v * 1e3 if v else None for n, v in pts.items()}, marker=marker,
             color=color, label=label)
        if col != "cusolver_dposv_s":
            line(bx, {int(r["n"]): div(num(r["cusolver_dposv_s"]), num(r[col])) for r in rows},
                 marker=marker, color=color, label=label)
    bx.axhline(1.0, color="black", linewidth=0.8)
    log2_axis(ax, sizes)
    log2_axis(bx, sizes)
    ax.set_yscale("log")
    ax.set_ylabel("ms (median)")
    ax.set_title(f"A X = B in double, nrhs {rows[0]['nrhs']}, {gpu}")
    bx.set_ylabel("cuSOLVER Xpotrf+Xpotrs time / each")
    bx.set_title("against cuSOLVER potrf + potrs")
    ax.legend(fontsize=7)
    bx.legend(fontsize=7)
    save(fig, outdir, "posv.png")


def plot_wls(rows, outdir, gpu):
    rows = sorted(rows, key=lambda r: (int(r["m"]), int(r["n"])))
    cols = [("peer_ms", "cuBLAS + cuSOLVER normal equations (peer)", "black"),
            ("ddgels_ms", "cusolverDnDDgels (QR)", "dimgray"),
            ("dsgels_ms", "cusolverDnDSgels (QR, mixed)", "darkgray"),
            ("dwls_ms", "gchol dwls", "tab:blue"),
            ("dwls_rfp_ms", "gchol dwls, C in RFP", "tab:cyan"),
            ("dswls_ms", "gchol dswls", "tab:green"),
            ("dswls_tf32_ms", "gchol dswls, TF32 products", "yellowgreen")]
    series = [(label, [num(r.get(col)) for r in rows], {"color": color})
              for col, label, color in cols if any(num(r.get(col)) for r in rows)]
    fig, ax = plt.subplots(figsize=(12, 5.5))
    bars(ax, [f"{r['m']} x {r['n']}" for r in rows], series, fmt="{:.2f}", log=True)
    ax.set_ylabel("ms (median)")
    ax.set_title(f"Weighted least squares in double, nrhs {rows[0]['nrhs']}, {gpu}")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    save(fig, outdir, "wls.png")


def plot_shim(rows, outdir, gpu):
    precs = sorted({r["precision"] for r in rows}, key="ds".find)
    fig, axes = plt.subplots(2, 2, figsize=(12, 9))
    cols = [("openblas_s", "OpenBLAS (host cores)", "tab:gray"),
            ("shim_gpu_s", "gchol shim, GPU path", "tab:blue"),
            ("cusolver_by_hand_s", "cuSOLVER + copies by hand", "tab:red")]
    for ax, prec in zip(axes[0], "ds"):
        sel = {int(r["n"]): r for r in rows if r["routine"] == "potrf" and r["precision"] == prec}
        for col, label, color in cols:
            line(ax, {n: (num(r[col]) or 0) * 1e3 or None for n, r in sel.items()},
                 marker="o", ms=3, color=color, label=label)
        log2_axis(ax, sorted(sel))
        ax.set_yscale("log")
        ax.set_ylabel("ms per call")
        ax.set_title(f"{prec}potrf_ 'L' on host arrays, {gpu}", fontsize=10)
        if sel:
            ax.legend(fontsize=7)
    for ax, routine in zip(axes[1], ("potrs", "posv")):
        for prec, dash in zip(precs, ("-", "--")):
            sel = [r for r in rows if r["routine"] == routine and r["precision"] == prec]
            for k, nrhs in enumerate(sorted({int(r["nrhs"]) for r in sel})):
                line(ax, {int(r["n"]): num(r["openblas_over_gpu"]) for r in sel
                          if int(r["nrhs"]) == nrhs}, marker="o", ms=3, linestyle=dash,
                     color=plt.get_cmap("tab10")(k), label=f"{prec} nrhs {nrhs}")
        ax.axhline(1.0, color="black", linewidth=0.8)
        log2_axis(ax, sorted({int(r["n"]) for r in rows if r["routine"] == routine}))
        ax.set_ylabel("OpenBLAS time / shim GPU time")
        ax.set_title(f"?{routine}_ 'L' (> 1: the GPU path is faster)", fontsize=10)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=7)
    save(fig, outdir, "lapack_shim.png")


def plot_all(data, outdir):
    gpu = data["system"].get("gpu", os.path.basename(os.path.normpath(outdir)))
    plots = (("potrf", plot_potrf), ("syrk_diag", plot_syrk), ("pftrf", plot_pftrf),
             ("posv", plot_posv), ("wls", plot_wls), ("lapack_shim", plot_shim))
    for name, plot in plots:
        if data.get(name):
            plot(data[name], outdir, gpu)


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1].startswith("-"):
        sys.exit(__doc__)
    plot_all(load(sys.argv[1]), sys.argv[1])
