// Run Test Actions… (a user's, from the tree, or the whole benchmark) and Judge Run…: the core's runner and judge
// with their estimate, the PI guard and a cancellable progress; a run resumes by running the same name again.
import { join } from 'node:path';
import * as vscode from 'vscode';
import { overallText } from '../../../../core/omni/overallReason';
import { judgePrompts, judgeRun } from '../../../../core/omni/run/judge';
import { omniResumeProblem, omniRunIdentity, readOmniManifest } from '../../../../core/omni/run/manifest';
import { planOmni } from '../../../../core/omni/run/plan';
import { runOmni } from '../../../../core/omni/run/runner';
import { DEFAULT_MAX_HISTORY_TOKENS } from '../../../../core/omni/run/source';
import { maskingTransport } from '../../../../core/pi/guard';
import { createOpenAITransport, publicBaseURL } from '../../../../core/runner/client';
import { estimateLine, estimateRequests } from '../../../../core/runner/estimate';
import { MANIFEST_FILE } from '../../../../core/runner/runFolder';
import type { OmniBenchmark } from '../../../../core/omni/types';
import { OmniBenchmarkNode, OmniUserNode } from '../nodes';
import { log } from '../../../log';
import { guardPrompts } from '../../../rerun/guard';
import { askRunFolder, withBatchProgress } from '../../../rerun/batchShell';
import type { OmniRerunDeps } from './actions';
import { restrictedSetting } from '../../../trustedSettings';

const JUDGE_KEY = 'personaLab.judgeApiKey';

/** A user's id, null for every test action, undefined when the argument names neither. */
function scopeOf(arg: unknown): string | null | undefined {
  if (arg instanceof OmniUserNode) return arg.user.userId;
  if (arg instanceof OmniBenchmarkNode) return null;
  if (typeof arg === 'object' && arg !== null && typeof (arg as { userId?: unknown }).userId === 'string')
    return (arg as { userId: string }).userId;
  return undefined;
}

/** From the palette (or a tree row gone stale under a refresh): ask, rather than run every test action unasked. */
async function pickScope(bench: OmniBenchmark): Promise<string | null | undefined> {
  const users = [...bench.users.values()];
  const all = users.reduce((n, u) => n + u.testActions.length, 0);
  const picked = await vscode.window.showQuickPick(
    [
      { label: '$(list-flat) Every test action', description: `${all} test actions`, userId: null },
      ...users.map((u) => ({
        label: `$(person) ${u.userId}`,
        description: `${u.testActions.length} test actions`,
        userId: u.userId,
      })),
    ],
    { title: 'Run Test Actions…', placeHolder: 'Whose test actions to run' },
  );
  return picked === undefined ? undefined : picked.userId;
}

export async function runTestActions(deps: OmniRerunDeps, arg: unknown, named?: string): Promise<void> {
  const bench = deps.store.bench;
  if (!bench) return;
  const scope = scopeOf(arg);
  const userId = scope !== undefined ? scope : named ? null : await pickScope(bench);
  if (userId === undefined) return;
  const target = await deps.endpoint.resolve();
  if (!target) return;
  const { source, why } = await deps.sources.get();
  const what = userId ? `the test actions of ${userId}` : 'every test action';
  const selection = { userId, index: null };
  // A folder that cannot take this run is refused as the name is typed, before anything is planned.
  const folderProblem = (v: string) =>
    omniResumeProblem(
      join(bench.root, 'results', v),
      omniRunIdentity(source, { model: target.config.model, maxHistoryTokens: DEFAULT_MAX_HISTORY_TOKENS }, selection),
    );
  const value = `${target.config.model.replace(/[^A-Za-z0-9._-]/g, '-')}${userId ? `-${userId}` : ''}`;
  const name = named ?? (await askRunFolder(`Run ${what}`, value, folderProblem));
  if (!name) return;
  const plan = await planOmni(bench, source, name, selection, {
    model: target.config.model,
    maxHistoryTokens: DEFAULT_MAX_HISTORY_TOKENS,
  });
  if (plan.problem) {
    void vscode.window.showErrorMessage(`Persona Lab: ${plan.problem}`);
    return;
  }
  for (const w of plan.warnings) log.warn(`omni run ${name}: ${w}`);
  const estimate = estimateLine(estimateRequests(plan.requests), 'request');
  if (!named) {
    const go = await vscode.window.showInformationMessage(
      `Persona Lab: run ${what} into results/${name}/ with ${source.name}?`,
      { modal: true, detail: `${why ? `${why}\n` : ''}${target.label}\n${estimate}` },
      'Run',
    );
    if (go !== 'Run') return;
  }
  const todo = plan.requests.filter((r) => !r.done);
  const guard = todo.length ? await guardPrompts(target, () => todo, `run ${name}`) : 'send';
  if (!guard) return;
  const http = createOpenAITransport(target.config);
  const summary = await withBatchProgress(`Persona Lab: ${name}`, (signal, show) =>
    runOmni({
      bench,
      name,
      source,
      endpoint: target.config,
      transport: guard === 'mask' ? maskingTransport(http) : http,
      selection,
      maxHistoryTokens: DEFAULT_MAX_HISTORY_TOKENS,
      concurrency: target.maxConcurrency,
      signal,
      onProgress: (p) =>
        show({ ...p, message: `${p.done}/${p.total} test actions, ${p.failed} with a failed question` }),
    }),
  );
  log.info(
    `omni run ${name}: ${summary.status}, ${summary.progress.done}/${summary.progress.total}, ${summary.progress.requests} requests${summary.error ? `: ${summary.error}` : ''}`,
  );
  if (summary.status === 'failed') {
    void vscode.window.showErrorMessage(`Persona Lab: ${name}: ${summary.error ?? 'the run failed'}`);
    return;
  }
  await deps.store.reload();
  const selected = deps.store.bench?.runs.has(name);
  if (selected) await deps.store.selectMadeRun(name, 'Run Test Actions…');
  const p = summary.progress;
  // The views switch to the new run: the message says so, with what its figures cover and why one is missing.
  const score = selected ? deps.store.score(name) : undefined;
  const now = score ? ` The views now show ${name}: ${overallText(score)}.` : '';
  void vscode.window.showInformationMessage(
    `Persona Lab: ${name} ${summary.status}${summary.resumed ? ' (resumed)' : ''}: ${p.done}/${p.total} test actions, ${p.failed} with a failed question, ${p.requests} requests sent.${now}`,
  );
}

export async function judgeOmniRun(deps: OmniRerunDeps, secrets: vscode.SecretStorage, arg: unknown): Promise<void> {
  const bench = deps.store.bench;
  const runName = typeof arg === 'string' ? arg : deps.store.runName;
  const run = runName ? bench?.runs.get(runName) : undefined;
  if (!bench || !run) {
    void vscode.window.showInformationMessage('Persona Lab: choose an OmniBehavior run to judge first.');
    return;
  }
  const resolved = await deps.endpoint.resolve();
  if (!resolved) return;
  const config = vscode.workspace.getConfiguration('personaLab.judge');
  const baseSetting = restrictedSetting<string>('personaLab.judge.baseURL');
  const manifest = readOmniManifest(join(run.dir, MANIFEST_FILE));
  const baseURL = baseSetting || resolved.config.baseURL;
  const model = config.get<string>('model') || manifest?.endpoint.model || resolved.config.model;
  // A judge elsewhere gets its own key (Set Judge API Key); the endpoint's key stays with the endpoint.
  const apiKey = baseSetting ? ((await secrets.get(JUDGE_KEY)) ?? '') : resolved.config.apiKey;
  const target = {
    ...resolved,
    config: { ...resolved.config, baseURL, model, apiKey },
    publicURL: publicBaseURL(baseURL),
    label: `${model} at ${publicBaseURL(baseURL)}`,
  };
  const { source } = await deps.sources.get();
  const maxHistoryTokens = manifest?.maxHistoryTokens || DEFAULT_MAX_HISTORY_TOKENS;
  const prompts = await judgePrompts(bench, run, source, maxHistoryTokens);
  if (prompts.length === 0) {
    void vscode.window.showInformationMessage(`Persona Lab: ${runName} has no answer the judge would score.`);
    return;
  }
  const guard = await guardPrompts(target, () => prompts, `judge of ${runName}`);
  if (!guard) return;
  const http = createOpenAITransport(target.config);
  const summary = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Persona Lab: judging ${runName}`, cancellable: true },
    (progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      return judgeRun({
        bench,
        run,
        source,
        endpoint: target.config,
        transport: guard === 'mask' ? maskingTransport(http) : http,
        maxHistoryTokens,
        concurrency: resolved.maxConcurrency,
        signal: abort.signal,
        onProgress: (p) =>
          progress.report({ message: `${p.evaluated + p.errors}/${p.total - p.skipped} judged, ${p.skipped} skipped` }),
      });
    },
  );
  const p = summary.progress;
  log.info(`omni judge ${runName}: ${summary.status}: ${p.evaluated} judged, ${p.skipped} skipped, ${p.errors} errors`);
  if (summary.status === 'failed') {
    void vscode.window.showErrorMessage(`Persona Lab: judging ${runName}: ${summary.error}`);
    return;
  }
  await deps.store.reload();
  void vscode.window.showInformationMessage(
    `Persona Lab: ${runName} judged by ${model}: ${p.evaluated} scored, ${p.skipped} skipped (no earlier user turn), ${p.errors} errors.`,
  );
}

export async function setJudgeKey(secrets: vscode.SecretStorage): Promise<void> {
  const key = await vscode.window.showInputBox({
    title: 'Persona Lab: Set Judge API Key',
    prompt: "The key for personaLab.judge.baseURL, kept in VS Code's secret storage only.",
    password: true,
    ignoreFocusOut: true,
  });
  if (key !== undefined) await secrets.store(JUDGE_KEY, key.trim());
}
