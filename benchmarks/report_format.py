"""report_format.py -- the formatting that the report's table makers share
(report_tables.py, report_mixed.py, report_mp.py): CSV fields as numbers, milliseconds,
ratios, percentages, Markdown tables, the "median of" sentence."""
import math

PREC_NAME = {"d": "double", "s": "single"}


def num(text):
    """A CSV field as a finite float, or None (empty, nan, inf, not a number)."""
    try:
        v = float(text)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


DASH = "–"


def f_ms(seconds):
    """Seconds as milliseconds with 3-4 significant digits."""
    if seconds is None:
        return DASH
    ms = seconds * 1e3
    return f"{ms:.3f}" if ms < 10 else f"{ms:.2f}" if ms < 100 else f"{ms:.1f}"


def f_num(value, spec=".2f"):
    return DASH if value is None else format(value, spec)


def f_pct(part, whole):
    return DASH if part is None or not whole else f"{100 * part / whole:.0f}%"


def div(a, b):
    return a / b if a is not None and b else None


def table(headers, rows, align=None):
    """Markdown table; align: one 'l' or 'r' per column (default: first l, rest r)."""
    align = align or "r" * len(headers)
    lines = ["| " + " | ".join(headers) + " |",
             "|" + "|".join("---:" if a == "r" else "---" for a in align) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return lines


def median(system, key):
    """'Median of N timed runs after a warm-up.', N from system.txt's key (niter or runs)."""
    n = system.get(key)
    return f"Median of {n} timed runs after a warm-up." if n else "Median after a warm-up."
