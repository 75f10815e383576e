#!/usr/bin/env python3
"""plot_lapack_shim.py -- charts of bench_lapack_shim CSVs: seconds per ?potrf_ call against n
(OpenBLAS on the host cores, the shim's GPU path, cuSOLVER with the copies written by hand), one
panel per precision, and the same for ?potrs_ at each nrhs. Rows of several CSVs with the same
(routine, precision, n, nrhs) are kept from the last file given.

    python3 benchmarks/plot_lapack_shim.py OUT_PREFIX file.csv [file.csv ...]
writes OUT_PREFIX_potrf.png and OUT_PREFIX_potrs.png.
"""
import csv
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

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


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    prefix, rows = sys.argv[1], load(sys.argv[2:])
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

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for ax, prec in zip(axes, "ds"):
        keys = [k for k in rows if k[0] == "potrs" and k[1] == prec]
        for nrhs, style in zip(sorted({k[3] for k in keys}), ["o-", "s--", "^-.", "v:", "d-"]):
            ks = sorted(k for k in keys if k[3] == nrhs)
            ax.semilogx([k[2] for k in ks], [float(rows[k]["openblas_over_gpu"]) for k in ks],
                        style, ms=4, label=f"nrhs {nrhs}")
        ax.axhline(1.0, color="black", lw=0.8)
        ax.set_title(f"{prec}potrs_: OpenBLAS time / shim GPU time")
        ax.set_xlabel("n")
        ax.set_ylabel("ratio (> 1: the GPU is faster)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(f"{prefix}_potrs.png", dpi=110)


if __name__ == "__main__":
    main()
