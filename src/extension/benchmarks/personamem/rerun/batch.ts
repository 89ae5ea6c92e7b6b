// Batch Run… on a PersonaMem benchmark: a split's questions (from the benchmark or split row, or the palette) or one
// persona's (its row), asked through the core runner the CLI's `run` uses (runPersonaMem) into
// results/eval_results_<size>_<name>.csv, with the request source the question view uses, its estimate, the PI guard
// and the shared batch shell (a cancellable progress; the same name resumes). The run then shows in the tree.
import * as vscode from 'vscode';
import { pmRunFolderProblem } from '../../../../core/personamem/run/manifest';
import { planPersonaMem } from '../../../../core/personamem/run/plan';
import {
  resultsFileName,
  runNameOfModel,
  runPersonaMem,
  type PmRunSummary,
  type PmSelection,
} from '../../../../core/personamem/run/runner';
import type { PmRequestSource } from '../../../../core/personamem/run/source';
import { maskingTransport } from '../../../../core/pi/guard';
import { createOpenAITransport } from '../../../../core/runner/client';
import { estimateLine, estimateRequests } from '../../../../core/runner/estimate';
import type { EndpointService, ResolvedEndpoint } from '../../../endpoint';
import { log } from '../../../log';
import { askRunFolder, withBatchProgress } from '../../../rerun/batchShell';
import { guardPrompts } from '../../../rerun/guard';
import type { PersonaMemStore } from '../store';
import type { PmSources } from './sources';

export interface PmBatchDeps {
  store: PersonaMemStore;
  endpoint: EndpointService;
  sources: PmSources;
}

/** What a batch run asks: one split's questions, one persona's, or the questions a sample names. */
export interface PmBatchScope {
  size: string;
  selection: PmSelection;
  /** "split 32k", "persona 7 (32k)", "sample s14 (32k)" */
  what: string;
}

const pct = (x: number | null) => (x === null ? 'n/a' : `${(100 * x).toFixed(1)}%`);

/** Asks the scope's questions into the run `name` (asked when not given); the run's summary, or undefined. */
export async function runPmBatch(
  deps: PmBatchDeps,
  scope: PmBatchScope,
  named?: string,
  suggested?: string,
): Promise<{ name: string; summary: PmRunSummary; source: PmRequestSource; target: ResolvedEndpoint } | undefined> {
  const bench = deps.store.bench;
  if (!bench) return undefined;
  const target = await deps.endpoint.resolve();
  if (!target) return undefined;
  const { source, why } = await deps.sources.get();
  const request = { kind: source.kind, name: source.name, id: source.id, checkout: source.checkout ?? null };
  const folderProblem = (v: string) =>
    pmRunFolderProblem(bench.root, scope.size, v, request, { model: target.config.model, temperature: null });
  const name =
    named ??
    (await askRunFolder(`Batch Run: ${scope.what}`, suggested ?? runNameOfModel(target.config.model), folderProblem));
  if (!name) return undefined;
  const plan = planPersonaMem(bench, scope.size, name, scope.selection);
  const problem = plan.problem ?? folderProblem(name);
  if (problem) {
    void vscode.window.showErrorMessage(`Persona Lab: ${problem}`);
    return undefined;
  }
  const file = `results/${resultsFileName(scope.size, name)}`;
  if (!named) {
    const go = await vscode.window.showInformationMessage(
      `Persona Lab: ask the ${plan.questions.length} questions of ${scope.what} into ${file} with ${source.name}?`,
      {
        modal: true,
        detail: `${why ? `${why}\n` : ''}${target.label}\n${estimateLine(estimateRequests(plan.requests), 'question')}`,
      },
      'Run',
    );
    if (go !== 'Run') return undefined;
  }
  const queued = plan.questions.length - plan.done.size;
  const guard = queued ? await guardPrompts(target, () => [...plan.outgoing], `run ${name}`) : 'send';
  if (!guard) return undefined;
  const http = createOpenAITransport(target.config);
  const summary = await withBatchProgress(`Persona Lab: ${name} (${scope.what})`, (signal, show) =>
    runPersonaMem({
      bench,
      size: scope.size,
      name,
      source,
      endpoint: target.config,
      transport: guard === 'mask' ? maskingTransport(http) : http,
      selection: scope.selection,
      concurrency: target.maxConcurrency,
      signal,
      onProgress: (p) =>
        show({ ...p, message: `${p.done}/${p.total} questions answered, ${p.failed} failed requests` }),
    }),
  );
  const p = summary.progress;
  log.info(
    `personamem run ${name} (${scope.what}): ${summary.status}, ${p.done}/${p.total} answered, ${p.failed} failed, ${p.requests} requests${summary.error ? `: ${summary.error}` : ''}`,
  );
  return { name, summary, source, target };
}

/** A split's or a persona's questions run, then the tree on the new run with its accuracy said. */
export async function pmScopeRun(deps: PmBatchDeps, scope: PmBatchScope): Promise<void> {
  const done = await runPmBatch(deps, scope);
  if (!done) return;
  const { name, summary } = done;
  if (summary.status === 'failed' && !summary.manifest) {
    void vscode.window.showErrorMessage(`Persona Lab: ${name}: ${summary.error ?? 'the run failed'}`);
    return;
  }
  await deps.store.reload();
  const run = `${scope.size}_${name}`;
  const loaded = deps.store.bench?.runs.has(run) === true;
  if (loaded) await deps.store.selectRun(run);
  const s = loaded ? deps.store.score(run) : undefined;
  const p = summary.progress;
  const figures = s
    ? ` The tree now shows ${run}: ${pct(s.overall.accuracy)} right (${s.overall.correct} of ${s.overall.answered}).`
    : '';
  const text = `Persona Lab: ${name} ${summary.status}${summary.resumed ? ' (resumed)' : ''}: ${p.done}/${p.total} questions answered, ${p.failed} failed requests.${figures}`;
  const errors = summary.errors.length ? ` First failures: ${summary.errors.join('; ')}.` : '';
  if (summary.status === 'finished' && p.failed === 0) void vscode.window.showInformationMessage(text);
  else void vscode.window.showWarningMessage(`${text}${errors} Run ${name} again to resume.`);
  log.info(`personamem run ${run}: ${figures.trim() || 'not loaded'}`);
}
