#!/usr/bin/env python3
"""Independent PersonaMem scorer (stdlib only): the rules of the authors' evaluation, written again in plain Python.

The rules are those of Evaluation.extract_answer and run_evaluation in inference.py of the public repo
bowen-upenn/PersonaMem, described here in our own words:
  - the answer is the text after the last "<final_answer>" tag (stripped), without a closing "</final_answer>";
  - a text names the option letters a-d found as "(x)" in its lower-cased form, or, when there is none, those standing
    alone as a word (so the article "a" counts);
  - a row is right when that set is exactly the gold letter, for the tagged text or else for the whole response;
  - accuracy is the share of right rows among the rows of the results file (a failed request writes no row).
The layout is the release's: questions_<size>.csv beside results/eval_results_<size>_<model>.csv. Question types are
grouped into the seven skills by the same spelling table as src/core/personamem/types.ts; topics as written.

Usage: personamem_reference.py <folder>   prints {"runs": [{name, answered, correct, accuracy, byType, byTopic,
                                           byDistanceBlocks, questionsCovered}]}
"""
import csv
import json
import os
import re
import sys

SKILLS = ["recall_user_shared_facts", "suggest_new_ideas", "acknowledge_latest_preferences",
          "track_full_preference_evolution", "revisit_reasons_behind_preference_updates",
          "provide_preference_aligned_recommendations", "generalize_to_new_scenarios"]
OLD = {
    "recalling_facts_mentioned_by_the_user": "recall_user_shared_facts",
    "identifying_new_things_not_mentioned_by_the_user": "suggest_new_ideas",
    "recalling_the_latest_user_preferences": "acknowledge_latest_preferences",
    "acknowledge_latest_user_preferences": "acknowledge_latest_preferences",
    "tracking_the_full_sequence_of_preference_updates": "track_full_preference_evolution",
    "track_full_preference_updates": "track_full_preference_evolution",
    "recalling_the_reasons_behind_previous_updates": "revisit_reasons_behind_preference_updates",
    "recommendation_aligned_with_users_latest_preferences": "provide_preference_aligned_recommendations",
    "generalizing_past_reasons_in_memory_to_new_scenarios": "generalize_to_new_scenarios",
    "generalizing_to_new_scenarios": "generalize_to_new_scenarios",
}


def skill_of(spelling):
    """One of the seven skills for any known spelling; another string is its own group, as written."""
    s = spelling.strip()
    return s if s in SKILLS else OLD.get(s, spelling)


def letters(text):
    low = text.lower()
    found = set(re.findall(r"\(([a-d])\)", low))
    return found if found else set(re.findall(r"\b([a-d])\b", low))


def right(response, gold):
    want = gold.lower().strip("() ")
    tail = response.strip()
    if "<final_answer>" in tail:
        tail = tail.rsplit("<final_answer>", 1)[1].strip()
    if tail.endswith("</final_answer>"):
        tail = tail[: -len("</final_answer>")].strip()
    return letters(tail) == {want} or letters(response) == {want}


def rows(path):
    with open(path, newline="", encoding="utf-8-sig") as f:
        return list(csv.DictReader(f))


def add(groups, key, ok):
    g = groups.setdefault(key, {"answered": 0, "correct": 0})
    g["answered"] += 1
    g["correct"] += 1 if ok else 0


def finish(groups):
    return {k: dict(v, accuracy=v["correct"] / v["answered"]) for k, v in groups.items()}


def score(folder):
    sizes = [m.group(1) for n in os.listdir(folder) for m in [re.match(r"^questions_(.+)\.csv$", n)] if m]
    questions = {s: {r["question_id"]: r for r in rows(os.path.join(folder, f"questions_{s}.csv"))} for s in sizes}
    out = []
    results = os.path.join(folder, "results")
    for name in sorted(os.listdir(results)) if os.path.isdir(results) else []:
        if not name.endswith(".csv"):
            continue
        rest = name[: -4]
        rest = rest[len("eval_results_"):] if rest.startswith("eval_results_") else rest
        size = next((s for s in sorted(sizes, key=len, reverse=True) if rest.startswith(s + "_")), None)
        if size is None:
            if len(sizes) != 1:
                continue
            size = sizes[0]
        qs = questions[size]
        has_distance = bool(qs) and all(re.fullmatch(r"\s*-?\d+\s*", q["distance_to_ref_in_blocks"] or "") for q in qs.values())
        total = {"answered": 0, "correct": 0}
        by_type, by_topic, by_dist, covered = {}, {}, {}, set()
        for r in rows(os.path.join(results, name)):
            if r.get("model_response") is None:
                ok = (r.get("score") or "").strip() == "True"
            else:
                ok = right(r["model_response"], r["correct_answer"])
            q = qs.get(r["question_id"])
            spelling = q["question_type"] if q else r.get("question_type", "")
            add(by_type, skill_of(spelling), ok)
            add(by_topic, q["topic"] if q else r.get("topic", ""), ok)
            if has_distance and q:
                add(by_dist, str(int(q["distance_to_ref_in_blocks"])), ok)
            total["answered"] += 1
            total["correct"] += 1 if ok else 0
            if q:
                covered.add(q["question_id"])
        out.append({
            "name": rest,
            "answered": total["answered"],
            "correct": total["correct"],
            "accuracy": total["correct"] / total["answered"] if total["answered"] else None,
            "byType": finish(by_type),
            "byTopic": finish(by_topic),
            "byDistanceBlocks": finish(by_dist) if has_distance else None,
            "questionsCovered": len(covered),
        })
    return {"runs": out}


def self_test():
    assert right("<final_answer>(b)", "(b)")
    assert right("so (B).", "(b)")
    assert not right("(a) or (b)", "(a)")
    assert not right("pick a b", "(b)")  # the article "a" is a letter too
    assert right("see (c) <final_answer>nothing", "(c)")  # the whole response rescues
    assert not right("", "(a)")
    assert right("<final_answer>(d)</final_answer>", "(d)")
    print("all checks passed")


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        self_test()
    else:
        print(json.dumps(score(sys.argv[1])))
