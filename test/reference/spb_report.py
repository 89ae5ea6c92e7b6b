#!/usr/bin/env python3
"""The reference's eval reports and the reference's report reader, for the byte comparison (stdlib only).

Usage:
  spb_report.py write <benchmark_dir> <out_dir>   write <out_dir>/<run>/eval_report_<platform>.txt for every run and
                                                  platform that spb_reference.py scores, with the rules of
                                                  BenchEvaluator.print_report (bench_inference.py in the public repo
                                                  WaterWang-001/StreamProfileBench)
  spb_report.py read <file>...                    print {file: {metric: value}} as stats.py's parse_report_file
                                                  reads each report (the same two regular expressions)
  spb_report.py avg <results_dir>                 print {run: {metric: "12.34"}}: stats.py's "Avg." of every
                                                  run's reports (the mean of the figures read back, over the
                                                  platforms that have one, summed in its task order), as its
                                                  xlsx cell shows it (number format "0.00")

The figures come from spb_reference.py (plain sums, in file order); the reference sums with numpy, in the order its
threads finish, so its last bits can differ from any fixed order: the comparison is of the layout and rounding.
"""
import json
import math
import os
import re
import sys
from decimal import ROUND_HALF_UP, Decimal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from spb_reference import METRICS, score_bench  # noqa: E402

# BenchEvaluator's METRIC_KEYS, in display order; the F1^NS figure is "F1NS" in spb_reference's output.
METRIC_KEYS = METRICS


def print_report(fig):
    """BenchEvaluator.print_report, with its figures taken from `fig` instead of its own aggregation."""
    report_lines = []

    def emit(line):
        report_lines.append(line)

    def section(title):
        emit(f"\n{'=' * 50}\n{title}\n{'=' * 50}")

    def fmt(v):
        return f"{v:.2%}" if not math.isnan(v) else "N/A"

    section("Overall Macro Average (M\u0304)")
    for k in METRIC_KEYS:
        emit(f"  {k:<25}: {fmt(fig[k])}")
    emit(f"\nUsers: {fig['users']}  |  Total Steps: {fig['steps']}")
    section("F1^NS \u2014 Novelty-Stability Harmonic Mean")
    emit(f"  F1^NS                    : {fmt(fig['F1NS'])}")
    return "\n".join(report_lines)


def parse_report_file(path):
    """stats.py's parse_report_file: the M̄ block between "Overall Macro Average" and "Users:", and the F1^NS line."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    metrics = {}
    mbar_match = re.search(r"Overall Macro Average.*?\n=+\n(.*?)\n\s*Users:", text, re.DOTALL)
    if mbar_match:
        metric_pattern = re.compile(r'^\s*([A-Za-z0-9_\-\^\.\(\)]+)\s*:\s*([0-9.]+)%\s*$', re.MULTILINE)
        for name, value in metric_pattern.findall(mbar_match.group(1)):
            metrics[name] = float(value)
    f1_match = re.search(r'F1\^NS\s*:\s*([0-9.]+)%', text)
    if f1_match:
        metrics["F1^NS"] = float(f1_match.group(1))
    return metrics


# stats.py's task_order for the paper: the order in which it sums a model's platform figures.
TASK_ORDER = ["zhihu", "weibo", "toutiao", "xiaohongshu", "douban"]


def excel_cell(v):
    """How Excel shows a float under "0.00": 15 significant digits, then half away from zero."""
    return str(Decimal(f"{v:.15g}").quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def stats_avg(results_dir):
    """stats.py's collect_all_results and build_metric_dataframe's "Avg." column, per run and metric."""
    data = {}  # metric -> run -> platform -> value
    for root, _dirs, files in os.walk(results_dir):
        for name in files:
            m = re.match(r"eval_report_(.+)\.txt$", name)
            if not m:
                continue
            run, platform = os.path.basename(root), m.group(1).strip().lower()
            for metric, value in parse_report_file(os.path.join(root, name)).items():
                data.setdefault(metric, {}).setdefault(run, {})[platform] = value
    out = {}
    for metric, runs in data.items():
        for run, per in runs.items():
            order = [t for t in TASK_ORDER if t in per] + sorted(set(per) - set(TASK_ORDER))
            values = [per[t] for t in order]
            out.setdefault(run, {})[metric] = excel_cell(sum(values) / len(values))
    return out


def main(argv):
    if len(argv) == 3 and argv[0] == "write":
        bench_dir, out_dir = argv[1], argv[2]
        written = []
        for run in score_bench(bench_dir)["runs"]:
            for platform, fig in run["platforms"].items():
                path = os.path.join(out_dir, run["name"], f"eval_report_{platform}.txt")
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w", encoding="utf-8") as f:
                    f.write(print_report(fig))
                written.append(os.path.relpath(path, out_dir))
        print(json.dumps(sorted(written)))
        return 0
    if len(argv) >= 2 and argv[0] == "read":
        print(json.dumps({p: parse_report_file(p) for p in argv[1:]}))
        return 0
    if len(argv) == 2 and argv[0] == "avg":
        print(json.dumps(stats_avg(argv[1])))
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
