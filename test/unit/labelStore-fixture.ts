// Label stores the label tests open, each closed after its test (not a test file itself).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { runLabelsCommand, type CliIo, type LabelsCliOptions } from '../../src/cli/labels';
import { LabelStore } from '../../src/core/labels/store';
import type { LabelKey, LabelRow } from '../../src/core/labels/model';
import type { Adjudication } from '../../src/core/labels/gold';

/** Opens label stores that are closed after each test; `fresh` opens one in a new temp folder named `prefix…`. */
export function labelStores(): {
  open(path: string, opts?: Parameters<typeof LabelStore.open>[1]): LabelStore;
  fresh(prefix: string): LabelStore;
} {
  const opened: LabelStore[] = [];
  afterEach(() => opened.splice(0).forEach((s) => s.close()));
  const open = (path: string, opts?: Parameters<typeof LabelStore.open>[1]) => {
    const s = LabelStore.open(path, opts);
    opened.push(s);
    return s;
  };
  return { open, fresh: (prefix) => open(join(mkdtempSync(join(tmpdir(), prefix)), 'labels.db')) };
}

/** A step label's key (weibo user we_0000000001, step 1, run gpt, alice, decay-error), with `over` on top. */
export const labelKey = (over: Partial<LabelKey> = {}): LabelKey => ({
  benchmark: 'spb',
  platform: 'weibo',
  userId: 'we_0000000001',
  stepId: 1,
  run: 'gpt',
  author: 'alice',
  target: { kind: 'step' },
  label: 'decay-error',
  ...over,
});

/** A stored label row for labelKey's step (no note, created 2025-01-01, no content hash), with `over` on top. */
export const labelRow = (over: Partial<LabelRow> = {}): LabelRow => ({
  ...labelKey(),
  note: '',
  createdAt: '2025-01-01T00:00:00.000Z',
  contentHash: '',
  ...over,
});

/** A whole-step label on weibo step `stepId` of run `run` of `benchmark`, for the gold tests. */
export const stepLabel = (author: string, stepId: number, label: string, run = 'gpt', benchmark = 'spb'): LabelRow =>
  labelRow({ author, stepId, label, run, benchmark });

/** carol's decision on that step of the spb benchmark, for the gold tests. */
export const decisionOn = (stepId: number, labels: string[], run = 'gpt'): Adjudication => ({
  ref: { benchmark: 'spb', platform: 'weibo', userId: 'we_0000000001', stepId, run },
  labels,
  adjudicator: 'carol',
  createdAt: '2026-12-06T00:00:00.000Z',
});

/** Runs `persona-lab labels ARGS` in process; its exit code and what it printed on stdout and stderr. */
export async function labelsCli(args: string[], opts: LabelsCliOptions = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { write: (t) => out.push(t), out: (t) => out.push(t + '\n'), err: (t) => err.push(t + '\n') };
  const code = await runLabelsCommand(args, opts, io);
  return { code, out: out.join(''), err: err.join('') };
}
