// PersonaMem's logged experiments as text: one row's summary (the Experiments view's description and tooltip) and the
// log as a table (`persona-lab experiments` on a PersonaMem folder). The figures are the row's, as logged.
import { MISSING } from '../../glossary';
import { alignColumns } from '../../tables/text';
import { SKILL_HEADS } from '../types';
import { pmDeltaText, pmFigureLines } from './compare';
import type { PmExperimentRow } from './log';

/** "Δacc +1.2 [−0.5, +3.0] pp · q8 (32k)", or the sample and "no base run". */
export function pmExperimentSummary(r: PmExperimentRow): string {
  const overall = r.figures?.rows[0];
  const where = `${r.sample.name} (${r.sample.split})`;
  return overall ? `Δacc ${pmDeltaText(overall)} pp · ${where}` : `${where} · no base run`;
}

/** What the row covers, then its paired figures per question type. */
export function pmExperimentLines(r: PmExperimentRow): string[] {
  const strata = r.sample.strata.map((s) => `${SKILL_HEADS[s.key] ?? s.key} ${s.drawn}/${s.population}`).join(', ');
  return [
    `${r.run}: sample ${r.sample.name} (seed ${r.sample.seed}), ${r.sample.questions} questions of ${r.sample.personas} personas of the ${r.sample.split} split`,
    `  strata by question type (drawn/in the split): ${strata || MISSING}`,
    `  request: ${r.request.name || MISSING}${r.request.checkout ? ` (${r.request.checkout})` : ''}; model ${r.endpoint.model}; ${r.requests} requests`,
    ...(r.figures ? pmFigureLines(r.figures) : ['not compared with a run']),
    `  figures over the sample's questions, not the benchmark's`,
  ];
}

const localTime = (iso: string) => iso.replace('T', ' ').slice(0, 16);

/** The log as a table, newest first, each row's coverage and figures below it. */
export function pmExperimentsTable(rows: readonly PmExperimentRow[]): string {
  if (rows.length === 0) return 'No experiments yet.';
  const head = ['time (UTC)', 'author', 'run', 'sample', 'base', 'Δacc pp [95% CI]'];
  const body = rows.map((r) => [
    localTime(r.createdAt),
    r.author,
    r.run,
    `${r.sample.name} (${r.sample.questions})`,
    r.baseRun || MISSING,
    r.figures ? pmDeltaText(r.figures.rows[0]) : MISSING,
  ]);
  return [...alignColumns([head, ...body]), '', ...rows.flatMap((r) => [...pmExperimentLines(r), ''])]
    .join('\n')
    .trimEnd();
}
