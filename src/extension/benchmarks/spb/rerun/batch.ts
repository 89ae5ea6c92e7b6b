// Batch runs into a new results/<name>/ folder (core runBenchmark): a chain (one user from step n), a platform or
// the whole benchmark; Resume Run… picks up a cancelled or failed one. Progress with counts, cancellable; the
// benchmark reloads at the end so that the new run can be chosen.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { maskingTransport, maskOutgoing } from '../../../../core/pi/guard';
import { createOpenAITransport } from '../../../../core/runner/client';
import { renderPlanned } from '../../../../core/spb/run/preflight';
import { SPB_RUN_FILES } from '../../../../core/spb/run/runFiles';
import { runBenchmark, type RunProgress, type RunSummary } from '../../../../core/spb/run/runner';
import { MANIFEST_FILE, isValidRunName } from '../../../../core/runner/runFolder';
import { readManifest, type PersonaMode, type StartPersona } from '../../../../core/runner/manifest';
import { PLATFORMS, type Benchmark, type Platform, type Run, type Step, type User } from '../../../../core/spb/types';
import type { ResolvedEndpoint } from '../../../endpoint';
import { stepForCommand } from '../stepView';
import type { ChosenTemplate } from '../templates';
import { referenceTemplate } from '../templates/library';
import { referenceUnavailable } from '../templates/reference';
import { platformOf, slug, stamp, userOfNode } from './args';
import { guardPrompts } from '../../../rerun/guard';
import { withBatchProgress } from '../../../rerun/batchShell';
import { estimateText } from './estimate';
import { pickPersona, type RerunDeps } from './step';
import { log } from '../../../log';
import { BUILTIN_TEMPLATE_NAME } from '../../../../core/spb/prompt/templateFiles';
import { NO_PERSONA } from '../../../../core/glossary';

/** The start of a run's default name: the template file's name, or "pl-template" for Persona Lab's built-in one. */
export function runNameBase(template: { name: string; source?: unknown }): string {
  if (template.source) return 'bench-prompt';
  return template.name === BUILTIN_TEMPLATE_NAME ? 'pl-template' : template.name;
}

export interface BatchPlan {
  name: string;
  template: Pick<ChosenTemplate, 'name' | 'text' | 'source'>;
  systemMessage?: string;
  personaMode: PersonaMode;
  platforms?: Platform[];
  userId?: string | null;
  /** only these users per platform (an experiment's sample) */
  users?: Partial<Record<Platform, string[]>>;
  fromStep?: number;
  startPersona?: StartPersona;
  /** the manifest's model when resuming (it must not change within a run) */
  model?: string;
  /** the guard's "mask": every request is masked at send time (and so is what the history records) */
  mask?: boolean;
  /**
   * The benchmark the plan runs on, when not the open one as loaded, and the posts each step sends instead of its
   * own: the long-context baseline's view and reader (core longContextPlan, as the CLI's executeRun gets them).
   */
  bench?: Benchmark;
  readPosts?: (user: User, step: Step) => string;
  /** a copy of this run with only its failed requests sent again (core runner/onlyFailed.ts) */
  onlyFailedOf?: Run;
}

/**
 * Scans every prompt of the plan before it starts and asks once (the guard); the plan to run, or undefined when
 * the user cancelled.
 */
export async function guardPlan(
  deps: RerunDeps,
  plan: BatchPlan,
  target: ResolvedEndpoint,
): Promise<BatchPlan | undefined> {
  const bench = plan.bench ?? deps.store.bench;
  if (!bench) return undefined;
  const choice = await guardPrompts(
    target,
    () =>
      renderPlanned(bench, {
        template: plan.template.text,
        source: plan.template.source,
        systemMessage: plan.systemMessage ?? target.systemMessage,
        personaMode: plan.personaMode,
        platforms: plan.platforms,
        userId: plan.userId,
        users: plan.users,
        fromStep: plan.fromStep,
        startPersona: plan.startPersona,
        readPosts: plan.readPosts,
        onlyFailedOf: plan.onlyFailedOf,
      }),
    `run ${plan.name}`,
  );
  return choice && { ...plan, mask: choice === 'mask' };
}

export const progressText = (p: RunProgress) =>
  `${p.done}/${p.total} steps · ${p.failed} failed · ${p.usersDone}/${p.usersTotal} users`;

/** Runs one plan under a cancellable progress notification; `report` also gets each progress. */
export async function runPlan(
  deps: RerunDeps,
  plan: BatchPlan,
  target: ResolvedEndpoint,
  title: string,
  report?: (p: RunProgress) => void,
): Promise<RunSummary | undefined> {
  const bench = plan.bench ?? deps.store.bench;
  if (!bench) return undefined;
  const model = plan.model ?? target.config.model;
  await deps.history.open();
  return withBatchProgress(title, (signal, show) => {
    const endpoint = {
      ...target.config,
      model,
      temperature: plan.template.source?.temperature ?? target.config.temperature,
    };
    return runBenchmark({
      bench,
      name: plan.name,
      template: plan.template.text,
      source: plan.template.source,
      systemMessage: plan.systemMessage ?? target.systemMessage,
      endpoint,
      transport: plan.mask ? maskingTransport(createOpenAITransport(endpoint)) : undefined,
      personaMode: plan.personaMode,
      platforms: plan.platforms,
      userId: plan.userId ?? null,
      users: plan.users,
      fromStep: plan.fromStep ?? 1,
      startPersona: plan.startPersona,
      readPosts: plan.readPosts,
      onlyFailedOf: plan.onlyFailedOf,
      concurrency: target.maxConcurrency,
      signal,
      onProgress: (p) => {
        show({ done: p.done, total: p.total, message: progressText(p) });
        report?.(p);
      },
      onStep: (r) =>
        void deps.history.record({ run: plan.name, model, baseURL: target.publicURL }, plan.mask ? maskOutgoing(r) : r),
    });
  });
}

/** Reloads the benchmark and says how the run ended, offering to select it (or to resume it). */
export async function finishRun(
  deps: RerunDeps,
  plan: BatchPlan,
  summary: RunSummary | undefined,
  target: ResolvedEndpoint,
): Promise<void> {
  if (!summary) return;
  const p = summary.progress;
  log.info(`run ${plan.name}: ${summary.status}, ${progressText(p)}`);
  if (summary.status === 'failed' && !summary.manifest) {
    void vscode.window.showErrorMessage(
      `Persona Lab: run ${plan.name} did not start: ${summary.error ?? 'unknown error'}`,
    );
    return;
  }
  await deps.store.reload();
  const loaded = deps.store.bench?.runs.has(plan.name) === true;
  const text = `Persona Lab: run ${plan.name} ${summary.status}${summary.resumed ? ' (resumed)' : ''}: ${progressText(p)}.`;
  const actions = [loaded ? 'Select Run' : undefined, summary.status === 'finished' ? undefined : 'Resume'].filter(
    (a): a is string => a !== undefined,
  );
  const show =
    summary.status === 'finished'
      ? vscode.window.showInformationMessage
      : summary.status === 'cancelled'
        ? vscode.window.showWarningMessage
        : vscode.window.showErrorMessage;
  const choice = await show(summary.error ? `${text} ${summary.error}` : text, ...actions);
  if (choice === 'Select Run') await deps.store.selectRun(plan.name);
  else if (choice === 'Resume')
    await finishRun(deps, plan, await runPlan(deps, plan, target, `Persona Lab: run ${plan.name}`), target);
}

/** Asks for the run folder's name; an existing folder is accepted when it holds our manifest (the run resumes). */
export async function askRunName(
  root: string,
  suggestion: string,
  title: string,
  estimate?: string,
): Promise<string | undefined> {
  const prompt = 'Name of the new run folder under results/ (an unfinished run of the same name and settings resumes)';
  return vscode.window.showInputBox({
    title,
    prompt: estimate ? `${prompt}. ${estimate}` : prompt,
    value: suggestion,
    ignoreFocusOut: true,
    validateInput: (v) => {
      if (!isValidRunName(v)) return 'Letters, digits, ".", "_" and "-" only';
      const dir = join(root, 'results', v);
      if (!existsSync(dir)) return undefined;
      const m = readManifest(join(dir, MANIFEST_FILE), SPB_RUN_FILES);
      if (!m) return `results/${v} exists and was not written by Persona Lab`;
      return {
        message: `results/${v} exists (${m.status}, ${m.counts.done}/${m.counts.steps} steps): it resumes if the settings match`,
        severity: vscode.InputBoxValidationSeverity.Info,
      };
    },
  });
}

async function pickMode(title: string): Promise<PersonaMode | undefined> {
  const picked = await vscode.window.showQuickPick(
    [
      {
        label: '$(history) Full persona',
        description: 'each step receives the persona the step before wrote',
        mode: 'full' as const,
      },
      {
        label: `$(circle-slash) ${NO_PERSONA}`,
        description: "every step gets the cold-start text (the paper's ablation)",
        mode: 'none' as const,
      },
    ],
    { title, placeHolder: 'Persona mode', ignoreFocusOut: true },
  );
  return picked?.mode;
}

/** The chain's first persona when it starts after step 1 in full mode. */
async function pickStart(
  deps: RerunDeps,
  platform: Platform,
  userId: string,
  stepId: number,
  title: string,
): Promise<StartPersona | undefined> {
  const user = deps.store.user(platform, userId);
  const step = user?.steps.find((s) => s.stepId === stepId);
  if (!user || !step || stepId <= user.steps[0].stepId) return { kind: 'none' };
  const choice = await pickPersona(deps.store, user, step, title);
  if (!choice) return undefined;
  if (choice.mode === 'carried' && deps.store.runName) return { kind: 'run', run: deps.store.runName };
  return choice.text === null ? { kind: 'none' } : { kind: 'text', text: choice.text };
}

export async function rerunChain(deps: RerunDeps, arg: unknown): Promise<void> {
  const { store } = deps;
  const userArg = userOfNode(arg);
  const first = userArg && store.user(userArg.platform, userArg.userId)?.steps[0];
  const ref = userArg && first ? { ...userArg, stepId: first.stepId } : await stepForCommand(store, deps.stepView, arg);
  if (!ref || !store.bench) return;
  const scope = `${ref.userId} from step ${ref.stepId}`;
  const template = await deps.templates.pick(`Re-run Chain ${scope} (1/4): template`);
  if (!template || !(await deps.templates.confirmUsable(template))) return;
  const personaMode = await pickMode(`Re-run Chain ${scope} (2/4): persona mode`);
  if (!personaMode) return;
  const startPersona =
    personaMode === 'full'
      ? await pickStart(
          deps,
          ref.platform,
          ref.userId,
          ref.stepId,
          `Re-run Chain ${scope} (3/4): persona of step ${ref.stepId}`,
        )
      : { kind: 'none' as const };
  if (!startPersona) return;
  const name = await askRunName(
    store.bench.root,
    `${slug(runNameBase(template))}-${slug(ref.userId)}-s${ref.stepId}-${personaMode}-${stamp()}`,
    `Re-run Chain ${scope} (4/4): run name`,
  );
  const target = name && (await deps.endpoint.resolve());
  if (!name || !target) return;
  const plan = await guardPlan(
    deps,
    { name, template, personaMode, platforms: [ref.platform], userId: ref.userId, fromStep: ref.stepId, startPersona },
    target,
  );
  if (!plan) return;
  await finishRun(deps, plan, await runPlan(deps, plan, target, `Persona Lab: chain ${scope} → ${name}`), target);
}

/** `given`: the template to run (an experiment promoted to a full run) instead of asking for one. */
export async function rerunPlatforms(
  deps: RerunDeps,
  arg: unknown,
  all: boolean,
  given?: Pick<ChosenTemplate, 'name' | 'text' | 'source'>,
): Promise<void> {
  const bench = deps.store.bench;
  if (!bench) return;
  let platforms: Platform[] = PLATFORMS.filter((p) => bench.users.has(p));
  if (!all) {
    const given = platformOf(arg);
    const picked = given
      ? { platform: given }
      : await vscode.window.showQuickPick(
          platforms.map((p) => ({ label: p, description: `${bench.users.get(p)?.size ?? 0} users`, platform: p })),
          { title: 'Re-run Platform: platform', ignoreFocusOut: true },
        );
    if (!picked) return;
    platforms = [picked.platform];
  }
  const scope = all ? 'benchmark' : platforms[0];
  const title = all ? 'Re-run Benchmark' : `Re-run Platform ${scope}`;
  const template = given ?? (await deps.templates.pick(`${title} (1/3): template`));
  if (!template || (!given && !(await deps.templates.confirmUsable(template as ChosenTemplate)))) return;
  const personaMode = await pickMode(`${title} (2/3): persona mode`);
  if (!personaMode) return;
  // Resolved before the name is asked, so that the name's prompt can give the estimate (tokens and cost).
  const target = await deps.endpoint.resolve();
  if (!target) return;
  const estimate = await estimateText(
    bench,
    { template: template.text, source: template.source, personaMode, platforms },
    target,
  ).catch((e: Error) => `no estimate: ${e.message}`);
  const name = await askRunName(
    bench.root,
    `${slug(runNameBase(template))}-${scope}-${personaMode}-${stamp()}`,
    `${title} (3/3): run name`,
    estimate,
  );
  if (!name) return;
  const plan = await guardPlan(deps, { name, template, personaMode, platforms }, target);
  if (!plan) return;
  await finishRun(deps, plan, await runPlan(deps, plan, target, `Persona Lab: ${scope} → ${name}`), target);
}

/** Resume Run…: the run folders whose manifest says they did not finish, resumed with their own settings. */
export async function resumeRun(deps: RerunDeps): Promise<void> {
  const root = deps.store.root;
  if (!root) return;
  const dir = join(root, 'results');
  const items = (existsSync(dir) ? readdirSync(dir, { withFileTypes: true }) : [])
    .filter((d) => d.isDirectory())
    .flatMap((d) => {
      const m = readManifest(join(root, 'results', d.name, MANIFEST_FILE), SPB_RUN_FILES);
      return m && m.status !== 'finished'
        ? [
            {
              label: d.name,
              description: `${m.status} · ${m.counts.done}/${m.counts.steps} steps · ${m.endpoint.model}`,
              m,
            },
          ]
        : [];
    });
  if (items.length === 0) {
    void vscode.window.showInformationMessage('Persona Lab: no unfinished run under results/.');
    return;
  }
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Resume Run',
    placeHolder: 'A run that was cancelled or failed',
  });
  const target = picked && (await deps.endpoint.resolve());
  if (!picked || !target) return;
  const m = picked.m;
  let template: BatchPlan['template'] = { name: m.template.id, text: m.template.text };
  if (m.template.reference) {
    // Made with the benchmark's own prompt: resumed only with the same checkout, unchanged.
    const ref = await deps.templates.reference.state();
    if (ref.kind !== 'ready' || ref.source.hash !== m.template.hash) {
      void vscode.window.showWarningMessage(
        `Persona Lab: ${picked.label} was made with the benchmark's prompt from ${m.template.reference.checkout}; ` +
          (ref.kind === 'ready'
            ? 'its bench_task.py or bench_inference.py has changed since, so the run cannot go on with the same prompt.'
            : (referenceUnavailable(ref) ?? 'no checkout of StreamProfileBench is found for this folder.')),
      );
      return;
    }
    template = referenceTemplate(ref.source);
  }
  const planned: BatchPlan = {
    name: picked.label,
    template,
    systemMessage: m.systemMessage,
    personaMode: m.personaMode,
    platforms: m.selection.platforms,
    userId: m.selection.userId,
    users: m.selection.users,
    fromStep: m.selection.fromStep,
    startPersona: m.selection.startPersona,
    model: m.endpoint.model,
  };
  // Temperature and max_tokens are part of the run's identity: the manifest's, not today's settings.
  const same: ResolvedEndpoint = {
    ...target,
    config: { ...target.config, temperature: m.endpoint.temperature, maxTokens: m.endpoint.maxTokens ?? undefined },
  };
  const plan = await guardPlan(deps, planned, same);
  if (!plan) return;
  await finishRun(deps, plan, await runPlan(deps, plan, same, `Persona Lab: resume ${plan.name}`), same);
}
