// New Sample…, Run Template on Sample…, Diff Experiment Templates and Compare Experiment with Base Run. The sample,
// the run, the scoring and the log are the core's (the CLI's `sample` and `experiment` do the same); the run goes
// through the re-run feature's guard and progress (guardPlan, runPlan).
import { DEFAULT_SYSTEM_MESSAGE } from '../../../../core/spb/prompt/prompt';
import { coverageNote } from '../../../../core/coverage';
import { benchmarkSize, experimentCoverage } from '../../../../core/spb/experiments/coverage';
import * as vscode from 'vscode';
import { experimentRunName } from '../../../../core/spb/experiments/experiment';
import { templateLabel, type ExperimentInput, type ExperimentRow } from '../../../../core/spb/experiments/log';
import type { ResolvedEndpoint } from '../../../endpoint';
import { authorName, recordExperiment } from '../../../../core/spb/experiments/record';
import { drawSample, sampleSize, type SampleBy } from '../../../../core/spb/experiments/sample';
import { checkSampleName, listSamples, writeSample } from '../../../../core/experiments/sampleFile';
import { checkSample, newSample, readSample, type Sample } from '../../../../core/spb/experiments/sampleFile';
import { deltaText } from '../../../../core/spb/experiments/text';
import type { ReadOnlyDocs } from '../../../docs';
import { guardPlan, progressText, rerunPlatforms, runPlan } from '../rerun/batch';
import { estimateText } from '../rerun/estimate';
import type { RerunDeps } from '../rerun/step';
import { log } from '../../../log';
import { ExperimentNode, type ExperimentsProvider } from './provider';

export interface ExperimentDeps {
  rerun: RerunDeps;
  docs: ReadOnlyDocs;
  provider: ExperimentsProvider;
  /** Show Experiment Table (./table.ts) */
  showTable(): void;
}

/** What the experiment log keeps of the endpoint: the URL without its key, the model and its settings. */
export function loggedEndpoint(target: ResolvedEndpoint): ExperimentInput['endpoint'] {
  return {
    baseURL: target.publicURL,
    model: target.config.model,
    temperature: target.config.temperature ?? 0,
    maxTokens: target.config.maxTokens ?? null,
  };
}

const positiveInt = (v: string, min: number) =>
  /^\d+$/.test(v.trim()) && Number(v) >= min ? undefined : `A whole number ≥ ${min}`;

export async function newSampleCommand(deps: ExperimentDeps): Promise<Sample | undefined> {
  const { store } = deps.rerun;
  const bench = store.bench;
  if (!bench) return undefined;
  const title = (n: number) => `New Sample (${n}/4)`;
  const size = await vscode.window.showInputBox({
    title: `${title(1)}: users`,
    prompt: 'How many users (stratified by platform)',
    value: '20',
    ignoreFocusOut: true,
    validateInput: (v) => positiveInt(v, 1),
  });
  if (!size) return undefined;
  const seed = await vscode.window.showInputBox({
    title: `${title(2)}: seed`,
    prompt: 'The same seed draws the same users',
    value: '1',
    ignoreFocusOut: true,
    validateInput: (v) => positiveInt(v, 0),
  });
  if (!seed) return undefined;
  const runs = [...bench.runs.keys()];
  const strata = await vscode.window.showQuickPick(
    [
      { label: 'By platform', description: 'each platform in proportion', by: 'platform' as SampleBy },
      ...runs.map((run) => ({
        label: `By platform and failure signature in ${run}`,
        description: 'decay picks, Recall-0 steps, both, neither',
        by: 'signature' as SampleBy,
        run,
      })),
    ],
    { title: `${title(3)}: strata`, ignoreFocusOut: true },
  );
  if (!strata) return undefined;
  const name = await vscode.window.showInputBox({
    title: `${title(4)}: name`,
    prompt: 'The sample file .personalab/samples/NAME.json',
    value: `s${size}-seed${seed}`,
    ignoreFocusOut: true,
    validateInput: (v) =>
      checkSampleName(v) ?? (listSamples(bench.root).includes(v) ? 'A sample of this name exists' : undefined),
  });
  if (!name) return undefined;
  const baseRun = 'run' in strata ? bench.runs.get(strata.run) : undefined;
  try {
    const draw = drawSample(bench, { users: Number(size), seed: Number(seed), by: strata.by, baseRun });
    const sample = newSample(bench, name, draw);
    const path = writeSample(bench.root, sample);
    const n = sampleSize(bench, sample.users);
    log.info(`sample ${name}: ${n.users} users, ${n.steps} steps → ${path}`);
    void vscode.window.showInformationMessage(
      `Persona Lab: sample ${name}: ${n.users} users, ${n.steps} steps (seed ${seed}).`,
    );
    return sample;
  } catch (e) {
    void vscode.window.showErrorMessage(`Persona Lab: ${(e as Error).message}`);
    return undefined;
  }
}

/** The whole benchmark instead of a sample (offered where the command allows it). */
export const WHOLE = 'whole';

export async function pickSample(
  deps: ExperimentDeps,
  root: string,
  title: string,
  whole?: { description: string },
): Promise<Sample | typeof WHOLE | undefined> {
  const names = listSamples(root);
  const NEW = '$(add) New Sample…';
  const WHOLE_LABEL = '$(globe) Whole benchmark';
  const picked = await vscode.window.showQuickPick(
    [
      ...names.map((label) => ({ label, description: undefined as string | undefined })),
      ...(whole ? [{ label: WHOLE_LABEL, description: whole.description }] : []),
      { label: NEW, description: undefined },
    ],
    { title, ignoreFocusOut: true },
  );
  if (!picked) return undefined;
  if (picked.label === NEW) return newSampleCommand(deps);
  if (picked.label === WHOLE_LABEL) return WHOLE;
  try {
    return readSample(root, picked.label);
  } catch (e) {
    void vscode.window.showErrorMessage(`Persona Lab: ${(e as Error).message}`);
    return undefined;
  }
}

/** `arg`: a template file to run (Save Draft as Template's Try on Sample…) instead of asking for one. */
export async function runTemplateOnSample(deps: ExperimentDeps, arg?: unknown): Promise<void> {
  const { rerun } = deps;
  const { store } = rerun;
  const root = store.root;
  if (!root || !store.bench) return;
  const sample = await pickSample(deps, root, 'Run Template on Sample (1/3): sample');
  if (!sample || sample === WHOLE) return;
  const bench = store.bench;
  const check = checkSample(bench, sample);
  if (check.errors.length) {
    void vscode.window.showErrorMessage(`Persona Lab: ${check.errors.join('; ')}`);
    return;
  }
  for (const w of check.warnings) void vscode.window.showWarningMessage(`Persona Lab: ${w}`);
  const template =
    arg instanceof vscode.Uri
      ? await rerun.templates.read(arg)
      : await rerun.templates.pick('Run Template on Sample (2/3): template', { reference: false });
  if (!template || !(await rerun.templates.confirmUsable(template))) return;
  const runs = [...bench.runs.keys()].filter((r) => !r.startsWith(`exp-${sample.name}-`) || r === sample.baseRun);
  const ordered = sample.baseRun ? [sample.baseRun, ...runs.filter((r) => r !== sample.baseRun)] : runs;
  const base = await vscode.window.showQuickPick(
    [...ordered.map((label) => ({ label, run: label })), { label: 'No base run', run: undefined }],
    { title: 'Run Template on Sample (3/3): base run to compare with', ignoreFocusOut: true },
  );
  if (!base) return;
  const target = await rerun.endpoint.resolve();
  if (!target) return;
  const name = experimentRunName(sample.name, template.text, {
    model: target.config.model,
    temperature: target.config.temperature ?? 0,
    maxTokens: target.config.maxTokens ?? null,
    systemMessage: target.systemMessage ?? DEFAULT_SYSTEM_MESSAGE,
    personaMode: 'full',
  });
  const estimate = await estimateText(bench, { template: template.text, users: sample.users }, target, name);
  log.info(`experiment ${name}: ${estimate}`);
  const n = sampleSize(bench, sample.users);
  const go = await vscode.window.showInformationMessage(
    `Persona Lab: run ${template.name} on sample ${sample.name} (${n.users} users, ${n.steps} steps)?`,
    { modal: true, detail: `${estimate}\nEndpoint: ${target.label || target.publicURL}\nRun folder: results/${name}` },
    'Run',
  );
  if (go !== 'Run') return;
  const plan = await guardPlan(rerun, { name, template, personaMode: 'full', users: sample.users }, target);
  if (!plan) return;
  const summary = await runPlan(rerun, plan, target, `Persona Lab: experiment ${template.name} on ${sample.name}`);
  if (!summary) return;
  log.info(`experiment ${name}: ${summary.status}, ${progressText(summary.progress)}`);
  if (summary.status !== 'finished') {
    const detail = summary.error ? ` ${summary.error}` : '';
    void vscode.window.showWarningMessage(
      `Persona Lab: experiment ${name} ${summary.status}: ${progressText(summary.progress)}.${detail} Run it again to resume.`,
    );
    return;
  }
  await store.reload();
  const loaded = store.bench;
  if (!loaded) return;
  try {
    const { figures, entry } = recordExperiment({
      bench: loaded,
      sample,
      run: name,
      baseRun: base.run,
      template: template.text,
      templateName: template.name,
      systemMessage: target.systemMessage ?? DEFAULT_SYSTEM_MESSAGE,
      endpoint: loggedEndpoint(target),
      personaMode: 'full',
      author: authorName(loaded.root),
    });
    deps.provider.refresh();
    const recall = figures?.summary.find((r) => r.metric === 'Recall');
    const text = figures
      ? `experiment ${template.name} on ${sample.name}: ΔR (pp) ${deltaText(recall, figures)} vs ${base.run} ${coverageNote(experimentCoverage({ ...entry, id: 0 }, benchmarkSize(loaded))) ?? `on all ${figures.pairedSteps} steps`}`
      : `experiment ${template.name} on ${sample.name} finished (no base run)`;
    log.info(text);
    const choice = await vscode.window.showInformationMessage(
      `Persona Lab: ${text}.`,
      ...(base.run ? ['Compare Runs'] : []),
      'Show Table',
    );
    if (choice === 'Show Table') deps.showTable();
    if (choice === 'Compare Runs') await vscode.commands.executeCommand('personaLab.compareRuns', base.run, name);
  } catch (e) {
    void vscode.window.showErrorMessage(`Persona Lab: experiment ${name}: ${(e as Error).message}`);
  }
}

export const rowOf = (arg: unknown): ExperimentRow | undefined => (arg instanceof ExperimentNode ? arg.row : undefined);

export async function pickRow(
  deps: ExperimentDeps,
  title: string,
  except?: ExperimentRow,
  only?: ExperimentRow['kind'],
): Promise<ExperimentRow | undefined> {
  const rows = deps.provider.current.filter((r) => r.id !== except?.id && (!only || r.kind === only));
  const picked = await vscode.window.showQuickPick(
    rows.map((r) => ({
      label: `${r.sample.name} · ${templateLabel(r.template)}`,
      description: r.kind === 'long-context' ? `long-context · ${r.run}` : r.run,
      detail: new Date(r.createdAt).toLocaleString(),
      row: r,
    })),
    { title, ignoreFocusOut: true },
  );
  return picked?.row;
}

/** vscode.diff of two experiments' templates: the older on the left. */
export async function diffTemplates(deps: ExperimentDeps, node?: unknown, nodes?: unknown): Promise<void> {
  const selected = (Array.isArray(nodes) ? nodes : []).map(rowOf).filter((r): r is ExperimentRow => !!r);
  let a = selected[0] ?? rowOf(node) ?? (await pickRow(deps, 'Diff Experiment Templates (1/2)'));
  if (!a) return;
  let b = selected[1] ?? (await pickRow(deps, 'Diff Experiment Templates (2/2): compare with', a));
  if (!b) return;
  if (a.createdAt > b.createdAt) [a, b] = [b, a];
  const uri = (r: ExperimentRow) => {
    const u = deps.docs.uriFor(`template ${templateLabel(r.template)} ${r.template.id} (${r.run}).plprompt`);
    deps.docs.set(u, r.template.text);
    return u;
  };
  log.info(`experiments: diff templates ${templateLabel(a.template)} ↔ ${templateLabel(b.template)}`);
  await vscode.commands.executeCommand(
    'vscode.diff',
    uri(a),
    uri(b),
    `Template ${templateLabel(a.template)} (${a.sample.name}) ↔ ${templateLabel(b.template)} (${b.sample.name})`,
  );
}

/** Compare Runs on the experiment's base run and its run. */
export async function compareExperiment(deps: ExperimentDeps, node?: unknown): Promise<void> {
  const row = rowOf(node) ?? (await pickRow(deps, 'Compare Experiment with Base Run'));
  if (!row) return;
  if (!row.baseRun) {
    void vscode.window.showInformationMessage(`Persona Lab: ${row.run} was not compared with a base run.`);
    return;
  }
  await vscode.commands.executeCommand('personaLab.compareRuns', row.baseRun, row.run);
}

/** Run on Whole Benchmark: the experiment's template over every user (Re-run Benchmark with that template). */
export async function promoteExperiment(deps: ExperimentDeps, node?: unknown): Promise<void> {
  const row = rowOf(node) ?? (await pickRow(deps, 'Run Experiment Template on Whole Benchmark', undefined, 'template'));
  if (!row) return;
  if (row.kind === 'long-context') {
    void vscode.window.showInformationMessage(
      `Persona Lab: ${row.run} is the long-context baseline: Run Long-Context Baseline… with the whole benchmark runs it on every user.`,
    );
    return;
  }
  log.info(
    `experiments: ${row.run} promoted to a full run (template ${templateLabel(row.template)}, ${row.template.id})`,
  );
  await rerunPlatforms(deps.rerun, undefined, true, {
    name: row.template.name || `template-${row.template.id}`,
    text: row.template.text,
  });
}
