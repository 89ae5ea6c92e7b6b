// Labelling projects on a real PostgreSQL: each item to exactly `overlap` annotators, never twice to one, an open
// claim handed back first; and the load the issue names: 20 annotators labelling 10,000 steps at once.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { LabelRow } from '../../src/core/labels/model';
import { LabelQueues, type Project } from '../../src/core/labels/server/queue';
import { ServerLabelStore } from '../../src/core/labels/server/store';
import { createTestDatabase, describePg } from '../support/pg';

const LOAD_ITEMS = Number(process.env.PERSONA_LAB_LOAD_ITEMS ?? 10_000);
const LOAD_ANNOTATORS = 20;

const label = (author: string, item: string): LabelRow => ({
  benchmark: 'bench',
  platform: 'weibo',
  userId: item,
  stepId: 1,
  run: 'demo',
  author,
  target: { kind: 'step' },
  label: 'wrong_tag',
  note: '',
  createdAt: '2026-12-04T10:00:00.000Z',
  contentHash: '',
});

describePg('labelling projects', () => {
  let url: string;
  let drop: () => Promise<void>;
  const stores: ServerLabelStore[] = [];
  const connect = async () => {
    const s = await ServerLabelStore.open(url, { max: 2 });
    stores.push(s);
    return { server: s, queues: new LabelQueues(s) };
  };

  beforeAll(async () => {
    ({ url, drop } = await createTestDatabase('label_queues'));
  });
  afterAll(async () => {
    for (const s of stores) await s.close();
    await drop();
  });

  it('assigns each item to `overlap` annotators, hands back an open claim first, and counts progress', async () => {
    const { queues } = await connect();
    const items = ['s1', 's2', 's3'];
    const p = await queues.create({
      name: 'small',
      benchmark: 'bench',
      runs: ['demo'],
      labels: [],
      overlap: 2,
      createdBy: 'lead',
      items,
    });
    expect(p).toMatchObject({ name: 'small', overlap: 2, itemCount: 3 });
    await expect(queues.create({ ...p, items })).rejects.toThrow(/exists already/);
    await expect(queues.create({ ...p, name: 'empty', items: [] })).rejects.toThrow(/no items/);
    expect(await queues.next(p, 'ann')).toBe('s1');
    // Not submitted: the same claim again.
    expect(await queues.next(p, 'ann')).toBe('s1');
    expect(await queues.next(p, 'bo')).toBe('s1');
    // s1 has its two annotators: the third gets s2.
    expect(await queues.next(p, 'cy')).toBe('s2');
    expect(await queues.submit(p, 's1', 'ann')).toBe(true);
    expect(await queues.submit(p, 's1', 'ann')).toBe(false);
    expect(await queues.submit(p, 's3', 'ann')).toBe(false);
    expect(await queues.next(p, 'ann')).toBe('s2');
    expect(await queues.progress(p)).toEqual({
      items: 3,
      done: 0,
      submitted: 1,
      annotators: [
        { annotator: 'ann', assigned: 2, submitted: 1 },
        { annotator: 'bo', assigned: 1, submitted: 0 },
        { annotator: 'cy', assigned: 1, submitted: 0 },
      ],
    });
    for (const [who, item] of [
      ['bo', 's1'],
      ['cy', 's2'],
      ['ann', 's2'],
    ] as const)
      expect(await queues.submit(p, item, who)).toBe(true);
    expect(await queues.next(p, 'ann')).toBe('s3');
    expect(await queues.next(p, 'bo')).toBe('s3');
    expect(await queues.next(p, 'cy')).toBeUndefined();
    expect((await queues.progress(p)).done).toBe(2);
    expect(await queues.claimed(p, 'ann')).toEqual([
      { item: 's1', submitted: true },
      { item: 's2', submitted: true },
      { item: 's3', submitted: false },
    ]);
  });

  it(`${LOAD_ANNOTATORS} annotators label ${LOAD_ITEMS} steps at once: none lost, none doubled, each by exactly 2`, async () => {
    const lead = await connect();
    const items = Array.from({ length: LOAD_ITEMS }, (_, i) => `step-${i}`);
    const project = await lead.queues.create({
      name: 'load',
      benchmark: 'bench',
      runs: ['demo'],
      labels: ['wrong_tag'],
      overlap: 2,
      createdBy: 'lead',
      items,
    });
    const annotator = async (name: string, p: Project) => {
      const { server, queues } = await connect();
      let done = 0;
      for (;;) {
        const item = await queues.next(p, name);
        if (item === undefined) return done;
        const r = await server.push({
          uid: `${name}/${item}`,
          author: name,
          madeAt: new Date().toISOString(),
          ops: [{ action: { kind: 'add', row: label(name, item) } }],
        });
        expect(r.status).toBe('applied');
        expect(await queues.submit(p, item, name)).toBe(true);
        done++;
      }
    };
    const names = Array.from({ length: LOAD_ANNOTATORS }, (_, i) => `annotator-${i}`);
    const counts = await Promise.all(names.map((n) => annotator(n, project)));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(2 * LOAD_ITEMS);
    const rows = await lead.server.list({ benchmark: 'bench', label: 'wrong_tag' });
    expect(rows).toHaveLength(2 * LOAD_ITEMS);
    const perItem = new Map<string, Set<string>>();
    for (const r of rows) perItem.set(r.userId, (perItem.get(r.userId) ?? new Set()).add(r.author));
    expect(perItem.size).toBe(LOAD_ITEMS);
    expect([...perItem.values()].every((who) => who.size === 2)).toBe(true);
    const progress = await lead.queues.progress(project);
    expect(progress).toMatchObject({ items: LOAD_ITEMS, done: LOAD_ITEMS, submitted: 2 * LOAD_ITEMS });
    expect(progress.annotators.every((a) => a.assigned === a.submitted)).toBe(true);
    expect((await lead.server.eventsSince(0, 3 * LOAD_ITEMS)).length).toBe(2 * LOAD_ITEMS);
  }, 600_000);
});
