// The prompts a batch run will send, rendered before it starts (for the re-run guard's scan). A chain's later steps
// receive the persona the model writes during the run, unknown here: they are rendered with the cold-start text, so
// only what the benchmark and the start persona put in a prompt is seen.
import type { Benchmark, Platform, Step, User } from '../types';
import { failedStepsOf } from './onlyFailed';
import { PLATFORMS } from '../types';
import { planRun } from './plan';
import type { RunOptions } from './runner';
import { renderStepRequest, safeReadPosts, startPersonaFor } from './step';
import { readPostsText } from '../format/load';
import { estimateRequests, type Prices, type RunEstimate } from '../../runner/estimate';
import { stepKey } from '../../runner/journal';

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
  | 'source'
  | 'onlyFailedOf'
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

/** As plannedPrompts, rendered by `sel.source` when one is given (the benchmark's own prompt builder). */
export async function renderPlanned(bench: Benchmark, sel: PlannedSelection): Promise<PlannedPrompt[]> {
  const source = sel.source;
  if (!source || source.kind === 'template') return plannedPrompts(bench, sel);
  const out: PlannedPrompt[] = [];
  for (const p of plannedSteps(bench, sel)) {
    const postsText = safeReadPosts(sel.readPosts ?? readPostsText, p.user, p.step);
    const r = await source.render({ user: p.user, step: p.step, personaIn: p.personaIn, postsText });
    out.push({ ...p.head, system: r.system, prompt: r.prompt });
  }
  return out;
}

const head = (user: User, step: Step) => ({
  label: `${user.platform}/${user.userId} step ${step.stepId}`,
  platform: user.platform,
  userId: user.userId,
  index: step.index,
});

function plannedSteps(bench: Benchmark, sel: PlannedSelection) {
  const from = sel.onlyFailedOf;
  if (from) {
    const platforms = PLATFORMS.filter((p) => from.results.has(p) && bench.users.has(p));
    return failedStepsOf(bench, from, platforms).map((f) => ({ ...f, head: head(f.user, f.step) }));
  }
  const platforms = (sel.platforms ?? PLATFORMS).filter((p) => bench.users.has(p));
  const fromStep = Number.isFinite(sel.fromStep) ? Math.max(1, Math.floor(sel.fromStep ?? 1)) : 1;
  return planRun(bench, platforms, sel.userId ?? null, fromStep, sel.users).flatMap((job) => {
    const { user } = job;
    const first =
      sel.personaMode === 'none'
        ? null
        : startPersonaFor(bench, sel.startPersona ?? { kind: 'none' }, user, job.steps[0].stepId);
    return job.steps.map((step, i) => ({
      user,
      step,
      personaIn: i === 0 ? first : null,
      head: head(user, step),
    }));
  });
}

export function plannedPrompts(bench: Benchmark, sel: PlannedSelection): PlannedPrompt[] {
  return plannedSteps(bench, sel).map((p) => {
    const r = renderStepRequest({
      user: p.user,
      step: p.step,
      personaIn: p.personaIn,
      template: sel.template,
      systemMessage: sel.systemMessage,
      readPosts: sel.readPosts,
    });
    return { ...p.head, system: r.system, prompt: r.prompt };
  });
}

/** `done`: journal keys (stepKey) of finished steps, which a resume does not request again. */
export function estimateRun(
  prompts: readonly PlannedPrompt[],
  opts: { done?: ReadonlySet<string>; maxTokens?: number | null; prices?: Prices } = {},
): RunEstimate {
  const items = prompts.map((p) => ({
    system: p.system,
    prompt: p.prompt,
    done: opts.done?.has(stepKey(p.platform, p.userId, p.index)) === true,
    maxTokens: opts.maxTokens ?? null,
  }));
  return estimateRequests(items, opts.prices);
}
