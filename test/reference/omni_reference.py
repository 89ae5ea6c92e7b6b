#!/usr/bin/env python3
"""Independent OmniBehavior scorer (stdlib only): the authors' metric rules, on Persona Lab's folder layout.

The rules are those of src/evaluation/evaluator.py (calculate_metrics, calculate_final_score_components) and
src/evaluation/metrics.py in the public repo icip-cas/OmniBehavior, written again here in plain Python; the layout
(raw/<user>.json, test_actions.jsonl, results/<run>/predictions.jsonl) is ours, as src/core/omni/types.ts describes.
The bias figures are Persona Lab's own reading of the paper's diagnostics (the authors publish no code for them),
written from their description in src/core/omni/bias.ts.

Usage: omni_reference.py <benchmark_dir>   prints {"runs": [...]} with, per run, the fields' figures, the six
                                            components, the overall score, the answered / left-out counts and the
                                            bias figures
"""
import json
import math
import os
import sys

SCENES = ["Video Browsing", "Live Streaming", "Advertisement", "E-commerce", "Search Behavior", "Customer Service"]
SCENE_NAMES = dict({s: s for s in SCENES}, **{
    "视频浏览": "Video Browsing", "直播间": "Live Streaming", "广告推荐": "Advertisement",
    "商城购物": "E-commerce", "搜索行为": "Search Behavior", "电商客服对话": "Customer Service",
})
FINAL_SCORE_BINARY_FIELDS = {
    "videoBinary": ["video_completed", "video_liked", "video_commented", "video_shared", "video_collected", "video_followed"],
    "liveBinary": ["live_liked", "live_commented", "live_sent_gift", "live_followed", "live_shared", "live_clicked_cart"],
    "adsBinary": ["ad_liked", "ad_commented", "ad_activated", "ad_form_submitted"],
    "shopBinary": ["shop_added_to_cart", "shop_order_success"],
}
BINARY = {f: scene for scene, fs in zip(["Video Browsing", "Live Streaming", "Advertisement", "E-commerce"],
                                        FINAL_SCORE_BINARY_FIELDS.values()) for f in fs}
CONTINUOUS = ["video_watch_seconds", "live_watch_seconds", "ad_watch_seconds"]
TEXT = ["search_keyword", "next_user_message"]
KNOWN = set(BINARY) | set(CONTINUOUS) | set(TEXT)
COMPONENTS = ["videoBinary", "liveBinary", "adsBinary", "shopBinary", "videoContinuous", "shopText"]


def scalar(v):
    if isinstance(v, bool):
        return 1 if v else 0
    return v if isinstance(v, (str, int, float)) else None


def to_float(v):
    """float(v), or None where float() raises."""
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def yes_no(v):
    """Our files write binary truths and values as Yes / No (or 1 / 0)."""
    if isinstance(v, (int, float)) and not isinstance(v, bool) and v in (0, 1):
        return int(v)
    if isinstance(v, str):
        s = v.strip().lower()
        if s in ("yes", "1", "true"):
            return 1
        if s in ("no", "0", "false"):
            return 0
    return None


def duration_of(raw):
    """prompt_builder.py build_prediction_questions / evaluator.py's fallback: the video duration, or None."""
    try:
        if isinstance(raw, bool):
            return None
        if isinstance(raw, (int, float)):
            d = float(raw)
        elif isinstance(raw, str):
            d = float(raw.replace("秒", "").strip()) if raw else 0
        else:
            return None
    except (TypeError, ValueError):
        return None
    return d if d > 0 else None


def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            try:
                v = json.loads(line)
            except ValueError:
                continue
            if isinstance(v, dict):
                yield v


def load(root):
    actions = {}
    for t in read_jsonl(os.path.join(root, "test_actions.jsonl")):
        uid, idx, fields = t.get("user_id"), t.get("index"), t.get("fields")
        if not isinstance(uid, str) or not isinstance(idx, int) or isinstance(idx, bool) or not isinstance(fields, list):
            continue
        try:  # a test action whose raw file or record cannot be read is not scored (a diagnostic in Persona Lab)
            with open(os.path.join(root, "raw", uid + ".json"), encoding="utf-8") as f:
                record = json.load(f)[uid]["action_history"][idx]
        except (OSError, ValueError, KeyError, IndexError, TypeError):
            continue
        if not isinstance(record, dict) or idx < 0:
            continue
        scene = SCENE_NAMES.get(str(record.get("type", "")).strip())
        context = record.get("context") or {}
        norm = duration_of(context.get("duration")) if scene == "Video Browsing" else None
        actions.setdefault((uid, idx), {"user": uid, "index": idx, "fields": [f for f in fields if f in KNOWN],
                                        "normaliser": norm})
    return actions


def read_run(path, actions):
    """Predictions as Persona Lab's reader keeps them: the first line per test action, known fields asked once."""
    out = {}
    for p in read_jsonl(path):
        uid, idx, qs = p.get("user_id"), p.get("index"), p.get("questions")
        if not isinstance(uid, str) or not isinstance(idx, int) or isinstance(idx, bool):
            continue
        key = (uid, idx)
        if key not in actions or key in out or not isinstance(qs, list):
            continue
        kept = []
        for q in qs:
            if not isinstance(q, dict) or q.get("field") not in KNOWN or q["field"] not in actions[key]["fields"]:
                continue
            if any(k["field"] == q["field"] for k in kept):
                continue
            label = q.get("predicted_label")
            if isinstance(label, bool):
                label = int(label)
            elif not (isinstance(label, (int, float)) and label in (0, 1)):
                label = None
            judge = q.get("judge_score")
            judge = judge if isinstance(judge, (int, float)) and not isinstance(judge, bool) and 1 <= judge <= 10 else None
            kept.append({"field": q["field"], "true": scalar(q.get("true_value")), "pred": scalar(q.get("predicted_value")),
                         "label": label, "judge": judge, "video_duration": scalar(q.get("video_duration"))})
        out[key] = kept
    return out


def text_answer(pred):
    """A text answer reaches the metrics only with non-empty (stripped) text: the runner files an empty one as failed."""
    return pred is not None and str(pred).strip() != ""


def binary_answer(q):
    """(truth, label) as calculate_metrics takes them, or None when the answer is left out."""
    if q["pred"] is None:
        return None
    prob = yes_no(q["pred"])
    if prob is None:
        prob = to_float(q["pred"])
    if prob is None:
        return None
    label = q["label"] if q["label"] is not None else (1 if prob >= 0.5 else 0)
    return label


def score_run(actions, preds):
    binary, continuous, judged = {}, {}, {}
    answered, left_out = {}, {}
    bias_answers = {}  # user -> list of (index, [(field, real, predicted)])
    for key, qs in preds.items():
        action = actions[key]
        mine = []
        for q in qs:
            f = q["field"]
            answered.setdefault(f, 0)
            left_out.setdefault(f, 0)
            if f in BINARY:
                truth = yes_no(q["true"])
                label = binary_answer(q)
                if label is None:
                    left_out[f] += 1
                    continue
                if truth is None:
                    continue
                answered[f] += 1
                binary.setdefault(f, []).append((truth, label))
                mine.append((f, truth, label))
            elif f in CONTINUOUS:
                pred = None if q["pred"] is None else to_float(q["pred"])
                if pred is None:
                    left_out[f] += 1
                    continue
                truth = to_float(q["true"])
                if truth is None:
                    continue
                answered[f] += 1
                norm = to_float(q["video_duration"]) if q["video_duration"] is not None else (
                    action["normaliser"] if f == "video_watch_seconds" else None)
                continuous.setdefault(f, []).append((truth, pred, norm))
            elif f == "next_user_message":
                if not text_answer(q["pred"]):
                    left_out[f] += 1
                    continue
                answered[f] += 1
                if q["judge"] is not None:
                    judged.setdefault(f, []).append(q["judge"])
            else:  # search_keyword: the reference has no metric for it; Persona Lab's exact match is not compared
                if not text_answer(q["pred"]):
                    left_out[f] += 1
                elif isinstance(q["true"], str) and q["true"].strip():
                    answered[f] += 1
        bias_answers.setdefault(action["user"], []).append((action["index"], mine))

    fields = {}
    for f, pairs in binary.items():
        tp = sum(1 for t, p in pairs if t == 1 and p == 1)
        fp = sum(1 for t, p in pairs if t == 0 and p == 1)
        fn = sum(1 for t, p in pairs if t == 1 and p == 0)
        precision = tp / (tp + fp) if tp + fp > 0 else 0.0
        recall = tp / (tp + fn) if tp + fn > 0 else 0.0
        f1 = 2 * (precision * recall) / (precision + recall) if precision + recall > 0 else 0.0
        accuracy = sum(1 for t, p in pairs if t == p) / len(pairs)
        fields[f] = {"f1": f1, "precision": precision, "recall": recall, "accuracy": accuracy}
    for f, rows in continuous.items():
        entry = {"nmae": None}
        if any(n is not None and n > 0 for _, _, n in rows):  # calculate_all_continuous_metrics
            errors = []
            for t, p, n in rows:  # calculate_nmae
                if n is None or n <= 0:
                    continue
                errors.append(min(max(abs(t - p), 0), n) / n)
            entry["nmae"] = sum(errors) / len(errors) * 100
        fields[f] = entry
    for f, scores in judged.items():
        fields[f] = {"judgeMean": round(sum(scores) / len(scores), 5)}
    for f in answered:
        fields.setdefault(f, {})
        fields[f]["answered"] = answered[f]
        fields[f]["leftOut"] = left_out[f]

    components = {}
    for c, fs in FINAL_SCORE_BINARY_FIELDS.items():
        f1s = [fields[f]["f1"] for f in fs if f in binary]
        components[c] = sum(f1s) / len(f1s) * 100 if f1s else None
    nmae = fields.get("video_watch_seconds", {}).get("nmae")
    ok = nmae is not None and not math.isnan(nmae) and not math.isinf(nmae)
    components["videoContinuous"] = max(0.0, min(100.0, 100.0 - nmae)) if ok else None
    judge = fields.get("next_user_message", {}).get("judgeMean")
    components["shopText"] = max(0.0, min(100.0, judge * 10)) if judge is not None else None
    values = [components[c] for c in COMPONENTS]
    overall = None if any(v is None for v in values) else sum(values) / len(values)
    return {
        "fields": fields,
        "components": components,
        "overall": overall,
        "answered": sum(answered.values()),
        "leftOut": sum(left_out.values()),
        "bias": bias(bias_answers),
    }


def bias(by_user):
    everything = [a for lst in by_user.values() for _, answers in lst for a in answers]
    per_scene = []
    for scene in SCENES:
        here = [a for a in everything if BINARY[a[0]] == scene]
        if here:
            per_scene.append({"scene": scene, "n": len(here), "realRate": sum(a[1] for a in here) / len(here),
                              "predictedRate": sum(a[2] for a in here) / len(here)})

    def vector(answers, side):
        by_field = {}
        for a in answers:
            by_field.setdefault(a[0], []).append(a[side])
        return {f: sum(v) / len(v) for f, v in by_field.items()}

    def distance(a, b):
        shared = [k for k in a if k in b]
        if not shared:
            return None
        return math.sqrt(sum((a[k] - b[k]) ** 2 for k in shared) / len(shared))

    halves = []
    for lst in by_user.values():
        if len(lst) < 2:
            continue
        ordered = sorted(lst, key=lambda x: x[0])
        cut = (len(ordered) + 1) // 2
        halves.append([[a for _, ans in ordered[:cut] for a in ans], [a for _, ans in ordered[cut:] for a in ans]])

    def ratio(side):
        vectors = [[vector(h, side) for h in pair] for pair in halves]
        intra = [d for d in (distance(a, b) for a, b in vectors) if d is not None]
        inter = []
        for i in range(len(vectors)):
            for j in range(i + 1, len(vectors)):
                for a in vectors[i]:
                    for b in vectors[j]:
                        d = distance(a, b)
                        if d is not None:
                            inter.append(d)
        if not intra or not inter or sum(inter) / len(inter) == 0:
            return None
        return (sum(intra) / len(intra)) / (sum(inter) / len(inter))

    return {"perScene": per_scene, "distanceRatio": {"real": ratio(1), "predicted": ratio(2)}}


def main(argv):
    if len(argv) != 1:
        sys.stderr.write(__doc__)
        return 2
    root = argv[0]
    actions = load(root)
    runs = []
    results = os.path.join(root, "results")
    for name in sorted(os.listdir(results)) if os.path.isdir(results) else []:
        path = os.path.join(results, name, "predictions.jsonl")
        if os.path.isfile(path):
            runs.append(dict(name=name, **score_run(actions, read_run(path, actions))))
    print(json.dumps({"runs": runs}, ensure_ascii=False, allow_nan=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
