// PersonaMem re-runs in the core: a question's request as a draft that holds what follows the history (read back
// exactly, problems located by line), the request a draft sends, edits that stay in their own question's draft, and
// attempts kept with what was sent and came back, read as answer.ts reads answers.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isOmniDraft } from '../../src/core/omni/run/draft';
import { readContext } from '../../src/core/personamem/contexts';
import { loadPersonaMem } from '../../src/core/personamem/load';
import { pmReferenceSource } from '../../src/core/personamem/reference/source';
import { askPersonaMem } from '../../src/core/personamem/run/ask';
import {
  PmAttemptStore,
  pmAttemptRecord,
  pmAttemptReplyText,
  pmAttemptRequestText,
  pmAttemptView,
} from '../../src/core/personamem/run/attempts';
import {
  draftRequest,
  isPmDraft,
  parsePmDraft,
  pmDraftPath,
  renderPmDraft,
  splitRequest,
  type PmDraft,
} from '../../src/core/personamem/run/draft';
import { pmTemplateSource, type PmRequestSource } from '../../src/core/personamem/run/source';
import type { PersonaMemBench, PmQuestion } from '../../src/core/personamem/types';
import { createOpenAITransport, DEFAULT_RETRY } from '../../src/core/runner/client';
import { reply, startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { handFolder } from './personamem-folder';

const CHECKOUT = resolve('test/fixtures/personamem-checkout');

let server: ScriptedServer;
let b: PersonaMemBench;
beforeAll(async () => {
  server = await startScriptedServer();
  b = await loadPersonaMem(
    handFolder([
      { id: 'q1', gold: '(b)', end: 4 },
      { id: 'q2', gold: '(a)', end: 5 },
    ]),
  );
});
afterAll(async () => {
  await server.close();
});

const question = (id: string) => b.splits.get('32k')!.questions.find((q) => q.questionId === id)!;
const historyOf = (q: PmQuestion) => readContext(b.splits.get('32k')!.contexts.get(q.contextId)!, q.endIndex);

async function draftOf(q: PmQuestion, source: PmRequestSource = pmTemplateSource()): Promise<PmDraft> {
  const history = historyOf(q);
  const request = await source.request(q, history, 'm');
  const { history: kept, rest } = splitRequest(request.messages, history);
  return {
    split: q.split,
    questionId: q.questionId,
    model: 'm',
    temperature: undefined,
    history: kept,
    messages: rest,
  };
}

describe('a PersonaMem draft', () => {
  it('holds only what follows the history, and is read back exactly', async () => {
    const q = question('q1');
    const d = await draftOf(q);
    // The template sends the history as stored: the draft keeps the question turn only.
    expect(d.history).toBe(4);
    expect(d.messages).toHaveLength(1);
    expect(d.messages[0].content).toContain('question q1');
    const text = renderPmDraft(d, 'Persona Lab template (not the benchmark’s request)', q.personaId);
    expect(isPmDraft(text)).toBe(true);
    expect(isOmniDraft(text)).toBe(false);
    expect(text).toContain('rendered by Persona Lab template (not the benchmark’s request)');
    expect(parsePmDraft(text)).toEqual({ ok: true, draft: d });
    // The request a draft sends: the history's first messages as stored, then the draft's.
    expect(draftRequest(d, historyOf(q))).toEqual((await pmTemplateSource().request(q, historyOf(q), 'm')).messages);
  });

  it('keeps several messages, marker-like lines inside them and a temperature', () => {
    const d: PmDraft = {
      split: '32k',
      questionId: 'q/with slash',
      model: 'gpt-x',
      temperature: 0.3,
      history: 2,
      messages: [
        { role: 'system', content: 'be brief\n=== user ===\n\\=== user ===' },
        { role: 'assistant', content: '' },
        { role: 'user', content: 'which?\n\nend\n' },
      ],
    };
    const text = renderPmDraft(d, 'src', '7');
    expect(text).toContain('\n\\=== user ===\n\\\\=== user ===\n');
    expect(parsePmDraft(text)).toEqual({ ok: true, draft: d });
  });

  it('a source that rewrites the history leaves the rewritten messages in the draft', () => {
    const history = historyOf(question('q1'));
    expect(history[2].role).toBe('assistant');
    const sent = [
      ...history.slice(0, 2).map((m) => ({ role: m.role as 'system' | 'user', content: m.content })),
      { role: 'user' as const, content: history[2].content },
      ...history.slice(3).map((m) => ({ role: m.role as 'system' | 'user', content: m.content })),
      { role: 'user' as const, content: 'Q' },
    ];
    const split = splitRequest(sent, history);
    expect(split.history).toBe(2);
    expect(split.rest).toEqual(sent.slice(2));
  });

  it('says what is wrong, on its line', () => {
    const problems = (text: string) => {
      const r = parsePmDraft(text);
      return r.ok ? [] : r.problems;
    };
    expect(problems('question: 32k/q1\nmodel: m\nhistory: 3\n=== user ===\n   \n')).toEqual([
      { line: 4, message: 'the last message is empty: nothing is asked' },
    ]);
    expect(problems('# note\nquestion: q1\nmodel: m\nhistory: x\ntemperature: 9\nfoo: 1\n=== user ===\nQ')).toEqual([
      { line: 2, message: 'question: "q1" is not <split>/<question id>' },
      { line: 4, message: 'history: "x" is not a count of history messages' },
      { line: 5, message: 'temperature: "9" is not a number from 0 to 2 or "source"' },
      { line: 6, message: 'unknown header "foo": use question, model, temperature or history' },
    ]);
    expect(problems('question: 32k/q1\nhistory: 1\nQ')).toEqual([
      { line: 3, message: '"Q" is not a "key: value" header line' },
      { line: 1, message: 'model: missing from the header' },
      { line: 3, message: 'no "=== user ===" line: the messages are missing' },
    ]);
  });

  it('an edit stays in its question’s draft: another question and the template render as before', async () => {
    const [q1, q2] = [question('q1'), question('q2')];
    const before2 = renderPmDraft(await draftOf(q2), 's', q2.personaId);
    const d1 = await draftOf(q1);
    const edited = renderPmDraft(d1, 's', q1.personaId).replace(/^question q1$/m, 'question q1, EDITED');
    const parsed = parsePmDraft(edited);
    expect(parsed.ok && parsed.draft.messages[0].content).toContain('EDITED');
    expect(renderPmDraft(await draftOf(q2), 's', q2.personaId)).toBe(before2);
    expect(JSON.stringify(await draftOf(q1))).not.toContain('EDITED');
    expect(JSON.stringify(await pmTemplateSource().request(q1, historyOf(q1), 'm'))).not.toContain('EDITED');
    // One file per run and question.
    const paths = new Set([
      pmDraftPath('r', '32k', 'q1'),
      pmDraftPath('r', '32k', 'q2'),
      pmDraftPath('s', '32k', 'q1'),
      pmDraftPath(null, '32k', 'q1'),
    ]);
    expect(paths.size).toBe(4);
    expect(pmDraftPath('r', '32k', '../x')).toBe('.personalab/drafts/r/personamem/32k-.._x.pldraft');
  });

  it('the benchmark’s request from a checkout keeps the history out of the draft too', async () => {
    const reference = await pmReferenceSource(CHECKOUT);
    try {
      const q = question('q2');
      const d = await draftOf(q, reference);
      const request = await reference.request(q, historyOf(q), 'm');
      expect(draftRequest(d, historyOf(q))).toEqual(request.messages);
      expect(d.history).toBeGreaterThan(0);
    } finally {
      reference.close();
    }
  });
});

describe('PersonaMem attempts', () => {
  it('keep exactly what was sent and came back, judged against the correct option', async () => {
    const q = question('q1');
    const history = historyOf(q);
    const d = await draftOf(q);
    d.messages[0].content += '\nThink of tea.';
    const messages = draftRequest(d, history);
    server.setScript([reply.text('I think <final_answer>(b)'), reply.text('maybe (a) or (c)')]);
    const input = {
      source: pmTemplateSource(),
      transport: createOpenAITransport({ baseURL: server.baseURL, apiKey: '', model: 'm' }),
      model: 'm',
      retry: { ...DEFAULT_RETRY, attempts: 1 },
    };
    const meta = {
      baseRun: null,
      source: { kind: 'draft' as const, name: 'draft x', id: 'persona-lab-template@1' },
      model: 'm',
      baseURL: server.baseURL,
      edited: true,
    };
    const first = pmAttemptRecord(q, await askPersonaMem(q, history, { ...input, messages }), d.history, meta);
    expect((server.requests.at(-1)!.body as { messages: unknown }).messages).toEqual(messages);
    expect(first.sent).toEqual(d.messages);
    expect(first).toMatchObject({ history: 4, reply: 'I think <final_answer>(b)', error: null, score: true });
    const second = pmAttemptRecord(q, await askPersonaMem(q, history, { ...input, messages }), d.history, {
      ...meta,
      masked: true,
    });
    const store = PmAttemptStore.open(join(mkdtempSync(join(tmpdir(), 'pl-pm-att-')), 'a.jsonl'));
    const a = store.add({ at: '2026-12-06T10:00:00.000Z', ...first });
    const c = store.add({ at: '2026-12-06T10:01:00.000Z', ...second });
    expect(store.list('32k', 'q1').map((x) => x.id)).toEqual([c.id, a.id]);
    expect(store.list('32k', 'q2')).toEqual([]);
    expect(pmAttemptView(a, q.correctAnswer)).toMatchObject({ pick: 'b', correctLetter: 'b', verdict: 'right' });
    expect(pmAttemptView(c, q.correctAnswer)).toMatchObject({ pick: null, verdict: 'invalid' });
    expect(pmAttemptView(c, q.correctAnswer).label).toContain('PI masked');
    expect(pmAttemptView({ ...a, reply: 'so (c)', score: false }, q.correctAnswer)).toMatchObject({
      pick: 'c',
      verdict: 'wrong',
    });
    expect(pmAttemptView({ ...a, reply: null, error: 'HTTP 500' }, q.correctAnswer).verdict).toBe('failed');
    expect(pmAttemptRequestText(a)).toContain(`first 4 messages as stored`);
    expect(pmAttemptRequestText(a)).toContain('Think of tea.');
    expect(pmAttemptReplyText(a)).toBe('I think <final_answer>(b)');
    store.close();
  });
});
