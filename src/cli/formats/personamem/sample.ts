// `persona-lab sample` on a PersonaMem folder: a seeded sample of one split's questions, stratified by question
// type (core personamem/experiment/sample.ts), into .personalab/samples/NAME.json.
import { personaMem } from '../../../core/personamem/format';
import { drawPmSample, newPmSample } from '../../../core/personamem/experiment/sample';
import { checkSampleName, writeSample } from '../../../core/experiments/sampleFile';
import type { BatchRunCommand } from '../../batchRun';
import { Usage, type RunCliIo, type RunCliOptions } from '../../runArgs';

export const PM_SAMPLE_USAGE = `  sample <personamem dir> --questions N --out NAME [--seed S] [--size SIZE]
                                                           PersonaMem: a seeded sample of N questions of a split
                                                           (--size, needed when the folder has several), stratified
                                                           by question type: one of each type first, the rest in
                                                           proportion to each type's share of the split`;

interface PmSampleOptions extends RunCliOptions {
  questions?: string;
  size?: string;
  seed?: string;
}

function whole(name: string, value: string | undefined, min: number): number {
  const n = Number(value);
  if (value === undefined || value.trim() === '' || !Number.isInteger(n) || n < min)
    throw new Usage(
      `--${name}: expected a whole number ≥ ${min}, got ${value === undefined ? 'nothing' : `"${value}"`}`,
    );
  return n;
}

async function runPmSample(args: string[], opts: PmSampleOptions, io: RunCliIo): Promise<number> {
  const [dir, extra] = args;
  try {
    if (extra !== undefined) throw new Usage(`unexpected argument "${extra}"`);
    if (!opts.out) throw new Usage('sample needs --out NAME (the sample file under .personalab/samples/)');
    const bad = checkSampleName(opts.out);
    if (bad) throw new Usage(`--out ${opts.out}: ${bad}`);
    for (const o of ['users', 'by', 'base-run'] as const)
      if ((opts as Record<string, unknown>)[o] !== undefined)
        throw new Usage(`--${o}: a PersonaMem sample is of questions, stratified by question type (--questions N)`);
    const questions = whole('questions', opts.questions, 1);
    const seed = opts.seed === undefined ? 1 : whole('seed', opts.seed, 0);
    const { bench } = await personaMem.load(dir, { runs: [] });
    const sizes = [...bench.splits.keys()];
    const size = opts.size ?? (sizes.length === 1 ? sizes[0] : undefined);
    if (size === undefined) throw new Usage(`the folder has several splits: pass --size ${sizes.join(' | ')}`);
    const sample = newPmSample(bench, opts.out, drawPmSample(bench, { size, questions, seed }));
    const path = writeSample(bench.root, sample);
    const lines = [
      `wrote ${path}: ${sample.questions.length} questions of the ${size} split (seed ${seed}, by question type)`,
      ...sample.strata.map((s) => `  ${s.key.padEnd(44)} ${String(s.drawn).padStart(5)} of ${s.population}`),
    ];
    io.stdout(lines.join('\n') + '\n');
    return 0;
  } catch (e) {
    if (!(e instanceof Usage)) throw e;
    io.stderr(`persona-lab: ${e.message}\nUsage:\n${PM_SAMPLE_USAGE}\n`);
    return 2;
  }
}

/** `persona-lab sample` on a PersonaMem folder (listed in cli/formats/index.ts). */
export const personaMemSample: BatchRunCommand<PmSampleOptions> = {
  usage: PM_SAMPLE_USAGE,
  options: { questions: { type: 'string' }, size: { type: 'string' } },
  run: runPmSample,
};
