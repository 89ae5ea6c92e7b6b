// PersonaMem experiments in the experiment log: what `experiment --json` prints is what the log keeps and
// `experiments --json` reads back (the figures recomputed from the two runs' files are the same numbers); a row
// round-trips with an interval that could not be given (NaN); and StreamProfileBench's rows in the same file are not
// read as PersonaMem's. The CLI part needs dist/ built (`npm test` builds it).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MODEL_ID } from '../../src/core/demo/model';
import { startDemoServer, type DemoServer } from '../../src/core/demo/server';
import { pmExperimentFigures, pmDeltaText } from '../../src/core/personamem/experiment/compare';
import { pmExperimentRows, recordPmExperiment, type PmExperimentEntry } from '../../src/core/personamem/experiment/log';
import { readPmSample } from '../../src/core/personamem/experiment/sample';
import { pmExperimentsTable } from '../../src/core/personamem/experiment/text';
import { loadPersonaMem } from '../../src/core/personamem/load';
import { ExperimentLog } from '../../src/core/spb/experiments/log';
import { EXPERIMENTS_DB } from '../../src/core/experiments/log';
import { handFolder, resultRows, runCli } from './personamem-folder';

const CLI = resolve('dist/cli.js');
const cli = (...args: string[]) => runCli(CLI, args);

const TYPES = ['recall_user_shared_facts', 'suggest_new_ideas', 'generalize_to_new_scenarios'];
/** 12 questions of three types over four personas; the base run right on every other one. */
const questions = Array.from({ length: 12 }, (_, i) => ({
  id: `q${i}`,
  type: TYPES[i % 3],
  persona: i % 4,
  gold: i % 2 ? '(a)' : '(b)',
}));
const base = resultRows(questions.map((q, i) => [q.id, `<final_answer>${i % 2 ? '(a)' : '(c)'}`, q.gold]));

describe('a PersonaMem experiment in the experiment log', () => {
  let demo: DemoServer;
  beforeAll(async () => {
    demo = await startDemoServer();
  });
  afterAll(async () => {
    await demo.close();
  });

  it('logs what `experiment --json` prints, and `experiments` reads the same figures back', async () => {
    const dir = handFolder(questions, { base });
    expect((await cli('sample', dir, '--questions', '9', '--seed', '2', '--out', 's9')).status).toBe(0);
    const send = ['--base-url', demo.baseURL, '--model', DEMO_MODEL_ID, '--no-reference'];
    const r = await cli('experiment', dir, '--sample', 's9', ...send, '--base-run', 'base', '--out', 'try', '--json');
    expect(r.status).toBe(0);
    // stdout is the entry only; the run's progress went to stderr
    expect(r.stderr).toContain('run try (32k): finished');
    const printed = JSON.parse(r.stdout) as PmExperimentEntry;
    const sample = readPmSample(dir, 's9');
    const bench = await loadPersonaMem(dir, { runs: ['32k_base', '32k_try'] });
    const figures = pmExperimentFigures(
      bench,
      bench.runs.get('32k_base')!,
      bench.runs.get('32k_try')!,
      sample.questions,
      sample.strata.map((s) => s.key),
    );
    expect(printed.figures).toEqual(JSON.parse(JSON.stringify(figures)));
    expect(figures.paired).toBe(9);
    expect(new Set(sample.questions.map((id) => Number(id.slice(1)) % 4)).size).toBe(figures.personas);
    expect(figures.rows.map((x) => x.key)).toEqual(['overall', ...TYPES]);
    expect(printed).toMatchObject({
      run: '32k_try',
      baseRun: '32k_base',
      sample: { name: 's9', seed: 2, split: '32k', questions: 9, personas: figures.personas, strata: sample.strata },
      request: { kind: 'template', checkout: null },
      endpoint: { model: DEMO_MODEL_ID },
      requests: 9,
    });

    const listed = await cli('experiments', dir, '--json');
    expect(listed.status).toBe(0);
    const rows = JSON.parse(listed.stdout) as (PmExperimentEntry & { id: number })[];
    expect(rows).toHaveLength(1);
    const { id, ...row } = rows[0];
    expect(id).toBe(1);
    expect(row).toEqual(printed);
    const text = await cli('experiments', dir);
    expect(text.stdout).toContain(pmDeltaText(figures.rows[0]));
    expect(text.stdout).toContain(`sample s9 (seed 2), 9 questions of ${figures.personas} personas of the 32k split`);
    // run again: the resumed experiment replaces its row
    await cli('experiment', dir, '--sample', 's9', ...send, '--base-run', 'base', '--out', 'try');
    expect(pmExperimentRows(dir)).toHaveLength(1);
  });
});

describe('the log’s PersonaMem rows', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('round-trip, an interval that could not be given kept as NaN, and leave StreamProfileBench’s rows alone', () => {
    const root = mkdtempSync(join(tmpdir(), 'pl-pmlog-'));
    dirs.push(root);
    const entry: PmExperimentEntry = {
      createdAt: '2026-01-02T03:04:05.000Z',
      author: 'ana',
      run: '32k_exp-s-abc',
      baseRun: '32k_base',
      sample: {
        name: 's',
        seed: 4,
        split: '32k',
        questions: 3,
        personas: 1,
        strata: [{ key: 'suggest_new_ideas', population: 5, drawn: 3 }],
      },
      request: { kind: 'reference', name: 'PersonaMem checkout', id: 'r1', checkout: '/src/PersonaMem' },
      endpoint: { baseURL: 'http://127.0.0.1:9/v1', model: 'm', temperature: null },
      requests: 3,
      figures: {
        baseRun: '32k_base',
        run: '32k_exp-s-abc',
        paired: 3,
        personas: 1,
        onlyBase: 0,
        onlyRun: 0,
        rows: [{ key: 'overall', questions: 3, base: 1 / 3, run: 1, diff: 2 / 3, low: NaN, high: NaN }],
        gained: 2,
        lost: 0,
      },
    };
    const spb = ExperimentLog.open(join(root, EXPERIMENTS_DB));
    spb.close();
    expect(recordPmExperiment(root, entry)).toBe(join(root, EXPERIMENTS_DB));
    const [row] = pmExperimentRows(root);
    expect(row).toEqual({ ...entry, id: 1 });
    expect(row.figures!.rows[0].low).toBeNaN();
    expect(pmExperimentsTable([row])).toContain('+66.7 (CI n/a)');
    // StreamProfileBench's reader still reads the file (it is one schema); PersonaMem's leaves its rows out
    const log = ExperimentLog.open(join(root, EXPERIMENTS_DB), { mustExist: true });
    expect(log.list()).toEqual([]);
    log.close();
  });
});
