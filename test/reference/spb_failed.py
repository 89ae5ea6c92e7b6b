#!/usr/bin/env python3
"""Failed requests per run, independently of the TypeScript (stdlib only, on spb_reference.py's scorer).

A failed request is the reference runner's error record: prediction [], reasoning "Error: ...", no persona_summary.
Prints, per run, {"failed", "steps", "platforms": {p: {"failed", "steps", "Recall", "RecallExcludingFailed"}},
"avg": {"Recall", "RecallExcludingFailed"}}: Recall as the reference scores it (failed steps included) and without
the failed steps (our reading, not the paper's figure).

Usage: spb_failed.py <benchmark_dir>
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import spb_reference as ref  # noqa: E402


def is_error_record(st):
    return (
        st.get("prediction") == []
        and isinstance(st.get("reasoning"), str)
        and st["reasoning"].startswith("Error: ")
        and st.get("persona_summary", "") == ""
    )


def main(argv):
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    bench = argv[0]
    out = {}
    tasks = {}
    for run in ref.list_runs(bench):
        platforms = {}
        total_failed = total_steps = 0
        for platform in ref.PLATFORMS:
            path = os.path.join(bench, "results", run, ref.RESULTS_PREFIX + platform + ref.RESULTS_SUFFIX)
            if not os.path.isfile(path):
                continue
            if platform not in tasks:
                tasks[platform] = ref.load_tasks(bench, platform)
            rows = ref.read_results(path)
            failed = steps = 0
            kept = []
            for row in rows:
                row_steps = row.get("steps") if isinstance(row.get("steps"), list) else []
                steps += sum(1 for st in row_steps if isinstance(st, dict))
                bad = [st for st in row_steps if isinstance(st, dict) and is_error_record(st)]
                failed += len(bad)
                kept.append({**row, "steps": [st for st in row_steps if not (isinstance(st, dict) and is_error_record(st))]})
            official = ref.score_platform(tasks[platform], rows)
            excluding = ref.score_platform(tasks[platform], kept)
            platforms[platform] = {
                "failed": failed,
                "steps": steps,
                "Recall": official["Recall"],
                "RecallExcludingFailed": excluding["Recall"],
            }
            total_failed += failed
            total_steps += steps
        avg = {k: ref.nanmean([p[k] for p in platforms.values()]) for k in ("Recall", "RecallExcludingFailed")}
        out[run] = {"failed": total_failed, "steps": total_steps, "platforms": platforms, "avg": avg}
    sys.stdout.write(json.dumps(ref.to_json_safe(out), allow_nan=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
