#!/usr/bin/env python3
"""Independent stdlib reimplementation of the gold set and each annotator's figures against it.

python3 labels_gold.py <input.json> prints JSON: {"counts": {...}, "units": [...], "annotators": [...]}.
python3 labels_gold.py --export <labels.jsonl> reads a `labels export` file (label lines and "kind": "gold" lines, the
undone ones left out) and prints the point figures of `labels gold --json` per benchmark (no intervals).
The input holds {"rows": [label rows as `labels export --json` writes them], "adjudications": [{"ref": {...},
"labels": [...], "adjudicator": str, "createdAt": str}], "resamples": int, "seed": int}.

Rules (written from the issue and docs/labels.md, not from src/core/labels/gold.ts): a unit is (benchmark, platform,
userId, stepId, run); an author did a unit when they have a label on it. A unit with a decision is adjudicated (the
latest createdAt wins, ties to the later one in the list); else with two or more annotators and equal label sets it
is unanimous, with differing sets open, with one annotator single. Per annotator and label over the settled units
(adjudicated or unanimous) they did: tp/fp/fn/tn, precision, recall, Cohen's kappa, and a 95 % percentile bootstrap
interval of kappa over units (mulberry32 seeded, indices floor(u * n), R type 7 quantiles, undefined kappas left out).
"""
import json
import math
import sys


def imul(a, b):
    return ((a & 0xFFFFFFFF) * (b & 0xFFFFFFFF)) & 0xFFFFFFFF


def mulberry32(seed):
    state = [seed & 0xFFFFFFFF]

    def rng():
        state[0] = (state[0] + 0x6D2B79F5) & 0xFFFFFFFF
        t = state[0]
        t = imul(t ^ (t >> 15), t | 1)
        t ^= (t + imul(t ^ (t >> 7), t | 61)) & 0xFFFFFFFF
        return ((t ^ (t >> 14)) & 0xFFFFFFFF) / 4294967296

    return rng


def quantile(values, q):
    if not values:
        return None
    pos = (len(values) - 1) * q
    lo, hi = math.floor(pos), math.ceil(pos)
    return values[lo] + (values[hi] - values[lo]) * (pos - lo)


def kappa(tp, fp, fn, tn):
    n = tp + fp + fn + tn
    if n == 0:
        return None
    po = (tp + tn) / n
    pa = (tp + fp) / n
    pb = (tp + fn) / n
    pe = pa * pb + (1 - pa) * (1 - pb)
    return None if pe == 1 else (po - pe) / (1 - pe)


def cells(units, label):
    return [[(label in g, label in s)] for g, s in units]


def counts_of(rows_of_cells, idx=None):
    t = [0, 0, 0, 0]
    for i in idx if idx is not None else range(len(rows_of_cells)):
        for given, gold in rows_of_cells[i]:
            t[0 if given and gold else 1 if given else 2 if gold else 3] += 1
    return t


def interval(rows_of_cells, resamples, seed):
    n = len(rows_of_cells)
    if n == 0:
        return [None, None, 0]
    rng = mulberry32(seed)
    values = []
    for _ in range(resamples):
        idx = [math.floor(rng() * n) for _ in range(n)]
        k = kappa(*counts_of(rows_of_cells, idx))
        if k is not None:
            values.append(k)
    values.sort()
    return [quantile(values, 0.025), quantile(values, 0.975), len(values)]


def figure(label, rows_of_cells, resamples, seed):
    tp, fp, fn, tn = counts_of(rows_of_cells)
    return {
        "label": label, "tp": tp, "fp": fp, "fn": fn, "tn": tn,
        "precision": tp / (tp + fp) if tp + fp else None,
        "recall": tp / (tp + fn) if tp + fn else None,
        "kappa": kappa(tp, fp, fn, tn),
        "ci": interval(rows_of_cells, resamples, seed),
    }


def gold(rows, adjudications, resamples, seed):
    key = lambda r: (r["benchmark"], r["platform"], r["userId"], r["stepId"], r["run"])
    by_unit = {}
    for r in rows:
        by_unit.setdefault(key(r), {}).setdefault(r["author"], set()).add(r["label"])
    decided = {}
    for a in adjudications:
        k = key(a["ref"])
        if k not in decided or a["createdAt"] >= decided[k]["createdAt"]:
            decided[k] = a
    counts = {"adjudicated": 0, "unanimous": 0, "open": 0, "single": 0}
    units = []
    for k in sorted(set(by_unit) | set(decided), key=lambda k: (k[0], k[1], k[2], k[3], k[4])):
        ann = by_unit.get(k, {})
        if k in decided:
            status, gold = "adjudicated", set(decided[k]["labels"])
        elif len(ann) < 2:
            status, gold = "single", None
        elif all(s == next(iter(ann.values())) for s in ann.values()):
            status, gold = "unanimous", set(next(iter(ann.values())))
        else:
            status, gold = "open", None
        counts[status] += 1
        units.append({"key": list(k), "status": status, "gold": None if gold is None else sorted(gold), "ann": ann})
    settled = [u for u in units if u["gold"] is not None]
    authors = sorted({a for u in settled for a in u["ann"]})
    out = []
    for author in authors:
        mine = [(u["ann"][author], set(u["gold"]), u["status"]) for u in settled if author in u["ann"]]
        pairs = [(g, s) for g, s, _ in mine]
        labels = sorted({l for g, s in pairs for l in g | s})
        out.append({
            "author": author,
            "units": len(mine),
            "adjudicated": sum(1 for *_, st in mine if st == "adjudicated"),
            "perLabel": [figure(l, cells(pairs, l), resamples, seed) for l in labels],
            "overall": figure("", [[(l in g, l in s) for l in labels] for g, s in pairs], resamples, seed),
        })
    return counts, units, out


def from_export(path):
    """Label rows and live decisions of a `labels export` JSONL file (gold lines carry "kind": "gold")."""
    rows, decisions = [], []
    for line in open(path, encoding="utf-8"):
        if not line.strip():
            continue
        o = json.loads(line)
        ref = {"benchmark": o.get("benchmark") or "", "platform": o["platform"], "userId": o["user_id"],
               "stepId": o["step_id"], "run": o.get("run") or ""}
        if o.get("kind") == "gold":
            if not o.get("undone_at"):
                decisions.append({"ref": ref, "labels": o["labels"], "createdAt": o["created_at"]})
        else:
            rows.append(dict(ref, author=o["author"], label=o["label"]))
    return rows, decisions


def why_runs_fail(units):
    """Per run (by name): its units, settled, failing (gold with a label), open, single, and each gold label's count
    and share of the failing units; labels ordered by their count over all runs, then by name."""
    total = {}
    for u in units:
        for l in u["gold"] or []:
            total[l] = total.get(l, 0) + 1
    labels = [l for l, _ in sorted(total.items(), key=lambda x: (-x[1], x[0]))]
    out = []
    for run in sorted({u["key"][4] for u in units}):
        mine = [u for u in units if u["key"][4] == run]
        settled = [u for u in mine if u["gold"] is not None]
        failing = sum(1 for u in settled if u["gold"])
        by = {l: sum(1 for u in settled if l in u["gold"]) for l in labels}
        out.append({"run": run, "units": len(mine), "settled": len(settled), "failing": failing,
                    "open": sum(1 for u in mine if u["status"] == "open"),
                    "single": sum(1 for u in mine if u["status"] == "single"),
                    "byLabel": {l: {"count": n, "share": n / failing if failing else None} for l, n in by.items()}})
    return out


def export_main(path):
    """`--export FILE`: the point figures of `labels gold --json` per benchmark, from an export."""
    rows, decisions = from_export(path)
    total = {"adjudicated": 0, "unanimous": 0, "open": 0, "single": 0, "units": 0}
    benchmarks = []
    for b in sorted({r["benchmark"] for r in rows} | {d["ref"]["benchmark"] for d in decisions}):
        counts, units, annotators = gold([r for r in rows if r["benchmark"] == b],
                                         [d for d in decisions if d["ref"]["benchmark"] == b], 0, 1)
        counts["units"] = len(units)
        for k in total:
            total[k] += counts[k]
        point = lambda f: {k: f[k] for k in ("tp", "fp", "fn", "tn", "precision", "recall", "kappa")}
        benchmarks.append({"benchmark": b, "counts": counts, "annotators": [
            {"author": a["author"], "units": a["units"], "adjudicated": a["adjudicated"],
             "overall": point(a["overall"]), "perLabel": {f["label"]: point(f) for f in a["perLabel"]}}
            for a in annotators], "runs": why_runs_fail(units)})
    print(json.dumps({"counts": total, "benchmarks": benchmarks}))


def main():
    if sys.argv[1] == "--export":
        return export_main(sys.argv[2])
    data = json.load(open(sys.argv[1], encoding="utf-8"))
    counts, units, out = gold(data["rows"], data["adjudications"], data["resamples"], data["seed"])
    print(json.dumps({
        "counts": counts,
        "units": [{"key": u["key"], "status": u["status"], "gold": u["gold"]} for u in units],
        "annotators": out,
    }))


if __name__ == "__main__":
    main()
