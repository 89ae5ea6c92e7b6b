// Run Persona Ablation for User…: the user's whole chain twice, persona "none" and "full", into two run folders
// (<name>-none, <name>-full) at the same time; the step view then shows the step-wise Recall side by side.
import * as vscode from 'vscode';
import { ablationTable } from '../../../../core/spb/rerun/ablation';
import type { RunProgress } from '../../../../core/spb/run/runner';
import { stepForCommand } from '../stepView';
import { slug, stamp, userOfNode } from './args';
import { askRunName, guardPlan, progressText, runPlan, type BatchPlan } from './batch';
import type { RerunDeps } from './step';
import { log } from '../../../log';

export async function runAblation(deps: RerunDeps, arg: unknown): Promise<void> {
  const { store, controller } = deps;
  const userArg = userOfNode(arg);
  const ref = userArg
    ? { ...userArg, stepId: store.user(userArg.platform, userArg.userId)?.steps[0]?.stepId ?? 1 }
    : await stepForCommand(store, deps.stepView, arg);
  const user = ref && store.user(ref.platform, ref.userId);
  if (!ref || !user || !store.bench || user.steps.length === 0) return;
  const title = `Persona Ablation for ${user.userId}`;
  const template = await deps.templates.pick(`${title} (1/2): template`, { reference: false });
  if (!template || !(await deps.templates.confirmUsable(template))) return;
  const base = await askRunName(
    store.bench.root,
    `ablation-${slug(user.userId)}-${stamp()}`,
    `${title} (2/2): run name (-none and -full are added)`,
  );
  const target = base && (await deps.endpoint.resolve());
  if (!base || !target) return;

  const names = { none: `${base}-none`, full: `${base}-full` };
  // Both runs render the same prompts until the model writes a persona: one scan, one question.
  const guarded = await guardPlan(
    deps,
    { name: base, template, personaMode: 'none', platforms: [user.platform], userId: user.userId, fromStep: 1 },
    target,
  );
  if (!guarded) return;
  const plan = (mode: 'none' | 'full'): BatchPlan => ({ ...guarded, name: names[mode], personaMode: mode });
  const status = (p: Record<'none' | 'full', RunProgress | undefined>) =>
    `Persona ablation of ${user.userId}: none ${p.none ? `${p.none.done}/${p.none.total}` : '…'} · full ${p.full ? `${p.full.done}/${p.full.total}` : '…'} steps`;
  const seen: Record<'none' | 'full', RunProgress | undefined> = { none: undefined, full: undefined };
  const shown = {
    platform: user.platform,
    userId: user.userId,
    stepId: deps.stepView.currentRef?.userId === user.userId ? deps.stepView.currentRef.stepId : user.steps[0].stepId,
  };
  deps.stepView.show(shown, true);
  controller.setRunning(shown, status(seen));
  const track = (mode: 'none' | 'full') => (p: RunProgress) => {
    seen[mode] = p;
    controller.setRunning(shown, status(seen));
  };
  let summaries;
  try {
    summaries = await Promise.all([
      runPlan(deps, plan('none'), target, `Persona Lab: ${names.none}`, track('none')),
      runPlan(deps, plan('full'), target, `Persona Lab: ${names.full}`, track('full')),
    ]);
  } finally {
    controller.setRunning(shown, null);
  }
  const [none, full] = summaries;
  const failed = [none, full].find((s) => !s || s.status !== 'finished');
  await store.reload();
  const bench = store.bench;
  const loaded = bench && store.user(user.platform, user.userId);
  if (bench && loaded) {
    const table = ablationTable(
      loaded,
      { none: bench.runs.get(names.none), full: bench.runs.get(names.full) },
      { names, templateId: template.id, model: target.config.model },
    );
    controller.setAblation(table);
    log.info(`ablation ${base}: mean Recall none ${table.mean.noneText}, full ${table.mean.fullText}`);
  }
  if (failed) {
    const detail = [none, full]
      .map(
        (s, i) =>
          `${i ? 'full' : 'none'}: ${s ? `${s.status}, ${progressText(s.progress)}${s.error ? ` (${s.error})` : ''}` : 'not run'}`,
      )
      .join('; ');
    void vscode.window.showWarningMessage(
      `Persona Lab: the ablation of ${user.userId} did not finish: ${detail}. The table shows what ran.`,
    );
  } else {
    vscode.window.setStatusBarMessage(
      `Persona Lab: ablation of ${user.userId} done (${names.none}, ${names.full})`,
      8000,
    );
  }
}
