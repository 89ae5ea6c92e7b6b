import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { labelStores } from './labelStore-fixture';
import { parseLabelFile, toCsv, toJsonl } from '../../src/core/labels/exportImport';
import { ImportSession } from '../../src/core/labels/merge';
import { migrate, SCHEMA_VERSION } from '../../src/core/labels/migrations';
import { benchmarkId, type LabelRow } from '../../src/core/labels/model';
import { labelKeyProblem } from '../../src/core/labels/platformRules';
import { TRACE_PLATFORM } from '../../src/core/omni/labels/labelSet';
import { LabelStoreError } from '../../src/core/labels/store';
import {
  ACTION_TARGET,
  historyTarget,
  TraceLabelIndex,
  traceContentHash,
  traceLabelKey,
  traceStaleness,
  traceStepRef,
  type TraceRef,
} from '../../src/core/omni/labels/trace';
import { loadOmniBenchmark } from '../../src/core/omni/load';
import { video, writeOmniFolder, type FolderSpec } from './omni-folder';

const dir = () => mkdtempSync(join(tmpdir(), 'pl-tracelabels-'));
const stores = labelStores();
const open = (path: string) => {
  let t = 0;
  return stores.open(path, { now: () => new Date(Date.UTC(2025, 0, 1, 0, 0, t++)).toISOString() });
};

const ref: TraceRef = { benchmark: 'omni', userId: 'u1', index: 5, run: 'sim' };

const INSERT_V1 = `INSERT INTO labels (benchmark, platform, user_id, step_id, run, label, target_kind, tag, span_field, span_start,
  span_end, note, author, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

function seedV1(raw: Database.Database, n: number): void {
  const insert = raw.prepare(INSERT_V1);
  for (let i = 1; i <= n; i++) {
    const kind = ['step', 'tag', 'span'][i % 3];
    insert.run(
      'spb',
      'weibo',
      `we_${i}`,
      i,
      'r',
      'pi-leak',
      kind,
      kind === 'tag' ? `#t${i}#` : '',
      kind === 'span' ? 'persona_summary' : '',
      kind === 'span' ? i : -1,
      kind === 'span' ? i + 3 : -1,
      `n${i}`,
      'carol',
      `2024-01-01T00:00:0${i % 10}Z`,
    );
  }
}

describe('migration to v3 (trace targets)', () => {
  it('v0: an empty SQLite database becomes the current version and takes action and history labels', () => {
    const path = join(dir(), 'l.db');
    // Written once, so the file has SQLite's header (a 0-byte file is refused: store-open-foreign.test.ts).
    const raw = new Database(path);
    raw.exec('CREATE TABLE t (x); DROP TABLE t');
    raw.close();
    const s = open(path);
    expect(SCHEMA_VERSION).toBe(6);
    expect(s.schemaVersion()).toBe(SCHEMA_VERSION);
    expect(s.add({ ...traceLabelKey(ref, ACTION_TARGET, 'alice', 'format-error') }).changed).toBe(true);
    expect(s.add({ ...traceLabelKey(ref, historyTarget(2), 'alice', 'pi-leak') }).changed).toBe(true);
    expect(s.list().map((r) => r.target)).toEqual([{ kind: 'action' }, { kind: 'history', historyIndex: 2 }]);
  });

  it('v1 with rows: every row and field survives, ids and order included', () => {
    const path = join(dir(), 'l.db');
    const raw = new Database(path);
    migrate(raw, 1);
    seedV1(raw, 30);
    raw.prepare('DELETE FROM labels WHERE step_id = 7').run();
    const before = raw.prepare('SELECT * FROM labels ORDER BY id').all() as Record<string, unknown>[];
    raw.close();

    const s = open(path);
    expect(s.schemaVersion()).toBe(SCHEMA_VERSION);
    expect(s.integrityCheck()).toBe('ok');
    s.close();
    const after = new Database(path, { readonly: true });
    const rows = after.prepare('SELECT * FROM labels ORDER BY id').all() as Record<string, unknown>[];
    after.close();
    expect(rows).toHaveLength(29);
    // Same ids (the gap at 7 included), every v1 column unchanged, the new columns at their defaults.
    expect(rows.map(({ content_hash, history_index, ...rest }) => [rest, content_hash, history_index])).toEqual(
      before.map((b) => [b, '', -1]),
    );
    const back = open(path).list();
    expect(back[1]).toMatchObject({
      userId: 'we_2',
      target: { kind: 'span', field: 'persona_summary', start: 2, end: 5 },
      note: 'n2',
    });
    expect(back[2]).toMatchObject({ userId: 'we_3', target: { kind: 'step' } });
    expect(back[0]).toMatchObject({ userId: 'we_1', target: { kind: 'tag', tag: '#t1#' } });
  });

  it('v2 with rows: content hashes survive, the key keeps rejecting duplicates, and the new kinds pass the CHECK', () => {
    const path = join(dir(), 'l.db');
    const raw = new Database(path);
    migrate(raw, 2);
    seedV1(raw, 12);
    raw.prepare("UPDATE labels SET content_hash = printf('%064d', step_id)").run();
    expect(() =>
      raw.prepare(INSERT_V1).run('o', TRACE_PLATFORM, 'u', 3, '', 'x', 'history', '', '', -1, -1, '', 'a', 't'),
    ).toThrow(/CHECK/);
    raw.close();

    const s = open(path);
    expect(s.schemaVersion()).toBe(SCHEMA_VERSION);
    const rows = s.list();
    expect(rows.map((r) => r.contentHash)).toEqual(
      Array.from({ length: 12 }, (_, i) => String(i + 1).padStart(64, '0')),
    );
    // The v2 unique key still holds after the rebuild: the same SPB label twice is one row.
    expect(s.add({ ...rows[0], note: 'again' }).changed).toBe(false);
    expect(s.count()).toBe(12);
    // Two history items of one test action are two targets.
    s.add(traceLabelKey(ref, historyTarget(1), 'bob', 'pi-leak'));
    s.add(traceLabelKey(ref, historyTarget(2), 'bob', 'pi-leak'));
    s.add(traceLabelKey(ref, historyTarget(2), 'bob', 'pi-leak'));
    expect(s.listByStep(traceStepRef(ref)).map((r) => r.target)).toEqual([historyTarget(1), historyTarget(2)]);
    const db = new Database(path, { readonly: true });
    expect(
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'labels' ORDER BY name").all(),
    ).toEqual(['labels_author', 'labels_key', 'labels_label', 'labels_run'].map((name) => ({ name })));
    db.close();
  });
});

describe('trace label keys', () => {
  it('needs the trace platform for trace targets, and a history item before its test action', () => {
    expect(labelKeyProblem(traceLabelKey(ref, historyTarget(4), 'a', 'l'))).toBeNull();
    expect(labelKeyProblem(traceLabelKey(ref, historyTarget(5), 'a', 'l'))).toMatch(/before its test action/);
    expect(labelKeyProblem(traceLabelKey(ref, historyTarget(-1), 'a', 'l'))).toMatch(/non-negative/);
    expect(labelKeyProblem({ ...traceLabelKey(ref, ACTION_TARGET, 'a', 'l'), platform: 'weibo' })).toMatch(
      /needs platform "omnibehavior"/,
    );
    expect(labelKeyProblem({ ...traceLabelKey(ref, ACTION_TARGET, 'a', 'l'), target: { kind: 'step' } })).toMatch(
      /action or history targets only/,
    );
  });

  it('the store refuses an invalid trace key', () => {
    const s = open(':memory:');
    expect(() => s.add(traceLabelKey(ref, historyTarget(9), 'a', 'l'))).toThrow(LabelStoreError);
    expect(s.count()).toBe(0);
  });

  it('benchmark id is the folder name', () => {
    expect(benchmarkId('/data/omnibehavior/')).toBe('omnibehavior');
    expect(benchmarkId('C:\\x\\omni-cn')).toBe('omni-cn');
  });

  it('TraceLabelIndex separates the action from its history items', () => {
    const row = (target: LabelRow['target'], label: string, index = 5, userId = 'u1'): LabelRow => ({
      ...traceLabelKey({ ...ref, index, userId }, target, 'a', label),
      note: '',
      createdAt: '',
      contentHash: '',
    });
    const ix = new TraceLabelIndex([
      row(ACTION_TARGET, 'format-error'),
      row(historyTarget(3), 'pi-leak'),
      row(historyTarget(3), 'bad-ground-truth'),
      row(historyTarget(0), 'pi-leak'),
      row(ACTION_TARGET, 'pi-leak', 9),
      row(historyTarget(1), 'pi-leak', 2, 'u2'),
      { ...row(ACTION_TARGET, 'x'), platform: 'weibo', target: { kind: 'step' } },
    ]);
    expect(ix.actionLabels('u1', 5)).toEqual(['format-error']);
    expect(ix.historyLabels('u1', 5, 3)).toEqual(['pi-leak', 'bad-ground-truth']);
    expect(ix.labelledHistory('u1', 5)).toEqual([0, 3]);
    expect(ix.labelledHistory('u1', 9)).toEqual([]);
    expect(ix.labelledActionsOfUser('u1')).toBe(2);
    expect(ix.labelledActions).toBe(3);
  });
});

describe('export and import of trace labels', () => {
  const spb: LabelRow = {
    benchmark: 'spb',
    platform: 'weibo',
    userId: 'we_1',
    stepId: 1,
    run: 'gpt',
    author: 'alice',
    target: { kind: 'step' },
    label: 'format-error',
    note: '',
    createdAt: '2025-01-01T00:00:00.000Z',
    contentHash: '',
  };
  const trace = (target: LabelRow['target'], label: string, note = ''): LabelRow => ({
    ...traceLabelKey(ref, target, 'alice', label),
    note,
    createdAt: '2025-01-02T00:00:00.000Z',
    contentHash: 'a'.repeat(64),
  });
  const mixed = [spb, trace(ACTION_TARGET, 'format-error', 'wrong, "very"'), trace(historyTarget(3), 'pi-leak')];

  it('round-trips both formats through JSONL and CSV', () => {
    for (const [text, format] of [
      [toJsonl(mixed), 'jsonl'],
      [toCsv(mixed), 'csv'],
    ] as const) {
      const back = parseLabelFile(text, `l.${format}`, format);
      expect(back.diagnostics).toEqual([]);
      expect(back.rows.map((r) => r.row)).toEqual(mixed);
    }
    expect(toCsv(mixed).split('\r\n')[0].endsWith(',content_hash,history_index')).toBe(true);
    expect(JSON.parse(toJsonl(mixed).split('\n')[2])).toMatchObject({
      target_kind: 'history',
      history_index: 3,
      step_id: 5,
    });
  });

  it('leaves StreamProfileBench files as they were (no history_index column)', () => {
    expect(toCsv([spb]).split('\r\n')[0]).toBe(
      'benchmark,platform,user_id,step_id,run,author,label,target_kind,tag,span_field,span_start,span_end,note,created_at,content_hash',
    );
    expect(Object.keys(JSON.parse(toJsonl([spb, trace(ACTION_TARGET, 'x')]).split('\n')[1]) as object)).not.toContain(
      'history_index',
    );
  });

  it('rejects trace rows with the wrong platform, a missing history index or a history item after the action', () => {
    const lines = [
      { ...JSON.parse(toJsonl([trace(ACTION_TARGET, 'x')])), platform: 'weibo' },
      { ...JSON.parse(toJsonl([trace(historyTarget(1), 'x')])), history_index: null },
      { ...JSON.parse(toJsonl([trace(historyTarget(1), 'x')])), history_index: 8 },
      { ...JSON.parse(toJsonl([spb])), platform: TRACE_PLATFORM },
    ];
    const parsed = parseLabelFile(lines.map((l) => JSON.stringify(l)).join('\n'), 'l.jsonl', 'jsonl');
    expect(parsed.rows).toEqual([]);
    expect(parsed.diagnostics.map((d) => [d.line, d.field])).toEqual([
      [1, 'platform'],
      [2, 'history_index'],
      [3, ''],
      [4, 'platform'],
    ]);
  });

  it('an import conflicts per history item, not per test action', () => {
    const s = open(':memory:');
    s.add(trace(historyTarget(3), 'pi-leak'));
    const incoming = [trace(historyTarget(3), 'bad-ground-truth'), trace(historyTarget(4), 'pi-leak')];
    const session = new ImportSession(
      s,
      incoming.map((row, i) => ({ row, line: i + 1 })),
    );
    expect(session.plan.additions.map((r) => r.row.target)).toEqual([historyTarget(4)]);
    expect(session.plan.conflicts).toHaveLength(1);
    expect(session.plan.conflicts[0].description).toContain('[history:3]');
    expect(session.resolve('both').ok).toBe(true);
    // Additions are written before conflict resolutions (merge.ts), hence this order.
    expect(s.listByStep(traceStepRef(ref)).map((r) => [r.target, r.label])).toEqual([
      [historyTarget(3), 'pi-leak'],
      [historyTarget(4), 'pi-leak'],
      [historyTarget(3), 'bad-ground-truth'],
    ]);
  });
});

describe('content hashes of trace targets', () => {
  const spec = (caption2: string, profile = 'Female, 25-30.', fields = ['video_liked']): FolderSpec => ({
    users: [
      {
        id: 'u1',
        profile,
        records: [
          video('2025-03-01 10:00:00', { caption: 'cats' }),
          video('2025-03-01 11:00:00', { caption: 'dogs' }),
          video('2025-03-01 12:00:00', { caption: caption2 }),
          video('2025-03-01 13:00:00', { caption: 'birds' }, [{ type: 'watch', play_duration: 3 }, { type: 'like' }]),
        ],
      },
    ],
    tests: [{ user_id: 'u1', index: 3, fields }],
  });

  it('a label stays fresh until its own record (or the test action) changes', async () => {
    const root = writeOmniFolder(spec('fish'));
    const bench = await loadOmniBenchmark(root);
    const user = bench.users.get('u1');
    if (!user) throw new Error('fixture');
    const r: TraceRef = { benchmark: benchmarkId(root), userId: 'u1', index: 3, run: '' };
    const s = open(':memory:');
    for (const [target, label] of [
      [ACTION_TARGET, 'format-error'],
      [historyTarget(2), 'pi-leak'],
      [historyTarget(0), 'pi-leak'],
    ] as const) {
      s.add({ ...traceLabelKey(r, target, 'a', label), contentHash: await traceContentHash(user, 3, target) });
    }
    s.add(traceLabelKey(r, historyTarget(1), 'a', 'pi-leak'));
    const states = async (b = bench) => [...(await traceStaleness(b, r.benchmark, s.list())).values()];
    expect(await states()).toEqual(['fresh', 'fresh', 'fresh', 'unknown']);

    // Same record, keys written in another order: still fresh.
    const reordered = spec('fish');
    reordered.users[0].records[0] = {
      action: [{ play_duration: 10, type: 'watch' }],
      context: { play_cnt: 100, caption: 'cats', duration: 60 },
      timestamp: '2025-03-01 10:00:00',
      type: '视频浏览',
    };
    writeOmniFolder({ ...reordered, users: [{ ...reordered.users[0], pretty: true }] }, root);
    expect(await states(await loadOmniBenchmark(root))).toEqual(['fresh', 'fresh', 'fresh', 'unknown']);

    writeOmniFolder(spec('fish and 13812345678'), root);
    expect(await states(await loadOmniBenchmark(root))).toEqual(['fresh', 'stale', 'fresh', 'unknown']);
    writeOmniFolder(spec('fish', 'Male, 40-50.'), root);
    expect(await states(await loadOmniBenchmark(root))).toEqual(['stale', 'fresh', 'fresh', 'unknown']);
    writeOmniFolder(spec('fish', undefined, ['video_liked', 'video_completed']), root);
    expect(await states(await loadOmniBenchmark(root))).toEqual(['stale', 'fresh', 'fresh', 'unknown']);
    writeOmniFolder({ ...spec('fish'), tests: [] }, root);
    expect(await states(await loadOmniBenchmark(root))).toEqual(['missing', 'fresh', 'fresh', 'unknown']);
  });
});
