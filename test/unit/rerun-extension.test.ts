// The vscode-free parts of the re-run feature: endpoint settings (trust), attempt documents, command arguments,
// and the manifest entries they rely on.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AttemptRow } from '../../src/core/spb/rerun/attemptCompare';
import { TABLE_COMMAND_IDS } from '../support/commandIds';
import { platformOf, slug, stamp, userOfNode } from '../../src/extension/benchmarks/spb/rerun/args';
import { rawReplyDoc, requestDoc } from '../../src/extension/benchmarks/spb/rerun/documents';
import {
  baseURLProblem,
  describeEndpoint,
  ENDPOINT_PRESETS,
  effective,
  endpointProblems,
  readEndpointSettings,
  RESTRICTED_SETTINGS,
  type Inspected,
} from '../../src/extension/endpoint/settings';

const manifest = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8'));

describe('endpoint settings', () => {
  const values: Record<string, Inspected<unknown>> = {
    baseURL: { defaultValue: '', globalValue: 'https://user.example/v1', workspaceValue: 'http://evil.example/v1' },
    model: { defaultValue: '', workspaceValue: 'm-ws' },
    temperature: { defaultValue: 0, globalValue: 7 },
    maxTokens: { defaultValue: null, globalValue: 256 },
    timeoutSeconds: { defaultValue: 60 },
    maxConcurrency: { defaultValue: 4, workspaceValue: 2.7 },
    systemMessage: { defaultValue: '' },
  };
  const inspect = (k: string) => values[k];

  it('ignores a workspace baseURL in an untrusted workspace, and only that', () => {
    expect(readEndpointSettings(inspect, true)).toMatchObject({ baseURL: 'http://evil.example/v1', model: 'm-ws' });
    const untrusted = readEndpointSettings(inspect, false);
    expect(untrusted).toMatchObject({
      baseURL: 'https://user.example/v1',
      model: 'm-ws',
      maxTokens: 256,
      timeoutSeconds: 60,
      maxConcurrency: 2,
    });
    expect(untrusted.temperature).toBe(0); // 7 is out of range
    expect(effective({ defaultValue: 'd', workspaceFolderValue: 'f' }, true, false)).toBe('d');
  });

  it('declares the same restricted settings in package.json, with a reason', () => {
    const cap = manifest.capabilities.untrustedWorkspaces;
    expect(cap.supported).toBe('limited');
    // The PI guard's settings are restricted too (test/unit/pi-guard.test.ts).
    // So are the checkout and the Python that render the benchmark's own prompt (they run code).
    expect(cap.restrictedConfigurations).toEqual([
      // the benchmark folder: a cloned folder must not point the extension at files outside it
      'personaLab.benchmarkPath',
      ...RESTRICTED_SETTINGS,
      // the judge's endpoint: a cloned folder must not send the judge's prompts (the user's profile) elsewhere
      'personaLab.judge.baseURL',
      // the label server and the databases: a cloned folder must not receive the labels nor name a file to write
      'personaLab.labels.server',
      'personaLab.labels.dbPath',
      'personaLab.audit.dbPath',
      'personaLab.reference.path',
      'personaLab.reference.python',
      'personaLab.privacy.remoteGuard',
      'personaLab.privacy.guardLoopback',
    ]);
    expect(cap.description.length).toBeGreaterThan(40);
    for (const key of [
      'baseURL',
      'model',
      'temperature',
      'maxTokens',
      'timeoutSeconds',
      'maxConcurrency',
      'systemMessage',
    ]) {
      expect(manifest.contributes.configuration.properties[`personaLab.endpoint.${key}`], key).toBeDefined();
    }
    expect(manifest.contributes.configuration.properties['personaLab.endpoint.temperature'].default).toBe(0);
    expect(JSON.stringify(manifest.contributes.configuration)).not.toMatch(/apiKey/i);
  });

  it('names what is missing and describes the endpoint without credentials', () => {
    const base = readEndpointSettings(inspect, false);
    expect(endpointProblems({ ...base, baseURL: '', model: '' })).toEqual([
      'personaLab.endpoint.baseURL is not set',
      'personaLab.endpoint.model is not set',
    ]);
    expect(endpointProblems({ ...base, baseURL: 'ftp://x' })[0]).toMatch(/not an http/);
    expect(describeEndpoint({ ...base, baseURL: 'https://u:secret@api.example/v1?key=k' })).toBe('m-ws at api.example');
    expect(describeEndpoint({ ...base, model: '' })).toBe('');
  });
});

describe('endpoint presets (Configure Endpoint…)', () => {
  it('offer only well-formed base URLs, a model where the service names one, and a key where it needs one', () => {
    for (const p of ENDPOINT_PRESETS) {
      if (p.baseURL) expect(baseURLProblem(p.baseURL), p.label).toBeUndefined();
      expect(p.maxConcurrency, p.label).toBeGreaterThanOrEqual(1);
      expect(p.needsKey, p.label).toBe(p.baseURL.startsWith('https://'));
    }
    expect(ENDPOINT_PRESETS.map((p) => p.label)).toEqual([
      'OpenAI',
      'DeepSeek',
      'vLLM on this machine',
      'SGLang on this machine',
      'Other OpenAI-compatible server',
    ]);
    expect(baseURLProblem('')).toBe('personaLab.endpoint.baseURL is not set');
    expect(baseURLProblem('ftp://x')).toMatch(/is not an http\(s\) URL/);
    expect(baseURLProblem(' http://127.0.0.1:8000/v1 ')).toBeUndefined();
  });
});

describe('attempt documents', () => {
  const row: AttemptRow = {
    id: 3,
    run: 'rerun',
    templateId: 'abc',
    model: 'm',
    baseURL: 'http://h/v1',
    personaIn: null,
    system: 'SYS',
    prompt: 'PROMPT',
    raw: '```json\n{"a":1}\n```',
    flags: [],
    error: null,
    prediction: [],
    reasoning: '',
    personaSummary: '',
    tries: [
      { ok: false, status: 500, error: 'scripted 500', latencyMs: 3.2, waitedMs: 1000 },
      { ok: true, latencyMs: 5 },
    ],
    latencyMs: 5,
    usage: null,
    createdAt: '2024-01-01T00:00:00Z',
    meta: { kind: 'rerun', personaMode: 'none', baseRun: 'demo', templateName: 'short', temperature: 0.5 },
  };

  it('shows the request with its parameters, tries, system and user message', () => {
    const doc = requestDoc(row, 'we_1 step 2');
    expect(doc.title).toBe('Request #3 · we_1 step 2.md');
    expect(doc.text).toContain('POST http://h/v1/chat/completions');
    expect(doc.text).toContain('temperature: 0.5');
    expect(doc.text).toContain('template: short (abc) · persona: none (cold start)');
    expect(doc.text).toContain('1. failed HTTP 500: scripted 500 · 3 ms · then waited 1000 ms');
    expect(doc.text).toMatch(/system message ─+\nSYS\n/);
    expect(doc.text.endsWith('PROMPT')).toBe(true);
  });

  it('shows the raw reply as received', () => {
    expect(rawReplyDoc(row, 'x')).toMatchObject({ text: row.raw, language: 'plaintext' });
    expect(rawReplyDoc({ ...row, raw: '{"a": NaN}' }, 'x')).toMatchObject({
      language: 'json',
      title: 'Raw reply #3 · x.json',
    });
    expect(rawReplyDoc({ ...row, raw: '', error: 'timeout' }, 'x').text).toContain('Error: timeout');
  });
});

describe('command arguments', () => {
  it('tells user, platform and step nodes apart', () => {
    const user = { platform: 'weibo', userId: 'we_1' };
    expect(userOfNode({ row: { user } })).toEqual(user);
    expect(userOfNode({ platform: 'weibo', userId: 'we_1', stepId: 2, row: { user } })).toBeUndefined();
    expect(platformOf({ row: { platform: 'zhihu' } })).toBe('zhihu');
    expect(platformOf({ row: { platform: 'zhihu', user } })).toBeUndefined();
    expect(platformOf('douban')).toBe('douban');
    expect(slug('my template/v2 (best)')).toBe('my-template-v2-best');
    expect(stamp(new Date(2024, 0, 2, 3, 4))).toBe('20240102-0304');
  });

  it('contributes every command it registers, with context menus on the tree', () => {
    const ids = manifest.contributes.commands.map((c: { command: string }) => c.command);
    for (const id of TABLE_COMMAND_IDS) expect(ids).toContain(id);
    const menu = manifest.contributes.menus['view/item/context'].map(
      (m: { command: string; when: string }) => `${m.command} ${m.when}`,
    );
    expect(menu).toContain('personaLab.rerunStep view == personaLab.benchmarks && viewItem == step');
    expect(menu).toContain('personaLab.runAblation view == personaLab.benchmarks && viewItem == user');
    expect(manifest.contributes.languages[0]).toMatchObject({ id: 'personalab-prompt', extensions: ['.plprompt'] });
  });
});
