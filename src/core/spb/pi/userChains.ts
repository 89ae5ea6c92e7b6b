// The PI chains of one user in one run, for the step view: the user's bio, posts, tags and the run's personas
// scanned as the audit scans them, then chained (chains.ts), so that a persona's finding can name its chain without
// an audit of the whole benchmark.
import { readUserRecord } from '../format/load';
import { isRecord } from '../../guards';
import type { Benchmark, Run, User } from '../types';
import { chainText, piChains, valueKey, type ChainFinding, type PiChain } from './chains';
import { scanText } from '../../pi/scanner';
import { fieldKey, type StepPiMarks } from '../../pi/spans';
import type { Confidence } from '../../pi/types';

export function userPiChains(bench: Benchmark, run: Run, user: User, minConfidence?: Confidence): PiChain[] {
  const findings: ChainFinding[] = [];
  const add = (runName: string | null, stepId: number | null, field: string, text: unknown) => {
    if (typeof text !== 'string' || text === '') return;
    for (const f of scanText(text, { minConfidence })) {
      const { platform, userId } = user;
      findings.push({
        run: runName,
        platform,
        userId,
        stepId,
        field,
        category: f.category,
        text: f.text,
        key: `${field}:${f.start}`,
      });
    }
  };
  add(null, null, 'bio', user.bio);
  const record = readUserRecord(user);
  const tasks = record && Array.isArray(record.prediction_tasks) ? record.prediction_tasks : [];
  tasks.forEach((task: unknown, i) => {
    if (!isRecord(task)) return;
    const stepId = Number.isInteger(task.step_id) ? (task.step_id as number) : i + 1;
    add(null, stepId, `prediction_tasks[${i}].posts_text`, task.posts_text);
    if (Array.isArray(task.candidate_pool))
      task.candidate_pool.forEach((t, j) => add(null, stepId, `prediction_tasks[${i}].candidate_pool[${j}]`, t));
  });
  const result = run.results.get(user.platform)?.get(user.userId);
  [...(result?.steps.values() ?? [])].forEach((s, i) =>
    add(run.name, s.stepId, `steps[${i}].persona_summary`, s.personaSummary),
  );
  return piChains(bench, findings);
}

const PERSONA_FIELDS = [fieldKey.personaReceived, fieldKey.personaWritten];

/** Whether a persona of the step holds a finding (only then are the user's chains worth computing). */
export function personaHasFinding(pi: StepPiMarks): boolean {
  return PERSONA_FIELDS.some((k) => pi.fields[k]?.some((m) => m.kind === 'finding'));
}

/** Names, on each finding of the step's personas (and their diff), the chain its value belongs to. */
export function markChains(pi: StepPiMarks, texts: Record<string, string>, chains: readonly PiChain[]): void {
  const byValue = new Map(chains.map((c) => [valueKey(c.category, c.text), c]));
  for (const [key, marks] of Object.entries(pi.fields)) {
    const text = texts[key];
    if (text === undefined) continue;
    for (const m of marks) {
      const c = m.kind === 'finding' ? byValue.get(valueKey(m.category, text.slice(m.start, m.end))) : undefined;
      if (c) m.chain = chainText(c);
    }
  }
}
