// `persona-lab score --json` on an OmniBehavior folder against test/reference/omni_reference.py, the authors' metric
// rules written again in plain Python: every component, the overall score, per-field figures, the judge mean, the
// answered and left-out counts and the bias figures agree to 1e-9. Needs dist/ built (`npm test` builds it first).
import { execFileSync, spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { expect } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'dist/cli.js');
const REF = join(ROOT, 'test/reference/omni_reference.py');
const TOL = 1e-9;

type Num = number | null;
interface FieldFigures<N> {
  answered: number;
  leftOut: number;
  f1?: number;
  precision?: number;
  recall?: number;
  accuracy?: number;
  nmae?: N;
  judgeMean?: number;
}
interface RefRun {
  name: string;
  fields: Record<string, FieldFigures<Num>>;
  components: Record<string, Num>;
  overall: Num;
  answered: number;
  leftOut: number;
  bias: {
    perScene: { scene: string; n: number; realRate: number; predictedRate: number }[];
    distanceRatio: { real: Num; predicted: Num };
  };
}
interface OurField extends FieldFigures<number> {
  field: string;
}
interface OurRun extends Omit<RefRun, 'fields'> {
  fields: OurField[];
}

function near(where: string, ours: unknown, ref: unknown, diffs: string[]): void {
  const o = ours === undefined ? null : ours;
  if (o === null || ref === null) {
    if (o !== ref) diffs.push(`${where}: ours ${JSON.stringify(o)}, reference ${JSON.stringify(ref)}`);
  } else if (typeof o !== 'number' || typeof ref !== 'number' || !(Math.abs(o - ref) <= TOL)) {
    diffs.push(`${where}: ours ${JSON.stringify(o)}, reference ${JSON.stringify(ref)}`);
  }
}

export function crossCheck(root: string): { runs: number; leftOut: number } {
  const r = spawnSync(process.execPath, [CLI, 'score', root, '--json'], { encoding: 'utf8' });
  expect([0, 1], r.stderr).toContain(r.status);
  const ours = (JSON.parse(r.stdout) as { runs: OurRun[] }).runs;
  const ref = (JSON.parse(execFileSync('python3', [REF, root], { encoding: 'utf8' })) as { runs: RefRun[] }).runs;
  expect(ours.map((x) => x.name)).toEqual(ref.map((x) => x.name));
  const diffs: string[] = [];
  for (const rr of ref) {
    const or = ours.find((x) => x.name === rr.name)!;
    for (const c of Object.keys(rr.components))
      near(`${rr.name} component ${c}`, or.components[c], rr.components[c], diffs);
    near(`${rr.name} overall`, or.overall, rr.overall, diffs);
    near(`${rr.name} answered`, or.answered, rr.answered, diffs);
    near(`${rr.name} leftOut`, or.leftOut, rr.leftOut, diffs);
    expect(or.fields.map((f) => f.field).sort()).toEqual(Object.keys(rr.fields).sort());
    for (const [name, rf] of Object.entries(rr.fields)) {
      const of = or.fields.find((f) => f.field === name)!;
      for (const key of [
        'answered',
        'leftOut',
        'f1',
        'precision',
        'recall',
        'accuracy',
        'nmae',
        'judgeMean',
      ] as const) {
        if (key in rf) near(`${rr.name} ${name}.${key}`, of[key], rf[key], diffs);
      }
    }
    expect(or.bias.perScene.map((s) => [s.scene, s.n])).toEqual(rr.bias.perScene.map((s) => [s.scene, s.n]));
    rr.bias.perScene.forEach((s, i) => {
      near(`${rr.name} bias ${s.scene} real`, or.bias.perScene[i].realRate, s.realRate, diffs);
      near(`${rr.name} bias ${s.scene} predicted`, or.bias.perScene[i].predictedRate, s.predictedRate, diffs);
    });
    near(`${rr.name} distance ratio real`, or.bias.distanceRatio.real, rr.bias.distanceRatio.real, diffs);
    near(
      `${rr.name} distance ratio predicted`,
      or.bias.distanceRatio.predicted,
      rr.bias.distanceRatio.predicted,
      diffs,
    );
  }
  expect(diffs).toEqual([]);
  return { runs: ref.length, leftOut: ref.reduce((s, x) => s + x.leftOut, 0) };
}
