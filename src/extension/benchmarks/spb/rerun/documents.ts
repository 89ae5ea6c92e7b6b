// The texts of "Open request" and "Open raw reply" for an attempt. No `vscode` import (unit-tested).
import { isRecord } from '../../../../core/guards';
import { pyJsonLoads } from '../../../../core/io/pyjson';
import { readRerunMeta, type AttemptRow } from '../../../../core/spb/rerun/attemptCompare';
import { cleanReply } from '../../../../core/spb/prompt/response';

export interface AttemptDoc {
  title: string;
  text: string;
  language: string;
}

const PERSONA_TEXT: Record<string, string> = {
  carried: 'carried from the base run',
  none: 'none (cold start)',
  edited: 'edited by hand',
};

function tryLine(t: unknown, i: number): string {
  const r: Record<string, unknown> = isRecord(t) ? t : {};
  const ok = r.ok === true;
  const status = typeof r.status === 'number' ? ` HTTP ${r.status}` : '';
  const ms = typeof r.latencyMs === 'number' ? ` · ${Math.round(r.latencyMs)} ms` : '';
  const waited = typeof r.waitedMs === 'number' && r.waitedMs > 0 ? ` · then waited ${Math.round(r.waitedMs)} ms` : '';
  return `${i + 1}. ${ok ? 'accepted' : `failed${status}: ${typeof r.error === 'string' ? r.error : ''}`}${ms}${waited}`;
}

/** The full request as sent (system and user messages) with the parameters that shaped it. */
export function requestDoc(row: AttemptRow, where: string): AttemptDoc {
  const meta = readRerunMeta(row.meta);
  const extra = row.meta ?? {};
  const temperature = typeof extra.temperature === 'number' ? String(extra.temperature) : '0';
  const maxTokens = typeof extra.maxTokens === 'number' ? String(extra.maxTokens) : 'server default';
  const lines = [
    `Persona Lab · request of attempt #${row.id} (${where}) · ${row.createdAt}`,
    `POST ${row.baseURL}/chat/completions`,
    `model: ${row.model} · temperature: ${temperature} · max_tokens: ${maxTokens} · response_format: json_object`,
    `template: ${meta?.templateName ? `${meta.templateName} ` : ''}(${row.templateId}) · persona: ${meta ? PERSONA_TEXT[meta.personaMode] : 'threaded through the chain'} · run: ${row.run}`,
    'tries:',
    ...row.tries.map((t, i) => `  ${tryLine(t, i)}`),
    '',
    '──────── system message ────────',
    row.system,
    '',
    '──────── user message (the rendered prompt) ────────',
    row.prompt,
  ];
  return { title: `Request #${row.id} · ${where}.md`, text: lines.join('\n'), language: 'markdown' };
}

/** The reply text exactly as received (the accepted one, or the last one when every try failed). */
export function rawReplyDoc(row: AttemptRow, where: string): AttemptDoc {
  if (row.raw === '') {
    return {
      title: `Raw reply #${row.id} · ${where}.txt`,
      text: `No reply text came back.${row.error ? `\n\nError: ${row.error}` : ''}\n`,
      language: 'plaintext',
    };
  }
  const json = pyJsonLoads(cleanReply(row.raw)).ok && !row.raw.includes('```');
  return {
    title: `Raw reply #${row.id} · ${where}.${json ? 'json' : 'txt'}`,
    text: row.raw,
    language: json ? 'json' : 'plaintext',
  };
}
