// PI carried through the chain: a residual PI value a model copies into a persona travels into every later prompt of
// that user. For each value found in a run's personas: where it entered (the first step whose written persona holds
// it, and the user's data it came from: the bio, a post or a tag, else the model itself), and every step whose written
// or received persona carries it. Built from the audit's findings, so it sees what the audit sees.
import { PLATFORMS, type Benchmark, type Platform } from '../types';
import type { PiCategory } from '../../pi/placeholders';

/** What a chain reads of an audit finding (audit.ts's AuditFinding has these and more). */
export interface ChainFinding {
  run: string | null;
  platform: Platform;
  userId: string;
  stepId: number | null;
  field: string;
  category: PiCategory;
  text: string;
  key: string;
}

export type ChainSource = 'bio' | 'post' | 'tag' | 'model';

export interface PiChain {
  run: string;
  platform: Platform;
  userId: string;
  category: PiCategory;
  /** the value as the first persona finding holds it */
  text: string;
  /** the first step whose written persona holds the value */
  enteredAt: number;
  /** where the user's data holds it first (bio, a post or a tag), or 'model' when it does not */
  source: ChainSource;
  /** the step of the post or tag that holds it; null for the bio and the model */
  sourceStep: number | null;
  /** steps whose written persona holds it */
  written: number[];
  /** steps whose received persona (the last non-empty one written before) holds it */
  received: number[];
  /** keys of the persona findings of the chain */
  findings: string[];
}

/** The same value however it is spaced or dashed ("138 0013 8000" and "13800138000"). */
export function valueKey(category: PiCategory, text: string): string {
  return `${category}:${text
    .normalize('NFKC')
    .replace(/[\s\-·.()]/g, '')
    .toLowerCase()}`;
}

const PERSONA = /^steps\[\d+\]\.persona_summary$/;
const userKey = (platform: string, userId: string) => `${platform}\u0000${userId}`;

function dataSource(f: ChainFinding): { source: ChainSource; step: number | null; rank: number } {
  if (f.field === 'bio') return { source: 'bio', step: null, rank: 0 };
  const post = f.field.endsWith('.posts_text');
  // Earlier steps first; at one step a post before a tag.
  return { source: post ? 'post' : 'tag', step: f.stepId, rank: 2 * (f.stepId ?? 0) + (post ? 0 : 1) };
}

/** The chains of `findings` (an audit of `bench`), in run, platform, user and entry order. */
export function piChains(bench: Benchmark, findings: readonly ChainFinding[]): PiChain[] {
  // Where each user's data holds each value first.
  const inData = new Map<string, ReturnType<typeof dataSource>>();
  for (const f of findings) {
    if (f.run !== null) continue;
    const key = `${userKey(f.platform, f.userId)}\u0000${valueKey(f.category, f.text)}`;
    const at = dataSource(f);
    const seen = inData.get(key);
    if (!seen || at.rank < seen.rank) inData.set(key, at);
  }
  const groups = new Map<string, ChainFinding[]>();
  for (const f of findings) {
    if (f.run === null || f.stepId === null || !PERSONA.test(f.field)) continue;
    const key = [f.run, f.platform, f.userId, valueKey(f.category, f.text)].join('\u0000');
    const list = groups.get(key) ?? [];
    list.push(f);
    groups.set(key, list);
  }
  const chains: PiChain[] = [];
  for (const [key, list] of groups) {
    const [run, platform, userId, value] = key.split('\u0000') as [string, Platform, string, string];
    const user = bench.users.get(platform)?.get(userId);
    const result = bench.runs.get(run)?.results.get(platform)?.get(userId);
    const written = [...new Set(list.map((f) => f.stepId as number))].sort((a, b) => a - b);
    const holds = new Set(written);
    const received: number[] = [];
    let last: number | null = null;
    for (const step of user?.steps ?? []) {
      const r = result?.steps.get(step.stepId);
      if (!r) continue;
      if (last !== null && holds.has(last)) received.push(step.stepId);
      if (r.personaSummary !== '') last = step.stepId;
    }
    const from = inData.get(`${userKey(platform, userId)}\u0000${value}`);
    const first = list.reduce((a, b) => ((b.stepId as number) < (a.stepId as number) ? b : a));
    chains.push({
      run,
      platform,
      userId,
      category: first.category,
      text: first.text,
      enteredAt: written[0],
      source: from?.source ?? 'model',
      sourceStep: from?.step ?? null,
      written,
      received,
      findings: list.map((f) => f.key),
    });
  }
  const order = (p: Platform) => PLATFORMS.indexOf(p);
  return chains.sort(
    (a, b) =>
      a.run.localeCompare(b.run) ||
      order(a.platform) - order(b.platform) ||
      a.userId.localeCompare(b.userId) ||
      a.enteredAt - b.enteredAt,
  );
}

/** "3–5, 7" */
export function stepRanges(steps: readonly number[]): string {
  const out: string[] = [];
  for (let i = 0; i < steps.length;) {
    let j = i;
    while (j + 1 < steps.length && steps[j + 1] === steps[j] + 1) j++;
    out.push(i === j ? `${steps[i]}` : `${steps[i]}–${steps[j]}`);
    i = j + 1;
  }
  return out.join(', ');
}

/** The steps the value was carried to after it entered (written or received there). */
export function carriedTo(c: PiChain): number[] {
  return [...new Set([...c.written, ...c.received])].filter((s) => s !== c.enteredAt).sort((a, b) => a - b);
}

const FROM: Record<ChainSource, (step: number | null) => string> = {
  bio: () => 'from the bio',
  post: (s) => `from a post of step ${s}`,
  tag: (s) => `from a tag of step ${s}`,
  model: () => "from the model (not in the user's bio, posts or tags)",
};

/** "entered at step 2 from a post of step 2, carried to steps 3–7" */
export function chainText(c: PiChain): string {
  const to = carriedTo(c);
  const carried = to.length
    ? `, carried to step${to.length === 1 ? '' : 's'} ${stepRanges(to)}`
    : ', not carried further';
  return `entered at step ${c.enteredAt} ${FROM[c.source](c.sourceStep)}${carried}`;
}

/** The tree row's short form: "step 2 (post) → 3–7"; the sentence is chainText. */
export function chainShort(c: PiChain): string {
  const to = carriedTo(c);
  return `step ${c.enteredAt} (${c.source})${to.length ? ` → ${stepRanges(to)}` : ''}`;
}

/** Per run: PI values carried into personas (chains) and the steps whose persona carries one. */
export function chainCounts(chains: readonly PiChain[]): Record<string, { values: number; steps: number }> {
  const out: Record<string, { values: number; steps: number; keys: Set<string> }> = {};
  for (const c of chains) {
    const r = (out[c.run] ??= { values: 0, steps: 0, keys: new Set() });
    r.values++;
    for (const s of new Set([...c.written, ...c.received])) r.keys.add(`${c.platform}/${c.userId}/${s}`);
    r.steps = r.keys.size;
  }
  return Object.fromEntries(Object.entries(out).map(([run, r]) => [run, { values: r.values, steps: r.steps }]));
}
