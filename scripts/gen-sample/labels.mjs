// Two annotators' failure labels on the simulated run's steps (labels/annotators.jsonl), so that a fresh clone can
// import them and see agreement (Cohen's kappa, the disagreements and their walk) before labelling anything. Read back
// from the files this generator wrote, so they follow the run exactly. Same seed => same bytes.
//   rater-a labels by the rule the step view suggests: a picked distractor of each kind (decay-error, peer-confusion,
//     popularity-bias, random-pick), no T_new tag picked (missed-novelty), no T_keep tag picked (missed-stability);
//   rater-b reads the same steps with a seeded, human-like disagreement: a label of rater-a's left out one time in
//     five, and persona-drift added on one step in eight.
// Only scored steps with at least one of these labels are labelled, on every platform, in file order.
import fs from 'node:fs';
import path from 'node:path';
import { PLATFORMS, RUN_NAME } from './constants.mjs';
import { Rng } from './rng.mjs';

export const LABELS_FILE = 'labels/annotators.jsonl';
const CREATED = '2025-01-01T00:00:00Z';

const DISTRACTORS = [
  ['D_decay', 'decay-error'],
  ['D_cluster', 'peer-confusion'],
  ['D_viral', 'popularity-bias'],
  ['D_random', 'random-pick'],
];

const readJsonl = (file) =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    // the run's metrics hold NaN, which JSON.parse does not read; the labels need the picks only
    .map((l) => JSON.parse(l.replace(/\bNaN\b/g, 'null')));

/** rater-a's labels of one step: the suggestion rule. */
function ruleLabels(meta, picks) {
  const picked = new Set(picks);
  const labels = DISTRACTORS.filter(([cls]) => (meta[cls] ?? []).some((t) => picked.has(t))).map(([, id]) => id);
  const missed = (cls) => (meta[cls] ?? []).length > 0 && !meta[cls].some((t) => picked.has(t));
  if (missed('T_new')) labels.push('missed-novelty');
  if (missed('T_keep')) labels.push('missed-stability');
  return labels;
}

const line = (platform, userId, stepId, author, label) =>
  JSON.stringify({
    benchmark: 'sample',
    platform,
    user_id: userId,
    step_id: stepId,
    run: RUN_NAME,
    author,
    label,
    target_kind: 'step',
    tag: null,
    span_field: null,
    span_start: null,
    span_end: null,
    note: '',
    created_at: CREATED,
    content_hash: '',
  });

/** Writes labels/annotators.jsonl from the data and run under `out`; returns its number of lines. */
export function writeLabels(out, seed) {
  const lines = [];
  for (const p of PLATFORMS) {
    const tasks = readJsonl(path.join(out, 'data', `${p}_inference_tasks.jsonl`));
    const results = new Map(
      readJsonl(path.join(out, 'results', RUN_NAME, `inference_results_${p}.jsonl`)).map((r) => [r.user_id, r]),
    );
    for (const user of tasks) {
      const steps = new Map((results.get(user.user_id)?.steps ?? []).map((s) => [s.step_id, s]));
      for (const task of user.prediction_tasks) {
        const step = steps.get(task.step_id);
        if (!step || !Array.isArray(step.prediction) || (task.candidate_pool ?? []).length === 0) continue;
        const a = ruleLabels(task.meta ?? {}, step.prediction);
        if (a.length === 0) continue;
        const rng = new Rng(`${seed}|labels|${p}|${user.user_id}|${task.step_id}`);
        const b = a.filter(() => rng.next() >= 0.2);
        if (rng.next() < 0.125) b.push('persona-drift');
        for (const label of a) lines.push(line(p, user.user_id, task.step_id, 'rater-a', label));
        for (const label of b) lines.push(line(p, user.user_id, task.step_id, 'rater-b', label));
      }
    }
  }
  fs.mkdirSync(path.join(out, 'labels'), { recursive: true });
  fs.writeFileSync(path.join(out, LABELS_FILE), lines.map((l) => l + '\n').join(''));
  return lines.length;
}
