// Masking: each finding replaced by its category's placeholder. Used by the re-run guard's "mask and send".
import { placeholderOf } from './placeholders';
import { scanText } from './scanner';
import type { Confidence, Finding } from './types';

/**
 * Replaces every finding's span with its placeholder. Findings that overlap an earlier one, fall outside the text,
 * or no longer match the text at their span are skipped.
 */
export function maskText(
  text: string,
  findings: readonly Pick<Finding, 'category' | 'start' | 'end' | 'text'>[],
): string {
  if (typeof text !== 'string') return '';
  const spans = findings
    .filter(
      (f) =>
        Number.isInteger(f.start) && Number.isInteger(f.end) && f.start >= 0 && f.end <= text.length && f.start < f.end,
    )
    .filter((f) => text.slice(f.start, f.end) === f.text)
    .sort((a, b) => a.start - b.start || b.end - a.end);
  let out = '';
  let pos = 0;
  for (const f of spans) {
    if (f.start < pos) continue;
    out += text.slice(pos, f.start) + placeholderOf(f.category);
    pos = f.end;
  }
  return out + text.slice(pos);
}

export interface PromptScan {
  findings: Finding[];
  /** The text with every finding masked (equal to the input when there is none). */
  masked: string;
}

/**
 * For the guard before a request leaves for a remote endpoint: the findings in a rendered prompt and its masked
 * form. Placeholders already in the prompt are never findings. Low-confidence findings are included unless
 * `minConfidence` says otherwise; the caller decides which ones block.
 */
export function scanPrompt(text: string, opts: { minConfidence?: Confidence } = {}): PromptScan {
  const findings = scanText(text, { minConfidence: opts.minConfidence });
  return { findings, masked: findings.length ? maskText(text, findings) : typeof text === 'string' ? text : '' };
}

/** Whether an endpoint URL points at this machine (the guard skips those). Unparseable URLs are not loopback. */
export function isLoopbackEndpoint(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  if (host === 'localhost' || host.endsWith('.localhost') || host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return true;
  return /^::ffff:127\./.test(host) || /^::ffff:7f[0-9a-f]{2}:/.test(host);
}
