// The PI audit of a PersonaMem folder: PI planted in a generated history, a question and a response is found, located
// (file:line and field, split, context, message, the question that opens it) and counted per source and part; the
// CLI's generic `audit` serves the folder.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAuditCommand } from '../../src/cli/audit';
import type { CliIo } from '../../src/cli/labels';
import {
  auditPersonaMem,
  findingsInQuestion,
  questionSeeing,
  questionsByContext,
} from '../../src/core/personamem/audit';
import type { PmAuditFinding, PmCountRow } from '../../src/core/personamem/audit';
import { readContext } from '../../src/core/personamem/contexts';
import { personaMem } from '../../src/core/personamem/format';
import type { PersonaMemBench } from '../../src/core/personamem/types';
import type { AuditReport } from '../../src/core/pi/report';
import { generatePersonaMem } from '../../scripts/gen-personamem/generate.mjs';

const load = async (dir: string) => (await personaMem.load(dir)).bench as PersonaMemBench;

/** A generated folder with the generator's planted PI, a run, and a mail address put in one of the run's responses. */
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pl-pmem-audit-'));
  generatePersonaMem(dir, {
    seed: 5,
    personas: 3,
    sessions: 4,
    turns: 3,
    questions: 5,
    plant: true,
    models: [{ name: 'm', skill: 0.6, answered: 1 }],
  });
  const run = join(dir, 'results', 'eval_results_32k_m.csv');
  const csv = readFileSync(run, 'utf8');
  const at = csv.indexOf('<final_answer>');
  expect(at).toBeGreaterThan(0);
  writeFileSync(run, csv.slice(0, at) + 'Mail soren.vale@lanternpost.org. ' + csv.slice(at));
  return dir;
}

describe('auditPersonaMem', () => {
  it('finds the planted PI in a history, a question and a response, each located and counted', async () => {
    const dir = folder();
    const bench = await load(dir);
    expect(bench.diagnostics).toEqual([]);
    const split = bench.splits.get('32k')!;
    const [ctx0, ctx1] = [...split.contexts.values()];
    const result = await auditPersonaMem(bench);
    expect(result.format).toBe('personamem');
    expect(result.problems).toEqual([]);
    expect(result.cancelled).toBe(false);
    const short = (f: PmAuditFinding) => [f.part, f.category, f.file, f.line, f.field, f.messageIndex, f.text];
    expect(result.findings.map(short)).toEqual([
      ['history', 'EMAIL', 'shared_contexts_32k.jsonl', 1, `${ctx0.id}[8].content`, 8, 'ilse.marsh@quietpost.net'],
      ['history', 'PHONE', 'shared_contexts_32k.jsonl', 2, `${ctx1.id}[15].content`, 15, '+44 7700 900123'],
      ['question', 'IP', 'questions_32k.csv', expect.any(Number), 'user_question_or_message', null, '203.0.113.57'],
      ['response', 'EMAIL', 'results/eval_results_32k_m.csv', 2, 'model_response', null, 'soren.vale@lanternpost.org'],
    ]);
    const [mail, phone, ip, response] = result.findings;
    // the span is the value's place in the message the index names
    const message = readContext(ctx0)[8].content;
    expect(message.slice(mail.start, mail.end)).toBe(mail.text);
    // a message opens in the context's first question whose history holds it
    const sorted = questionsByContext(split).get(ctx0.id)!;
    const first = sorted.find((q) => q.endIndex! > 8)!;
    expect(mail).toMatchObject({ split: '32k', contextId: ctx0.id, questionId: first.questionId, userId: '0' });
    expect(mail.stepId).toBe(8);
    expect(phone).toMatchObject({ contextId: ctx1.id, userId: '1', platform: 'personamem' });
    // the question's line is the CSV record it is on
    const q = split.questions.find((x) => x.questionId === ip.questionId)!;
    expect(q.question).toContain('203.0.113.57');
    expect(ip).toMatchObject({ line: q.line, userId: '2', contextId: q.contextId });
    expect(response).toMatchObject({ run: '32k_m', questionId: split.questions[0].questionId });
    const counts = (source: string) =>
      result.counts.filter((r) => r.source === source).map((r: PmCountRow) => [r.part, r.category, r.findings]);
    expect(counts('data')).toEqual([
      ['history', 'PHONE', 1],
      ['history', 'EMAIL', 1],
      ['question', 'IP', 1],
    ]);
    expect(counts('32k_m')).toEqual([['response', 'EMAIL', 1]]);
    // every message of the three contexts, two texts per question, one response per row
    expect(result.scanned.texts).toBe(3 * 28 + 2 * 15 + 15);
    expect(new Set(result.findings.map((f) => f.key)).size).toBe(4);
  });

  it('a message no question sees opens nowhere; a context that changed since the load is a located problem', async () => {
    const dir = folder();
    const file = join(dir, 'shared_contexts_32k.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n');
    const first = JSON.parse(lines[0]) as Record<string, { role: string; content: string }[]>;
    const [id] = Object.keys(first);
    first[id].at(-1)!.content += ' Reach me at 13912345678.';
    writeFileSync(file, [JSON.stringify(first), ...lines.slice(1)].join('\n'));
    const bench = await load(dir);
    const late = (await auditPersonaMem(bench)).findings.find((f) => f.category === 'PHONE' && f.contextId === id)!;
    expect(late.messageIndex).toBe(27);
    expect(late.questionId).toBeNull();
    // a first line of another length moves every later context off its indexed span
    writeFileSync(file, 'x'.repeat(40) + '\n' + lines.slice(1).join('\n'));
    const changed = await auditPersonaMem(bench);
    const ids = [...bench.splits.get('32k')!.contexts.keys()];
    expect(changed.problems).toEqual(
      ids.map((c, i) => `shared_contexts_32k.jsonl:${i + 1}: ${c}: changed since it was indexed; not scanned`),
    );
    expect(changed.findings.filter((f) => f.part === 'history')).toEqual([]);
  });

  it('stops when its signal is aborted, and says the result is partial', async () => {
    const bench = await load(folder());
    const stop = new AbortController();
    const result = await auditPersonaMem(bench, { signal: stop.signal, onProgress: () => stop.abort() });
    expect(result.cancelled).toBe(true);
    expect(result.findings.length).toBeLessThan(4);
  });
});

describe('what the question view shows', () => {
  it("a question's history findings (below its end index), its own text's and its run's responses", async () => {
    const bench = await load(folder());
    const split = bench.splits.get('32k')!;
    const { findings } = await auditPersonaMem(bench);
    const sorted = questionsByContext(split).get(findings[0].contextId)!;
    const before = sorted.filter((q) => q.endIndex! <= 8);
    const after = sorted.filter((q) => q.endIndex! > 8);
    expect(after.length).toBeGreaterThan(0);
    expect(questionSeeing(sorted, 8)).toBe(after[0]);
    for (const q of after) expect(findingsInQuestion(findings, q).map((f) => f.category)).toContain('EMAIL');
    for (const q of before) expect(findingsInQuestion(findings, q).map((f) => f.part)).not.toContain('history');
    const asked = split.questions[0];
    const mine = findingsInQuestion(findings, asked).filter((f) => f.part === 'response');
    expect(mine.map((f) => f.run)).toEqual(['32k_m']);
    expect(findingsInQuestion(findings, asked, 'other-run').filter((f) => f.part === 'response')).toEqual([]);
  });
});

describe('persona-lab audit on a PersonaMem folder', () => {
  it('goes through the generic command: counts per source and part, each finding at file:line', async () => {
    const dir = folder();
    const out: string[] = [];
    const io: CliIo = { write: (t) => out.push(t), out: (t) => out.push(t + '\n'), err: (t) => out.push(t + '\n') };
    expect(await runAuditCommand([dir], {}, io)).toBe(1);
    const printed = out.join('');
    expect(printed).toContain('data · history');
    expect(printed).toContain('run 32k_m · response');
    expect(printed).toMatch(
      /shared_contexts_32k\.jsonl:1 \w+\[8\]\.content \[EMAIL\/high\] ilse\.marsh@quietpost\.net\n/,
    );
    out.length = 0;
    expect(await runAuditCommand([dir], { json: true }, io)).toBe(1);
    const report = JSON.parse(out.join('')) as AuditReport<PmAuditFinding, PmCountRow>;
    expect(report.benchmarkFormat).toBe('personamem');
    expect(report.findings).toHaveLength(4);
  });
});
