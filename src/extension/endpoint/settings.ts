// The personaLab.endpoint.* settings as one value. No `vscode` import (unit-tested): the caller passes what
// WorkspaceConfiguration.inspect() returns for each key.
import { publicBaseURL } from '../../core/runner/client';
import { DEFAULT_MAX_REPLY_BYTES, timeoutProblem } from '../../core/runner/guardedFetch';

export const SECTION = 'personaLab.endpoint';

/**
 * Settings an untrusted workspace may not set (package.json capabilities.untrustedWorkspaces lists the same):
 * its .vscode/settings.json could otherwise send the prompts, and the API key, to a server of its choosing.
 */
export const RESTRICTED_SETTINGS = [`${SECTION}.baseURL`] as const;

export interface EndpointSettings {
  baseURL: string;
  model: string;
  temperature: number;
  /** undefined: the server's default */
  maxTokens: number | undefined;
  /** of one attempt, headers and body; more than a day is refused (endpointProblems) */
  timeoutSeconds: number;
  /** a longer reply is cut off and fails the attempt */
  maxReplyMB: number;
  maxConcurrency: number;
  /** '' means the built-in system message */
  systemMessage: string;
}

export interface Inspected<T> {
  defaultValue?: T;
  globalValue?: T;
  workspaceValue?: T;
  workspaceFolderValue?: T;
}

export type Inspect = (key: keyof EndpointSettings) => Inspected<unknown> | undefined;

/** The value that applies; in an untrusted workspace a restricted setting ignores workspace and folder values. */
export function effective(v: Inspected<unknown> | undefined, restricted: boolean, trusted: boolean): unknown {
  if (!v) return undefined;
  if (restricted && !trusted) return v.globalValue ?? v.defaultValue;
  return v.workspaceFolderValue ?? v.workspaceValue ?? v.globalValue ?? v.defaultValue;
}

function num(v: unknown, fallback: number, ok: (n: number) => boolean): number {
  return typeof v === 'number' && Number.isFinite(v) && ok(v) ? v : fallback;
}

export function readEndpointSettings(inspect: Inspect, trusted: boolean): EndpointSettings {
  const get = (key: keyof EndpointSettings) =>
    effective(inspect(key), (RESTRICTED_SETTINGS as readonly string[]).includes(`${SECTION}.${key}`), trusted);
  const str = (key: keyof EndpointSettings) => {
    const v = get(key);
    return typeof v === 'string' ? v.trim() : '';
  };
  const maxTokens = get('maxTokens');
  return {
    baseURL: str('baseURL'),
    model: str('model'),
    temperature: num(get('temperature'), 0, (n) => n >= 0 && n <= 2),
    maxTokens: typeof maxTokens === 'number' && Number.isInteger(maxTokens) && maxTokens > 0 ? maxTokens : undefined,
    timeoutSeconds: num(get('timeoutSeconds'), 60, (n) => n > 0),
    maxReplyMB: num(get('maxReplyMB'), DEFAULT_MAX_REPLY_BYTES / 1048576, (n) => n > 0 && n <= 4096),
    maxConcurrency: Math.floor(num(get('maxConcurrency'), 4, (n) => n >= 1 && n <= 64)),
    systemMessage: typeof get('systemMessage') === 'string' ? (get('systemMessage') as string) : '',
  };
}

/** What keeps the settings from being used, as sentences; empty when they can be. */
export function endpointProblems(s: EndpointSettings): string[] {
  const out: string[] = [];
  if (!s.baseURL) out.push('personaLab.endpoint.baseURL is not set');
  else if (!/^https?:\/\/[^/\s]+/i.test(s.baseURL))
    out.push(`personaLab.endpoint.baseURL "${publicBaseURL(s.baseURL)}" is not an http(s) URL`);
  if (!s.model) out.push('personaLab.endpoint.model is not set');
  const timeout = timeoutProblem(s.timeoutSeconds, `${SECTION}.timeoutSeconds`);
  if (timeout) out.push(timeout);
  return out;
}

/** "model at host", for messages and the step view; never shows credentials or a query string. */
export function describeEndpoint(s: EndpointSettings): string {
  if (endpointProblems(s).length > 0) return '';
  let host = publicBaseURL(s.baseURL);
  try {
    host = new URL(host).host;
  } catch {
    // keep the stripped URL
  }
  return `${s.model} at ${host}`;
}

/** The starting points *Configure Endpoint…* offers; every field is edited before it is saved. */
export interface EndpointPreset {
  label: string;
  detail: string;
  baseURL: string;
  /** '' : the user types the served model's name */
  model: string;
  needsKey: boolean;
  maxConcurrency: number;
}

export const ENDPOINT_PRESETS: readonly EndpointPreset[] = [
  {
    label: 'OpenAI',
    detail: 'api.openai.com; needs an API key',
    baseURL: 'https://api.openai.com/v1',
    model: 'gpt-4o-mini',
    needsKey: true,
    maxConcurrency: 8,
  },
  {
    label: 'DeepSeek',
    detail: 'api.deepseek.com; needs an API key',
    baseURL: 'https://api.deepseek.com/v1',
    model: 'deepseek-chat',
    needsKey: true,
    maxConcurrency: 8,
  },
  {
    label: 'vLLM on this machine',
    detail: 'vllm serve <model> (port 8000); the engine for a whole benchmark, with many requests at once',
    baseURL: 'http://127.0.0.1:8000/v1',
    model: '',
    needsKey: false,
    maxConcurrency: 32,
  },
  {
    label: 'SGLang on this machine',
    detail: 'python -m sglang.launch_server --model-path <model> (port 30000)',
    baseURL: 'http://127.0.0.1:30000/v1',
    model: '',
    needsKey: false,
    maxConcurrency: 32,
  },
  {
    label: 'Other OpenAI-compatible server',
    detail: 'any /v1/chat/completions endpoint',
    baseURL: '',
    model: '',
    needsKey: false,
    maxConcurrency: 4,
  },
];

/** Why `url` cannot be a base URL, or undefined when it can. */
export function baseURLProblem(url: string): string | undefined {
  const problems = endpointProblems({ baseURL: url.trim(), model: 'm', timeoutSeconds: 60 } as EndpointSettings);
  return problems[0];
}
