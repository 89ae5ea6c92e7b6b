// The Label Agreement's gold part as Markdown (Copy as Markdown, Open as Markdown): the same cells the page shows
// (gold.ts), per benchmark: the gold set's counts, why runs fail and each annotator against gold. Pure (no `vscode`).
import { NO_GOLD_TEXT, type GoldTables } from '../../../shared/agreementProtocol';
import { mdText } from '../summaryMarkdown';
import type { GoldPart } from './gold';

const row = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
const rule = (n: number) => row(['---', ...Array<string>(n - 1).fill('---:')]);

function whyRunsFail(out: string[], g: GoldTables): void {
  const t = g.whyRunsFail;
  out.push('### Why runs fail (gold labels, settled units only)', '');
  if (t.runs.every((r) => r.settled === 0)) {
    out.push('No unit of a run is settled yet: no run has gold labels to count.', '');
    return;
  }
  out.push(row(['Label', ...t.runs.map((r) => mdText(r.run))]), rule(t.runs.length + 1));
  out.push(row(['failing of settled', ...t.runs.map((r) => `${r.failing} of ${r.settled}`)]));
  t.labels.forEach((l, i) =>
    out.push(
      row([
        mdText(l.name),
        ...t.runs.map((r) => (r.cells[i].count > 0 ? `${r.cells[i].count} (${r.cells[i].share})` : '0')),
      ]),
    ),
  );
  out.push('', "A share is of the run's settled units with a failure label; units not settled are left out.", '');
}

function annotators(out: string[], g: GoldTables): void {
  if (g.annotators.length === 0) return;
  out.push('### Each annotator against gold', '');
  out.push(row(['Annotator', 'Label', 'n', 'adjud.', 'precision', 'recall', 'κ', '95 % interval']), rule(8));
  for (const a of g.annotators)
    a.rows.forEach((f, i) =>
      out.push(
        row([
          i === 0 ? mdText(a.author) : '',
          mdText(f.name),
          i === 0 ? String(a.units) : '',
          i === 0 ? String(a.adjudicated) : '',
          f.precision,
          f.recall,
          f.kappa,
          f.interval,
        ]),
      ),
    );
  out.push('');
}

/** The `## Gold` section: one block per benchmark with gold, or why there is none. */
export function goldMarkdown({ gold, goldError, goldReading }: GoldPart): string {
  const out = ['## Gold', ''];
  if (goldError) out.push(`The decisions cannot be read: ${mdText(goldError)}`, '');
  if (goldReading) out.push(mdText(goldReading), '');
  else if (gold.length === 0) out.push(NO_GOLD_TEXT, '');
  for (const g of gold) {
    out.push(`### ${mdText(g.benchmark)}`, '', mdText(g.countsText), '');
    whyRunsFail(out, g);
    annotators(out, g);
  }
  return out.join('\n');
}
