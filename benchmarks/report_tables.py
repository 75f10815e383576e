#!/usr/bin/env python3
"""report_tables.py -- Markdown tables and plots from the CSVs of `make bench-report`.

    python3 benchmarks/report_tables.py [--tables] [--plots] [--summary] [--doc FILE] OUT_DIR

OUT_DIR (e.g. docs/perf/h200) holds the benchmarks' CSVs: potrf.csv, syrk_diag.csv,
pftrf.csv, posv.csv, wls.csv, lapack_shim_d.csv, lapack_shim_s.csv, potrf_batched_d.csv,
potrf_batched_s.csv (PyTorch's potrf_batched_torch_d.csv and _s.csv, where they exist, are
joined to their rows by precision, order and batch), ..., and system.txt
("key: value" lines from benchmarks/report.sh: gpu, driver, date, ...).

--tables   writes OUT_DIR/tables.md; with --doc FILE it also replaces, in FILE, what lies
           between `<!-- BEGIN report:NAME -->` and `<!-- END report:NAME -->` for each NAME
           in potrf, syrk_diag, pftrf, posv, wls, lapack_shim, ceilings -- only in the
           section of the GPU measured: the nearest heading above the block that names a
           GPU must name this one (e.g. "H200" for docs/perf/h200). Other GPUs' blocks, and
           blocks whose CSV is missing, stay as they are.
--plots    writes the PNGs (plot_report.py; needs matplotlib, else says so and skips).
--summary  prints a few headline ratios.
Without any of the three: tables and plots.
"""
import argparse
import csv
import os
import re
import sys

from report_format import DASH, PREC_NAME, div, f_ms, f_num, f_pct, median, num, table  # noqa: F401
from report_mixed import batched_table, wls_seed_table, xposv_kappa_table, xposv_table
from report_mp import mp_table, mp_timeline_table, mp_weak_table, scalapack_llt_table

BLOCKS = ("potrf", "syrk_diag", "pftrf", "posv", "xposv", "xposv_kappa", "potrf_batched", "wls",
          "wls_seed", "lapack_shim", "mp", "mp_weak", "mp_timeline", "scalapack_llt", "ceilings")
RFP_FORMS = (("N", "L"), ("N", "U"), ("T", "L"), ("T", "U"))
# GPU names a heading may carry (normalized tokens, see norm()).
KNOWN_GPUS = {"h100", "h200", "h800", "h20", "gh200", "a100", "a800", "a10", "a30", "a40",
              "l4", "l40", "l40s", "b100", "b200", "gb200", "v100", "t4"}


# ---------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------
def read_csv(path):
    if not os.path.isfile(path):
        return None
    with open(path, newline="") as f:   # a short or long row (a run cut off) is left out
        rows = [r for r in csv.DictReader(f) if None not in r and None not in r.values()]
    return rows or None


def read_system(outdir):
    info = {}
    path = os.path.join(outdir, "system.txt")
    if os.path.isfile(path):
        with open(path) as f:
            for line in f:
                key, sep, value = line.partition(":")
                if sep:
                    info[key.strip()] = value.strip()
    return info


def load(outdir):
    data = {name: read_csv(os.path.join(outdir, name + ".csv"))
            for name in ("potrf", "syrk_diag", "pftrf", "posv", "wls")}
    shim = []
    for prec in "ds":
        shim += read_csv(os.path.join(outdir, f"lapack_shim_{prec}.csv")) or []
    data["lapack_shim"] = shim or None
    xposv = []
    for name in ("xposv", "xposv16"):
        xposv += read_csv(os.path.join(outdir, name + ".csv")) or []
    data["xposv"] = xposv or None
    for name in ("xposv_kappa", "wls_seed"):
        data[name] = read_csv(os.path.join(outdir, name + ".csv"))
    batched, torch = [], {}
    for prec in "ds":
        batched += read_csv(os.path.join(outdir, f"potrf_batched_{prec}.csv")) or []
        for r in read_csv(os.path.join(outdir, f"potrf_batched_torch_{prec}.csv")) or []:
            torch[(r["prec"], int(r["n"]), int(r["batch"]))] = r
    for r in batched:  # PyTorch's times (torch_*) on the row of the same precision and sizes
        peer = torch.get((r["prec"], int(r["n"]), int(r["batch"])), {})
        r.update((k, v) for k, v in peer.items() if k.startswith("torch_"))
    data["potrf_batched"] = batched or None
    mp = []
    for name in ("mp_one", "mp_all", "mp_all_s"):
        mp += read_csv(os.path.join(outdir, name + ".csv")) or []
    data["mp"] = mp or None
    data["mp_weak"] = [r for f in mp_files(outdir, "mp_weak_", ".csv")
                       for r in read_csv(os.path.join(outdir, f)) or []] or None
    data["mp_timeline"] = [r for f in mp_files(outdir, "mp_timeline_", "_summary.csv")
                           for r in read_csv(os.path.join(outdir, f)) or []] or None
    llt = []
    for where in ("gpu", "cpu"):
        for r in read_csv(os.path.join(outdir, f"scalapack_llt_{where}.csv")) or []:
            r["where"] = where
            llt.append(r)
    data["scalapack_llt"] = llt or None
    data["system"] = read_system(outdir)
    return data


def mp_files(outdir, prefix, suffix):
    """The CSVs of outdir named PREFIX*SUFFIX, sorted."""
    return sorted(f for f in os.listdir(outdir) if f.startswith(prefix) and f.endswith(suffix))


def prec_key(p):
    return "ds".find(p) if p in "ds" else 2


# ---------------------------------------------------------------------------
# Tables, one per block; each returns a list of lines
# ---------------------------------------------------------------------------
def potrf_table(rows, system):
    rows = [r for r in rows if r["variant"] == "auto"]
    rows.sort(key=lambda r: (prec_key(r["precision"]), int(r["n"]), r["uplo"]))
    out = []
    for r in rows:
        g, c, o = num(r["gchol_s"]), num(r["cusolver_s"]), num(r["openblas_s"])
        tf, ceil = num(r["gchol_tflops"]), num(r["gemm_tflops"])
        out.append([r["n"], r["precision"], r["uplo"], f_ms(g) if g else "FAILED",
                    f_num(tf), f_ms(c), f_num(div(c, g)), f_num(div(o, g), ".1f"),
                    f_num(ceil, ".1f"), f_pct(tf, ceil)])
    gemm_n = system.get("gemm_n", "8192")
    return table(["n", "prec", "uplo", "gchol ms", "TFLOP/s", "cuSOLVER ms", "ratio",
                  "OpenBLAS ratio", "GEMM ceiling TFLOP/s", "of ceiling"], out,
                 "rllrrrrrrr") + [
        "",
        "gchol `?potrf` (automatic variant) and `cusolverDnXpotrf` on the same matrix, same "
        "triangle, in one process; ratio = cuSOLVER time / gchol time; OpenBLAS ratio = "
        "OpenBLAS time / gchol time (host cores; measured up to n = "
        f"{system.get('openblas_max', '8192')}); ceiling: cuBLAS `?gemm` at n = {gemm_n} on "
        "random data, in the same run. Flops n³/3 + n²/2 + n/6. " + median(system, "niter")]


def syrk_table(rows, system):
    rows = sorted(rows, key=lambda r: (prec_key(r["precision"]), int(r["m"]), int(r["n"])))
    out = []
    for r in rows:
        full, rfp = num(r["gchol_full_s"]), num(r["gchol_rfp_s"])
        syrk, syrkx = num(r["dgmm_syrk_s"]), num(r["dgmm_syrkx_s"])
        peers = [(t, name) for t, name in ((syrk, "syrk"), (syrkx, "syrkx")) if t]
        best = min(peers) if peers else (None, "")
        forms = [t for t in (rfp, num(r.get("rfp_NU_s")), num(r.get("rfp_TL_s")),
                             num(r.get("rfp_TU_s"))) if t]
        spread = f"{f_ms(min(forms))}–{f_ms(max(forms))}" if len(forms) > 1 else DASH
        tf, shape = num(r["gchol_full_tflops"]), num(r.get("gemm_shape_tflops"))
        status = (r.get("status") or "").strip()
        out.append([r["m"], r["n"], r["precision"], f_ms(full) if full else "FAILED",
                    f_num(tf), f"{f_ms(best[0])} ({best[1]})" if best[0] else DASH,
                    f_num(div(best[0], full)), f_ms(rfp), spread, f_num(shape, ".1f"),
                    f_pct(tf, shape), "ok" if status == "ok" else status or DASH])
    return table(["m", "n", "prec", "gchol ms", "TFLOP/s", "cuBLAS ms (best)", "ratio",
                  "RFP N,L ms", "RFP 4 forms ms", "GEMM on shape TFLOP/s", "of GEMM", "check"],
                 out, "rrlrrrrrrrrl") + [
        "",
        "C = A·D²·Aᵀ, A m × n: gchol `?syrk_diag_gpu` (full storage) and `?sfrk_diag_gpu` (RFP) "
        "against cuBLAS `?dgmm + ?syrk` and `?dgmm(d²) + ?syrkx`, timed in shuffled rounds; "
        "ratio = the faster cuBLAS composition's time / gchol's; GEMM on shape: cuBLAS `?gemm` "
        "(N,T) forming all of (AD)(AD)ᵀ on the same data (a reference, not a peer). "
        "Flops n·m·(m+1). " + median(system, "runs")]


def pftrf_table(rows, system):
    rows = sorted(rows, key=lambda r: (prec_key(r["precision"]), int(r["n"]),
                                       r["transr"], r["uplo"]))
    out = []
    for r in rows:
        p = num(r["pftrf_s"])
        out.append([r["n"], r["precision"], f"{r['transr']},{r['uplo']}",
                    f_ms(p) if p else "FAILED", f_num(num(r["pftrf_tflops"])),
                    f_ms(num(r["potrf_s"])), f_ms(num(r["cusolver_s"])), f_num(num(r["ratio"])),
                    f_num(div(num(r["rfp_bytes"]), 2 ** 30)),
                    f_num(div(num(r["full_bytes"]), 2 ** 30))])
    return table(["n", "prec", "RFP", "pftrf ms", "TFLOP/s", "gchol potrf ms", "cuSOLVER ms",
                  "pftrf / potrf rate", "RFP GiB", "full GiB"], out, "rllrrrrrrr") + [
        "",
        "Cholesky in RFP storage (`?pftrf_gpu`, each transr / uplo form) against full storage "
        "(gchol `?potrf_gpu` and `cusolverDnXpotrf`, same uplo) on the same matrix. "
        + median(system, "niter")]


def posv_table(rows, system):
    rows = sorted(rows, key=lambda r: (int(r["n"]), int(r["nrhs"])))
    out = []
    for r in rows:
        mixed, tf32 = num(r["gchol_dsposv_s"]), num(r["gchol_dsposv_tf32_s"])
        dbl, cus, dsg = (num(r["gchol_dposv_s"]), num(r["cusolver_dposv_s"]),
                         num(r["cusolver_dsgesv_s"]))
        out.append([r["n"], r["nrhs"], f"{f_ms(mixed)} ({r['iter']})", f_num(div(cus, mixed)),
                     f"{f_ms(tf32)} ({r['iter_tf32']})", f_num(div(cus, tf32)), f_ms(dbl),
                     f_num(div(cus, dbl)), f_ms(cus),
                     f"{f_ms(dsg)} ({r['dsgesv_iter']})" if dsg else DASH,
                     f_num(num(r["berr_dsposv"]), ".1e")])
    return table(["n", "nrhs", "dsposv ms (iter)", "ratio", "dsposv TF32 ms (iter)", "ratio",
                  "dpotrf+dpotrs ms", "ratio", "cuSOLVER potrf+potrs ms",
                  "cuSOLVER DSgesv ms (iter)", "backward error"], out) + [
        "",
        "A X = B in double: gchol `dsposv_gpu` (single-precision Cholesky, refinement in "
        "double), its TF32-products form, gchol `dpotrf + dpotrs`, cuSOLVER `Xpotrf + Xpotrs` "
        "and `DSgesv` (LU, mixed); ratio = cuSOLVER potrf+potrs time / the column's; backward "
        "error of dsposv in units of ε·‖A‖·‖x‖. " + median(system, "runs")]


def wls_table(rows, system):
    rows = sorted(rows, key=lambda r: (int(r["m"]), int(r["n"])))
    # the FP16 products' columns only where the data have them
    fp16 = any(num(r.get("dswls_fp16_ms")) for r in rows)
    out = []
    for r in rows:
        peer = num(r["peer_ms"])

        def ms(col, it=None):
            t = num(r.get(col))
            text = f_ms(div(t, 1e3))
            return text + (f" ({r[it]})" if it and t and (r.get(it) or "") != "" else "")

        def ms_ratio(col, it=None):
            return [ms(col, it), f_num(div(peer, num(r.get(col))))]
        out.append([r["m"], r["n"], r["nrhs"], ms("peer_ms")] + ms_ratio("dwls_ms")
                   + ms_ratio("dwls_rfp_ms") + ms_ratio("dswls_ms", "iter_dswls")
                   + ms_ratio("dswls_tf32_ms", "iter_dswls_tf32")
                   + (ms_ratio("dswls_fp16_ms", "iter_dswls_fp16") if fp16 else [])
                   + [ms("ddgels_ms"), ms("dsgels_ms", "dsgels_iter"),
                      f_num(num(r["maxdiff"]), ".1e")])
    return table(["m", "n", "nrhs", "peer ms", "dwls ms", "ratio", "dwls RFP ms", "ratio",
                  "dswls ms (iter)", "ratio", "dswls TF32 ms (iter)", "ratio"]
                 + (["dswls FP16 ms (iter)", "ratio"] if fp16 else [])
                 + ["DDgels ms", "DSgels ms (iter)", "max diff"], out) + [
        "",
        "Weighted least squares in double, (A·D²·Aᵀ) Y = A·D²·B: gchol `dwls_gpu`, "
        "`dwls_rfp_gpu`, `dswls_gpu` (and " + ("TF32 and FP16" if fp16 else "TF32")
        + " products) against the peer, cuBLAS `dgmm + "
        "dsyrk + dgemm` with cuSOLVER `Xpotrf + Xpotrs`, and cuSOLVER's QR least squares "
        "`DDgels` / `DSgels` on D·Aᵀ; ratio = peer time / gchol time; max diff: the largest "
        "relative difference of any answer from gchol dwls's. " + median(system, "runs")]


def crossover(points):
    """Smallest n from which every ratio (OpenBLAS / GPU) is > 1, or None."""
    result = None
    for n, ratio in sorted(points, reverse=True):
        if ratio is None or ratio <= 1:
            break
        result = n
    return result


def shim_table(rows, system):
    potrf = sorted((r for r in rows if r["routine"] == "potrf"),
                   key=lambda r: (prec_key(r["precision"]), int(r["n"])))
    lines = table(["prec", "n", "OpenBLAS ms", "shim GPU ms", "cuSOLVER + copies ms",
                   "OpenBLAS / GPU", "cuSOLVER / GPU"],
                  [[r["precision"], r["n"], f_ms(num(r["openblas_s"])),
                    f_ms(num(r["shim_gpu_s"])), f_ms(num(r["cusolver_by_hand_s"])),
                    f_num(num(r["openblas_over_gpu"])), f_num(num(r["cusolver_over_gpu"]))]
                   for r in potrf], "lrrrrrr")
    notes = []
    for prec in sorted({r["precision"] for r in potrf}, key=prec_key):
        n = crossover([(int(r["n"]), num(r["openblas_over_gpu"]))
                       for r in potrf if r["precision"] == prec])
        notes.append(f"{PREC_NAME.get(prec, prec)} from n = {n}" if n else
                     f"{PREC_NAME.get(prec, prec)}: not at any n measured")
    if notes:
        lines += ["", "`?potrf_` on the GPU path is faster than OpenBLAS: " + "; ".join(notes)
                  + "."]
    solves = [r for r in rows if r["routine"] in ("potrs", "posv")]
    if solves:
        nrhss = sorted({int(r["nrhs"]) for r in solves})
        cells = {}
        for r in solves:
            key = (r["routine"], r["precision"], int(r["n"]))
            cells.setdefault(key, {})[int(r["nrhs"])] = num(r["openblas_over_gpu"])
        body = [[f"{p}{routine}_", n] + [f_num(cells[(routine, p, n)].get(k)) for k in nrhss]
                for routine, p, n in sorted(cells, key=lambda k: (k[0] == "posv",
                                                                    prec_key(k[1]), k[2]))]
        lines += ["", "OpenBLAS time / shim GPU time (> 1: the GPU path is faster):", ""]
        lines += table(["routine", "n"] + [f"nrhs {k}" for k in nrhss], body,
                       "lr" + "r" * len(nrhss))
    lines += ["", "Whole calls through `libgchol_lapack.so` on pageable host arrays, transfers "
              "included: mode cpu (OpenBLAS on the host cores) against mode gpu, and "
              "cuSOLVER with the copies written by hand; lower triangle. "
              + median(system, "runs")]
    return lines


def ceilings_table(data):
    system = data["system"]
    cuda = ", ".join(f"{system[k]} {label}" for k, label in (("cuda_runtime", "runtime"),
                                                            ("cuda_driver", "driver"))
                     if system.get(k))
    host = "; ".join(system[k] for k in ("cpu", "openblas") if system.get(k))
    when = system.get("date", "")
    if when:
        when += ", `make bench-report`" + (" (QUICK=1)" if system.get("quick") == "1" else "")
    facts = [(k, v) for k, v in (("GPU", system.get("gpu", "unknown")),
                                 ("driver", system.get("driver")), ("CUDA", cuda),
                                 ("host", host), ("measured", when)) if v]
    lines = table(["", ""], facts, "ll")
    body = []
    potrf = data.get("potrf") or []
    gemm = {p: max((num(r["gemm_tflops"]) or 0) for r in potrf if r["precision"] == p)
            for p in {r["precision"] for r in potrf}}
    if gemm:
        body.append([f"cuBLAS ?gemm, n = {system.get('gemm_n', '8192')}, random data",
                     f_num(gemm.get("d") or None, ".1f"), f_num(gemm.get("s") or None, ".1f")])
    best = {}
    for r in potrf:
        tf = num(r["gchol_tflops"])
        if r["variant"] == "auto" and tf and tf > best.get(r["precision"], (0, 0))[0]:
            best[r["precision"]] = (tf, r["n"])
    if best:
        body.append(["gchol ?potrf, best rate (n)"]
                    + [f"{best[p][0]:.1f} ({best[p][1]})" if p in best else DASH for p in "ds"])
    shapes = {}
    for r in data.get("syrk_diag") or []:
        shapes.setdefault((int(r["m"]), int(r["n"])), {})[r["precision"]] = \
            num(r.get("gemm_shape_tflops"))
    for (m, n), by_prec in sorted(shapes.items()):
        if any(v is not None for v in by_prec.values()):
            body.append([f"cuBLAS ?gemm (N,T), m × m × k = {m} × {m} × {n}",
                         f_num(by_prec.get("d"), ".1f"), f_num(by_prec.get("s"), ".1f")])
    if body:
        lines += [""] + table(["reference", "double TFLOP/s", "single TFLOP/s"], body, "lrr")
    return lines


MAKERS = {"potrf": potrf_table, "syrk_diag": syrk_table, "pftrf": pftrf_table,
          "posv": posv_table, "xposv": xposv_table, "xposv_kappa": xposv_kappa_table,
          "potrf_batched": batched_table, "wls": wls_table, "wls_seed": wls_seed_table,
          "lapack_shim": shim_table, "mp": mp_table, "mp_weak": mp_weak_table,
          "mp_timeline": mp_timeline_table, "scalapack_llt": scalapack_llt_table}
# the CSVs behind a block, where they are not NAME.csv
SOURCES = {"xposv": ["xposv.csv", "xposv16.csv"],
           "potrf_batched": ["potrf_batched_d.csv", "potrf_batched_s.csv",
                             "potrf_batched_torch_d.csv", "potrf_batched_torch_s.csv"],
           "lapack_shim": ["lapack_shim_d.csv", "lapack_shim_s.csv"],
           "mp": ["mp_one.csv", "mp_all.csv", "mp_all_s.csv"],
           "scalapack_llt": ["scalapack_llt_gpu.csv", "scalapack_llt_cpu.csv"],
           # (prefix, suffix): every CSV so named
           "mp_weak": ("mp_weak_", ".csv"), "mp_timeline": ("mp_timeline_", "_summary.csv")}
PLOTS = {"potrf": ["potrf_d.png", "potrf_s.png"], "syrk_diag": ["syrk_diag.png"],
         "pftrf": ["pftrf.png"], "posv": ["posv.png"], "xposv": [], "xposv_kappa": [],
         "potrf_batched": [],
         "wls": ["wls.png"], "wls_seed": [], "lapack_shim": ["lapack_shim.png"], "mp": [],
         "mp_weak": [], "mp_timeline": ["mp_timeline.png"], "scalapack_llt": []}


def make_blocks(data, outdir, base, images):
    """{block name: lines} for every block whose data exist; links relative to base; with
    images, each block ends with its plots (those that exist)."""
    blocks = {}
    for name, maker in MAKERS.items():
        if not data.get(name):
            continue
        lines = maker(data[name], data["system"])
        rel = lambda f: os.path.relpath(os.path.join(outdir, f), base)  # noqa: E731
        files = SOURCES.get(name, [name + ".csv"])
        if isinstance(files, tuple):
            files = mp_files(outdir, *files)
        src = [f for f in files if os.path.isfile(os.path.join(outdir, f))]
        if src:
            lines[-1] += " Data: " + ", ".join(f"[{f}]({rel(f)})" for f in src) + "."
        links = [f"![{png[:-4]}]({rel(png)})" for png in PLOTS[name]
                 if images and os.path.isfile(os.path.join(outdir, png))]
        if links:
            lines += ["", " ".join(links)]
        blocks[name] = lines
    if data.get("potrf") or data.get("syrk_diag"):
        blocks["ceilings"] = ceilings_table(data)
    return blocks


# ---------------------------------------------------------------------------
# Output: tables.md and the marked blocks of a document
# ---------------------------------------------------------------------------
def norm(text):
    return "-" + re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") + "-"


def names_gpu(heading, slug):
    """True / False when the heading names this GPU / another one; None when neither."""
    h = norm(heading)
    if f"-{slug}-" in h:
        return True
    return False if set(h.strip("-").split("-")) & KNOWN_GPUS else None


def replace_blocks(text, blocks, slug):
    """Text with this GPU's marked blocks replaced; and the names replaced."""
    begin = re.compile(r"^<!-- BEGIN report:([A-Za-z_]+) -->\s*$")
    lines, out, stack, done, fence, i = text.split("\n"), [], [], [], False, 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith("```"):
            fence = not fence
        heading = None if fence else re.match(r"^(#{1,6})\s+(.*)$", line)
        if heading:
            level = len(heading.group(1))
            stack = [h for h in stack if h[0] < level] + [(level, heading.group(2))]
        m = None if fence else begin.match(line)
        if m and m.group(1) in blocks:
            verdicts = [names_gpu(h, slug) for _, h in reversed(stack)]
            ours = next((v for v in verdicts if v is not None), False)
            end = f"<!-- END report:{m.group(1)} -->"
            j = next((k for k in range(i + 1, len(lines)) if lines[k].strip() == end), None)
            if j is None:
                print(f"report_tables: no '{end}' after line {i + 1}: block left alone",
                      file=sys.stderr)
            elif ours:
                out += [line, ""] + blocks[m.group(1)] + ["", lines[j]]
                done.append(m.group(1))
                i = j + 1
                continue
        out.append(line)
        i += 1
    return "\n".join(out), done


def write_tables(data, outdir, doc, slug):
    gpu = data["system"].get("gpu", slug)
    tables_md = os.path.join(outdir, "tables.md")
    blocks = make_blocks(data, outdir, outdir, True)
    text = [f"# gchol benchmark tables: {gpu}", "",
            "Written by `python3 benchmarks/report_tables.py` from the CSVs in this folder "
            "(`make bench-report`)."]
    for name in BLOCKS:
        if name in blocks:
            text += ["", f"## {name}", ""] + blocks[name]
    with open(tables_md, "w") as f:
        f.write("\n".join(text) + "\n")
    print(f"report_tables: wrote {tables_md}")
    missing = [n for n in BLOCKS if n not in blocks]
    if missing:
        print(f"report_tables: no data for {', '.join(missing)}")
    if not doc:
        return
    if not os.path.isfile(doc):
        print(f"report_tables: {doc} not found: left alone")
        return
    with open(doc) as f:
        old = f.read()
    blocks = make_blocks(data, outdir, os.path.dirname(doc) or ".", False)
    new, done = replace_blocks(old, blocks, slug)
    if not done:
        print(f"report_tables: {doc} has no marked block under a heading naming {slug}: left alone "
              f"(tables in {tables_md})")
    elif new != old:
        with open(doc, "w") as f:
            f.write(new)
        print(f"report_tables: {doc}: replaced {', '.join(done)}")
    else:
        print(f"report_tables: {doc}: {', '.join(done)} already current")


def summary(data):
    """A few headline ratios, as plain text: one line per family and precision."""
    lines = []
    potrf = [r for r in data.get("potrf") or [] if r["variant"] == "auto"]
    for p in sorted({r["precision"] for r in potrf}, key=prec_key):
        cells = {(int(r["n"]), r["uplo"]): num(r["ratio"]) for r in potrf if r["precision"] == p}
        lines.append(f"potrf {p}, cuSOLVER / gchol (L/U): " + ", ".join(
            f"{n} " + "/".join(f_num(cells.get((n, u))) for u in "LU" if (n, u) in cells)
            for n in sorted({k[0] for k in cells})))
    rows = data.get("syrk_diag") or []
    for p in sorted({r["precision"] for r in rows}, key=prec_key):
        lines.append(f"syrk_diag {p}, best cuBLAS / gchol: " + ", ".join(
            f"{r['m']}x{r['n']} {f_num(num(r['ratio_full']))}" for r in rows
            if r["precision"] == p))
    rows = [r for r in data.get("pftrf") or [] if (r["transr"], r["uplo"]) == ("N", "L")]
    for p in sorted({r["precision"] for r in rows}, key=prec_key):
        lines.append(f"pftrf {p} N,L, pftrf / potrf rate: " + ", ".join(
            f"{r['n']} {f_num(num(r['ratio']))}" for r in rows if r["precision"] == p))
    if data.get("posv"):
        lines.append("posv, cuSOLVER / dsposv (/ dpotrf+dpotrs): " + ", ".join(
            f"{r['n']} {f_num(num(r['ratio_dsposv']))} ({f_num(num(r['ratio_dposv']))})"
            for r in data["posv"]))
    if data.get("wls"):
        lines.append("wls, peer / dwls (/ dswls): " + ", ".join(
            f"{r['m']}x{r['n']} {f_num(num(r['ratio_dwls']))} ({f_num(num(r['ratio_dswls']))})"
            for r in data["wls"]))
    shim = [r for r in data.get("lapack_shim") or [] if r["routine"] == "potrf"]
    for p in sorted({r["precision"] for r in shim}, key=prec_key):
        n = crossover([(int(r["n"]), num(r["openblas_over_gpu"]))
                       for r in shim if r["precision"] == p])
        lines.append(f"lapack shim {p}potrf_, GPU faster than OpenBLAS from n = "
                     f"{n if n else 'none measured'}")
    print("\n".join(lines) if lines else "report_tables: no CSV to summarize")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir", help="folder with the CSVs, e.g. docs/perf/h200")
    ap.add_argument("--tables", action="store_true", help="write tables.md (and --doc's blocks)")
    ap.add_argument("--plots", action="store_true", help="write the PNGs")
    ap.add_argument("--summary", action="store_true", help="print headline ratios")
    ap.add_argument("--doc", help="Markdown file whose marked blocks to replace")
    ap.add_argument("--slug", help="GPU slug (default: system.txt's, else the folder's name)")
    args = ap.parse_args()
    if not (args.tables or args.plots or args.summary):
        args.tables = args.plots = True
    if not os.path.isdir(args.outdir):
        sys.exit(f"report_tables: {args.outdir}: no such folder")
    data = load(args.outdir)
    slug = (args.slug or data["system"].get("slug")
            or os.path.basename(os.path.normpath(args.outdir))).lower()
    if args.plots:
        try:
            import plot_report
        except ImportError as e:
            print(f"report_tables: plots skipped ({e}); "
                  "install matplotlib and rerun with --plots")
        else:
            plot_report.plot_all(data, args.outdir)
    if args.tables:
        write_tables(data, args.outdir, args.doc, slug)
    if args.summary:
        summary(data)


if __name__ == "__main__":
    main()
