#!/usr/bin/env python3
"""plot_wls.py -- one PNG from a bench_wls CSV: time per shape for each
contender (log scale), with the ratio to the cuBLAS + cuSOLVER peer printed
above gchol's bars, and dswls's iter below (negative: it fell back).

    python3 benchmarks/plot_wls.py wls.csv docs/results/wls.png [--title T]
"""
import argparse
import csv

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

CONTENDERS = [  # (CSV column, label, ratio column)
    ("peer_ms", "cuBLAS dgmm+dsyrk+dgemm, cuSOLVER potrf+potrs", None),
    ("ddgels_ms", "cusolverDnDDgels (QR)", None),
    ("dsgels_ms", "cusolverDnDSgels (QR, mixed)", None),
    ("dwls_ms", "gchol dwls", "ratio_dwls"),
    ("dswls_ms", "gchol dswls", "ratio_dswls"),
    ("dswls_tf32_ms", "gchol dswls, TF32 products", "ratio_dswls_tf32"),
]


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("png")
    ap.add_argument("--title", default="Weighted least squares in double, H100")
    args = ap.parse_args()
    with open(args.csv, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        raise SystemExit("empty CSV")

    fig, ax = plt.subplots(figsize=(11, 6.5))
    width = 0.8 / len(CONTENDERS)
    for k, (col, label, ratio_col) in enumerate(CONTENDERS):
        xs, ys, notes = [], [], []
        for i, r in enumerate(rows):
            v = number(r.get(col))
            if v is None:
                continue
            xs.append(i + (k - (len(CONTENDERS) - 1) / 2) * width)
            ys.append(v)
            note = ""
            if ratio_col and number(r.get(ratio_col)) is not None:
                note = "%.2f" % number(r[ratio_col])
            notes.append(note)
        bars = ax.bar(xs, ys, width, label=label)
        for x, y, note in zip(xs, ys, notes):
            if note:
                ax.text(x, y * 1.08, note, ha="center", va="bottom", fontsize=7, rotation=90)
        del bars
    ax.set_yscale("log")
    ax.set_ylabel("ms (median); gchol bars: cuBLAS+cuSOLVER time / gchol time")
    labels = []
    for r in rows:
        it = "iter %s / %s" % (r.get("iter_dswls", "?"), r.get("iter_dswls_tf32", "?"))
        labels.append("%s x %s, nrhs %s\n%s" % (r["m"], r["n"], r["nrhs"], it))
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels(labels, fontsize=8)
    ax.set_title(args.title)
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=3)
    ax.grid(axis="y", which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(args.png, dpi=120)


if __name__ == "__main__":
    main()
