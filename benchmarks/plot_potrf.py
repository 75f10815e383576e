#!/usr/bin/env python3
"""plot_potrf.py -- plots a bench_potrf CSV (headless).

    plot_potrf.py BENCH.csv OUTDIR [--prefix potrf]

For each precision p in the CSV, writes
    OUTDIR/<prefix>_tflops_<p>.png  TFLOP/s vs n: each gchol variant, cuSOLVER,
                                    OpenBLAS (if measured), cuBLAS GEMM ceiling (dashed line);
                                    uplo U dash-dotted when both are present
    OUTDIR/<prefix>_ratio_<p>.png   cuSOLVER time / gchol time vs n, line at 1.0
"""
import argparse
import csv
import os
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PREC_NAME = {"d": "double", "s": "single"}


def number(text):
    """A CSV field as float, or None when it was not measured."""
    return float(text) if text not in ("", None) else None


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def series_key(row, uplos):
    """gchol series: (configuration, uplo or '' when only one uplo is present)."""
    config = row["variant"] if row["variant"] in ("auto", "host") else \
        f"{row['variant']} la={row['lookahead']}"
    return config, row["uplo"] if len(uplos) > 1 else ""


def plot_series(ax, series, colors, fmt_label, marker="o"):
    """Lines keyed by (configuration, uplo): color per configuration, dash-dot for U."""
    for (config, uplo), pts in sorted(series.items()):
        ns = sorted(pts)
        ax.plot(ns, [pts[n] for n in ns], marker=marker, color=colors[config],
                linestyle="-." if uplo == "U" else "-",
                label=fmt_label(config) + (f" [{uplo}]" if uplo else ""))



def finish(fig, ax, sizes, ylabel, title, path):
    """Log2 size axis, labels, grid and legend; saves the figure to path."""
    ax.set_xscale("log", base=2)
    ax.set_xticks(sizes)
    ax.set_xticklabels([str(n) for n in sizes], rotation=45)
    ax.set_xlabel("n")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)

def reference_series(rows, column, name, uplos):
    """One value per (uplo, n) of a reference column (the same on every row)."""
    out = defaultdict(dict)
    for r in rows:
        v = number(r[column])
        if v is not None:
            out[(name, r["uplo"] if len(uplos) > 1 else "")][int(r["n"])] = v
    return out


def plot_precision(rows, prec, outdir, prefix):
    uplos = sorted({r["uplo"] for r in rows})
    gchol_tf, gchol_ratio = defaultdict(dict), defaultdict(dict)
    for r in rows:
        n, tf, ratio = int(r["n"]), number(r["gchol_tflops"]), number(r["ratio"])
        if tf is not None:
            gchol_tf[series_key(r, uplos)][n] = tf
        if ratio is not None:
            gchol_ratio[series_key(r, uplos)][n] = ratio
    sizes = sorted({int(r["n"]) for r in rows})
    palette = plt.get_cmap("tab10").colors
    configs = sorted({key[0] for key in list(gchol_tf) + list(gchol_ratio)})
    colors = {c: palette[i % len(palette)] for i, c in enumerate(configs)}
    colors.update({"cuSOLVER Xpotrf": "black", "OpenBLAS": "saddlebrown"})

    fig, ax = plt.subplots(figsize=(8, 5))
    plot_series(ax, gchol_tf, colors, lambda c: f"gchol {c}")
    plot_series(ax, reference_series(rows, "cusolver_tflops", "cuSOLVER Xpotrf", uplos),
                colors, str, marker="s")
    plot_series(ax, reference_series(rows, "openblas_tflops", "OpenBLAS", uplos),
                colors, str, marker="^")
    gemm = [number(r["gemm_tflops"]) for r in rows if number(r["gemm_tflops"]) is not None]
    if gemm:
        ax.axhline(max(gemm), color="gray", linestyle="--",
                   label=f"cuBLAS {prec}gemm ceiling ({max(gemm):.1f})")
    path_tf = os.path.join(outdir, f"{prefix}_tflops_{prec}.png")
    finish(fig, ax, sizes, "TFLOP/s  (n³/3 + n²/2 + n/6 flops)",
           f"{prec}potrf, {PREC_NAME.get(prec, prec)} precision", path_tf)

    fig, ax = plt.subplots(figsize=(8, 5))
    plot_series(ax, gchol_ratio, colors, lambda c: f"gchol {c}")
    ax.axhline(1.0, color="black", linewidth=1, label="cuSOLVER")
    path_ratio = os.path.join(outdir, f"{prefix}_ratio_{prec}.png")
    finish(fig, ax, sizes, "speed-up: cuSOLVER time / gchol time",
           f"{prec}potrf vs cusolverDnXpotrf, {PREC_NAME.get(prec, prec)} precision", path_ratio)
    return path_tf, path_ratio


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv", help="CSV written by bench_potrf --csv")
    parser.add_argument("outdir", help="folder for the PNGs (created if needed)")
    parser.add_argument("--prefix", default="potrf", help="file name prefix (default potrf)")
    args = parser.parse_args()

    rows = read_rows(args.csv)
    if not rows:
        raise SystemExit(f"{args.csv}: no rows")
    os.makedirs(args.outdir, exist_ok=True)
    for prec in sorted({r["precision"] for r in rows}):
        for path in plot_precision([r for r in rows if r["precision"] == prec], prec,
                                   args.outdir, args.prefix):
            print(path)


if __name__ == "__main__":
    main()
