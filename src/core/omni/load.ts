// Opens an OmniBehavior folder (layout in ./types.ts): indexes each raw user file, reads the test actions and every
// run's predictions. Bad records become located diagnostics and the rest keeps loading.
import { join } from 'node:path';
import { DiagnosticSink, isInt } from '../io/diagnostics';
import { SafeFolder } from '../io/safeFs';
import { readUserRows } from '../io/rows';
import { durationSeconds, fieldInfo } from './fields';
import { indexUserFile, readRecordsAt } from './history';
import { kindOf, SCENES, UNKNOWN_SCENE } from './records';
import { readPredictionsFile } from './predictions';
import { predictionKey, type OmniBenchmark, type OmniRun, type OmniUser, type TestAction } from './types';

export interface OmniLoadOptions {
  /** Called after each chunk with bytes read so far and total bytes of all files to read. */
  onProgress?: (done: number, total: number) => void;
  /** Only these runs (folder names under results/); all when absent. */
  runs?: readonly string[];
}

export const TEST_ACTIONS = 'test_actions.jsonl';
export const PREDICTIONS = 'predictions.jsonl';

interface Job {
  abs: string;
  rel: string;
  size: number;
}

export async function loadOmniBenchmark(root: string, opts: OmniLoadOptions = {}): Promise<OmniBenchmark> {
  // Every entry is looked at through `fs`: one that cannot be used becomes a diagnostic, and the load goes on.
  const fs = new SafeFolder(root);
  const job = (rel: string, required = true): Job | undefined => {
    const size = fs.fileSize(join(root, rel), required);
    return size === undefined ? undefined : { abs: join(root, rel), rel, size };
  };
  const rawFiles = fs
    .list(join(root, 'raw'))
    .filter((n) => n.endsWith('.json'))
    .flatMap((n) => job(`raw/${n}`) ?? []);
  const tests = fs.kind(join(root, TEST_ACTIONS)) === undefined ? undefined : job(TEST_ACTIONS);
  const runs = fs
    .list(join(root, 'results'))
    .filter((name) => (!opts.runs || opts.runs.includes(name)) && fs.kind(join(root, 'results', name)) === 'dir')
    .map((name) => ({ name, file: job(`results/${name}/${PREDICTIONS}`, false) }));
  const unusable = new Set(fs.diagnostics.map((d) => d.file));
  const total = [...rawFiles, ...(tests ? [tests] : []), ...runs.flatMap((r) => (r.file ? [r.file] : []))].reduce(
    (s, f) => s + f.size,
    0,
  );
  let done = 0;
  const progress = (bytes: number) => opts.onProgress?.(done + bytes, total);
  const bench: OmniBenchmark = { root, users: new Map(), runs: new Map(), diagnostics: [] };
  // Discovery's problems first; problems of later reads are added as they happen.
  const reported = () => bench.diagnostics.push(...fs.diagnostics.splice(0));
  reported();

  for (const f of rawFiles) {
    const sink = new DiagnosticSink(f.rel);
    const index = await fs.read(f.abs, () => indexUserFile(f.abs, { sink, onProgress: progress }));
    done += f.size;
    bench.diagnostics.push(...sink.items);
    reported();
    if (!index?.userId) continue;
    const expected = f.rel.slice('raw/'.length, -'.json'.length);
    if (index.userId !== expected) sink.warn(1, index.userId, `user id differs from the file name (${expected}.json)`);
    if (bench.users.has(index.userId)) {
      bench.diagnostics.push({
        severity: 'error',
        file: f.rel,
        line: 1,
        field: index.userId,
        message: 'user already read from another file; ignored',
      });
      continue;
    }
    bench.users.set(index.userId, {
      userId: index.userId,
      profile: index.profile,
      file: f.abs,
      relFile: f.rel,
      historyLength: index.count,
      index,
      testActions: [],
    });
  }
  if (rawFiles.length === 0)
    bench.diagnostics.push({
      severity: 'error',
      file: 'raw',
      line: 0,
      field: '',
      message: 'no raw/<user_id>.json file found',
    });

  if (tests) {
    const sink = new DiagnosticSink(tests.rel);
    await fs.read(tests.abs, () => readTestActions(tests.abs, bench.users, sink, progress));
    done += tests.size;
    bench.diagnostics.push(...sink.items);
    reported();
  } else if (!unusable.has(TEST_ACTIONS)) {
    bench.diagnostics.push({
      severity: 'error',
      file: TEST_ACTIONS,
      line: 0,
      field: '',
      message: 'missing: no test actions to score',
    });
  }

  for (const r of runs) {
    const run: OmniRun = {
      name: r.name,
      dir: join(root, 'results', r.name),
      file: r.file?.rel ?? `results/${r.name}/${PREDICTIONS}`,
      predictions: new Map(),
    };
    if (!r.file) {
      if (unusable.has(run.file)) continue;
      bench.diagnostics.push({
        severity: 'warning',
        file: run.file,
        line: 0,
        field: '',
        message: 'run folder without predictions.jsonl; ignored',
      });
      continue;
    }
    const sink = new DiagnosticSink(r.file.rel);
    const rf = r.file;
    const predictions = await fs.read(rf.abs, () => readPredictionsFile(rf.abs, rf.rel, bench.users, sink, progress));
    done += rf.size;
    reported();
    if (!predictions) continue;
    // A run of some users or test actions is not a problem of its files: its score carries its coverage.
    run.predictions = predictions;
    bench.diagnostics.push(...sink.items);
    bench.runs.set(r.name, run);
  }
  return bench;
}

async function readTestActions(
  abs: string,
  users: ReadonlyMap<string, OmniUser>,
  sink: DiagnosticSink,
  onProgress: (bytes: number) => void,
): Promise<void> {
  const pending = new Map<OmniUser, Omit<TestAction, 'timestamp' | 'normaliser'>[]>();
  const seen = new Set<string>();
  await readUserRows(
    abs,
    sink,
    kindOf,
    (v, raw) => {
      const user = users.get(v.user_id);
      if (!user)
        return sink.error(raw.line, 'user_id', `unknown user ${v.user_id} (no raw/${v.user_id}.json); ignored`);
      if (!isInt(v.index)) return sink.error(raw.line, 'index', `expected an integer, got ${kindOf(v.index)}`);
      if (v.index < 0 || v.index >= user.historyLength) {
        return sink.error(
          raw.line,
          'index',
          `${v.index} is out of range: ${user.userId} has ${user.historyLength} history records`,
        );
      }
      const code = user.index.scenes[v.index];
      if (code === UNKNOWN_SCENE) {
        return sink.error(
          raw.line,
          'index',
          `record ${v.index} of ${user.relFile} has no known scene (see its diagnostic); ignored`,
        );
      }
      const scene = SCENES[code];
      if (!Array.isArray(v.fields)) return sink.error(raw.line, 'fields', `expected an array, got ${kindOf(v.fields)}`);
      const fields: string[] = [];
      v.fields.forEach((f: unknown, i) => {
        const info = typeof f === 'string' ? fieldInfo(f) : undefined;
        if (typeof f !== 'string' || !info)
          return sink.error(raw.line, `fields[${i}]`, `unknown field ${JSON.stringify(f)}; dropped`);
        if (info.scene !== scene)
          return sink.error(
            raw.line,
            `fields[${i}]`,
            `${f} is a ${info.scene} field, but record ${v.index} is ${scene}; dropped`,
          );
        if (fields.includes(f)) return sink.warn(raw.line, `fields[${i}]`, `${f} asked twice; the repeat is dropped`);
        fields.push(f);
      });
      if (fields.length === 0) return sink.error(raw.line, 'fields', 'no usable field; the test action is ignored');
      const key = predictionKey(user.userId, v.index);
      if (seen.has(key)) return sink.warn(raw.line, 'index', `duplicate test action ${key}; the later one is ignored`);
      seen.add(key);
      const list = pending.get(user) ?? [];
      list.push({ userId: user.userId, index: v.index, scene, fields, line: raw.line });
      pending.set(user, list);
    },
    onProgress,
  );
  // The timestamps and normalisers come from the records themselves, read by byte range.
  for (const [user, list] of pending) {
    list.sort((a, b) => a.index - b.index);
    const records = await readRecordsAt(
      user.file,
      user.index,
      list.map((t) => t.index),
    );
    for (const t of list) {
      const record = records.get(t.index);
      // Only video records carry a normaliser: the reference asks video_watch_seconds against the video's duration.
      const normaliser = record?.scene === 'Video Browsing' ? durationSeconds(record.context?.duration) : undefined;
      user.testActions.push({ ...t, timestamp: record?.timestamp ?? '', normaliser });
    }
  }
}
