// The re-run guard: before prompts leave for a remote endpoint, scan them for residual PI and decide whether to
// send, mask (each finding replaced by its placeholder) or ask. Pure: the extension and the CLI supply the
// settings and show the question.
import type { ChatTransport } from '../runner/client';
import { isLoopbackEndpoint, maskText, scanPrompt } from './mask';
import { PI_CATEGORIES, type PiCategory } from './placeholders';
import type { Finding } from './types';

/** ask: a modal question; mask: masked without asking; off: no scan at all. */
export const REMOTE_GUARD_MODES = ['ask', 'mask', 'off'] as const;
export type RemoteGuardMode = (typeof REMOTE_GUARD_MODES)[number];

export interface GuardSettings {
  mode: RemoteGuardMode;
  /** loopback endpoints count as remote too (to try the guard against a local server) */
  guardLoopback: boolean;
}

export const DEFAULT_GUARD: GuardSettings = { mode: 'ask', guardLoopback: false };

/** Settings values as read (anything); unknown values fall back to the defaults. */
export function parseGuardSettings(mode: unknown, guardLoopback: unknown): GuardSettings {
  return {
    mode:
      typeof mode === 'string' && (REMOTE_GUARD_MODES as readonly string[]).includes(mode)
        ? (mode as RemoteGuardMode)
        : DEFAULT_GUARD.mode,
    guardLoopback: guardLoopback === true,
  };
}

/** Whether prompts to this endpoint are scanned at all. */
export function guardApplies(baseURL: string, settings: GuardSettings): boolean {
  if (settings.mode === 'off') return false;
  return settings.guardLoopback || !isLoopbackEndpoint(baseURL);
}

export interface OutgoingPrompt {
  /** where the prompt comes from, e.g. "weibo/we_1 step 2" */
  label: string;
  system: string;
  prompt: string;
}

export interface GuardFinding extends Finding {
  label: string;
  part: 'system' | 'prompt';
}

export interface GuardScan {
  prompts: number;
  /** prompts with at least one finding */
  affected: number;
  findings: GuardFinding[];
  byCategory: Partial<Record<PiCategory, number>>;
}

function addPrompt(scan: GuardScan, p: OutgoingPrompt): void {
  scan.prompts++;
  const found = [
    ...scanPrompt(p.system).findings.map((f): GuardFinding => ({ ...f, label: p.label, part: 'system' })),
    ...scanPrompt(p.prompt).findings.map((f): GuardFinding => ({ ...f, label: p.label, part: 'prompt' })),
  ];
  if (found.length) scan.affected++;
  for (const f of found) {
    scan.findings.push(f);
    scan.byCategory[f.category] = (scan.byCategory[f.category] ?? 0) + 1;
  }
}

export function scanOutgoing(prompts: Iterable<OutgoingPrompt>): GuardScan {
  const scan: GuardScan = { prompts: 0, affected: 0, findings: [], byCategory: {} };
  for (const p of prompts) addPrompt(scan, p);
  return scan;
}

/**
 * scanOutgoing in slices, giving the event loop back between them (a whole benchmark is thousands of prompts, about
 * a millisecond each): for the extension host. Resolves to null when the signal aborts.
 */
export async function scanOutgoingAsync(
  prompts: readonly OutgoingPrompt[],
  opts: { slice?: number; signal?: AbortSignal; onProgress?: (done: number, total: number) => void } = {},
): Promise<GuardScan | null> {
  const scan: GuardScan = { prompts: 0, affected: 0, findings: [], byCategory: {} };
  const slice = Math.max(1, opts.slice ?? 50);
  for (let i = 0; i < prompts.length; i += slice) {
    if (opts.signal?.aborted) return null;
    for (const p of prompts.slice(i, i + slice)) addPrompt(scan, p);
    opts.onProgress?.(scan.prompts, prompts.length);
    if (i + slice < prompts.length) await new Promise((r) => setTimeout(r, 0));
  }
  return opts.signal?.aborted ? null : scan;
}

export type GuardAction = 'send' | 'mask' | 'ask';

/** What to do with a scan's prompts (after guardApplies said they are scanned). */
export function decideGuard(settings: GuardSettings, scan: GuardScan): GuardAction {
  if (settings.mode === 'off' || scan.findings.length === 0) return 'send';
  return settings.mode === 'mask' ? 'mask' : 'ask';
}

/** One line per finding: category, confidence, the text, where. */
export function findingLine(f: GuardFinding): string {
  return `${f.category} (${f.confidence}) "${f.text}" in the ${f.part === 'system' ? 'system message' : 'prompt'} of ${f.label}`;
}

/** The modal's message and detail: a summary by category, then the first `max` findings. */
export function guardQuestion(scan: GuardScan, endpoint: string, max = 12): { message: string; detail: string } {
  const n = scan.findings.length;
  const cats = PI_CATEGORIES.filter((c) => scan.byCategory[c])
    .map((c) => `${c} ×${scan.byCategory[c]}`)
    .join(', ');
  const where = scan.prompts === 1 ? 'The prompt' : `${scan.affected} of ${scan.prompts} prompts`;
  const message = `${where} to ${endpoint} ${scan.prompts === 1 ? 'holds' : 'hold'} ${n} unredacted PI finding${n === 1 ? '' : 's'} (${cats}). Send them?`;
  const lines = scan.findings.slice(0, max).map(findingLine);
  if (n > max) lines.push(`… and ${n - max} more`);
  lines.push('', 'Mask and Send replaces each finding with its placeholder, e.g. <PHONE>. Cancel sends nothing.');
  return { message, detail: lines.join('\n') };
}

/** What masking a request replaces, per category ("PHONE" → 2); empty when nothing is. */
export function maskedCounts(req: { system: string; prompt: string }): Partial<Record<PiCategory, number>> {
  const scan = scanOutgoing([{ label: '', ...req }]);
  return scan.byCategory;
}

/** "masked 2 PHONE, 1 ID_CARD", or '' when nothing was masked. */
export function maskedText(counts: Partial<Record<string, number>> | null | undefined): string {
  const parts = PI_CATEGORIES.filter((c) => (counts?.[c] ?? 0) > 0).map((c) => `${counts?.[c]} ${c}`);
  return parts.length ? `masked ${parts.join(', ')}` : '';
}

/** A request with every finding masked. */
export function maskOutgoing<T extends { system: string; prompt: string; personaIn?: string | null }>(req: T): T {
  const mask = (text: string) => {
    const { findings } = scanPrompt(text);
    return findings.length ? maskText(text, findings) : text;
  };
  // A record's persona received is part of what was sent: it is kept as the model saw it.
  const persona = typeof req.personaIn === 'string' ? { personaIn: mask(req.personaIn) } : {};
  return { ...req, system: mask(req.system), prompt: mask(req.prompt), ...persona };
}

/**
 * A transport that masks system message and prompt at send time. Batches use it, so that a persona the model writes
 * during the run is masked too.
 */
export function maskingTransport(inner: ChatTransport): ChatTransport {
  return (system, prompt, signal, shape) => {
    const masked = maskOutgoing({ system, prompt });
    const messages = shape?.messages?.map((m) => ({
      ...m,
      content: maskOutgoing({ system: '', prompt: m.content }).prompt,
    }));
    return inner(masked.system, masked.prompt, signal, messages ? { ...shape, messages } : shape);
  };
}
