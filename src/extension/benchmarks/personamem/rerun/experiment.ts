// PersonaMem experiments from the editor: Batch Run… on a sample of questions stratified by question type (drawn here
// or by `persona-lab sample`), compared with a base run on the sample's questions as `persona-lab experiment` compares
// them (core personamem/experiment/), and logged in the experiment log (the Experiments view lists it). The figures
// are said in a message and shown as text on request.
import * as vscode from 'vscode';
import { checkSampleName, listSamples, samplePath, writeSample } from '../../../../core/experiments/sampleFile';
import { deltaLine, pmExperimentRunName } from '../../../../core/personamem/experiment/compare';
import { pmExperimentEntry, recordPmExperiment } from '../../../../core/personamem/experiment/log';
import { pmExperimentLines } from '../../../../core/personamem/experiment/text';
import { authorName } from '../../../../core/experiments/author';
import { refreshPmExperiments } from '../experiments/part';
import { checkPmSample, drawPmSample, newPmSample, type PmSample } from '../../../../core/personamem/experiment/sample';
import { log } from '../../../log';
import type { PersonaMemStore } from '../store';
import { runPmBatch, type PmBatchDeps } from './batch';

const whole = (min: number) => (v: string) =>
  /^\d+$/.test(v.trim()) && Number(v) >= min ? undefined : `A whole number ≥ ${min}`;

/** New Sample by Question Type…: the questions of a split drawn and saved; the sample, or undefined. */
export async function newPmSampleCommand(store: PersonaMemStore, size: string): Promise<PmSample | undefined> {
  const bench = store.bench;
  if (!bench) return undefined;
  const total = bench.splits.get(size)?.questions.length ?? 0;
  const title = (n: number) => `New Sample of ${size} by Question Type (${n}/3)`;
  const n = await vscode.window.showInputBox({
    title: `${title(1)}: questions`,
    prompt: `How many of the ${total} questions (one of each type first, the rest in proportion)`,
    value: String(Math.min(total, 14)),
    ignoreFocusOut: true,
    validateInput: whole(1),
  });
  if (!n) return undefined;
  const seed = await vscode.window.showInputBox({
    title: `${title(2)}: seed`,
    prompt: 'The same seed draws the same questions',
    value: '1',
    ignoreFocusOut: true,
    validateInput: whole(0),
  });
  if (!seed) return undefined;
  const name = await vscode.window.showInputBox({
    title: `${title(3)}: name`,
    prompt: 'The sample file .personalab/samples/NAME.json',
    value: `q${n}-seed${seed}`,
    ignoreFocusOut: true,
    validateInput: (v) =>
      checkSampleName(v) ?? (listSamples(bench.root).includes(v) ? 'A sample of this name exists' : undefined),
  });
  if (!name) return undefined;
  try {
    const sample = newPmSample(bench, name, drawPmSample(bench, { size, questions: Number(n), seed: Number(seed) }));
    const path = writeSample(bench.root, sample);
    log.info(`personamem sample ${name}: ${sample.questions.length} questions of ${size} → ${path}`);
    return sample;
  } catch (e) {
    void vscode.window.showErrorMessage(`Persona Lab: ${(e as Error).message}`);
    return undefined;
  }
}

/** Batch Run… on a sample: its questions into exp-<sample>-<config>, then compared with the base run picked. */
export async function runPmExperiment(deps: PmBatchDeps, sample: PmSample): Promise<void> {
  const bench = deps.store.bench;
  if (!bench) return;
  const check = checkPmSample(bench, sample, samplePath(bench.root, sample.name));
  if (check.errors.length) {
    void vscode.window.showErrorMessage(`Persona Lab: ${check.errors.join('; ')}`);
    return;
  }
  for (const w of check.warnings) void vscode.window.showWarningMessage(`Persona Lab: ${w}`);
  const runs = [...bench.runs.values()].filter(
    (r) => r.split === sample.size && !r.name.includes(`_exp-${sample.name}-`),
  );
  const base = await vscode.window.showQuickPick(
    [
      ...runs.map((r) => ({ label: r.name, run: r.name as string | undefined })),
      { label: 'No base run', run: undefined },
    ],
    { title: `Batch Run: sample ${sample.name}: base run to compare with`, ignoreFocusOut: true },
  );
  if (!base) return;
  const target = await deps.endpoint.resolve();
  if (!target) return;
  const { source } = await deps.sources.get();
  const name = pmExperimentRunName(sample.name, {
    model: target.config.model,
    temperature: undefined,
    checkout: source.checkout,
  });
  const what = `sample ${sample.name} (${sample.size})`;
  const scope = { size: sample.size, selection: { questionIds: new Set(sample.questions) }, what };
  const done = await runPmBatch(deps, scope, undefined, name);
  if (!done) return;
  const { summary } = done;
  const p = summary.progress;
  if (summary.status !== 'finished' || p.failed > 0) {
    void vscode.window.showWarningMessage(
      `Persona Lab: experiment ${name} ${summary.status}: ${p.done}/${p.total} questions answered, ${p.failed} failed requests.${summary.error ? ` ${summary.error}` : ''} Run it again to resume.`,
    );
    return;
  }
  await deps.store.reload();
  const loaded = deps.store.bench;
  const run = loaded?.runs.get(`${sample.size}_${name}`);
  const baseRun = base.run ? loaded?.runs.get(base.run) : undefined;
  if (!loaded || !run) return;
  await deps.store.selectRun(run.name);
  const entry = pmExperimentEntry({ bench: loaded, sample, run, base: baseRun, author: authorName(loaded.root) });
  try {
    const path = recordPmExperiment(loaded.root, entry);
    log.info(`experiment ${run.name} logged in ${path}`);
  } catch (e) {
    void vscode.window.showWarningMessage(`Persona Lab: experiment ${name} not logged: ${(e as Error).message}`);
  }
  refreshPmExperiments(deps.store);
  const f = entry.figures;
  if (!f) {
    void vscode.window.showInformationMessage(`Persona Lab: experiment ${name} on ${what} finished (no base run).`);
    return;
  }
  const text = `experiment on ${what}: ${deltaLine(f)}`;
  log.info(text);
  const choice = await vscode.window.showInformationMessage(`Persona Lab: ${text}.`, 'Show Figures');
  if (choice !== 'Show Figures') return;
  const rowText = pmExperimentLines({ ...entry, id: 0 });
  const doc = await vscode.workspace.openTextDocument({ content: rowText.join('\n') + '\n', language: 'plaintext' });
  await vscode.window.showTextDocument(doc, { preview: true });
}
