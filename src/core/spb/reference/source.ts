// Where a step's request comes from: a template in our `{{slot}}` syntax (Persona Lab's built-in one or the user's),
// or the benchmark's own prompt builder in the user's checkout of the StreamProfileBench repository. Every path that
// sends or shows a request (run, Re-run Step, the draft, the PI guard's scan, the estimate) renders through one.
import { existsSync } from 'node:fs';
import { isInside, readRegularFile } from '../../io/safeFs';
import { dirname, join, resolve } from 'node:path';
import { DEFAULT_SYSTEM_MESSAGE, renderPrompt, templateId, type PromptContext } from '../prompt/prompt';
import { kForPool } from '../score/step';
import type { Step, User } from '../types';
import { ReferenceDriver, ReferenceDriverError, type DriverOptions, type ReferenceInfo } from './driver';
import { crypto } from '../../io/builtins';

export const REFERENCE_FILES = ['bench_task.py', 'bench_inference.py'] as const;
export const REFERENCE_PROMPT_NAME = "the benchmark's prompt (bench_task.py)";

export interface StepPromptInput {
  user: User;
  step: Step;
  /** null: cold start (the reference passes None) */
  personaIn: string | null;
  postsText: string;
}

export interface RenderedStepRequest {
  system: string;
  prompt: string;
  k: number;
}

export interface PromptSource {
  kind: 'template' | 'reference';
  /** what every list shows */
  name: string;
  /** recorded with each attempt and in run.json (a template's 12-hex id, or bench_task.py@<12 hex>) */
  id: string;
  /** the system message the source sends (the reference's; a template's comes with each render) */
  systemMessage?: string;
  /** the reference's create-call temperature; undefined: the endpoint's setting */
  temperature?: number;
  /** the checkout, for the reference */
  checkout?: string;
  /** sha256 of the template text, or of the two reference files */
  hash: string;
  render(input: StepPromptInput): Promise<RenderedStepRequest>;
  close(): void;
}

/** What a template's slots are filled from, for one step and the persona it receives. */
export function promptContext({ user, step, personaIn, postsText }: StepPromptInput): PromptContext {
  return {
    platform: user.platform,
    username: user.username,
    bio: user.bio,
    persona: personaIn,
    stepId: step.stepId,
    totalSteps: step.totalSteps,
    postsText,
    pool: Array.isArray(step.pool) ? step.pool : [],
  };
}

/** A template's request for one step: its system message (the built-in one when none is given) and prompt. */
export function renderTemplateRequest(
  template: string,
  systemMessage: string | undefined,
  input: StepPromptInput,
): RenderedStepRequest {
  const r = renderPrompt(template, promptContext(input));
  const system = typeof systemMessage === 'string' ? systemMessage : DEFAULT_SYSTEM_MESSAGE;
  return { system, prompt: r.text, k: r.k };
}

export function templateSource(name: string, template: string, systemMessage?: string): PromptSource {
  return {
    kind: 'template',
    name,
    id: templateId(template),
    hash: crypto().createHash('sha256').update(template, 'utf8').digest('hex'),
    render: (input) => Promise.resolve(renderTemplateRequest(template, systemMessage, input)),
    close: () => undefined,
  };
}

/**
 * The folder itself, or the nearest of its parents up to `within` (the folder the user opened), that is a checkout;
 * null if none is. Never above `within`: a checkout's code runs, and a parent of the folder the user chose (or
 * trusted) is not theirs to vouch for. Without `within`, only the folder itself.
 */
export function findReferenceCheckout(from: string, within: string = from): string | null {
  let dir = resolve(from);
  const top = resolve(within);
  for (;;) {
    if (!isInside(top, dir)) return null;
    if (isReferenceCheckout(dir)) return dir;
    const up = dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

export function isReferenceCheckout(dir: string): boolean {
  return REFERENCE_FILES.every((f) => existsSync(join(dir, f)));
}

/** sha256 over both files, so a changed builder or system message is another prompt. */
export function referenceHash(checkout: string): string {
  const h = crypto().createHash('sha256');
  for (const f of REFERENCE_FILES) h.update(readRegularFile(join(checkout, f), checkout)).update('\0');
  return h.digest('hex');
}

/** What our client sends besides the messages; the reference's create call must ask for nothing else. */
function checkParams(info: ReferenceInfo): { temperature?: number } {
  const where = `bench_inference.py:${info.line}`;
  const out: { temperature?: number } = {};
  for (const [name, value] of Object.entries(info.params)) {
    if (name === 'temperature' && typeof value === 'number') out.temperature = value;
    else if (name === 'response_format' && JSON.stringify(value) === '{"type":"json_object"}') continue;
    else
      throw new ReferenceDriverError(
        `${where}: the reference sends ${name}=${JSON.stringify(value)}, which Persona Lab's client does not send the same way; stopping rather than sending another request`,
      );
  }
  if (out.temperature === undefined)
    throw new ReferenceDriverError(
      `${where}: the reference sends no temperature (the endpoint's default), while Persona Lab's client always sends one`,
    );
  if (!('response_format' in info.params))
    throw new ReferenceDriverError(
      `${where}: the reference asks for no JSON response format, which Persona Lab's client always does`,
    );
  return out;
}

/** The benchmark's own prompt, rendered by the checkout's bench_task.py (runs its code: trusted folders only). */
export async function referenceSource(checkout: string, options: DriverOptions = {}): Promise<PromptSource> {
  if (!isReferenceCheckout(checkout))
    throw new ReferenceDriverError(
      `${checkout}: not a checkout of StreamProfileBench (needs ${REFERENCE_FILES.join(' and ')})`,
    );
  const hash = referenceHash(checkout);
  const { driver, info } = await ReferenceDriver.start(checkout, options);
  let params: { temperature?: number };
  try {
    params = checkParams(info);
  } catch (e) {
    driver.close();
    throw e;
  }
  return {
    kind: 'reference',
    name: REFERENCE_PROMPT_NAME,
    id: `bench_task.py@${hash.slice(0, 12)}`,
    hash,
    checkout,
    systemMessage: info.system,
    temperature: params.temperature,
    render: async ({ user, step, personaIn, postsText }) => {
      const pool = Array.isArray(step.pool) ? step.pool : [];
      const prompt = await driver.render({
        platform: user.platform,
        username: user.username,
        bio: user.bio,
        posts_text: postsText,
        candidate_pool: pool,
        step_id: step.stepId,
        total_steps: step.totalSteps,
        prev_persona: personaIn,
      });
      return { system: info.system, prompt, k: kForPool(pool.length) };
    },
    close: () => driver.close(),
  };
}
