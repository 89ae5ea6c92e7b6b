// Run Long-Context Baseline… (our reading of the paper's appendix E) and Show Long-Context Table.
// The plan (qualifying users, the view, the concatenated posts, the run folder), the table and the log row are the
// core's (longContextPlan, recordLongContext), as `persona-lab long-context` uses them; the run goes through the
// re-run feature's estimate, PI guard and progress (estimateText, guardPlan, runPlan), so running it again resumes.
import { DEFAULT_SYSTEM_MESSAGE } from '../../../../core/spb/prompt/prompt';
import * as vscode from 'vscode';
import { templateLabel, type ExperimentRow } from '../../../../core/spb/experiments/log';
import {
  LONG_CONTEXT_MIN_STEPS,
  LONG_CONTEXT_READING,
  longContextLines,
  longContextPlan,
  longContextTableOf,
  type LongContextTable,
} from '../../../../core/spb/experiments/longContext';
import { authorName, recordLongContext } from '../../../../core/spb/experiments/record';
import { checkSample } from '../../../../core/spb/experiments/sampleFile';
import { guardPlan, progressText, runPlan } from '../rerun/batch';
import { estimateText } from '../rerun/estimate';
import { log } from '../../../log';
import { MISSING } from '../../../../core/glossary';
import { loggedEndpoint, pickRow, pickSample, rowOf, WHOLE, type ExperimentDeps } from './commands';
import { costLine } from './provider';

const TITLE = 'Run Long-Context Baseline';

/** The table as a read-only text document: the reading, Table 7's rows, the cost and where the run lies. */
export function longContextDocument(table: LongContextTable, row: ExperimentRow): string {
  return [
    ...longContextLines(table),
    '',
    `sample: ${row.sample.name} (${row.sample.users} users with ≥ ${LONG_CONTEXT_MIN_STEPS} steps) · template ${templateLabel(row.template)} (${row.template.id}) · model ${row.endpoint.model}`,
    costLine(row),
    `run folder: results/${row.run}; the streaming rows are ${row.baseRun}'s last steps, scored on the same split`,
    '',
  ].join('\n');
}

/**
 * Opens the table beside the active editor, in the active group when it holds nothing (Beside would leave an empty
 * group), or where it is already shown (a resumed run shows it again).
 */
async function openTable(deps: ExperimentDeps, table: LongContextTable, row: ExperimentRow): Promise<void> {
  const title = `long-context ${row.run} vs ${row.baseRun}.txt`;
  const uri = deps.docs.uriFor(title).toString();
  const shown = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri);
  await deps.docs.open(title, longContextDocument(table, row), {
    language: 'plaintext',
    viewColumn:
      shown?.viewColumn ??
      (vscode.window.tabGroups.activeTabGroup.tabs.length === 0 ? vscode.ViewColumn.Active : undefined),
  });
}

export async function runLongContextBaseline(deps: ExperimentDeps): Promise<void> {
  const { rerun } = deps;
  const { store } = rerun;
  const root = store.root;
  const bench = store.bench;
  if (!root || !bench) return;
  const sample = await pickSample(deps, root, `${TITLE} (1/3): sample`, {
    description: `every user with ≥ ${LONG_CONTEXT_MIN_STEPS} steps`,
  });
  if (!sample) return;
  const chosen = sample === WHOLE ? undefined : sample;
  if (chosen) {
    const check = checkSample(bench, chosen);
    if (check.errors.length) {
      void vscode.window.showErrorMessage(`Persona Lab: ${check.errors.join('; ')}`);
      return;
    }
    for (const w of check.warnings) void vscode.window.showWarningMessage(`Persona Lab: ${w}`);
  }
  const scope = chosen ? `sample ${chosen.name}` : 'the whole benchmark';
  const template = await rerun.templates.pick(`${TITLE} (2/3): template`, { reference: false });
  if (!template || !(await rerun.templates.confirmUsable(template))) return;
  const plan = longContextPlan(bench, template.text, chosen);
  if (plan.count === 0) {
    void vscode.window.showInformationMessage(
      `Persona Lab: no user of ${scope} has ${LONG_CONTEXT_MIN_STEPS} or more steps: the long-context baseline needs them.`,
    );
    return;
  }
  const runs = [...bench.runs.keys()].filter((r) => !r.startsWith('longctx-'));
  if (runs.length === 0) {
    void vscode.window.showInformationMessage(
      'Persona Lab: the long-context baseline needs a streaming run to compare.',
    );
    return;
  }
  const first = chosen?.baseRun && runs.includes(chosen.baseRun) ? chosen.baseRun : store.runName;
  const ordered = first && runs.includes(first) ? [first, ...runs.filter((r) => r !== first)] : runs;
  const base = await vscode.window.showQuickPick(
    ordered.map((label) => ({ label })),
    { title: `${TITLE} (3/3): streaming run to compare with`, ignoreFocusOut: true },
  );
  if (!base) return;
  const target = await rerun.endpoint.resolve();
  if (!target) return;
  const { name } = plan;
  const estimate = await estimateText(
    plan.view,
    { template: template.text, users: plan.users, personaMode: 'none', readPosts: plan.readPosts },
    target,
    name,
  );
  log.info(`long-context ${name}: ${plan.count} users of ${scope}; ${estimate}`);
  const go = await vscode.window.showInformationMessage(
    `Persona Lab: run the long-context baseline with ${template.name} on ${scope} (${plan.count} users with ≥ ${LONG_CONTEXT_MIN_STEPS} steps, one request each)?`,
    {
      modal: true,
      detail: `${LONG_CONTEXT_READING}.\n${estimate}\nEndpoint: ${target.label || target.publicURL}\nRun folder: results/${name}\nCompared with: ${base.label}`,
    },
    'Run',
  );
  if (go !== 'Run') return;
  const batch = await guardPlan(
    rerun,
    { name, template, personaMode: 'none', users: plan.users, bench: plan.view, readPosts: plan.readPosts },
    target,
  );
  if (!batch) return;
  const summary = await runPlan(rerun, batch, target, `Persona Lab: long-context ${name}`);
  if (!summary) return;
  log.info(`long-context ${name}: ${summary.status}, ${progressText(summary.progress)}`);
  if (summary.status !== 'finished') {
    const detail = summary.error ? ` ${summary.error}` : '';
    void vscode.window.showWarningMessage(
      `Persona Lab: long-context ${name} ${summary.status}: ${progressText(summary.progress)}.${detail} Run it again to resume.`,
    );
    return;
  }
  await store.reload();
  const loaded = store.bench;
  if (!loaded) return;
  try {
    const { table, entry } = recordLongContext({
      bench: loaded,
      sample: chosen ? { name: chosen.name, seed: chosen.seed } : null,
      users: plan.users,
      run: name,
      baseRun: base.label,
      template: template.text,
      templateName: template.name,
      systemMessage: target.systemMessage ?? DEFAULT_SYSTEM_MESSAGE,
      endpoint: loggedEndpoint(target),
      author: authorName(loaded.root),
    });
    deps.provider.refresh();
    const avg = table.scopes.find((s) => s.scope === 'all')?.rows.find((r) => r.metric === 'Recall');
    const pct = (x: number | undefined) => (x !== undefined && Number.isFinite(x) ? (100 * x).toFixed(1) : MISSING);
    const text = `long-context ${name}: Recall ${pct(avg?.meanB)} vs streaming ${pct(avg?.meanA)} (${base.label}) on the last steps of ${table.pairedSteps} users`;
    log.info(text);
    await openTable(deps, table, { ...entry, id: 0 });
    void vscode.window.showInformationMessage(`Persona Lab: ${text}.`);
  } catch (e) {
    void vscode.window.showErrorMessage(`Persona Lab: long-context ${name}: ${(e as Error).message}`);
  }
}

/** The Table-7 comparison of a logged long-context row, from the log (nothing is scored again). */
export async function showLongContextTable(deps: ExperimentDeps, node?: unknown): Promise<void> {
  const row = rowOf(node) ?? (await pickRow(deps, 'Show Long-Context Table', undefined, 'long-context'));
  if (!row) return;
  const table = row.kind === 'long-context' ? longContextTableOf(row.figures, row.scopes) : null;
  if (!table) {
    void vscode.window.showInformationMessage(`Persona Lab: ${row.run} is not a long-context baseline row.`);
    return;
  }
  await openTable(deps, table, row);
}
