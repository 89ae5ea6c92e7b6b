// Labels on PersonaMem questions: where a label is kept (split, persona, place among the persona's questions), that
// the key reads the same after a reload, freshness against the questions as loaded now, the walk to the next
// unlabelled question, the label set labels.json adds as `questionLabels`, the question view's bar state and its
// messages, and the CLI's labels summary and export on a PersonaMem folder through the format's capability.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runLabelsCommand, type CliIo } from '../../src/cli/labels';
import { formatLabelSets } from '../../src/core/formats';
import { personaMem } from '../../src/core/personamem/format';
import { parseLabelFile, toJsonl } from '../../src/core/labels/exportImport';
import { labelFreshness } from '../../src/core/labels/freshness';
import { LabelStore } from '../../src/core/labels/store';
import { labelNames, parseLabelSet } from '../../src/core/labels/taxonomy';
import { benchmarkId } from '../../src/core/labels/model';
import {
  DEFAULT_QUESTION_LABELS,
  nextUnlabelledQuestion,
  QUESTION_LABEL_SET,
  questionAt,
  questionFreshness,
  questionHash,
  questionOrder,
  questionStepRef,
  questionUnit,
  unitKey,
} from '../../src/core/personamem/labels';
import type { PersonaMemBench } from '../../src/core/personamem/types';
import { buildQuestionLabelState } from '../../src/extension/benchmarks/personamem/labels/viewState';
import { isExtensionToWebview, isWebviewToExtension } from '../../src/shared/personamem/questionProtocol';
import { labelRow } from './labelStore-fixture';
import { handFolder } from './personamem-folder';

const load = async (dir: string) => (await personaMem.load(dir)).bench as PersonaMemBench;

/** Persona 0 has q1, q3; persona 1 has q2 (the file's order interleaves them). */
const folder = () => handFolder([{ id: 'q1' }, { id: 'q2', persona: 1 }, { id: 'q3' }]);

describe('the label unit of a question', () => {
  it("is the split, the persona and the place among the persona's questions, the same after a reload", async () => {
    const dir = folder();
    const bench = await load(dir);
    expect(questionUnit(bench, '32k', 'q3')).toEqual({ split: '32k', personaId: '0', index: 1 });
    expect(questionUnit(bench, '32k', 'q2')).toEqual({ split: '32k', personaId: '1', index: 0 });
    expect(questionUnit(bench, '32k', 'nope')).toBeUndefined();
    expect(questionUnit(bench, '128k', 'q1')).toBeUndefined();
    const again = await load(dir);
    expect(questionUnit(again, '32k', 'q3')).toEqual(questionUnit(bench, '32k', 'q3'));
    expect(questionAt(again, { split: '32k', personaId: '0', index: 1 })?.questionId).toBe('q3');
    expect(questionAt(again, { split: '32k', personaId: '0', index: 2 })).toBeUndefined();
    expect(questionStepRef('pm', { split: '32k', personaId: '0', index: 1 }, 'demo')).toEqual({
      benchmark: 'pm',
      platform: '32k',
      userId: '0',
      stepId: 1,
      run: 'demo',
    });
  });

  it('reads fresh, stale (the question changed), unknown (no hash) and missing (the place is gone)', async () => {
    const dir = folder();
    const bench = await load(dir);
    const q3 = bench.splits.get('32k')!.questions[2];
    const base = { benchmark: 'pm', run: '', author: 'a', label: 'evidence-ignored', createdAt: '' };
    const at = (userId: string, stepId: number, contentHash: string) =>
      labelRow({ ...base, platform: '32k', userId, stepId, contentHash });
    const fresh = at('0', 1, questionHash(q3));
    const stale = at('0', 0, questionHash(q3));
    const unknown = at('1', 0, '');
    const missing = at('0', 5, questionHash(q3));
    const other = { ...fresh, benchmark: 'another' };
    const got = questionFreshness(bench, 'pm', [fresh, stale, unknown, missing, other]);
    expect([got.get(fresh), got.get(stale), got.get(unknown), got.get(missing)]).toEqual([
      'fresh',
      'stale',
      'unknown',
      'missing',
    ]);
    expect(got.has(other)).toBe(false);
    // The file edited: the question's text changed, so its label is stale.
    const csvPath = join(dir, 'questions_32k.csv');
    writeFileSync(csvPath, readFileSync(csvPath, 'utf8').replace('question q3', 'question q3, reworded'));
    const edited = await load(dir);
    expect(questionFreshness(edited, 'pm', [fresh]).get(fresh)).toBe('stale');
  });

  it("walks to the next question without a label in the tree's order, going round once", async () => {
    const bench = await load(folder());
    const order = questionOrder(bench);
    expect(order.map((q) => q.questionId)).toEqual(['q1', 'q3', 'q2']);
    expect(questionOrder(bench, true).map((q) => q.questionId)).toEqual(['q2', 'q1', 'q3']);
    const unit = (id: string) => unitKey(questionUnit(bench, '32k', id)!);
    const from = (id: string) => ({ split: '32k', questionId: id });
    expect(nextUnlabelledQuestion(bench, order, from('q1'), new Set([unit('q3')]))?.questionId).toBe('q2');
    expect(nextUnlabelledQuestion(bench, order, from('q2'), new Set())?.questionId).toBe('q1');
    expect(nextUnlabelledQuestion(bench, order, from('q2'), new Set([unit('q1'), unit('q3')]))?.questionId).toBe('q2');
    const all = new Set(['q1', 'q2', 'q3'].map(unit));
    expect(nextUnlabelledQuestion(bench, order, from('q1'), all)).toBeUndefined();
  });
});

describe("PersonaMem's label set", () => {
  const sets = formatLabelSets();

  it('is a set the format adds: the defaults without a file, the names in every summary', () => {
    expect(sets).toContainEqual(QUESTION_LABEL_SET);
    const set = parseLabelSet('{"labels": [{"id": "x", "name": "X", "scope": "step"}]}', 'labels.json', {
      formatSets: sets,
    });
    expect(set.formatSets.questionLabels.map((l) => l.id)).toEqual(DEFAULT_QUESTION_LABELS.map((l) => l.id));
    expect(labelNames(set).get('outdated-preference')).toBe('Outdated preference used');
    // an id both sets hold keeps the first set's name
    expect(labelNames(set).get('x')).toBe('X');
  });

  it('reads `questionLabels` from labels.json, with located errors that fall back to the defaults', () => {
    const text = JSON.stringify(
      {
        labels: [{ id: 'x', name: 'X', scope: 'step', description: '' }],
        questionLabels: [{ id: 'stale-pick', name: 'Stale pick', key: '1', scope: 'step', description: '' }],
      },
      null,
      2,
    );
    const set = parseLabelSet(text, 'labels.json', { formatSets: sets });
    expect(set.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(set.formatSets.questionLabels.map((l) => l.name)).toEqual(['Stale pick']);
    const broken = parseLabelSet(
      '{\n  "labels": [{"id": "x", "name": "X", "scope": "step"}],\n  "questionLabels": [{"id": "Bad Id", "name": "B", "scope": "step"}]\n}',
      'labels.json',
      { formatSets: sets },
    );
    const error = broken.diagnostics.find((d) => d.severity === 'error');
    expect(error).toMatchObject({ file: 'labels.json', line: 3, field: 'questionLabels[0].id' });
    expect(broken.isDefault).toBe(true);
    expect(broken.formatSets.questionLabels).toHaveLength(DEFAULT_QUESTION_LABELS.length);
    // Without the format's set, its key is an unknown field (a warning), never an error.
    const plain = parseLabelSet(text, 'labels.json', {
      formatSets: sets.filter((f) => f.key !== QUESTION_LABEL_SET.key),
    });
    expect(plain.diagnostics.find((d) => d.field === 'questionLabels')?.severity).toBe('warning');
  });
});

describe("the question view's labels bar", () => {
  it("shows this author's labels on the question with their freshness, and its messages pass the guards", () => {
    const ref = { split: '32k', questionId: 'q1' };
    const row = (author: string, label: string) =>
      labelRow({ benchmark: 'pm', platform: '32k', userId: '0', run: 'demo', author, label, createdAt: '' });
    const mine = row('ann', 'evidence-ignored');
    const theirs = row('bob', 'generic-pick');
    const state = buildQuestionLabelState({
      ref,
      run: 'demo',
      author: 'ann',
      labels: DEFAULT_QUESTION_LABELS,
      rows: [mine, theirs],
      freshness: new Map([[mine, 'stale']]),
      canUndo: true,
      error: null,
      labelSetNote: null,
      flash: null,
    });
    expect(state.applied.map((a) => [a.labelId, a.staleness, a.changed])).toEqual([
      ['evidence-ignored', 'stale', ['question']],
    ]);
    expect(state.labels.map((l) => l.key)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '0']);
    expect(isExtensionToWebview({ type: 'labels', state })).toBe(true);
    const toggle = { kind: 'toggle', ref, labelId: 'evidence-ignored', target: { kind: 'step' } };
    expect(isWebviewToExtension({ type: 'label', action: toggle })).toBe(true);
    expect(isWebviewToExtension({ type: 'label', action: { ...toggle, target: { kind: 'action' } } })).toBe(false);
    expect(isWebviewToExtension({ type: 'label', action: { kind: 'nextUnlabelled', ref: { split: '32k' } } })).toBe(
      false,
    );
  });
});

describe('the CLI on PersonaMem labels', () => {
  it('labels summary counts fresh, stale, unknown and missing, and export writes the rows, through the format', async () => {
    const dir = folder();
    const bench = await load(dir);
    const [q1, , q3] = bench.splits.get('32k')!.questions;
    mkdirSync(join(dir, '.personalab'));
    const store = LabelStore.open(join(dir, '.personalab', 'labels.db'));
    const benchmark = benchmarkId(dir);
    const key = { benchmark, platform: '32k', run: '', author: 'ann', target: { kind: 'step' as const } };
    store.add({ ...key, userId: '0', stepId: 0, label: 'evidence-ignored', contentHash: questionHash(q1) });
    store.add({ ...key, userId: '0', stepId: 1, label: 'generic-pick', contentHash: questionHash(q1) });
    store.add({ ...key, userId: '1', stepId: 0, label: 'outdated-preference' });
    store.add({ ...key, userId: '0', stepId: 4, label: 'format-error', contentHash: questionHash(q3) });
    store.close();
    const out: string[] = [];
    const io: CliIo = { write: (t) => out.push(t), out: (t) => out.push(t), err: (t) => out.push(t) };
    expect(await runLabelsCommand(['summary', dir], { json: true }, io)).toBe(0);
    const summary = JSON.parse(out.join('')) as { total: number; freshness: Record<string, number> };
    expect(summary.total).toBe(4);
    expect(summary.freshness).toEqual({ fresh: 1, stale: 1, unknown: 1, missing: 1 });
    out.length = 0;
    expect(await runLabelsCommand(['summary', dir], {}, io)).toBe(0);
    expect(out.join('\n')).toContain('Outdated preference used');
    out.length = 0;
    expect(await runLabelsCommand(['export', dir], {}, io)).toBe(0);
    const lines = out.join('').trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(JSON.parse(lines[0])).toMatchObject({
      platform: '32k',
      user_id: '0',
      step_id: 0,
      label: 'evidence-ignored',
    });
  });

  it('an exported question label imports back; a tag on a platform no format has is refused at its line', () => {
    const row = labelRow({
      benchmark: 'pm',
      platform: '32k',
      userId: '0',
      stepId: 2,
      run: 'demo',
      label: 'generic-pick',
    });
    const back = parseLabelFile(toJsonl([row]), 'labels.jsonl', 'jsonl');
    expect(back.diagnostics).toEqual([]);
    expect(back.rows.map((r) => r.row)).toEqual([row]);
    const tag = JSON.stringify({ ...JSON.parse(toJsonl([row])), target_kind: 'tag', tag: 'x' });
    const refused = parseLabelFile(tag, 'labels.jsonl', 'jsonl');
    expect(refused.rows).toEqual([]);
    expect(refused.diagnostics[0]).toMatchObject({ line: 1, field: 'platform', message: 'unknown platform "32k"' });
  });

  it('labelFreshness reads through the loaded PersonaMem format', async () => {
    const { opened, bench } = await personaMem.load(folder());
    const q1 = (bench as PersonaMemBench).splits.get('32k')!.questions[0];
    const row = labelRow({
      benchmark: 'pm',
      platform: '32k',
      userId: '0',
      stepId: 0,
      run: '',
      author: 'a',
      label: 'x',
    });
    const fresh = { ...row, contentHash: questionHash(q1) };
    expect((await labelFreshness(opened, 'pm', [fresh])).get(fresh)).toBe('fresh');
  });
});
