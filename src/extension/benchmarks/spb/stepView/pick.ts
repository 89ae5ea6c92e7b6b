// Quick pick for personaLab.openStep without an argument: a user (all platforms), then one of its steps.
import * as vscode from 'vscode';
import { allUsers } from '../../../../core/spb/format/load';
import { scoreStepOfRun } from '../../../../core/spb/score/run';
import type { User } from '../../../../core/spb/types';
import type { SpbStore, StepRef } from '../store';

interface UserItem extends vscode.QuickPickItem {
  user: User;
}
interface StepItem extends vscode.QuickPickItem {
  stepId: number;
}

function pct(v: number): string {
  return Number.isFinite(v) ? `${(v * 100).toFixed(1)} %` : '—';
}

export async function pickStep(store: SpbStore): Promise<StepRef | undefined> {
  const bench = store.bench;
  if (!bench) return undefined;
  const users: UserItem[] = [];
  for (const user of allUsers(bench)) {
    users.push({
      label: user.userId,
      description: `${user.username} · ${user.platform}`,
      detail: `${user.steps.length} step${user.steps.length === 1 ? '' : 's'}`,
      user,
    });
  }
  if (users.length === 0) {
    void vscode.window.showInformationMessage('Persona Lab: the benchmark has no users.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(users, {
    title: 'Persona Lab: Open Step (1/2) — user',
    placeHolder: 'User id, username or platform',
    matchOnDescription: true,
  });
  if (!picked) return undefined;
  const user = picked.user;
  if (user.steps.length === 1) return { platform: user.platform, userId: user.userId, stepId: user.steps[0].stepId };
  const run = store.run;
  const steps: StepItem[] = user.steps.map((step) => {
    const score = run ? scoreStepOfRun(run, user, step) : undefined;
    const recall = score?.metrics ? `R ${pct(score.metrics.Recall)}` : score?.result ? 'not scored' : 'no result';
    return {
      label: `step ${step.stepId}/${step.totalSteps}`,
      description: `${step.dateInput} → ${step.dateTarget}`,
      detail: run ? `${run.name}: ${recall}` : undefined,
      stepId: step.stepId,
    };
  });
  const step = await vscode.window.showQuickPick(steps, {
    title: `Persona Lab: Open Step (2/2) — ${user.userId}`,
    placeHolder: 'Step',
  });
  return step ? { platform: user.platform, userId: user.userId, stepId: step.stepId } : undefined;
}
