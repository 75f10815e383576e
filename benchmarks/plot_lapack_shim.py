#!/usr/bin/env python3
"""plot_lapack_shim.py -- charts of bench_lapack_shim CSVs: seconds per ?potrf_ call against n
(OpenBLAS on the host cores, the shim's GPU path, cuSOLVER with the copies written by hand), one
panel per precision; for ?potrs_ and ?posv_ the ratio OpenBLAS time / GPU time against n at
each nrhs. Rows of several CSVs with the same (routine, precision, n, nrhs) are kept from the
last file given.

    python3 benchmarks/plot_lapack_shim.py [--routines potrf,potrs,posv] OUT_PREFIX file.csv ...
writes OUT_PREFIX_<routine>.png for each routine named (default: all three) that the CSVs hold.
"""
import csv
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.ticker import NullFormatter

COLUMNS = [("openblas_s", "OpenBLAS (CPU, 16 cores)", "tab:gray"),
           ("shim_gpu_s", "gchol shim, GPU (transfers included)", "tab:blue"),
           ("cusolver_by_hand_s", "cuSOLVER + cudaMemcpy2D by hand", "tab:red")]


def load(paths):
    rows = {}
    for p in paths:
        with open(p) as f:
            for r in csv.DictReader(f):
                rows[(r["routine"], r["precision"], int(r["n"]), int(r["nrhs"]))] = r
    return rows


def ratio_chart(rows, routine, path):
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for ax, prec in zip(axes, "ds"):
        keys = [k for k in rows if k[0] == routine and k[1] == prec]
        for nrhs, style in zip(sorted({k[3] for k in keys}), ["o-", "s--", "^-.", "v:", "d-"]):
            ks = sorted(k for k in keys if k[3] == nrhs)
            ax.semilogx([k[2] for k in ks], [float(rows[k]["openblas_over_gpu"]) for k in ks],
                        style, ms=4, label=f"nrhs {nrhs}")
        ax.axhline(1.0, color="black", lw=0.8)
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_title(f"{prec}{routine}_: OpenBLAS time / shim GPU time")
        ax.set_xlabel("n")
        ax.set_ylabel("ratio (> 1: the GPU is faster)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    args = sys.argv[1:]
    routines = ["potrf", "potrs", "posv"]
    if args[:1] == ["--routines"]:
        routines, args = args[1].split(","), args[2:]
    if len(args) < 2:
        sys.exit(__doc__)
    prefix, rows = args[0], load(args[1:])
    present = {k[0] for k in rows}
    for routine in ["potrs", "posv"]:
        if routine in routines and routine in present:
            ratio_chart(rows, routine, f"{prefix}_{routine}.png")
    if "potrf" not in routines or "potrf" not in present:
        return
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for ax, prec in zip(axes, "ds"):
        keys = sorted(k for k in rows if k[0] == "potrf" and k[1] == prec)
        ns = [k[2] for k in keys]
        for col, label, color in COLUMNS:
            ax.loglog(ns, [float(rows[k][col]) * 1e3 for k in keys], "o-", ms=3, label=label,
                      color=color)
        ax.set_title(f"{prec}potrf_ 'L' on host arrays (H100, median)")
        ax.set_xlabel("n")
        ax.set_ylabel("ms per call")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(f"{prefix}_potrf.png", dpi=110)


if __name__ == "__main__":
    main()
