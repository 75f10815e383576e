#!/usr/bin/env python3
"""plot_timeline.py -- Gantt chart of timeline_potrf CSVs (headless).

    plot_timeline.py ON.csv OFF.csv -o timeline.png

One subplot per CSV (typically lookahead on, then off; or one per rank of
bench_mp_potrf --timeline), sharing the time axis; one row per stream
(main/update, and panel or, for the distributed factorization, the
transport's side stream), bars colored by operation. The subplot title is
the file name and the measured overlap of the streams.
"""
import argparse
import csv
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

OP_COLORS = {"potrf": "tab:red", "trsm": "tab:blue", "syrk": "tab:green",
             "gemm": "tab:orange", "bcast": "tab:purple", "gather": "tab:pink",
             "copy": "tab:olive", "other": "tab:gray"}
STREAM_NAMES = {0: "main (update)", 1: "panel"}
MOVES = {"bcast", "gather"}  # the distributed factorization's transport


def read_events(path):
    with open(path, newline="") as f:
        return [dict(stream=int(r["stream"]), op=r["op"], start=float(r["start_ms"]),
                     end=float(r["end_ms"])) for r in csv.DictReader(f)]


def union(intervals):
    """Sorted disjoint union of (start, end) intervals."""
    merged = []
    for s, e in sorted(intervals):
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    return merged


def overlap(events):
    """Time during which both streams are busy."""
    a = union([(e["start"], e["end"]) for e in events if e["stream"] == 0])
    b = union([(e["start"], e["end"]) for e in events if e["stream"] == 1])
    total, i, j = 0.0, 0, 0
    while i < len(a) and j < len(b):
        total += max(0.0, min(a[i][1], b[j][1]) - max(a[i][0], b[j][0]))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return total


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv", nargs="+",
                        help="timeline CSVs from timeline_potrf or bench_mp_potrf --timeline")
    parser.add_argument("-o", "--output", required=True, help="PNG to write")
    args = parser.parse_args()

    runs = [(os.path.splitext(os.path.basename(p))[0], read_events(p)) for p in args.csv]
    fig, axes = plt.subplots(len(runs), 1, figsize=(12, 1.8 + 1.4 * len(runs)), sharex=True,
                             squeeze=False)
    used_ops = set()
    for ax, (name, events) in zip(axes[:, 0], runs):
        for stream in (0, 1):
            bars = [(e["start"], e["end"] - e["start"]) for e in events if e["stream"] == stream]
            colors = [OP_COLORS.get(e["op"], OP_COLORS["other"])
                      for e in events if e["stream"] == stream]
            ax.broken_barh(bars, (stream - 0.4, 0.8), facecolors=colors, edgecolor="black",
                           linewidth=0.2)
        used_ops |= {e["op"] if e["op"] in OP_COLORS else "other" for e in events}
        total = max((e["end"] for e in events), default=0.0)
        both = overlap(events)
        ax.set_title(f"{name}: total {total:.2f} ms, overlap {both:.2f} ms "
                     f"({100 * both / total if total else 0:.1f}%)", fontsize=10)
        ax.set_yticks([0, 1])
        side = "transport" if any(e["op"] in MOVES for e in events) else STREAM_NAMES[1]
        ax.set_yticklabels([STREAM_NAMES[0], side])
        ax.set_ylim(-0.6, 1.6)
        ax.grid(True, axis="x", alpha=0.3)
    axes[-1, 0].set_xlabel("time (ms)")
    fig.legend(handles=[Patch(color=OP_COLORS[op], label=op) for op in OP_COLORS if op in used_ops],
               loc="upper right", ncol=len(used_ops), fontsize=8)
    fig.tight_layout(rect=(0, 0, 1, 0.95))
    fig.savefig(args.output, dpi=120)
    print(args.output)


if __name__ == "__main__":
    main()
