// PersonaMem runs in process: the Persona Lab template's request, the benchmark's request through our driver on the
// stand-in checkout (test/fixtures/personamem-checkout), the demo model's rule, and runs into the results file against
// the scripted endpoint and the demo endpoint: the authors' columns, a bad reply scored wrong as their code scores it,
// a failed request left without a row, and a resume after an interrupted run that asks only what is missing.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personaMemDemoAnswer, demoOptions } from '../../src/core/personamem/demo';
import { DEMO_MODEL_ID } from '../../src/core/demo/model';
import { startDemoServer, type DemoServer } from '../../src/core/demo/server';
import { readContext } from '../../src/core/personamem/contexts';
import { loadPersonaMem } from '../../src/core/personamem/load';
import {
  findPmReferenceCheckout,
  isPmReferenceCheckout,
  pmReferenceSource,
} from '../../src/core/personamem/reference/source';
import { planPersonaMem } from '../../src/core/personamem/run/plan';
import { RESULT_COLUMNS, runPersonaMem, type PmRunOptions } from '../../src/core/personamem/run/runner';
import { PM_TEMPLATE_NAME, pmTemplateSource, type PmRequestSource } from '../../src/core/personamem/run/source';
import { scorePersonaMemRun } from '../../src/core/personamem/score';
import type { PersonaMemBench } from '../../src/core/personamem/types';
import { csvRecords } from '../../src/core/labels/exportImport';
import { askPersonaMem } from '../../src/core/personamem/run/ask';
import { createOpenAITransport, DEFAULT_RETRY } from '../../src/core/runner/client';
import { reply, startScriptedServer, type RecordedRequest, type ScriptedServer } from '../support/scriptedServer';
import { handFolder } from './personamem-folder';

const CHECKOUT = resolve('test/fixtures/personamem-checkout');
const OPTIONS = `['(a) tea', "(b) it's coffee", '(c) water', '(d) juice']`;

let server: ScriptedServer;
let demo: DemoServer;
let reference: PmRequestSource;
beforeAll(async () => {
  server = await startScriptedServer();
  demo = await startDemoServer();
  reference = await pmReferenceSource(CHECKOUT);
});
afterAll(async () => {
  reference.close();
  await server.close();
  await demo.close();
});

const questions = ['q1', 'q2', 'q3', 'q4', 'q5'].map((id, i) => ({ id, gold: i % 2 ? '(b)' : '(a)', end: 1 + i }));

async function bench(): Promise<PersonaMemBench> {
  return loadPersonaMem(handFolder(questions));
}
const q1 = (b: PersonaMemBench) => b.splits.get('32k')!.questions[0];
const history = (b: PersonaMemBench, end: number) => readContext(b.splits.get('32k')!.contexts.get('ctx1')!, end);

/** The question turn a request ends with (the scripted server's `prompt` is its first user message). */
function asked(r: RecordedRequest): string {
  const messages = (r.body as { messages: { role: string; content: string }[] }).messages;
  return messages[messages.length - 1].content;
}

function rowsOf(file: string) {
  const [head, ...rows] = csvRecords(readFileSync(file, 'utf8'));
  return { head: head.fields, rows: rows.map((r) => Object.fromEntries(head.fields.map((f, i) => [f, r.fields[i]]))) };
}

const run = (b: PersonaMemBench, extra: Partial<PmRunOptions> = {}) =>
  runPersonaMem({
    bench: b,
    size: '32k',
    name: 'm',
    source: pmTemplateSource(),
    endpoint: { baseURL: server.baseURL, apiKey: '', model: 'm' },
    retry: { baseMs: 0, attempts: 1 },
    concurrency: 1,
    ...extra,
  });

describe('the Persona Lab template', () => {
  it('sends the history up to the end index as it is, then the question with its options one per line', async () => {
    const b = await bench();
    const req = await pmTemplateSource().request(q1(b), history(b, 3), 'm');
    expect(req.messages.slice(0, 3)).toEqual([
      { role: 'system', content: 'Persona profile 1' },
      { role: 'user', content: 'turn 1.0' },
      { role: 'assistant', content: 'turn 1.1' },
    ]);
    const last = req.messages[3];
    expect(last.role).toBe('user');
    expect(last.content.startsWith("question q1\n\nOptions:\n(a) tea\n(b) it's coffee\n(c) water\n(d) juice\n\n")).toBe(
      true,
    );
    expect(last.content).toContain('<final_answer>');
    expect(req.params).toEqual({});
    expect(pmTemplateSource().name).toBe(PM_TEMPLATE_NAME);
    expect(PM_TEMPLATE_NAME).toMatch(/Persona Lab template \(not the benchmark/);
  });
});

describe("the benchmark's request through the driver (stand-in checkout)", () => {
  it('finds a checkout by its inference.py and never looks above the folder it is given', () => {
    expect(isPmReferenceCheckout(CHECKOUT)).toBe(true);
    expect(isPmReferenceCheckout(resolve('test/fixtures/omni-checkout'))).toBe(false);
    expect(findPmReferenceCheckout(CHECKOUT)).toBe(CHECKOUT);
    expect(findPmReferenceCheckout(resolve('test/fixtures'))).toBeNull();
  });

  it("builds what the checkout's query_llm builds, per its branches, with the options cell verbatim", async () => {
    const b = await bench();
    const q = q1(b);
    const turn = `OPTIONS ${OPTIONS}\n---\nquestion q1\n---\nStand-in instruction: answer with <final_answer>(x).`;
    // the stand-in's "stand-in" branch: system turns become user turns, and max_tokens 77
    expect(await reference.request(q, history(b, 3), 'stand-in-1')).toEqual({
      api: 'openai',
      messages: [
        { role: 'user', content: '<<Persona profile 1>>' },
        { role: 'user', content: 'turn 1.0' },
        { role: 'assistant', content: 'turn 1.1' },
        { role: 'user', content: turn },
      ],
      params: { max_tokens: 77 },
    });
    // any other model: the history as it is, no parameter
    const plain = await reference.request(q, history(b, 3), 'other-model');
    expect(plain.messages[0]).toEqual({ role: 'system', content: 'Persona profile 1' });
    expect(plain.params).toEqual({});
    // an empty history: only the question turn
    expect((await reference.request(q, [], 'other-model')).messages).toEqual([{ role: 'user', content: turn }]);
    // the Gemini branch goes through their history conversion (no system turn) and is reported as such
    const gemini = await reference.request(q, history(b, 3), 'gemini-x');
    expect(gemini.api).toBe('gemini');
    expect(gemini.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
  });

  it("reads a reply by the checkout's extract_answer, not by ours", async () => {
    expect(await reference.read('so <final_answer>(b)', '(b)')).toEqual({ score: true, predicted: 'stand-in:(b)' });
    // our reading (the authors') would take the bare "(b)" as right; the stand-in wants the tag
    expect(await reference.read('(b)', '(b)')).toEqual({ score: false, predicted: 'stand-in:' });
    expect(await pmTemplateSource().read('(b)', '(b)')).toEqual({ score: true, predicted: '(b)' });
  });
});

describe('one question asked', () => {
  it("sends an edited request with the source's parameters and reads the reply by the source's rules", async () => {
    const b = await bench();
    server.setScript(() => reply.text('<final_answer>(a)'));
    server.requests.length = 0;
    const edited = [{ role: 'user' as const, content: 'edited: pick one <final_answer>' }];
    const input = {
      source: reference,
      transport: createOpenAITransport({ baseURL: server.baseURL, apiKey: '', model: 'stand-in-2' }),
      model: 'stand-in-2',
      retry: { ...DEFAULT_RETRY, attempts: 1 },
      temperature: 0.5,
    };
    const asked = await askPersonaMem(q1(b), history(b, 3), { ...input, messages: edited });
    expect(asked.request).toMatchObject({ messages: edited, params: { max_tokens: 77, temperature: 0.5 } });
    expect(server.requests.map((r) => r.body)).toEqual([
      expect.objectContaining({ messages: edited, max_tokens: 77, temperature: 0.5 }),
    ]);
    expect(asked.reading).toEqual({ score: true, predicted: 'stand-in:(a)' });
    server.setScript(() => reply.status(401));
    expect((await askPersonaMem(q1(b), history(b, 3), input)).reading).toBeNull();
  });
});

describe('the demo model (not an LLM)', () => {
  it('reads the options as a list or one per line, after any mention of the letters in an instruction', () => {
    expect(demoOptions(`Pick (a), (b), (c), or (d) after <final_answer>.\n\n${OPTIONS}`)).toEqual([
      'tea',
      "it's coffee",
      'water',
      'juice',
    ]);
    expect(demoOptions('Q\n\nOptions:\n(a) one two\n(b) three\n(c) four\n(d) five\n\nAnswer.')).toEqual([
      'one two',
      'three',
      'four',
      'five',
    ]);
    expect(demoOptions('(a) x (b) y (c) z')).toBeUndefined();
  });

  it("picks the option sharing the most words with the user's last message, the earliest on a tie", () => {
    const ask = (options: string) => ({ role: 'user', content: `What now?\n<final_answer>\n${options}` });
    const said = { role: 'user', content: 'I have been hiking mountains every weekend lately' };
    const list = `['(a) Try baking bread', '(b) Plan a weekend hiking trip in the mountains', '(c) Go hiking', '(d) Read']`;
    expect(personaMemDemoAnswer([said, { role: 'assistant', content: 'ok' }, ask(list)])).toMatchObject({
      letter: 'b',
      shared: 3,
    });
    const tie = `['(a) nothing shared', '(b) nothing either', '(c) zilch', '(d) none']`;
    expect(personaMemDemoAnswer([said, ask(tie)])?.letter).toBe('a');
    const answer = personaMemDemoAnswer([said, ask(list)])!;
    expect(answer.content).toMatch(/^Demo model, not an LLM: /);
    expect(answer.content.endsWith('<final_answer>(b)')).toBe(true);
    // without the answer tag it is not a PersonaMem question
    expect(personaMemDemoAnswer([said, { role: 'user', content: list }])).toBeUndefined();
  });
});

describe('a PersonaMem run into the results file', () => {
  it("writes the authors' columns in the questions' order; a bad reply is a wrong row, a failed request no row", async () => {
    const b = await bench();
    server.setScript((req) => {
      if (asked(req).startsWith('question q2')) return reply.text('I would rather not say.');
      if (asked(req).startsWith('question q4')) return reply.status(400);
      return reply.text('Thinking… <final_answer>(a)');
    });
    server.requests.length = 0;
    const summary = await run(b, { concurrency: 3 });
    expect(summary).toMatchObject({ status: 'finished', resumed: false });
    expect(summary.progress).toMatchObject({ done: 4, total: 5, failed: 1 });
    expect(summary.errors[0]).toMatch(/^q4: /);
    // each request: the history up to the question's end index, then the question
    const sent = server.requests.find((r) => asked(r).startsWith('question q3'))!;
    expect((sent.body as { messages: unknown[] }).messages).toHaveLength(3 + 1);
    const { head, rows } = rowsOf(summary.file);
    expect(summary.file.endsWith(join('results', 'eval_results_32k_m.csv'))).toBe(true);
    expect(head).toEqual([...RESULT_COLUMNS]);
    expect(rows.map((r) => r.question_id)).toEqual(['q1', 'q2', 'q3', 'q5']);
    expect(rows.map((r) => r.score)).toEqual(['True', 'False', 'True', 'True']);
    expect(rows[0]).toMatchObject({
      persona_id: '0',
      user_question_or_message: 'question q1',
      context_length_in_letters: '400',
      distance_to_ref_proportion_in_context: '50.00%',
      model_response: 'Thinking… <final_answer>(a)',
      len_of_model_response: String('Thinking… <final_answer>(a)'.length),
      predicted_answer: '(a)',
      correct_answer: '(a)',
    });
    expect(rows[1].predicted_answer).toBe('I would rather not say.');
    // score reads it as a run: the bad reply is in the denominator, wrong, and counted as naming no option
    const loaded = await loadPersonaMem(b.root);
    const s = scorePersonaMemRun(loaded, loaded.runs.get('32k_m')!);
    expect(s.overall).toEqual({ answered: 4, correct: 3, accuracy: 0.75 });
    expect(s.unreadable).toBe(1);
    // a second run asks only the question without a row
    server.setScript(() => reply.text('<final_answer>(b)'));
    server.requests.length = 0;
    const again = await run(b);
    expect(again).toMatchObject({ status: 'finished', resumed: true, progress: { done: 5, failed: 0 } });
    expect(server.requests.map((r) => asked(r).split('\n')[0])).toEqual(['question q4']);
    expect(rowsOf(again.file).rows.map((r) => r.question_id)).toEqual(['q1', 'q2', 'q3', 'q4', 'q5']);
  });

  it('resumes after an interrupted run: the half-written row dropped, only the missing questions asked', async () => {
    const b = await bench();
    server.setScript(() => reply.text('<final_answer>(a)'));
    const controller = new AbortController();
    const first = await run(b, {
      signal: controller.signal,
      onProgress: (p) => {
        if (p.done >= 2) controller.abort();
      },
    });
    expect(first.status).toBe('cancelled');
    expect(rowsOf(first.file).rows.map((r) => r.question_id)).toEqual(['q1', 'q2']);
    // a crash in the middle of writing a row
    appendFileSync(first.file, 'True,0,q3,"question q3 cut off');
    server.requests.length = 0;
    const second = await run(b);
    expect(second).toMatchObject({ status: 'finished', resumed: true, progress: { done: 5, total: 5 } });
    expect(server.requests.map((r) => asked(r).split('\n')[0])).toEqual(['question q3', 'question q4', 'question q5']);
    const { rows } = rowsOf(second.file);
    expect(rows.map((r) => r.question_id)).toEqual(['q1', 'q2', 'q3', 'q4', 'q5']);
    expect(readFileSync(second.file, 'utf8')).not.toContain('cut off');
  });

  it("records what made the run, and refuses to mix another source, model or an authors' file into it", async () => {
    const b = await bench();
    server.setScript(() => reply.text('<final_answer>(a)'));
    const first = await run(b, { selection: { personaId: '0' } });
    expect(first.manifest).toMatchObject({
      request: { kind: 'template', name: PM_TEMPLATE_NAME, checkout: null },
      endpoint: { model: 'm', temperature: null },
      status: 'finished',
      counts: { questions: 5, done: 5, failed: 0 },
    });
    const onDisk = JSON.parse(readFileSync(join(b.root, 'results', 'eval_results_32k_m.run.json'), 'utf8')) as unknown;
    expect(onDisk).toEqual(first.manifest);
    const before = readFileSync(first.file, 'utf8');
    const other = await run(b, { source: reference });
    expect(other.status).toBe('failed');
    expect(other.error).toContain(`this run was made with ${PM_TEMPLATE_NAME}`);
    const model = await run(b, { endpoint: { baseURL: server.baseURL, apiKey: '', model: 'n' } });
    expect(model.error).toContain('this run was made with model m, not n');
    expect(readFileSync(first.file, 'utf8')).toBe(before);
    // a results file of the authors' (no manifest beside it) is never written into
    const theirs = join(b.root, 'results', 'eval_results_32k_theirs.csv');
    writeFileSync(theirs, before);
    const into = await run(b, { name: 'theirs' });
    expect(into.error).toContain('holds answers persona-lab run did not write');
    expect(planPersonaMem(b, '32k', 'theirs').problem).toContain('holds answers persona-lab run did not write');
    expect(readFileSync(theirs, 'utf8')).toBe(before);
  });

  it("through the benchmark's request: the checkout's messages sent, its reading in the score column", async () => {
    const b = await bench();
    server.setScript(() => reply.text('<final_answer>(a)'));
    server.requests.length = 0;
    const s = await run(b, {
      source: reference,
      name: 'ref',
      endpoint: { baseURL: server.baseURL, apiKey: '', model: 'stand-in-9' },
    });
    expect(s.status).toBe('finished');
    for (const r of server.requests) {
      const body = r.body as { messages: { role: string }[]; max_tokens: number };
      expect(body.max_tokens).toBe(77);
      expect(body.messages.every((m) => m.role !== 'system')).toBe(true);
      expect(asked(r).startsWith(`OPTIONS ${OPTIONS}`)).toBe(true);
    }
    const { rows } = rowsOf(s.file);
    expect(rows.map((r) => [r.score, r.predicted_answer])).toEqual([
      ['True', 'stand-in:(a)'],
      ['False', 'stand-in:(a)'],
      ['True', 'stand-in:(a)'],
      ['False', 'stand-in:(a)'],
      ['True', 'stand-in:(a)'],
    ]);
  });

  it("against the demo endpoint: every question answered by the demo's rule", async () => {
    const b = await bench();
    const s = await run(b, {
      name: 'demo',
      endpoint: { baseURL: demo.baseURL, apiKey: '', model: DEMO_MODEL_ID },
    });
    expect(s).toMatchObject({ status: 'finished', progress: { done: 5, failed: 0 } });
    const src = pmTemplateSource();
    for (const row of rowsOf(s.file).rows) {
      const q = b.splits.get('32k')!.questions.find((x) => x.questionId === row.question_id)!;
      const req = await src.request(q, history(b, q.endIndex!), DEMO_MODEL_ID);
      expect(row.model_response).toBe(personaMemDemoAnswer(req.messages)!.content);
    }
  });

  it('plans what a rerun will ask and what the PI guard scans (each context once, each question)', async () => {
    const b = await bench();
    server.setScript(() => reply.text('<final_answer>(a)'));
    await run(b, { selection: { personaId: '0' }, onProgress: undefined, concurrency: 1, name: 'p' });
    const plan = planPersonaMem(b, '32k', 'p');
    expect(plan.done.size).toBe(5);
    expect([...plan.outgoing]).toEqual([]);
    const fresh = planPersonaMem(b, '32k', 'fresh');
    const outgoing = [...fresh.outgoing];
    expect(outgoing.map((o) => o.label)).toEqual([
      '32k context ctx1 (messages 0–4)',
      ...questions.map((q) => `32k question ${q.id}`),
    ]);
    expect(outgoing[0].prompt).toContain('turn 2.0');
    expect(fresh.requests.filter((r) => !r.done)).toHaveLength(5);
  });
});
