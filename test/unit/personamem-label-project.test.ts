// A PersonaMem labelling project's items (the question view's ProjectSource): each run's questions as item keys that
// read back as the questions' label units, the item the view shows, and opening an item of another run (which
// selects that run first) in the question view; the Label Summary's rows open the same way.
import { describe, expect, it, vi } from 'vitest';
import { parseItem } from '../../src/core/labels/server/projectItems';
import { personaMem } from '../../src/core/personamem/format';
import { questionAt, questionUnit } from '../../src/core/personamem/labels';
import type { PersonaMemBench, PmRun } from '../../src/core/personamem/types';
import type { QuestionRef } from '../../src/shared/personamem/questionProtocol';
import { handFolder, resultRows } from './personamem-folder';

vi.mock('vscode', () => ({}));

const { questionOpener, questionProjectSource } =
  await import('../../src/extension/benchmarks/personamem/labels/project');
type Source = ReturnType<typeof questionProjectSource>;
type Args = Parameters<typeof questionProjectSource>;

async function setup() {
  const answers: [string, string, string][] = [
    ['q1', '(a)', '(a)'],
    ['q2', '(b)', '(a)'],
    ['q3', '(a)', '(a)'],
  ];
  const dir = handFolder([{ id: 'q1' }, { id: 'q2', persona: 1 }, { id: 'q3' }], {
    one: resultRows(answers),
    two: resultRows(answers),
  });
  const bench = (await personaMem.load(dir)).bench as PersonaMemBench;
  const shown: QuestionRef[] = [];
  const store = {
    bench,
    runName: '32k_one' as string | undefined,
    get run(): PmRun | undefined {
      return this.runName ? bench.runs.get(this.runName) : undefined;
    },
    tree: { order: { value: { direction: 'ascending' } } },
    selectRun(name: string) {
      this.runName = name;
      return Promise.resolve();
    },
  };
  const panel = {
    isActive: true,
    currentRef: undefined as QuestionRef | undefined,
    show: (r: QuestionRef) => shown.push(r),
  };
  const labels = { benchmarkOf: () => 'pm' };
  const source: Source = questionProjectSource(
    labels as unknown as Args[0],
    store as unknown as Args[1],
    panel as unknown as Args[2],
  );
  return { bench, store, panel, source, shown };
}

describe("a PersonaMem labelling project's items", () => {
  it("lists each run's questions in the tree's order as items that read back as their label units", async () => {
    const { bench, source } = await setup();
    expect([...bench.runs.keys()]).toEqual(['32k_one', '32k_two']);
    const items = (await source.items(['32k_two']))!;
    expect(items).toHaveLength(3);
    const parsed = items.map((i) => parseItem(i)!);
    expect(parsed.every((p) => p.kind === 'item' && p.run === '32k_two')).toBe(true);
    const ids = parsed.map((p) =>
      p.kind === 'item'
        ? questionAt(bench, { split: p.ref.platform, personaId: p.ref.userId, index: p.ref.stepId })?.questionId
        : undefined,
    );
    expect(ids).toEqual(['q1', 'q3', 'q2']);
    expect(source.itemKind).toBe('item');
  });

  it('names the item shown (a ref with its run, else the view in the selected run) and opens one of another run', async () => {
    const { bench, store, panel, source, shown } = await setup();
    const [item] = (await source.items(['32k_two']))!;
    expect(source.shownItem({ split: '32k', questionId: 'q1', run: '32k_two' })).toBe(item);
    expect(source.shownItem(undefined)).toBeUndefined();
    panel.currentRef = { split: '32k', questionId: 'q1' };
    expect(source.shownItem(undefined)).toBe((await source.items(['32k_one']))![0]);
    expect(await source.open(parseItem(item)!)).toBe(true);
    expect(store.runName).toBe('32k_two');
    expect(shown).toEqual([{ split: '32k', questionId: 'q1' }]);
    // Not a question of this folder: not its item.
    expect(await source.open({ kind: 'item', run: '32k_one', ref: { platform: '32k', userId: '0', stepId: 9 } })).toBe(
      false,
    );
    const unit = questionUnit(bench, '32k', 'q3')!;
    const ref = { platform: unit.split, userId: unit.personaId, stepId: unit.index, run: 'gone' };
    await expect(questionOpener(store as never, panel as never, ref)!()).rejects.toThrow(
      'run gone is not in the open PersonaMem folder',
    );
  });
});
