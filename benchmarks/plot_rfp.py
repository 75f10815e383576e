#!/usr/bin/env python3
"""plot_rfp.py -- plots the bench_syrk_diag and bench_pftrf CSVs (headless).

    plot_rfp.py --syrk SYRK.csv --pftrf PFTRF.csv [--maxn MAXN.csv] --out OUTDIR

Any of the three CSVs may be left out. For each precision p present, writes
    OUTDIR/syrk_diag_tflops_<p>.png  TFLOP/s per (m, n): gchol full (syrk_diag),
                                     gchol RFP (sfrk_diag; every RFP variant
                                     measured), cuBLAS dgmm+syrk, dgmm+syrkx;
                                     cuBLAS GEMM ceiling as a dashed line; from a
                                     --gemm-shape run also cuBLAS gemm on each
                                     shape (all of C, a reference) and the
                                     issue's target, 1.2 x the faster peer
    OUTDIR/pftrf_tflops_<p>.png      TFLOP/s per n: gchol pftrf (each RFP
                                     variant), gchol potrf, cuSOLVER Xpotrf
and, with --maxn (a bench_pftrf --max-n CSV),
    OUTDIR/pftrf_max_n.png           largest n factored, RFP against full storage
"""
import argparse
import csv
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PREC_NAME = {"d": "double", "s": "single"}


def number(text):
    """A CSV field as float, or None when it was not measured."""
    try:
        return float(text) if text not in ("", None) else None
    except ValueError:
        return None


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def grouped_bars(ax, groups, series, colors, hatches=None, fmt="{:.1f}"):
    """series: list of (label, [value or None per group]); one bar cluster per group."""
    nseries = max(len(series), 1)
    width = 0.8 / nseries
    for k, (label, values) in enumerate(series):
        xs = [g + (k - (nseries - 1) / 2) * width for g in range(len(groups))]
        heights = [v if v is not None else 0.0 for v in values]
        bars = ax.bar(xs, heights, width, label=label, color=colors[k % len(colors)],
                      hatch=(hatches[k] if hatches else None), edgecolor="black", linewidth=0.4)
        for bar, v in zip(bars, values):
            if v is not None:
                ax.annotate(fmt.format(v), (bar.get_x() + bar.get_width() / 2, v),
                            ha="center", va="bottom", fontsize=6, rotation=90,
                            xytext=(0, 2), textcoords="offset points")
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups)


def save(fig, ax, xlabel, ylabel, title, path):
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.set_ylim(top=ax.get_ylim()[1] * 1.15)          # room for the value labels
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    print(path)


def plot_syrk(rows, outdir):
    for prec in sorted({r["precision"] for r in rows}):
        sel = [r for r in rows if r["precision"] == prec]
        groups = [f"{r['m']} x {r['n']}" for r in sel]
        series = [("gchol syrk_diag (full)", [number(r["gchol_full_tflops"]) for r in sel]),
                  ("gchol sfrk_diag (RFP N,L)", [number(r["gchol_rfp_tflops"]) for r in sel])]
        for variant in ("NU", "TL", "TU"):                 # --all-rfp
            col = f"rfp_{variant}_s"
            values = []
            for r in sel:
                s, flops = number(r.get(col)), number(r.get("flops"))
                values.append(flops / s * 1e-12 if s and flops else None)
            if any(v is not None for v in values):
                series.append((f"gchol sfrk_diag (RFP {variant[0]},{variant[1]})", values))
        series += [(f"cuBLAS {prec}gmm + {prec}syrk", [number(r["dgmm_syrk_tflops"]) for r in sel]),
                   (f"cuBLAS {prec}gmm + {prec}syrkx", [number(r["dgmm_syrkx_tflops"]) for r in sel])]
        palette = ["tab:blue", "tab:cyan", "lightsteelblue", "powderblue", "lightblue",
                   "tab:orange", "tab:red"]
        colors = palette[:len(series) - 2] + palette[-2:]
        shape_gemm = [number(r.get("gemm_shape_tflops")) for r in sel]   # --gemm-shape
        if any(v is not None for v in shape_gemm):
            series.append((f"cuBLAS {prec}gemm (N,T) on the shape, all of C (reference)", shape_gemm))
            colors.append("silver")
        fig, ax = plt.subplots(figsize=(max(9, 1.8 * len(groups) + 5), 5))
        grouped_bars(ax, groups, series, colors)
        if any(v is not None for v in shape_gemm):
            for g, r in enumerate(sel):
                peers = [number(r["dgmm_syrk_tflops"]), number(r["dgmm_syrkx_tflops"])]
                peers = [v for v in peers if v is not None]
                if peers:
                    ax.hlines(1.2 * max(peers), g - 0.45, g + 0.45, colors="black", linestyles=":",
                              label="1.2 x the faster peer (the issue's target)" if g == 0 else None)
        gemm = [number(r["gemm_tflops"]) for r in sel if number(r["gemm_tflops"]) is not None]
        if gemm:
            ax.axhline(max(gemm), color="gray", linestyle="--",
                       label=f"cuBLAS {prec}gemm 8192 ceiling ({max(gemm):.1f})")
        save(fig, ax, "A: m x n  (C = A D² Aᵀ is m x m)", "TFLOP/s  (n·m·(m+1) flops)",
             f"A·D²·Aᵀ, {PREC_NAME.get(prec, prec)} precision",
             os.path.join(outdir, f"syrk_diag_tflops_{prec}.png"))


def plot_pftrf(rows, outdir):
    for prec in sorted({r["precision"] for r in rows}):
        sel = [r for r in rows if r["precision"] == prec]
        sizes = sorted({int(r["n"]) for r in sel})
        variants = sorted({(r["transr"], r["uplo"]) for r in sel})
        uplos = sorted({u for _, u in variants})

        def value(col, pred):
            out = []
            for n in sizes:
                vals = [number(r[col]) for r in sel if int(r["n"]) == n and pred(r)]
                vals = [v for v in vals if v is not None]
                out.append(vals[0] if vals else None)
            return out

        series, colors = [], []
        blues = ["tab:blue", "tab:cyan", "steelblue", "lightskyblue"]
        for k, (t, u) in enumerate(variants):
            series.append((f"gchol pftrf (RFP {t},{u})",
                           value("pftrf_tflops", lambda r, t=t, u=u: (r["transr"], r["uplo"]) == (t, u))))
            colors.append(blues[k % len(blues)])
        for k, u in enumerate(uplos):
            tag = f" [{u}]" if len(uplos) > 1 else ""
            series.append((f"gchol potrf (full){tag}", value("potrf_tflops", lambda r, u=u: r["uplo"] == u)))
            colors.append(["tab:green", "yellowgreen"][k % 2])
        for k, u in enumerate(uplos):
            tag = f" [{u}]" if len(uplos) > 1 else ""
            series.append((f"cuSOLVER Xpotrf (full){tag}",
                           value("cusolver_tflops", lambda r, u=u: r["uplo"] == u)))
            colors.append(["dimgray", "darkgray"][k % 2])
        fig, ax = plt.subplots(figsize=(max(9, 1.8 * len(sizes) + 5), 5))
        grouped_bars(ax, [str(n) for n in sizes], series, colors)
        save(fig, ax, "n", "TFLOP/s  (n³/3 + n²/2 + n/6 flops)",
             f"Cholesky, RFP vs full storage, {PREC_NAME.get(prec, prec)} precision",
             os.path.join(outdir, f"pftrf_tflops_{prec}.png"))


def plot_maxn(rows, outdir):
    precs = sorted({r["precision"] for r in rows})
    fig, ax = plt.subplots(figsize=(8, 5))
    series = []
    for storage, label in (("rfp", "RFP (pftrf)"), ("full", "full (potrf)")):
        values = []
        for p in precs:
            ns = [number(r["n"]) for r in rows if r["precision"] == p and r["storage"] == storage
                  and r["status"] == "ok"]
            values.append(ns[0] if ns else None)
        series.append((label, values))
    grouped_bars(ax, [PREC_NAME.get(p, p) for p in precs], series, ["tab:blue", "tab:green"],
                 fmt="{:.0f}")
    for g, p in enumerate(precs):
        rfp, full = series[0][1][g], series[1][1][g]
        if rfp and full:
            ax.annotate(f"ratio {rfp / full:.3f}", (g, max(rfp, full)), ha="center",
                        va="bottom", xytext=(0, 34), textcoords="offset points", fontsize=9)
    save(fig, ax, "precision", "largest n factored", "Largest n on this GPU: RFP vs full storage",
         os.path.join(outdir, "pftrf_max_n.png"))


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--syrk", help="CSV written by bench_syrk_diag --csv")
    parser.add_argument("--pftrf", help="CSV written by bench_pftrf --csv")
    parser.add_argument("--maxn", help="CSV written by bench_pftrf --max-n --csv")
    parser.add_argument("--out", required=True, help="folder for the PNGs (created if needed)")
    args = parser.parse_args()
    if not (args.syrk or args.pftrf or args.maxn):
        parser.error("give at least one of --syrk, --pftrf, --maxn")
    os.makedirs(args.out, exist_ok=True)
    for path, plot in ((args.syrk, plot_syrk), (args.pftrf, plot_pftrf), (args.maxn, plot_maxn)):
        if path:
            rows = read_rows(path)
            if not rows:
                raise SystemExit(f"{path}: no rows")
            plot(rows, args.out)


if __name__ == "__main__":
    main()
