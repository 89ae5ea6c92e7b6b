// The CLI's `labels` and `audit` commands on an OmniBehavior folder.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchmarkId } from '../../src/core/labels/model';
import { describe, expect, it } from 'vitest';
import { runAuditCommand } from '../../src/cli/audit';
import { runLabelsCommand, type CliIo } from '../../src/cli/labels';
import { streamProfileBench } from '../../src/core/formats';
import { labelFreshness } from '../../src/core/labels/freshness';
import { stepHashOf, stepHashText } from '../../src/core/spb/labels/hash';
import { LabelStore } from '../../src/core/labels/store';
import { labelRow } from './labelStore-fixture';
import { ACTION_TARGET, historyTarget, traceContentHash, traceLabelKey } from '../../src/core/omni/labels/trace';
import { loadOmniBenchmark } from '../../src/core/omni/load';
import type { AuditReport } from '../../src/core/pi/report';
import type { OmniAuditFinding, OmniCountRow } from '../../src/core/omni/piAudit';
import { video, writeOmniFolder, type FolderSpec } from './omni-folder';
import { SAMPLE } from '../support/committedSample';

function io() {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { write: (t) => out.push(t), out: (t) => out.push(t + '\n'), err: (t) => err.push(t + '\n') };
  return { io, out, err };
}

const spec = (caption1: string): FolderSpec => ({
  users: [
    {
      id: 'u1',
      profile: 'Female, 25-30.',
      records: [
        video('2025-03-01 10:00:00', { caption: 'cats' }),
        video('2025-03-01 11:00:00', { caption: caption1 }),
        video('2025-03-01 12:00:00', { caption: 'birds' }, [{ type: 'watch', play_duration: 3 }, { type: 'like' }]),
      ],
    },
  ],
  tests: [{ user_id: 'u1', index: 2, fields: ['video_liked'] }],
  runs: {
    sim: [
      {
        user_id: 'u1',
        index: 2,
        questions: [
          {
            type: 'binary',
            field: 'video_liked',
            true_value: 'Yes',
            predicted_value: 'No',
            predicted_label: 0,
            raw_output: 'No. Call 13912345678.',
          },
        ],
      },
    ],
  },
});

describe('labels commands on an OmniBehavior folder', () => {
  it('summary counts the folder benchmark only and tells fresh from stale; export and import keep history items', async () => {
    const root = writeOmniFolder(spec('dogs'));
    const bench = await loadOmniBenchmark(root);
    const user = bench.users.get('u1');
    if (!user) throw new Error('fixture');
    const ref = { benchmark: benchmarkId(root), userId: 'u1', index: 2, run: 'sim' };
    const store = LabelStore.open(join(root, '.personalab', 'labels.db'));
    store.add({
      ...traceLabelKey(ref, ACTION_TARGET, 'ann', 'format-error'),
      contentHash: await traceContentHash(user, 2, ACTION_TARGET),
    });
    store.add({
      ...traceLabelKey(ref, historyTarget(1), 'ann', 'pi-leak'),
      contentHash: await traceContentHash(user, 2, historyTarget(1)),
      note: 'caption',
    });
    store.add({ ...traceLabelKey({ ...ref, benchmark: 'other' }, ACTION_TARGET, 'ann', 'format-error') });
    store.close();

    const json = async () => {
      const c = io();
      expect(await runLabelsCommand(['summary', root], { json: true }, c.io)).toBe(0);
      return JSON.parse(c.out.join('')) as {
        total: number;
        counts: Record<string, Record<string, number>>;
        freshness: Record<string, number>;
      };
    };
    expect(await json()).toMatchObject({
      total: 2,
      counts: { 'format-error': { omnibehavior: 1 }, 'pi-leak': { omnibehavior: 1 } },
      freshness: { fresh: 2, stale: 0, unknown: 0, missing: 0 },
    });

    writeOmniFolder(spec('dogs, call 13912345678'), root);
    expect((await json()).freshness).toEqual({ fresh: 1, stale: 1, unknown: 0, missing: 0 });
    const text = io();
    await runLabelsCommand(['summary', root], {}, text.io);
    expect(text.out.join('')).toContain(
      'Against the data now: 1 fresh, 1 stale (the data changed), 0 unknown (no content hash), 0 missing',
    );

    const out = join(mkdtempSync(join(tmpdir(), 'pl-omni-cli-')), 'labels.csv');
    expect(await runLabelsCommand(['export', root], { out }, io().io)).toBe(0);
    const csv = readFileSync(out, 'utf8').split('\r\n');
    expect(csv[0].endsWith(',history_index')).toBe(true);
    expect(csv).toHaveLength(4); // header, two rows of this benchmark, final line end

    const other = join(mkdtempSync(join(tmpdir(), 'pl-omni-cli-')), 'l.db');
    const imp = io();
    expect(await runLabelsCommand(['import', other, out], {}, imp.io)).toBe(0);
    expect(imp.out.join('')).toContain('2 new');
    const back = LabelStore.open(other);
    expect(back.list().map((r) => [r.platform, r.stepId, r.target, r.note])).toEqual([
      ['omnibehavior', 2, { kind: 'action' }, ''],
      ['omnibehavior', 2, { kind: 'history', historyIndex: 1 }, 'caption'],
    ]);
    back.close();
  });
});

describe('audit command on an OmniBehavior folder', () => {
  it('prints counts per part and findings, as text and JSON', async () => {
    const root = writeOmniFolder(spec('联系电话 13800138000'));
    const text = io();
    expect(await runAuditCommand([root], {}, text.io)).toBe(1);
    const printed = text.out.join('');
    expect(printed).toContain('raw · context');
    expect(printed).toContain('run sim · prediction');
    expect(printed).toContain('raw/u1.json:3 action_history[1].context.caption [PHONE/high] 13800138000\n');
    expect(printed).toContain('results/sim/predictions.jsonl:1 questions[0].raw_output [PHONE/high] 13912345678\n');

    const j = io();
    await runAuditCommand([root], { json: true, run: ['sim'] }, j.io);
    const report = JSON.parse(j.out.join('')) as AuditReport<OmniAuditFinding, OmniCountRow>;
    expect(report.benchmarkFormat).toBe('omnibehavior');
    expect(report.findings.map((f) => [f.testAction, f.historyIndex, f.part])).toEqual([
      [2, 1, 'context'],
      [2, null, 'prediction'],
    ]);

    const bad = io();
    expect(await runAuditCommand([root], { run: ['nope'] }, bad.io)).toBe(1);
    expect(bad.err.join('')).toContain('no run "nope"');
  });
});

describe('labelFreshness on StreamProfileBench', () => {
  it('fresh with the step hash, stale with another, missing for a step not in the data', async () => {
    const loaded = await streamProfileBench.load(SAMPLE, { runs: [] });
    if (loaded.format !== 'streamprofilebench') throw new Error('fixture');
    const [platform, users] = [...loaded.bench.users][0];
    const user = [...users.values()][0];
    const step = user.steps[0];
    const row = (stepId: number, contentHash: string) =>
      labelRow({
        benchmark: 'sample',
        platform,
        userId: user.userId,
        stepId,
        run: '',
        author: 'a',
        label: 'x',
        createdAt: '',
        contentHash,
      });
    const rows = [
      row(step.stepId, stepHashText(stepHashOf(user, step))),
      row(step.stepId, stepHashOf(user, step).full), // stored before part hashes
      row(step.stepId, 'f'.repeat(64)),
      row(999, ''),
      { ...row(step.stepId, ''), benchmark: 'other' },
    ];
    const states = await labelFreshness(loaded, 'sample', rows);
    expect(rows.map((r) => states.get(r))).toEqual(['fresh', 'fresh', 'stale', 'missing', undefined]);
  });
});
