// `npm run bench:pi`: precision and recall of the PI scanner per category and overall, on the labelled set.
// Usage: node dist/bench-pi.js [labelled.jsonl] [--errors]   (--errors lists the misses and false finds at each level)
import { readFileSync } from 'node:fs';
import { evaluate, parseLabelled, precision, recall, type Evaluation, type Tally } from '../src/core/pi/evaluate';
import { PI_CATEGORIES } from '../src/core/pi/placeholders';
import type { Confidence } from '../src/core/pi/types';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--')) ?? 'test/fixtures/pi-labelled.jsonl';
const showErrors = args.includes('--errors');

const pct = (x: number) => (Number.isNaN(x) ? '   n/a' : `${(100 * x).toFixed(1).padStart(5)}%`);
const f1 = (t: Tally) => {
  const p = precision(t);
  const r = recall(t);
  return (2 * p * r) / (p + r);
};

function table(title: string, ev: Evaluation): string {
  const rows = [`${title}`, 'category   expected  found    TP   FP   FN  precision  recall      F1'];
  const line = (name: string, t: Tally) =>
    `${name.padEnd(9)} ${String(t.tp + t.fn).padStart(9)} ${String(t.tp + t.fp).padStart(6)} ${String(t.tp).padStart(5)}` +
    ` ${String(t.fp).padStart(4)} ${String(t.fn).padStart(4)}     ${pct(precision(t))}  ${pct(recall(t))}  ${pct(f1(t))}`;
  for (const c of PI_CATEGORIES) rows.push(line(c, ev.perCategory[c]));
  rows.push(line('overall', ev.overall));
  return rows.join('\n');
}

function main(): number {
  let content: string;
  try {
    content = readFileSync(file, 'utf8');
  } catch (err) {
    process.stderr.write(`bench-pi: cannot read ${file}: ${(err as Error).message}\n`);
    return 1;
  }
  const { cases, skipped } = parseLabelled(content);
  const positives = cases.filter((c) => c.expect.length > 0).length;
  process.stdout.write(
    `${file}: ${cases.length} strings (${positives} with PI, ${cases.length - positives} without)\n`,
  );
  if (skipped.length) process.stdout.write(`skipped lines (not {text, expect}): ${skipped.join(', ')}\n`);
  const levels: [string, Confidence][] = [
    ['All findings (low, medium and high confidence)', 'low'],
    ['Medium and high confidence only', 'medium'],
  ];
  for (const [title, min] of levels) {
    const ev = evaluate(cases, min);
    process.stdout.write('\n' + table(title, ev) + '\n');
    if (showErrors) {
      for (const e of ev.errors)
        process.stdout.write(`  line ${e.line}: ${e.kind.toUpperCase()} ${e.category} ${JSON.stringify(e.text)}\n`);
    }
    if (min === 'medium') {
      // Medium and high findings are the ones meant to be acted on: none may be wrong on the labelled set.
      const fps = ev.errors.filter((e) => e.kind === 'fp');
      process.stdout.write(
        fps.length === 0
          ? 'precision at medium and high confidence: 100 % (no false finding)\n'
          : `precision at medium and high confidence below 100 %: ${fps.map((e) => `line ${e.line} ${e.category} ${JSON.stringify(e.text)}`).join('; ')}\n`,
      );
    }
  }
  return 0;
}

process.exitCode = main();
