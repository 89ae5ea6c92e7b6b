// A StreamProfileBench prompt draft: one step's request as an editable text file (.pldraft), sent as it stands by
// Ctrl+Enter. A short header (the step, model, temperature, max tokens) and the two messages, each under its marker
// line:
//
//   # notes
//   step: weibo/U_1a2b3c4d/3
//   model: demo-model-not-an-llm
//   temperature: 0
//   max_tokens: default
//   === system ===
//   <system message>
//   === user ===
//   <prompt, to the end of the file>
//
// The user message runs to the end of the file, so posts may hold marker-like lines; the system message ends at the
// first user marker. Pure: no `vscode`.
import { PLATFORMS, type Platform } from '../types';
import {
  DRAFT_DIR,
  DRAFT_EXT,
  readDraftHeader,
  requireHeaders,
  SYSTEM_MARKER,
  USER_MARKER,
  type DraftProblem,
} from '../../rerun/draft';

export interface DraftStep {
  platform: Platform;
  userId: string;
  stepId: number;
}

export interface DraftHeader {
  step: DraftStep;
  model: string;
  temperature: number;
  /** null: the endpoint's default */
  maxTokens: number | null;
}

export interface Draft extends DraftHeader {
  system: string;
  prompt: string;
}

export type DraftParse = { ok: true; draft: Draft } | { ok: false; problems: DraftProblem[] };

export interface DraftNotes {
  /** e.g. "persona carried from demo-llm" */
  persona: string;
  /** the template the text was rendered from */
  template: string;
}

export function draftStepText(s: DraftStep): string {
  return `${s.platform}/${s.userId}/${s.stepId}`;
}

/** The draft's file, relative to the workspace: one per run (or none) and step. */
export function draftPath(run: string | null, s: DraftStep): string {
  const safe = (t: string) => t.replace(/[^A-Za-z0-9._-]/g, '_');
  return `${DRAFT_DIR}/${safe(run ?? 'no-run')}/${s.platform}/${safe(s.userId)}-step${s.stepId}${DRAFT_EXT}`;
}

export function renderDraft(d: Draft, notes: DraftNotes): string {
  return [
    `# Prompt draft of ${draftStepText(d.step)}: ${notes.persona}; rendered from ${notes.template}.`,
    '# Edit anything below. Ctrl+Enter (or "Re-run" above) sends the two messages exactly as written',
    '# as a new attempt of this step, shown in the step view. Lines starting with # are notes and are not sent.',
    `step: ${draftStepText(d.step)}`,
    `model: ${d.model}`,
    `temperature: ${d.temperature}`,
    `max_tokens: ${d.maxTokens ?? 'default'}`,
    SYSTEM_MARKER,
    d.system,
    USER_MARKER,
    d.prompt,
  ].join('\n');
}

const STEP_RE = /^([a-z]+)\/([^/\s]+)\/(\d+)$/;

function parseStep(value: string): DraftStep | string {
  const m = STEP_RE.exec(value);
  if (!m) return `"${value}" is not <platform>/<user id>/<step>`;
  if (!(PLATFORMS as readonly string[]).includes(m[1])) return `unknown platform "${m[1]}"`;
  const stepId = Number(m[3]);
  if (!Number.isSafeInteger(stepId) || stepId < 1) return `step ${m[3]} is not a step number`;
  return { platform: m[1] as Platform, userId: m[2], stepId };
}

type HeaderValues = { step?: DraftStep; model?: string; temperature?: number; maxTokens?: number | null };

function readHeaderLine(key: string, value: string, into: HeaderValues): string | null {
  switch (key) {
    case 'step': {
      const step = parseStep(value);
      if (typeof step === 'string') return `step: ${step}`;
      into.step = step;
      return null;
    }
    case 'model':
      if (value === '') return 'model: empty; name the model to ask';
      into.model = value;
      return null;
    case 'temperature': {
      const t = Number(value);
      if (value === '' || !Number.isFinite(t) || t < 0 || t > 2)
        return `temperature: "${value}" is not a number from 0 to 2`;
      into.temperature = t;
      return null;
    }
    case 'max_tokens': {
      if (value === 'default') {
        into.maxTokens = null;
        return null;
      }
      const n = Number(value);
      if (!Number.isSafeInteger(n) || n < 1)
        return `max_tokens: "${value}" is not a positive whole number or "default"`;
      into.maxTokens = n;
      return null;
    }
    default:
      return `unknown header "${key}": use step, model, temperature or max_tokens`;
  }
}

/** Reads a draft; every problem has its line. Never throws. */
export function parseDraft(text: string): DraftParse {
  const lines = String(text).split('\n');
  const values: HeaderValues = {};
  const isMarker = (l: string, m: string) => l.replace(/\r$/, '').trim() === m;
  const sys = lines.findIndex((l) => isMarker(l, SYSTEM_MARKER));
  const user = sys < 0 ? -1 : lines.findIndex((l, i) => i > sys && isMarker(l, USER_MARKER));
  const problems = readDraftHeader(lines, sys < 0 ? lines.length : sys, (k, v) => readHeaderLine(k, v, values));
  if (sys < 0) problems.push({ line: lines.length, message: `no "${SYSTEM_MARKER}" line: the messages are missing` });
  else if (user < 0) problems.push({ line: sys + 1, message: `no "${USER_MARKER}" line after "${SYSTEM_MARKER}"` });
  requireHeaders(problems, [
    ['step', values.step !== undefined],
    ['model', values.model !== undefined],
    ['temperature', values.temperature !== undefined],
  ]);
  if (problems.length > 0 || sys < 0 || user < 0) return { ok: false, problems };
  const prompt = lines.slice(user + 1).join('\n');
  if (prompt.trim() === '') return { ok: false, problems: [{ line: user + 1, message: 'the user message is empty' }] };
  return {
    ok: true,
    draft: {
      step: values.step!,
      model: values.model!,
      temperature: values.temperature!,
      maxTokens: values.maxTokens ?? null,
      system: lines.slice(sys + 1, user).join('\n'),
      prompt,
    },
  };
}
