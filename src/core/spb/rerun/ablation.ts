// The paper's persona ablation for one user: the same chain run with persona "none" and "full", step-wise Recall
// side by side. Pure; built from the two run folders once they are loaded.
import { resultFor } from '../score/run';
import { nanMean, scoreStep } from '../score/step';
import { formatMetric } from '../view/stepText';
import type { Platform, Run, User } from '../types';

export interface AblationRow {
  stepId: number;
  /** null: not scored (no positives) or no result in that run */
  none: number | null;
  full: number | null;
  delta: number | null;
  noneText: string;
  fullText: string;
  deltaText: string;
}

export interface AblationTable {
  platform: Platform;
  userId: string;
  runs: { none: string; full: string };
  templateId: string;
  model: string;
  rows: AblationRow[];
  /** the user's mean Recall over scored steps (NaN skipped), as the reference's first averaging level */
  mean: AblationRow;
}

function finite(v: number): number | null {
  return Number.isFinite(v) ? v : null;
}

function pp(d: number | null): string {
  if (d === null) return '—';
  if (Math.abs(d) < 1e-12) return '±0.0 pp';
  return `${d > 0 ? '+' : '−'}${Math.abs(d * 100).toFixed(1)} pp`;
}

function row(stepId: number, none: number | null, full: number | null): AblationRow {
  const delta = none !== null && full !== null ? full - none : null;
  return {
    stepId,
    none,
    full,
    delta,
    noneText: formatMetric('Recall', none),
    fullText: formatMetric('Recall', full),
    deltaText: pp(delta),
  };
}

export function ablationTable(
  user: User,
  runs: { none: Run | undefined; full: Run | undefined },
  info: { names: { none: string; full: string }; templateId: string; model: string },
): AblationTable {
  const recall = (run: Run | undefined, stepId: number): number | null => {
    const step = user.steps.find((s) => s.stepId === stepId);
    const result = resultFor(run, user, stepId);
    if (!step || !result) return null;
    const m = scoreStep(step.split, result.prediction);
    return m ? finite(m.Recall) : null;
  };
  const rows = user.steps.map((s) => row(s.stepId, recall(runs.none, s.stepId), recall(runs.full, s.stepId)));
  const mean = (pick: (r: AblationRow) => number | null) => finite(nanMean(rows.map((r) => pick(r) ?? NaN)));
  return {
    platform: user.platform,
    userId: user.userId,
    runs: info.names,
    templateId: info.templateId,
    model: info.model,
    rows,
    mean: row(
      0,
      mean((r) => r.none),
      mean((r) => r.full),
    ),
  };
}
