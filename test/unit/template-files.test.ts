import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TEMPLATE } from '../../src/core/spb/prompt/prompt';
import { HISTORY_SCHEMA_VERSION, RunHistory } from '../../src/core/spb/run/history';
import {
  checkTemplateName,
  locateProblems,
  slotAt,
  slotCompletionContext,
  slotDoc,
  templateFileName,
  templateNameOf,
} from '../../src/core/spb/prompt/templateFiles';

describe('template files', () => {
  it('checks names and maps them to files and back', () => {
    expect(checkTemplateName('shorter-persona')).toBeUndefined();
    expect(checkTemplateName('')).toMatch(/Type a name/);
    expect(checkTemplateName('../x')).toMatch(/Letters, digits/);
    expect(checkTemplateName('a b')).toMatch(/Letters, digits/);
    expect(templateFileName('v2')).toBe('v2.plprompt');
    expect(templateFileName('v2.plprompt')).toBe('v2.plprompt');
    expect(templateNameOf('/w/.personalab/templates/v2.plprompt')).toBe('v2');
  });

  it('finds the completion context after {{', () => {
    expect(slotCompletionContext('Bio: {{', 7)).toEqual({ start: 7, typed: '', closed: false });
    expect(slotCompletionContext('Bio: {{ po', 10)).toEqual({ start: 8, typed: 'po', closed: false });
    expect(slotCompletionContext('Bio: {{po}} x', 9)).toEqual({ start: 7, typed: 'po', closed: true });
    expect(slotCompletionContext('Bio: {x', 7)).toBeUndefined();
    expect(slotCompletionContext('{{a}} b', 7)).toBeUndefined();
  });

  it('finds the slot under the cursor with its description', () => {
    const line = 'Pick {{k}} of {{ pool_size }} and {{nope}}';
    expect(slotAt(line, 6)).toMatchObject({ name: 'k', start: 5, end: 10 });
    expect(slotAt(line, 20)?.info?.need).toBe('reference');
    expect(slotAt(line, 38)).toMatchObject({ name: 'nope', info: undefined });
    expect(slotAt(line, 12)).toBeUndefined();
    expect(slotDoc('posts')).toContain('required');
  });

  it('locates checkTemplate problems as editor ranges', () => {
    expect(locateProblems(DEFAULT_TEMPLATE)).toEqual([]);
    const text = 'Hello {{username}}\nPosts: {{post}}\n{{pool_json}} {{k}}';
    const problems = locateProblems(text);
    const unknown = problems.find((p) => p.kind === 'unknown');
    expect(unknown?.range).toEqual({ line: 1, start: 7, end: 15 });
    const missing = problems.find((p) => p.kind === 'missing' && p.slot === 'posts');
    expect(missing).toMatchObject({ severity: 'error', range: { line: 0, start: 0, end: 18 } });
  });
});

describe('history schema v2', () => {
  it('migrates a v1 database and keeps its rows; meta round-trips', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'hist-v1-')), 'h.sqlite');
    const v1 = new Database(path);
    v1.exec(`CREATE TABLE attempts (id INTEGER PRIMARY KEY, run TEXT NOT NULL, platform TEXT NOT NULL, user_id TEXT NOT NULL,
      step_id INTEGER NOT NULL, step_index INTEGER NOT NULL, template_id TEXT NOT NULL, model TEXT NOT NULL, base_url TEXT NOT NULL,
      persona_in TEXT, system TEXT NOT NULL, prompt TEXT NOT NULL, raw TEXT NOT NULL, parsed TEXT, flags TEXT NOT NULL, error TEXT,
      prediction TEXT NOT NULL, reasoning TEXT NOT NULL, persona_summary TEXT NOT NULL, persona_next TEXT, metrics TEXT,
      tries TEXT NOT NULL, latency_ms REAL NOT NULL, prompt_tokens INTEGER, completion_tokens INTEGER, total_tokens INTEGER,
      created_at TEXT NOT NULL)`);
    v1.prepare(
      `INSERT INTO attempts VALUES (1, 'old', 'weibo', 'we_1', 2, 1, 't', 'm', 'u', NULL, 's', 'p', 'r', NULL, '[]', NULL,
      '["a"]', 'why', 'ps', NULL, NULL, '[]', 5, NULL, NULL, NULL, '2024-01-01T00:00:00Z')`,
    ).run();
    v1.pragma('user_version = 1');
    v1.close();

    const h = RunHistory.open(path);
    expect(h.schemaVersion).toBe(HISTORY_SCHEMA_VERSION);
    expect(HISTORY_SCHEMA_VERSION).toBe(2);
    const old = h.forStep('weibo', 'we_1', 2);
    expect(old).toHaveLength(1);
    expect(old[0]).toMatchObject({ run: 'old', prediction: ['a'], meta: null });
    const rec = {
      platform: 'weibo' as const,
      userId: 'we_1',
      username: 'U',
      stepId: 2,
      stepIndex: 1,
      templateId: 't',
      personaIn: null,
      system: 's',
      prompt: 'p',
      k: 1,
      raw: 'r',
      parsed: null,
      error: null,
      prediction: ['b'],
      reasoning: '',
      personaSummary: '',
      personaNext: null,
      groundTruth: [],
      metrics: null,
      attempts: [],
      latencyMs: 1,
      usage: null,
      at: '2024-02-01T00:00:00Z',
    };
    const id = h.record(
      { run: 'rerun', model: 'm', baseURL: 'http://user:pw@h/v1?key=x', meta: { kind: 'rerun', personaMode: 'none' } },
      rec,
    );
    expect(h.byId(id)).toMatchObject({
      id,
      run: 'rerun',
      baseURL: 'http://h/v1',
      meta: { kind: 'rerun', personaMode: 'none' },
    });
    expect(h.byId(9999)).toBeUndefined();
    h.close();
  });
});
