// Re-run Failed Requests…: a copy of a run in which only its failed requests (the reference's error record) are
// sent again, each with the persona it received (core runner/onlyFailed.ts, as `run --only-failed`). The run is the
// one given (a name), else the selected one when it has failed requests, else picked among those that have.
import * as vscode from 'vscode';
import { failedRequests } from '../../../../core/spb/score/failedRequests';
import type { Run } from '../../../../core/spb/types';
import { slug } from './args';
import { askRunName, finishRun, guardPlan, runNameBase, runPlan } from './batch';
import { estimateText } from './estimate';
import type { RerunDeps } from './step';

const plural = (n: number) => `${n} failed request${n === 1 ? '' : 's'}`;

async function pickRun(deps: RerunDeps, arg: unknown): Promise<{ run: Run; failed: number } | undefined> {
  const bench = deps.store.bench;
  if (!bench) return undefined;
  const withFailed = [...bench.runs.values()]
    .map((run) => ({ run, failed: failedRequests(bench, run).failed }))
    .filter((r) => r.failed > 0);
  const named = typeof arg === 'string' ? arg : deps.store.runName;
  const given = withFailed.find((r) => r.run.name === named);
  if (given) return given;
  if (withFailed.length === 0) {
    void vscode.window.showInformationMessage('Persona Lab: no run of this benchmark has a failed request.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    withFailed.map((r) => ({ label: r.run.name, description: plural(r.failed), r })),
    { title: 'Re-run Failed Requests (1/3): run', ignoreFocusOut: true },
  );
  return picked?.r;
}

export async function rerunFailed(deps: RerunDeps, arg: unknown): Promise<void> {
  const bench = deps.store.bench;
  const chosen = await pickRun(deps, arg);
  if (!bench || !chosen) return;
  const { run, failed } = chosen;
  const title = `Re-run ${plural(failed)} of ${run.name}`;
  const template = await deps.templates.pick(`${title} (2/3): prompt`);
  if (!template || !(await deps.templates.confirmUsable(template))) return;
  const target = await deps.endpoint.resolve();
  if (!target) return;
  const selection = { template: template.text, source: template.source, personaMode: 'full' as const };
  const estimate = await estimateText(bench, { ...selection, onlyFailedOf: run }, target).catch(
    (e: Error) => `no estimate: ${e.message}`,
  );
  const name = await askRunName(
    bench.root,
    `${slug(run.name)}-retried-${slug(runNameBase(template))}`,
    `${title} (3/3): name of the copy (${run.name} is left as it is)`,
    estimate,
  );
  if (!name || name === run.name) return;
  const plan = await guardPlan(deps, { name, template, personaMode: 'full', onlyFailedOf: run }, target);
  if (!plan) return;
  await finishRun(deps, plan, await runPlan(deps, plan, target, `Persona Lab: ${title} → ${name}`), target);
}
