// The prompts a batch run will send, rendered before it starts (for the re-run guard's scan). A chain's later steps
// receive the persona the model writes during the run, unknown here: they are rendered with the cold-start text, so
// only what the benchmark and the start persona put in a prompt is seen.
import type { Benchmark, Platform } from '../spb/types';
import { PLATFORMS } from '../spb/types';
import { planRun, type RunOptions } from './runner';
import { renderStepRequest, startPersonaFor } from './step';

/** What of a run decides which prompts it sends: the run's own options, so the two cannot drift apart. */
export type PlannedSelection = Pick<
  RunOptions,
  | 'template'
  | 'systemMessage'
  | 'personaMode'
  | 'platforms'
  | 'userId'
  | 'users'
  | 'fromStep'
  | 'startPersona'
  | 'readPosts'
>;

export interface PlannedPrompt {
  /** "platform/user step n" */
  label: string;
  platform: Platform;
  userId: string;
  /** the step's index in the user's prediction_tasks (the journal's key) */
  index: number;
  system: string;
  prompt: string;
}

export function plannedPrompts(bench: Benchmark, sel: PlannedSelection): PlannedPrompt[] {
  const platforms = (sel.platforms ?? PLATFORMS).filter((p) => bench.users.has(p));
  const fromStep = Number.isFinite(sel.fromStep) ? Math.max(1, Math.floor(sel.fromStep ?? 1)) : 1;
  const out: PlannedPrompt[] = [];
  for (const job of planRun(bench, platforms, sel.userId ?? null, fromStep, sel.users)) {
    const { user } = job;
    const first =
      sel.personaMode === 'none'
        ? null
        : startPersonaFor(bench, sel.startPersona ?? { kind: 'none' }, user, job.steps[0].stepId);
    for (const [i, step] of job.steps.entries()) {
      const r = renderStepRequest({
        user,
        step,
        personaIn: i === 0 ? first : null,
        template: sel.template,
        systemMessage: sel.systemMessage,
        readPosts: sel.readPosts,
      });
      out.push({
        label: `${user.platform}/${user.userId} step ${step.stepId}`,
        platform: user.platform,
        userId: user.userId,
        index: step.index,
        system: r.system,
        prompt: r.prompt,
      });
    }
  }
  return out;
}
