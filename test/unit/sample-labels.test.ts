// The sample ships two annotators' labels (sample/labels/annotators.jsonl, written by scripts/gen-sample.mjs), so that
// the agreement view has κ and disagreements to show on a fresh clone: they read without a problem, label the run's
// steps, agree well but not fully, and the generator writes the same bytes again.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agreement } from '../../src/core/labels/agreement';
import { unitDisagreements } from '../../src/core/labels/agreementPerLabel';
import { parseLabelFile } from '../../src/core/labels/exportImport';
import { defaultLabelSet } from '../../src/core/labels/taxonomy';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { resultFor } from '../../src/core/spb/score/run';
import { SAMPLE } from '../support/committedSample';

const FILE = join(SAMPLE, 'labels/annotators.jsonl');
const text = readFileSync(FILE, 'utf8');

describe("the sample's annotators", () => {
  const tmp = mkdtempSync(join(tmpdir(), 'persona-lab-sample-labels-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('read without a problem, by two authors, with labels of the default set on steps of the run', async () => {
    const parsed = parseLabelFile(text, FILE, 'jsonl');
    expect(parsed.diagnostics).toEqual([]);
    const rows = parsed.rows.map((r) => r.row);
    expect(new Set(rows.map((r) => r.author))).toEqual(new Set(['rater-a', 'rater-b']));
    const ids = new Set(defaultLabelSet().labels.map((l) => l.id));
    expect(rows.filter((r) => !ids.has(r.label))).toEqual([]);
    const bench = await loadBenchmark(SAMPLE);
    const run = bench.runs.get('demo-llm')!;
    for (const r of rows) {
      const user = bench.users.get(r.platform as 'weibo')?.get(r.userId);
      expect(user && resultFor(run, user, r.stepId), `${r.platform} ${r.userId} ${r.stepId}`).toBeTruthy();
    }
  });

  it('agree well but not fully: κ between 0.5 and 0.95 on more than 100 shared steps, with disagreements to walk', () => {
    const rows = parseLabelFile(text, FILE, 'jsonl').rows.map((r) => r.row);
    const a = agreement(rows, 'rater-a', 'rater-b');
    expect(a.units).toBeGreaterThan(100);
    expect(a.overall.kappa).toBeGreaterThan(0.5);
    expect(a.overall.kappa).toBeLessThan(0.95);
    expect(unitDisagreements(rows).length).toBeGreaterThan(10);
  });

  it('are what the generator writes (same seed, same bytes)', () => {
    execFileSync(process.execPath, ['scripts/gen-sample.mjs', '--out', tmp], { stdio: 'ignore' });
    expect(readFileSync(join(tmp, 'labels', 'annotators.jsonl'), 'utf8')).toBe(text);
  });
});
