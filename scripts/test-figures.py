#!/usr/bin/env python3
"""Checks that figures quoted in two places agree, where one of them is generated.

examples.out is what examples.sql prints (scripts/test-clients.sh compares it
with a run), and the walk-through blocks of README.md and docs/ are what psql
prints (scripts/test-readme.py compares them with a run). Prose and other
pages quote their figures; this script checks the quotes against them,
without a server:

  1. Tables. Every psql table in a walk-through of README.md or docs/ whose
     header is also that of a table in examples.out must equal one of those
     tables, row for row ("..." standing for rows left out): the manual and
     the tour show the same run. Numbers may be rounded to other places
     (the manual shows 0.875 where the tour shows 0.87): two agree when
     they can be roundings of one value.
  2. Prose. Each entry of PROSE finds a sentence on a page, reads the figures
     it quotes, and checks them against the cells of a generated table they
     quote (equal as numbers, or a ratio or percentage rounded as written),
     or checks the claim they make ("validates best").
  3. Quoted twice. Each entry of TWICE checks a figure that two pages quote
     from one study (the study itself is not generated, so only agreement is
     checked).

An entry of KNOWN is a quote known to disagree today: it prints "STALE" and
passes, and fails once it agrees (then remove it), as
clients/known_failures.txt does for the clients.

Prints "PASS psql: figures (N checks)" or "FAIL psql: figures: ..." per
failure, and exits 0 or 1.
"""

import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGES = ["README.md"] + sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "docs", "*.md")))
SEPARATOR = re.compile(r"^-+(\+-+)*$")


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


def tables(text, in_blocks):
    """Returns the psql tables in text as (line, header, rows): a header line,
    a separator line of dashes and pluses, then rows up to a line that is not
    one. With in_blocks, only tables inside ``` blocks count."""
    lines, out, inside = text.split("\n"), [], not in_blocks
    for i, line in enumerate(lines):
        if in_blocks and line.startswith("```"):
            inside = not inside
            continue
        if not inside or i == 0 or not SEPARATOR.match(line.strip()) or "|" not in lines[i - 1] and "+" in line:
            continue
        header = cells(lines[i - 1])
        if len(header) != line.count("+") + 1:
            continue
        rows, j = [], i + 1
        while j < len(lines) and is_row(lines[j], len(header)):
            rows.append(cells(lines[j]))
            j += 1
        out.append((i, header, rows))
    return out


def cells(line):
    return tuple(c.strip() for c in line.split("|"))


def is_row(line, width):
    if line.strip() == "...":
        return True
    if not line.startswith(" ") or line.startswith(("mallard=>", "psql:")):
        return False
    return len(cells(line)) == width


def check_tables(fail):
    """Check 1: the walk-through tables that examples.out also prints."""
    tour = tables(read("examples.out"), in_blocks=False)
    by_header = {}
    for _, header, rows in tour:
        by_header.setdefault(header, []).append(rows)
    n = 0
    for page in PAGES:
        for line, header, rows in tables(read(page), in_blocks=True):
            if header not in by_header:
                continue
            n += 1
            shown = [r for r in rows if r != ("...",)]
            if not any(all(any(same_row(r, t) for t in theirs) for r in shown) for theirs in by_header[header]):
                closest = max(by_header[header], key=lambda theirs: sum(any(same_row(r, t) for t in theirs) for r in shown))
                fail("%s:%d: the table with columns %s differs from examples.out's: %s" % (
                    page, line, ", ".join(header),
                    "; ".join(" | ".join(r) for r in shown if not any(same_row(r, t) for t in closest))))
    return n


def same_row(a, b):
    return len(a) == len(b) and all(same_cell(x, y) for x, y in zip(a, b))


def same_cell(a, b):
    """Reports whether two cells are equal, or numbers that can be roundings of
    one value: each within half a unit of its last place of it."""
    if a == b:
        return True
    if not (NUMBER.match(a) and NUMBER.match(b)):
        return False
    half = lambda x: 0.5 * 10 ** -(len(x.split(".")[1]) if "." in x else 0)
    return abs(float(a) - float(b)) <= half(a) + half(b) + 1e-12


NUMBER = re.compile(r"^-?\d+(\.\d+)?$")


def table(source, header, occurrence=0):
    """Returns the rows of a generated table by its header (the occurrence-th
    one with it) as {first cell: {column: cell}}."""
    found = [rows for _, h, rows in tables(read(source), in_blocks=source != "examples.out") if h == header]
    if len(found) <= occurrence:
        raise LookupError("%s has no table with columns %s" % (source, ", ".join(header)))
    return {r[0]: dict(zip(header, r)) for r in found[occurrence] if r != ("...",)}


def number(text):
    return float(text.replace(",", "").replace("−", "-"))


def quote(page, pattern):
    """Returns the groups of pattern's first match in page's text, with its
    lines joined (a quote may wrap)."""
    text = re.sub(r"\s+", " ", read(page))
    m = re.search(pattern, text)
    if not m:
        raise LookupError("%s no longer says /%s/" % (page, pattern))
    return m.groups()


EVALUATE = ("method", "val_mse", "test_mse", "test_mse_original")
RANKING = ("method", "test_rmse", "recall_at_10", "ndcg_at_10", "recall_at_20", "ndcg_at_100")
VAE = ("method", "recall_at_10", "ndcg_at_10")
SERIOUS = ["gat", "last_value", "drift", "ols", "ar_diff", "ets", "theta", "arima", "auto"]


def forecasting_evaluate():
    """docs/forecasting.md's paragraph under its evaluate table (examples.out's)."""
    t = table("examples.out", EVALUATE)
    val = {m: number(r["val_mse"]) for m, r in t.items()}
    test = {m: number(r["test_mse"]) for m, r in t.items()}
    orig = {m: number(r["test_mse_original"]) for m, r in t.items()}
    gat_val, lv, gat_test, pct = map(number, quote("docs/forecasting.md",
        r"Of the single methods the GAT validates best \(([\d.]+)\), but on the test months, a recession, the last value and "
        r"drift test best in the trained units \(([\d.]+); the GAT's ([\d.]+) is (\d+) % above them\)"))
    gat_orig, lo, hi = map(number, quote("docs/forecasting.md",
        r"the GAT tests best \(([\d,]+) against ([\d,]+) to ([\d,]+) for the last value, drift and arima\)"))
    auto_val, auto_test = map(number, quote("docs/forecasting.md",
        r"validates best \(([\d.]+), an optimistic figure.*?tests worse than the network \(([\d.]+)\)"))
    single = [m for m in val if m != "auto"]
    return [
        ("GAT's validation MSE", gat_val, val["gat"]),
        ("the GAT validates best of the single methods", True, val["gat"] == min(val[m] for m in single)),
        ("GAT's test MSE", gat_test, test["gat"]),
        ("last value's and drift's test MSE, the best in trained units", (lv, lv, lv),
         (test["last_value"], test["drift"], min(test[m] for m in single))),
        ("% above the last value", pct, round(100 * (test["gat"] / test["last_value"] - 1))),
        ("last value, drift, arima in original units", (lo, hi),
         (min(orig[m] for m in ("last_value", "drift", "arima")), max(orig[m] for m in ("last_value", "drift", "arima")))),
        ("GAT's test MSE in original units, the best", (gat_orig, gat_orig), (orig["gat"], min(orig[m] for m in single))),
        ("auto's validation MSE, the best", (auto_val, auto_val), (val["auto"], min(val.values()))),
        ("auto's test MSE, worse than the network's", (auto_test, True), (test["auto"], test["auto"] > test["gat"])),
    ]


def theta_reproduced():
    """docs/forecasting-theta-seasons.md: today's theta is thetaf's, as evaluate in examples.out shows."""
    (thetaf,) = quote("docs/forecasting-theta-seasons.md", r"below thetaf's ([\d.]+) that this version reproduces")
    return [("theta's test MSE in examples.out", number(thetaf), number(table("examples.out", EVALUATE)["theta"]["test_mse"]))]


def tour_ranking():
    """examples.sql's comments on the ranking models against what examples.out prints."""
    dae = table("examples.out", RANKING)
    vae = table("examples.out", VAE)["autorec"]
    sql = re.sub(r"\s*\n--\s*", " ", read("examples.sql"))
    twice = "ranks about twice as well as popularity" in sql
    within = re.search(r"ranks best, within ([\d.]+) of EASE", sql)
    ratios = [number(dae["autorec"][k]) / number(dae["popularity"][k]) for k in ("recall_at_10", "ndcg_at_10")]
    of_ease = [number(vae[k]) / number(dae["ease"][k]) for k in ("recall_at_10", "ndcg_at_10")]
    return [
        ("examples.sql: Mult-DAE about twice popularity's Recall@10 and NDCG@10 (1.75 to 2.25 times)",
         True, twice and all(1.75 <= r <= 2.25 for r in ratios)),
        ("examples.sql: Mult-VAE ranks best of the autoencoders", True,
         within is not None and number(vae["recall_at_10"]) > number(dae["autorec"]["recall_at_10"])
         and number(vae["ndcg_at_10"]) > number(dae["autorec"]["ndcg_at_10"])),
        ("examples.sql: Mult-VAE within %s of EASE's Recall@10 and NDCG@10 (it has %.3f and %.3f)" % (
            within.group(1) if within else "?", *of_ease), True,
         within is not None and all(r >= number(within.group(1)) for r in of_ease)),
    ]


def coverage_twice():
    """docs/limits.md quotes the unemployment coverage of docs/forecasting.md's study."""
    cov, lo, hi = quote("docs/limits.md", r"the 90 % intervals covered ([\d.]+) over steps 1-24, but only ([\d.]+)-([\d.]+) at steps 8-11")
    study = table_md("docs/forecasting.md", "| data set | steps | coverage |")["unemployment"]
    s_lo, s_hi = quote("docs/forecasting.md", r"([\d.]+)–([\d.]+) at steps 8–11")
    return [("coverage over steps 1-24", number(cov), number(study[2])),
            ("coverage at steps 8-11", (number(lo), number(hi)), (number(s_lo), number(s_hi)))]


def ease_twice():
    """docs/limits.md quotes ratios of docs/recommendations.md's accuracy table."""
    t = table_md("docs/recommendations.md", "| method | test RMSE | Recall@10 | NDCG@10 |")
    row = lambda prefix: next(r for k, r in t.items() if k.startswith(prefix))
    ease, dae, vae = row("ease"), row("ranking (Mult-DAE"), row("ranking_vae (Mult-VAE")
    d10, d_n, v10, v_n = map(number, quote("docs/limits.md",
        r"ranks below EASE \(([\d.]+) and ([\d.]+) of its Recall@10 and NDCG@10\); `'ranking_vae'` reaches ([\d.]+) and ([\d.]+) of them"))
    r = lambda a, b, digits: round(number(a) / number(b), digits)
    return [("Mult-DAE of EASE", (d10, d_n), (r(dae[2], ease[2], 2), r(dae[3], ease[3], 2))),
            ("Mult-VAE of EASE", (v10, v_n), (r(vae[2], ease[2], 2), r(vae[3], ease[3], 2)))]


def table_md(page, header_prefix):
    """Returns a Markdown table of page whose header starts with header_prefix, as {first cell: cells}."""
    lines = read(page).split("\n")
    start = next(i for i, l in enumerate(lines) if l.startswith(header_prefix))
    out = {}
    for l in lines[start + 2:]:
        if not l.startswith("|"):
            break
        c = [x.strip() for x in l.strip("|").split("|")]
        out[c[0]] = c
    return out


PROSE = [forecasting_evaluate, theta_reproduced, tour_ranking]
TWICE = [coverage_twice, ease_twice]
# Quotes known to disagree today, by their check's name (none now).
KNOWN = set()


def main():
    failures, passed = [], 0
    fail = failures.append
    try:
        passed += check_tables(fail)
        for entry in PROSE + TWICE:
            for name, quoted, generated in entry():
                agree = quoted == generated
                if name in KNOWN:
                    if agree:
                        fail("%s: agrees now; remove it from KNOWN in scripts/test-figures.py" % name)
                    else:
                        print("STALE psql: figures: %s (known)" % name)
                    continue
                if agree:
                    passed += 1
                else:
                    fail("%s: quoted %s, generated %s (%s)" % (name, quoted, generated, entry.__doc__.strip().split("\n")[0]))
    except (LookupError, StopIteration, ValueError) as e:
        fail("cannot read a quote: %s" % (e or type(e).__name__))
    for f in failures:
        print("FAIL psql: figures: %s" % f)
    if not failures:
        print("PASS psql: figures (%d checks)" % passed)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
