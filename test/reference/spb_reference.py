#!/usr/bin/env python3
"""Independent reference scorer for StreamProfileBench (stdlib only).

Written from the format (docs/formats.md: the tasks, results and scoring) without
looking at the TypeScript scorer, to cross-check it.

Usage:
  spb_reference.py <benchmark_dir> [--run NAME]...   print scores as JSON (same shape as
                                                     `persona-lab score --json`)
  spb_reference.py <benchmark_dir> [--run NAME]... --time
                                                     print {"read_s", "score_s", "runs", "scored_steps",
                                                     "scores"}: seconds spent reading (JSON parsing of the
                                                     tasks and results files) apart from seconds spent
                                                     scoring, each by time.perf_counter
  spb_reference.py --self-test                       run hand-computed checks
"""
import json
import math
import os
import sys
import tempfile
import time

PLATFORMS = ["weibo", "xiaohongshu", "toutiao", "zhihu", "douban"]
METRICS = [
    "Recall",
    "Recall_Novelty",
    "Recall_Stability",
    "Error_Decay",
    "Error_Peer",
    "Error_Viral",
    "Error_Random",
]
NAN = float("nan")
TASKS_SUFFIX = "_inference_tasks.jsonl"
RESULTS_PREFIX = "inference_results_"
RESULTS_SUFFIX = ".jsonl"


def is_nan(x):
    return isinstance(x, float) and math.isnan(x)


def read_jsonl(path):
    """Yield the dict objects of a JSONL file; lines that fail to parse or are not objects are skipped."""
    with open(path, "r", encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.strip()
            if line.startswith("\ufeff"):
                line = line[1:]
            if not line:
                continue
            try:
                obj = json.loads(line)
            except ValueError:
                continue
            if isinstance(obj, dict):
                yield obj


def tag_set(value):
    """Set of the string entries of a list; anything else contributes nothing."""
    if not isinstance(value, list):
        return set()
    return {t for t in value if isinstance(t, str)}


def ratio(p, s):
    """|p ∩ s| / |s|, NaN when s is empty."""
    if not s:
        return NAN
    return len(p & s) / len(s)


def step_metrics(prediction, meta):
    """Per-step metrics from meta, or None when the step is unscored (T_new ∪ T_keep empty)."""
    p = tag_set(prediction)
    t_new = tag_set(meta.get("T_new"))
    t_keep = tag_set(meta.get("T_keep"))
    g = t_new | t_keep
    if not g:
        return None
    return {
        "Recall": ratio(p, g),
        "Recall_Novelty": ratio(p, t_new),
        "Recall_Stability": ratio(p, t_keep),
        "Error_Decay": ratio(p, tag_set(meta.get("D_decay"))),
        "Error_Peer": ratio(p, tag_set(meta.get("D_cluster"))),
        "Error_Viral": ratio(p, tag_set(meta.get("D_viral"))),
        "Error_Random": ratio(p, tag_set(meta.get("D_random"))),
    }


def nanmean(values):
    vals = [v for v in values if not is_nan(v)]
    if not vals:
        return NAN
    return sum(vals) / len(vals)


def load_tasks(bench_dir, platform):
    """{(user_id, step_id): meta} for one platform. Steps without a dict `meta` are skipped.

    Duplicates are outside the spec; convention: a repeated user line is ignored, and within a user
    the first entry of a repeated step id wins."""
    path = os.path.join(bench_dir, "data", platform + TASKS_SUFFIX)
    out = {}
    if not os.path.isfile(path):
        return out
    seen_users = set()
    for row in read_jsonl(path):
        uid = row.get("user_id")
        steps = row.get("prediction_tasks")
        if not isinstance(uid, str) or not isinstance(steps, list) or uid in seen_users:
            continue
        seen_users.add(uid)
        seen_steps = set()
        for st in steps:
            if not isinstance(st, dict):
                continue
            sid = st.get("step_id")
            if isinstance(sid, bool) or not isinstance(sid, (int, float)) or sid in seen_steps:
                continue
            seen_steps.add(sid)
            meta = st.get("meta")
            if isinstance(meta, dict):
                out[(uid, sid)] = meta
    return out


def read_results(results_path):
    """The dict rows of one results file, read before any scoring so that reading and scoring can be timed apart."""
    return list(read_jsonl(results_path))


def score_platform(tasks, rows):
    """Aggregate one platform of one run from its result rows. Returns the platform figures dict.

    Duplicates are outside the spec; convention: a repeated user row is ignored, and within a row
    the first entry of a repeated step id wins."""
    per_user = {}  # user_id -> list of step metric dicts (scored steps only)
    seen_users = set()
    for row in rows:
        uid = row.get("user_id")
        steps = row.get("steps")
        if not isinstance(uid, str) or not isinstance(steps, list) or uid in seen_users:
            continue
        seen_users.add(uid)
        seen_steps = set()
        for st in steps:
            if not isinstance(st, dict):
                continue
            sid = st.get("step_id")
            if isinstance(sid, bool) or not isinstance(sid, (int, float)) or sid in seen_steps:
                continue
            seen_steps.add(sid)
            meta = tasks.get((uid, sid))
            if meta is None:
                continue
            m = step_metrics(st.get("prediction"), meta)
            if m is None:
                continue
            per_user.setdefault(uid, []).append(m)

    user_means = []
    f1_values = []
    n_steps = 0
    for uid, ms in per_user.items():
        n_steps += len(ms)
        um = {k: nanmean([m[k] for m in ms]) for k in METRICS}
        user_means.append(um)
        a, b = um["Recall_Novelty"], um["Recall_Stability"]
        if not is_nan(a) and not is_nan(b) and a + b > 0:
            f1_values.append(2 * a * b / (a + b))

    fig = {"users": len(user_means), "steps": n_steps}
    for k in METRICS:
        fig[k] = nanmean([um[k] for um in user_means])
    fig["F1NS"] = sum(f1_values) / len(f1_values) if f1_values else NAN
    return fig


def list_runs(bench_dir):
    rdir = os.path.join(bench_dir, "results")
    if not os.path.isdir(rdir):
        return []
    return sorted(d for d in os.listdir(rdir) if os.path.isdir(os.path.join(rdir, d)))


def score_bench(bench_dir, only_runs=None, timer=None):
    """Scores of the runs. `timer`, when given, is a dict whose "read" and "score" entries get the seconds spent
    reading files and scoring (time.perf_counter)."""
    clock = timer if timer is not None else {}
    clock.setdefault("read", 0.0)
    clock.setdefault("score", 0.0)
    runs = list_runs(bench_dir)
    if only_runs:
        runs = [r for r in runs if r in only_runs]
    task_cache = {}
    out_runs = []
    for run in runs:
        rdir = os.path.join(bench_dir, "results", run)
        platforms = {}
        for platform in PLATFORMS:
            rpath = os.path.join(rdir, RESULTS_PREFIX + platform + RESULTS_SUFFIX)
            if not os.path.isfile(rpath):
                continue
            t0 = time.perf_counter()
            if platform not in task_cache:
                task_cache[platform] = load_tasks(bench_dir, platform)
            rows = read_results(rpath)
            t1 = time.perf_counter()
            platforms[platform] = score_platform(task_cache[platform], rows)
            clock["score"] += time.perf_counter() - t1
            clock["read"] += t1 - t0
            del rows
        t0 = time.perf_counter()
        avg = {}
        for k in METRICS + ["F1NS"]:
            avg[k] = nanmean([platforms[p][k] for p in platforms])
        out_runs.append({"name": run, "platforms": platforms, "avg": avg})
        clock["score"] += time.perf_counter() - t0
    return {"runs": out_runs}


def to_json_safe(x):
    if isinstance(x, dict):
        return {k: to_json_safe(v) for k, v in x.items()}
    if isinstance(x, list):
        return [to_json_safe(v) for v in x]
    if isinstance(x, float) and (math.isnan(x) or math.isinf(x)):
        return None
    return x


# --------------------------------------------------------------------------- self-test

def _write_jsonl(path, rows, extra_lines=()):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
        for line in extra_lines:
            f.write(line + "\n")


def _meta(T_new=(), T_keep=(), D_decay=(), D_cluster=(), D_viral=(), D_random=()):
    m = {
        "T_keep": list(T_keep),
        "T_new": list(T_new),
        "D_decay": list(D_decay),
        "D_cluster": list(D_cluster),
        "D_viral": list(D_viral),
        "D_random": list(D_random),
    }
    return m


def _task_user(uid, metas):
    steps = []
    for i, m in enumerate(metas, 1):
        st = {"step_id": i, "total_steps": len(metas), "candidate_pool": sum(m.values(), []) if m else []}
        if m is not None:
            st["meta"] = m
        steps.append(st)
    return {"user_id": uid, "platform": "weibo", "username": "U_00000000", "total_steps": len(metas),
            "prediction_tasks": steps}


def _res_user(uid, preds):
    return {"user_id": uid, "platform": "weibo", "username": "U_00000000",
            "steps": [{"step_id": sid, "prediction": p, "metrics": None} for sid, p in preds]}


def _close(a, b):
    if a is None or b is None:
        return a is None and b is None
    if is_nan(a) or is_nan(b):
        return is_nan(a) and is_nan(b)
    return abs(a - b) < 1e-12


def self_test():
    failures = []

    def check(label, got, want):
        if not _close(got, want):
            failures.append("%s: got %r, want %r" % (label, got, want))

    # --- step level
    m = step_metrics(["a", "a", "x", None, 3, "b "], _meta(T_new=["a", "b"], T_keep=["c"], D_decay=["d"]))
    check("dup/out-of-pool Recall", m["Recall"], 1 / 3)
    check("dup/out-of-pool R_nov", m["Recall_Novelty"], 1 / 2)
    check("dup/out-of-pool R_stab", m["Recall_Stability"], 0.0)
    check("dup/out-of-pool E_decay", m["Error_Decay"], 0.0)
    check("empty class -> NaN (peer)", m["Error_Peer"], NAN)
    check("empty class -> NaN (viral)", m["Error_Viral"], NAN)
    if step_metrics(["a"], _meta(D_decay=["a"])) is not None:
        failures.append("G empty must be unscored")
    m = step_metrics([], _meta(T_keep=["k1", "k2"], D_cluster=["p"]))
    check("empty prediction Recall", m["Recall"], 0.0)
    check("empty prediction R_nov NaN", m["Recall_Novelty"], NAN)
    m = step_metrics(["p", "k1"], _meta(T_keep=["k1", "k2"], D_cluster=["p", "q", "r", "s"]))
    check("peer = D_cluster", m["Error_Peer"], 0.25)

    # --- aggregation through files
    tmp = tempfile.mkdtemp(prefix="spbref-")
    tasks = [
        # u1: step1 R_nov NaN (no T_new), step2 R_nov 1/2, step3 unscored
        _task_user("we_u1", [
            _meta(T_keep=["k1", "k2"], D_decay=["d1"], D_cluster=["c1"], D_viral=["v1"], D_random=["r1"]),
            _meta(T_new=["n1", "n2"], T_keep=["k1"], D_decay=["d1", "d2"], D_random=["r1"]),
            _meta(D_decay=["d1"], D_random=["r1"]),
        ]),
        # u2: a = b = 0 user (predicts only negatives)
        _task_user("we_u2", [
            _meta(T_new=["n1"], T_keep=["k1"], D_decay=["d1"], D_cluster=["c1"], D_viral=["v1"], D_random=["r1"]),
        ]),
        # u3: every step unscored
        _task_user("we_u3", [_meta(D_random=["r1"]), _meta(D_viral=["v1"])]),
        # u4: step without meta is skipped; step 2 has only T_new -> b undefined -> not in F1NS
        _task_user("we_u4", [None, _meta(T_new=["n1"], D_decay=["d1"])]),
    ]
    _write_jsonl(os.path.join(tmp, "data", "weibo_inference_tasks.jsonl"), tasks, ["{not json", ""])
    res_a = [
        _res_user("we_u4", [(1, ["x"]), (2, ["n1", "n1", 7, None])]),
        _res_user("we_u2", [(1, ["d1", "c1", "v1", "r1", "zz"])]),
        _res_user("we_u1", [(1, ["k1", "c1", "c1"]), (2, ["n1", "k1", "d2"]), (3, ["d1"]), (9, ["k1"])]),
        _res_user("we_u3", [(1, ["r1"]), (2, [])]),
        _res_user("we_unknown", [(1, ["k1"])]),
    ]
    _write_jsonl(os.path.join(tmp, "results", "runA", "inference_results_weibo.jsonl"), res_a,
                 ['{"user_id": "we_u1", "steps": [{"step_id": 1, "metrics": {"Recall": NaN}', "null"])
    # runB: a zhihu file with no tasks -> platform present, nothing scored
    _write_jsonl(os.path.join(tmp, "results", "runB", "inference_results_zhihu.jsonl"), [
        {"user_id": "zh_x", "steps": [{"step_id": 1, "prediction": ["a"]}]}])
    out = score_bench(tmp)
    runs = out["runs"]
    if [r["name"] for r in runs] != ["runA", "runB"]:
        failures.append("run names %r" % [r["name"] for r in runs])
    w = runs[0]["platforms"]["weibo"]
    # u1: s1 Recall 1/2, R_nov NaN, R_stab 1/2, E_decay 0, E_peer 1, E_viral 0, E_rand 0
    #     s2 Recall 2/3, R_nov 1/2, R_stab 1,   E_decay 1/2, E_peer NaN, E_viral NaN, E_rand 0
    # u1 means: Recall 7/12, R_nov 1/2, R_stab 3/4, E_decay 1/4, E_peer 1, E_viral 0, E_rand 0
    # u2: Recall 0, R_nov 0, R_stab 0, all errors 1
    # u4: Recall 1, R_nov 1, R_stab NaN, E_decay 0, others NaN
    check("users", w["users"], 3)
    check("steps", w["steps"], 4)
    check("Recall", w["Recall"], (7 / 12 + 0 + 1) / 3)
    check("Recall_Novelty", w["Recall_Novelty"], (1 / 2 + 0 + 1) / 3)
    check("Recall_Stability", w["Recall_Stability"], (3 / 4 + 0) / 2)
    check("Error_Decay", w["Error_Decay"], (1 / 4 + 1 + 0) / 3)
    check("Error_Peer", w["Error_Peer"], (1 + 1) / 2)
    check("Error_Viral", w["Error_Viral"], (0 + 1) / 2)
    check("Error_Random", w["Error_Random"], (0 + 1) / 2)
    # F1NS: only u1 counts (u2 a=b=0 left out, u4 b undefined): 2*(1/2)(3/4)/(5/4) = 0.6
    check("F1NS", w["F1NS"], 0.6)
    avg = runs[0]["avg"]
    check("avg single platform", avg["Recall"], w["Recall"])
    z = runs[1]["platforms"].get("zhihu")
    if z is None:
        failures.append("runB zhihu missing")
    else:
        check("empty platform users", z["users"], 0)
        check("empty platform steps", z["steps"], 0)
        check("empty platform Recall", z["Recall"], NAN)
        check("empty platform F1NS", z["F1NS"], NAN)
        check("avg over no platform", runs[1]["avg"]["Recall"], NAN)
    js = to_json_safe(out)
    if js["runs"][1]["avg"]["F1NS"] is not None:
        failures.append("NaN must serialise as null")
    # --run filter
    if [r["name"] for r in score_bench(tmp, ["runB"])["runs"]] != ["runB"]:
        failures.append("--run filter")
    # avg over two platforms, skipping a NaN platform figure
    _write_jsonl(os.path.join(tmp, "data", "zhihu_inference_tasks.jsonl"), [
        {"user_id": "zh_x", "prediction_tasks": [{"step_id": 1, "meta": _meta(T_new=["a", "b"], T_keep=["c"])}]}])
    _write_jsonl(os.path.join(tmp, "results", "runA", "inference_results_zhihu.jsonl"), [
        {"user_id": "zh_x", "steps": [{"step_id": 1, "prediction": ["a"]}]}])
    r2 = score_bench(tmp, ["runA"])["runs"][0]
    zz = r2["platforms"]["zhihu"]
    check("zhihu Recall", zz["Recall"], 1 / 3)
    check("zhihu F1NS (a=1/2, b=0 -> 0 counts)", zz["F1NS"], 0.0)
    check("zhihu Error_Peer NaN", zz["Error_Peer"], NAN)
    check("avg Recall two platforms", r2["avg"]["Recall"], (w["Recall"] + 1 / 3) / 2)
    check("avg Error_Peer skips NaN platform", r2["avg"]["Error_Peer"], 1.0)
    check("avg F1NS", r2["avg"]["F1NS"], (0.6 + 0.0) / 2)

    if failures:
        for f in failures:
            print("FAIL", f)
        print("self-test: %d failure(s)" % len(failures))
        return 1
    print("self-test: all checks passed")
    return 0


def main(argv):
    if "--self-test" in argv:
        return self_test()
    timed = "--time" in argv
    argv = [a for a in argv if a != "--time"]
    bench = None
    runs = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--run":
            if i + 1 >= len(argv):
                print("--run needs a NAME", file=sys.stderr)
                return 2
            runs.append(argv[i + 1])
            i += 2
            continue
        if bench is None:
            bench = a
        else:
            print("unexpected argument %r" % a, file=sys.stderr)
            return 2
        i += 1
    if bench is None:
        print(__doc__, file=sys.stderr)
        return 2
    if timed:
        clock = {}
        scores = to_json_safe(score_bench(bench, runs or None, clock))
        steps = sum(p["steps"] for r in scores["runs"] for p in r["platforms"].values())
        out = {"read_s": clock["read"], "score_s": clock["score"], "runs": [r["name"] for r in scores["runs"]],
               "scored_steps": steps, "scores": scores}
        sys.stdout.write(json.dumps(out, ensure_ascii=False, allow_nan=False) + "\n")
        return 0
    out = to_json_safe(score_bench(bench, runs or None))
    sys.stdout.write(json.dumps(out, ensure_ascii=False, allow_nan=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
