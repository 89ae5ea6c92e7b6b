#!/usr/bin/env python3
"""Persona memory per run, independently of the TypeScript (stdlib only).

Our reading (docs/scoring.md), not the paper's figure. For step n >= 2 of a user in a run, the received persona is
the last non-empty persona_summary written before n (as the reference runner threads prev_persona). A tag appears in
a persona when its text without the surrounding # is a substring of the persona, both NFKC-normalised and
casefolded. A missed T_keep tag is "ignored" (in the received persona), "forgotten" (in an earlier written persona:
dropped at the step that wrote the next persona after the last one holding it) or "neverCaptured"; a D_decay pick is
"carriedOver" (in the received persona) or "reInferred". Error records (failed requests) and steps after a step the
run does not hold are left out and counted.

Prints {run: {"platforms": {p: {counts..., "forgottenTags": [...]}}, "total": {counts...}}}.
Usage: spb_memory.py <benchmark_dir>
"""
import json
import os
import sys
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import spb_reference as ref  # noqa: E402

KINDS = ["forgotten", "ignored", "neverCaptured", "carriedOver", "reInferred", "steps", "failed", "unchained",
         "personasWritten"]


def norm(text):
    return unicodedata.normalize("NFKC", text).casefold()


def tag_text(tag):
    return norm(tag.strip("#"))


def appears(tag, persona):
    return persona != "" and tag_text(tag) in persona


def is_error_record(st):
    return (st.get("prediction") == [] and isinstance(st.get("reasoning"), str)
            and st["reasoning"].startswith("Error: ") and st.get("persona_summary", "") == "")


def strings(value):
    return [t for t in value if isinstance(t, str)] if isinstance(value, list) else []


def task_steps(bench, platform):
    """{user_id: [(step_id, meta)]} in file order (first line of a user, first entry of a step id)."""
    out = {}
    path = os.path.join(bench, "data", platform + ref.TASKS_SUFFIX)
    if not os.path.isfile(path):
        return out
    for row in ref.read_jsonl(path):
        uid = row.get("user_id")
        if not isinstance(uid, str) or uid in out or not isinstance(row.get("prediction_tasks"), list):
            continue
        seen, steps = set(), []
        for st in row["prediction_tasks"]:
            if isinstance(st, dict) and isinstance(st.get("meta"), dict) and st.get("step_id") not in seen:
                seen.add(st["step_id"])
                steps.append((st["step_id"], st["meta"]))
        out[uid] = steps
    return out


def user_memory(steps, records, counts, forgotten, uid):
    written = []  # (step_id, normalised persona)
    chained = True
    for i, (sid, meta) in enumerate(steps):
        r = records.get(sid)
        if r is None:
            chained = False
            continue
        persona = r.get("persona_summary") if isinstance(r.get("persona_summary"), str) else ""
        if i == 0:
            pass
        elif not chained:
            counts["unchained"] += 1
        elif is_error_record(r):
            counts["failed"] += 1
        else:
            counts["steps"] += 1
            picked = set(strings(r.get("prediction")))
            received = written[-1][1] if written else ""
            for tag in dict.fromkeys(strings(meta.get("T_keep"))):
                if tag in picked:
                    continue
                if appears(tag, received):
                    counts["ignored"] += 1
                    continue
                last = max((j for j, (_, p) in enumerate(written) if appears(tag, p)), default=-1)
                if last < 0:
                    counts["neverCaptured"] += 1
                else:
                    counts["forgotten"] += 1
                    forgotten.append({"userId": uid, "stepId": sid, "tag": tag, "droppedAt": written[last + 1][0]})
            for tag in dict.fromkeys(strings(meta.get("D_decay"))):
                if tag in picked:
                    counts["carriedOver" if appears(tag, received) else "reInferred"] += 1
        if persona != "":
            written.append((sid, norm(persona)))
            counts["personasWritten"] += 1


def main(argv):
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    bench = argv[0]
    tasks = {p: task_steps(bench, p) for p in ref.PLATFORMS}
    out = {}
    for run in ref.list_runs(bench):
        platforms = {}
        total = dict.fromkeys(KINDS, 0)
        for platform in ref.PLATFORMS:
            path = os.path.join(bench, "results", run, ref.RESULTS_PREFIX + platform + ref.RESULTS_SUFFIX)
            if not os.path.isfile(path) or not tasks[platform]:
                continue
            counts, forgotten, seen = dict.fromkeys(KINDS, 0), [], set()
            for row in ref.read_results(path):
                uid = row.get("user_id")
                if not isinstance(uid, str) or uid in seen or uid not in tasks[platform]:
                    continue
                seen.add(uid)
                records = {}
                for st in row.get("steps") if isinstance(row.get("steps"), list) else []:
                    if isinstance(st, dict) and st.get("step_id") not in records:
                        records[st.get("step_id")] = st
                user_memory(tasks[platform][uid], records, counts, forgotten, uid)
            platforms[platform] = {**counts, "forgottenTags": forgotten}
            for k in KINDS:
                total[k] += counts[k]
        out[run] = {"platforms": platforms, "total": total}
    sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
