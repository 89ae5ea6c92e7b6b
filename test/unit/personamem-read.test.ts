// Reading a PersonaMem folder: names-only detection, the contexts index read back on demand, and a located
// diagnostic for each problem the release can have.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat } from '../../src/core/formats';
import { formatDiagnostic } from '../../src/core/io/diagnostics';
import { readContext } from '../../src/core/personamem/contexts';
import { scanContextLine } from '../../src/core/personamem/scan';
import { mulberry32 } from '../../src/core/stats/random';
import { personaMem } from '../../src/core/personamem/format';
import type { PersonaMemBench } from '../../src/core/personamem/types';
import { generatePersonaMem } from '../../scripts/gen-personamem/generate.mjs';
import { handFolder } from './personamem-folder';

const load = async (dir: string) => (await personaMem.load(dir)).bench as PersonaMemBench;
const located = (b: PersonaMemBench) => b.diagnostics.map(formatDiagnostic);

describe('detection', () => {
  it('takes a folder with questions_<size>.csv, the file itself, or its personamem/ or data/ folder', () => {
    const dir = handFolder([{ id: 'q1' }]);
    expect(detectFormat(dir)?.id).toBe('personamem');
    expect(detectFormat(join(dir, 'questions_32k.csv'))?.id).toBe('personamem');
    expect(detectFormat(join(dir, 'shared_contexts_32k.jsonl'))).toBeUndefined();
    expect(detectFormat(mkdtempSync(join(tmpdir(), 'pl-empty-')))).toBeUndefined();
  });
  it('looks at names only: an unparseable questions file is still detected, and reported when read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pl-pmem-'));
    writeFileSync(join(dir, 'questions_1M.csv'), 'not,a,header\n"open');
    expect(personaMem.detect(dir)).toBe(true);
    const b = await load(dir);
    expect(located(b)).toEqual([
      "questions_1M.csv: error: no shared_contexts_1M.jsonl beside it: the questions' histories cannot be read",
      expect.stringMatching(/^questions_1M.csv:1: error: persona_id, question_id, .*: missing columns$/),
    ]);
  });
});

describe('a generated split', () => {
  it('indexes every context without its text and reads a history back as context[:end]', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pl-pmem-'));
    generatePersonaMem(dir, { seed: 5, personas: 3, sessions: 4, turns: 3, questions: 5 });
    const b = await load(dir);
    expect(b.diagnostics).toEqual([]);
    const split = b.splits.get('32k')!;
    expect(split.questions).toHaveLength(15);
    expect(split.contexts.size).toBe(3);
    const ctx = [...split.contexts.values()][0];
    expect(Object.keys(ctx).sort()).toEqual(['file', 'id', 'length', 'line', 'messages', 'offset', 'sessionStarts']);
    expect(ctx.messages).toBe(4 * 7);
    expect(ctx.sessionStarts).toEqual([0, 7, 14, 21]);
    const q = split.questions.find((x) => x.contextId === ctx.id)!;
    const history = readContext(ctx, q.endIndex);
    expect(history).toHaveLength(q.endIndex!);
    expect(history[0].role).toBe('system');
    expect(readContext(ctx)).toHaveLength(ctx.messages);
    // the last question of a context is asked at its end: the last stored message is never shown
    expect(split.questions.filter((x) => x.contextId === ctx.id).at(-1)!.endIndex).toBe(ctx.messages - 1);
  });
});

describe('diagnostics, each at its file and line', () => {
  it('names an end index outside its context, bad options, an answer not among them, a missing context', async () => {
    const dir = handFolder([
      { id: 'ok', end: 6 },
      { id: 'far', end: 7 },
      { id: 'neg', end: -1 },
      { id: 'text', end: 'two' },
      { id: 'opts', options: "['(a) x', '(b) y'" },
      { id: 'gold', gold: '(d)', options: "['(a) x', '(b) y', '(c) z']" },
      { id: 'letter', gold: 'a' },
      { id: 'ctx', context: 'nowhere' },
      { id: 'type', type: 'guessing_games' },
      { id: 'ok', end: 2 },
    ]);
    const b = await load(dir);
    expect(located(b)).toEqual([
      'questions_32k.csv:3: error: end_index_in_shared_context: 7 is outside its context (6 messages)',
      'questions_32k.csv:4: error: end_index_in_shared_context: -1 is outside its context (6 messages)',
      'questions_32k.csv:5: error: end_index_in_shared_context: "two" is not an integer',
      'questions_32k.csv:6: error: all_options: does not parse as a Python list of strings: the list is not closed with "]"',
      'questions_32k.csv:7: error: correct_answer: (d) is not among the options (3 given)',
      'questions_32k.csv:8: error: correct_answer: "a" is not an option letter such as (a)',
      'questions_32k.csv:9: error: shared_context_id: nowhere is not in shared_contexts_32k.jsonl',
      'questions_32k.csv:10: warning: question_type: "guessing_games" is none of the seven skills or their known spellings',
      'questions_32k.csv:11: warning: question_id: ok repeated',
    ]);
  });

  it('names a context line that is not one context', async () => {
    const dir = handFolder([{ id: 'q' }]);
    writeFileSync(
      join(dir, 'shared_contexts_32k.jsonl'),
      [
        JSON.stringify({
          ctx1: [
            { role: 'system', content: 's' },
            { role: 'user', content: 'u' },
            { role: 'user' },
            { role: 'user', content: 'v' },
          ],
        }),
        '{"a": [], "b": []}',
        '[1]',
        '{"c": "text"}',
        '{broken',
      ].join('\n'),
    );
    expect(located(await load(dir))).toEqual([
      'shared_contexts_32k.jsonl:1: error: ctx1[2]: a message needs a string role and a string content',
      'shared_contexts_32k.jsonl:2: error: expected one key (the shared_context_id), found 2',
      'shared_contexts_32k.jsonl:3: error: not a JSON object',
      'shared_contexts_32k.jsonl:4: error: the value of c is not a list of messages',
      expect.stringMatching(/^shared_contexts_32k.jsonl:5: error: not JSON: /),
    ]);
  });
});

describe('scanContextLine, against JSON.parse', () => {
  it('gives the id, message count, system turns and first bad message of seeded lines', () => {
    const rnd = mulberry32(17);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
    const TEXTS = ['plain', 'with "quotes"', 'back\\slash', 'ünïcödé 中文', 'brace { [ ] }', 'new\nline', ''];
    for (let n = 0; n < 300; n++) {
      const messages = Array.from({ length: Math.floor(rnd() * 6) }, () => {
        const r = rnd();
        if (r < 0.06) return 'not a message';
        if (r < 0.12) return { role: 'user', content: { nested: [1, 'x]'] } };
        if (r < 0.16) return { content: 'no role' };
        return {
          role: pick(['system', 'user', 'assistant']),
          content: pick(TEXTS),
          ...(rnd() < 0.2 ? { extra: [null, true, 2.5e3] } : {}),
        };
      });
      const id = pick(['ab12', 'id "quoted"', 'ü']);
      const line = Buffer.from(
        rnd() < 0.5
          ? JSON.stringify({ [id]: messages })
          : JSON.stringify({ [id]: messages }, null, 1).replace(/\n/g, ' '),
      );
      const isMsg = (m: unknown) =>
        typeof m === 'object' &&
        m !== null &&
        typeof (m as { role: unknown }).role === 'string' &&
        typeof (m as { content: unknown }).content === 'string';
      expect(scanContextLine(line)).toEqual({
        id,
        messages: messages.length,
        system: messages.flatMap((m, i) => (isMsg(m) && (m as { role: string }).role === 'system' ? [i] : [])),
        bad: messages.findIndex((m) => !isMsg(m)),
      });
    }
  });
  it.each([
    ['{"a": [', /^not JSON: unexpected end of the line/],
    ['{"a": []} x', /^not JSON: text after the object at byte 11$/],
    ['{"a": [{"role": "user", "content": "x}]}', /^not JSON: unexpected end of the line \(unterminated string\)$/],
    ['{}', /found 0/],
  ])('refuses %s', (text, message) => {
    expect(scanContextLine(Buffer.from(text))).toMatch(message);
  });
});
