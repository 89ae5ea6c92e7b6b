// One very long JSONL line in `npm run bench`: readLines on a 25 MB and a 100 MB line, measured in the same run.
// A reader linear in a line's bytes takes about 4x as long for the 100 MB line; one that re-copies the open line
// for every 512 KiB chunk took 13x (0.9 s and 11.9 s).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readLines } from '../../src/core/io/jsonl';
import { median, range, timeAsync } from './measure';

const REPEATS = 5;

function writeLine(path: string, mb: number): void {
  const text = 'x'.repeat(mb * 2 ** 20 - 12);
  writeFileSync(path, `{"text":"${text}"}\n`);
}

async function readMs(path: string): Promise<number> {
  const [ms, n] = await timeAsync(() => readLines(path, () => undefined));
  if (n !== 1) throw new Error(`${path}: read ${n} lines, expected 1`);
  return ms;
}

export async function measureLongLine(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'pl-bench-longline-'));
  try {
    const small = join(dir, 'line-25.jsonl');
    const big = join(dir, 'line-100.jsonl');
    writeLine(small, 25);
    writeLine(big, 100);
    await readMs(small); // warm-up
    const smallMs: number[] = [];
    const bigMs: number[] = [];
    for (let i = 0; i < REPEATS; i++) {
      smallMs.push(await readMs(small));
      bigMs.push(await readMs(big));
    }
    const ratios = bigMs.map((b, i) => b / smallMs[i]);
    console.log(
      `one JSONL line: 25 MB median ${median(smallMs).toFixed(0)} ms (${range(smallMs, 0)}), 100 MB median ${median(bigMs).toFixed(0)} ms (${range(bigMs, 0)})`,
    );
    console.log(
      `  100 MB / 25 MB = ${median(ratios).toFixed(2)}x, median of ${REPEATS} pairs (range ${range(ratios, 2)})   (linear: ~4x)`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
