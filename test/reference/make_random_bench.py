#!/usr/bin/env python3
"""Seeded generator of small adversarial StreamProfileBench benchmarks (official layout).

Usage: make_random_bench.py <out_dir> --seed N

Writes <out_dir>/data/<platform>_inference_tasks.jsonl and
<out_dir>/results/<run>/inference_results_<platform>.jsonl. Same seed -> same bytes.

Adversarial content: pools of 1..40 tags, random meta splits with empty classes, steps whose
T_new and T_keep are both empty, steps without meta, users whose every step is unscored, users
with a = b = 0 (only negatives picked), duplicated / out-of-pool / near-miss / non-string
predictions, empty predictions, result rows for unknown users or steps, several runs with
different platform coverage, results in shuffled order, stored metrics that are wrong or hold
bare NaN / Infinity tokens, ground_truth fields that disagree with meta, JS-hostile tag strings
(__proto__, constructor, ...), blank lines and truncated lines.
"""
import json
import os
import random
import sys

PLATFORMS = ["weibo", "xiaohongshu", "toutiao", "zhihu", "douban"]
PREFIX = {"weibo": "we_", "xiaohongshu": "xi_", "toutiao": "to_", "zhihu": "zh_", "douban": "do_"}
CLASSES = ["T_keep", "T_new", "D_decay", "D_cluster", "D_viral", "D_random"]
METRICS = ["Recall", "Recall_Novelty", "Recall_Stability", "Error_Decay", "Error_Peer",
           "Error_Viral", "Error_Random"]
RUN_NAMES = ["gpt-4o", "Qwen2.5-72B", "deepseek-v3", "llama_3.1_8b", "Zeta", "a-run", "claude.x"]
WEIRD_TAGS = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf", "0", "1", "",
              " ", "#话题#", "#话题", "NaN", "null"]


def make_vocab(rng, platform, n=70):
    out = []
    for i in range(n):
        if platform == "weibo":
            t = "#微博话题%d#" % i
        elif platform in ("xiaohongshu", "toutiao"):
            t = "#%s话题%d" % (platform[:2], i)
        elif platform == "zhihu":
            t = "如何看待第%d个问题？" % i
        else:
            t = rng.choice(["看过影视", "想读图书", "听过音乐"]) + ":作品%d" % i
        out.append(t)
    out += WEIRD_TAGS
    return out


def hexid(rng, n):
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def make_meta(rng, vocab, kind):
    """kind: 'normal', 'unscored' (T_new = T_keep = []), 'both' (T_new and T_keep non-empty)."""
    size = rng.randint(1, 40)
    pool = rng.sample(vocab, min(size, len(vocab)))
    weights = [rng.choice([0, 0, 1, 1, 2, 3]) for _ in CLASSES]
    if kind == "unscored":
        weights[0] = weights[1] = 0
    if sum(weights) == 0:
        weights[rng.randrange(len(CLASSES))] = 1
    meta = {c: [] for c in CLASSES}
    for t in pool:
        c = rng.choices(CLASSES, weights=weights)[0]
        meta[c].append(t)
    if kind == "unscored" and not any(meta[c] for c in CLASSES[2:]) and pool:
        meta["D_random"].append(pool[0])
    if kind == "both":
        spare = [t for t in vocab if t not in pool]
        for c in ("T_keep", "T_new"):
            if not meta[c]:
                meta[c].append(spare.pop(rng.randrange(len(spare))))
    # Rare invariant violations (spec: flag, never crash; scoring uses set semantics on meta).
    if rng.random() < 0.12:
        c = rng.choice(CLASSES)
        if meta[c]:
            meta[c].append(meta[c][0])  # duplicate inside one class
    if rng.random() < 0.08:
        a, b = rng.sample(CLASSES, 2)
        if meta[a]:
            meta[b].append(meta[a][0])  # same tag in two classes
    pool = [t for c in CLASSES for t in meta[c]]
    pool = list(dict.fromkeys(pool))
    rng.shuffle(pool)
    if rng.random() < 0.05 and pool:
        pool.pop()  # pool lacks a meta tag
    if rng.random() < 0.05:
        pool.append("不在meta里的标签")
    return pool, meta


def make_prediction(rng, pool, meta, vocab, style):
    negatives = [t for c in CLASSES[2:] for t in meta[c]]
    if style == "negatives":
        pick = rng.sample(negatives, rng.randint(0, len(negatives))) if negatives else []
        pick += ["out of pool %d" % rng.randint(0, 9)] * rng.randint(0, 2)
        return pick
    if style == "empty":
        return []
    k = max(1, round(0.25 * len(pool))) if pool else 1
    n = max(0, k + rng.randint(-2, 3))
    pick = rng.sample(pool, min(n, len(pool))) if pool else []
    extra = []
    for _ in range(rng.choice([0, 0, 0, 1, 2, 3])):
        r = rng.random()
        if r < 0.25 and pick:
            extra.append(rng.choice(pick))  # duplicate
        elif r < 0.45:
            extra.append(rng.choice(vocab))  # maybe out of pool
        elif r < 0.6 and pool:
            t = rng.choice(pool)
            extra.append(rng.choice([t + " ", " " + t, t.upper() + "x", t.strip("#")]))  # near miss
        elif r < 0.75:
            extra.append(rng.choice([None, 0, 1, 3.5, True, False]))
        elif r < 0.85:
            extra.append(rng.choice([[pick[0]] if pick else ["x"], {"tag": pick[0] if pick else "x"}]))
        else:
            extra.append(rng.choice(WEIRD_TAGS))
    out = pick + extra
    rng.shuffle(out)
    return out


def stored_metrics(rng):
    r = rng.random()
    if r < 0.2:
        return None
    vals = {}
    for k in METRICS:
        vals[k] = rng.choice([float("nan"), float("nan"), rng.random(), 1.0, 0.0, float("inf")])
    return vals


def dump(row):
    # Python's json.dumps default allow_nan=True: bare NaN / Infinity tokens, like the reference runner.
    return json.dumps(row, ensure_ascii=rng_ascii[0])


rng_ascii = [False]


def write_lines(path, lines, rng):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    out = list(lines)
    if rng.random() < 0.5:
        out.insert(rng.randint(0, len(out)), "")
    if rng.random() < 0.4 and out:
        victim = rng.choice([line for line in out if line] or ["{}"])
        out.insert(rng.randint(0, len(out)), victim[: max(1, len(victim) // 2)])  # truncated line
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for line in out:
            f.write(line + "\n")


def generate(out_dir, seed):
    rng = random.Random(seed)
    rng_ascii[0] = rng.random() < 0.3
    platforms = rng.sample(PLATFORMS, rng.randint(1, 4))
    tasks = {}  # platform -> list of (user_id, [(step_id, pool, meta or None)])
    for p in platforms:
        vocab = make_vocab(rng, p)
        users = []
        for _ in range(rng.randint(1, 8)):
            uid = PREFIX[p] + hexid(rng, 10)
            utype = rng.choices(["normal", "unscored", "zero"], weights=[6, 1, 1])[0]
            steps = []
            for sid in range(1, rng.randint(1, 5) + 1):
                if utype == "unscored":
                    kind = "unscored"
                elif utype == "zero":
                    kind = "both"
                else:
                    kind = rng.choices(["normal", "unscored", "both"], weights=[5, 1, 2])[0]
                pool, meta = make_meta(rng, vocab, kind)
                if utype == "normal" and rng.random() < 0.06:
                    meta = None  # step without meta: skipped
                steps.append((sid, pool, meta))
            users.append((uid, utype, steps))
        tasks[p] = (vocab, users)
        lines = []
        for uid, utype, steps in users:
            pts = []
            for sid, pool, meta in steps:
                gt_new = list(meta["T_new"]) if meta else []
                gt_keep = list(meta["T_keep"]) if meta else []
                if rng.random() < 0.2:
                    gt_new, gt_keep = gt_keep, gt_new + ["ground_truth_is_not_read"]
                st = {"step_id": sid, "total_steps": len(steps), "date_input": "2024-01-%02d" % sid,
                      "date_target": "2024-02-%02d" % sid, "posts_text": "[1] Content: 测试\nTags: x",
                      "candidate_pool": pool,
                      "ground_truth": {"all_tags": gt_new + gt_keep, "new_tags": gt_new, "keep_tags": gt_keep}}
                if meta is not None:
                    st["meta"] = meta
                pts.append(st)
            row = {"user_id": uid, "platform": p, "username": "U_" + hexid(rng, 8), "total_steps": len(steps),
                   "prediction_tasks": pts}
            if rng.random() < 0.7:
                row["bio"] = rng.choice(["", "简介 <SELF>"])
            lines.append(dump(row))
        write_lines(os.path.join(out_dir, "data", "%s_inference_tasks.jsonl" % p), lines, rng)

    run_names = rng.sample(RUN_NAMES, rng.randint(2, 4))
    for run in run_names:
        run_platforms = rng.sample(platforms, rng.randint(1, len(platforms)))
        for p in run_platforms:
            vocab, users = tasks[p]
            lines = []
            for uid, utype, steps in users:
                if rng.random() < 0.12:
                    continue  # user missing from this run
                rsteps = []
                for sid, pool, meta in steps:
                    if rng.random() < 0.1:
                        continue  # step missing
                    m = meta or {c: [] for c in CLASSES}
                    if utype == "zero":
                        style = "negatives"
                    else:
                        style = rng.choices(["normal", "empty", "negatives"], weights=[8, 1, 1])[0]
                    rsteps.append({"step_id": sid, "prediction": make_prediction(rng, pool, m, vocab, style),
                                   "ground_truth": m["T_new"] + m["T_keep"], "metrics": stored_metrics(rng),
                                   "reasoning": "r", "persona_summary": rng.choice(["", "画像"])})
                if rng.random() < 0.15:
                    rsteps.append({"step_id": len(steps) + rng.randint(1, 3), "prediction": [pool[0]] if pool else [],
                                   "ground_truth": [], "metrics": None, "reasoning": "", "persona_summary": ""})
                rng.shuffle(rsteps)
                lines.append(dump({"user_id": uid, "platform": p, "username": "U_x", "steps": rsteps}))
            if rng.random() < 0.4:
                # unknown user, sometimes with an id from another platform's tasks
                other = rng.choice(platforms)
                ouid = rng.choice(tasks[other][1])[0] if other != p else PREFIX[p] + "ffffffffff"
                lines.append(dump({"user_id": ouid, "platform": p, "username": "U_y",
                                   "steps": [{"step_id": 1, "prediction": rng.sample(vocab, 3), "metrics": None}]}))
            rng.shuffle(lines)
            write_lines(os.path.join(out_dir, "results", run, "inference_results_%s.jsonl" % p), lines, rng)


def main(argv):
    out_dir = None
    seed = 0
    i = 0
    while i < len(argv):
        if argv[i] == "--seed" and i + 1 < len(argv):
            seed = int(argv[i + 1])
            i += 2
            continue
        out_dir = argv[i]
        i += 1
    if out_dir is None:
        print(__doc__, file=sys.stderr)
        return 2
    generate(out_dir, seed)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
