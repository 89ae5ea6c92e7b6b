// A table of figures as plain text for a terminal: column groups (a platform, "Avg.") as a heading line over their
// columns, and at most `width` characters a line. A table wider than that is split into blocks of whole groups, each
// repeating the Run column, so that no line wraps in a 120-column terminal and a group is never cut in two.
import { elideMiddle } from '../elide';
import { coverageFootnote, rowName, type TableModel } from './format';

export const TEXT_WIDTH = 120;
const GAP = '  ';

/** "persona-lab-exp…mHMT": a run name cut to its column, two thirds of it from the start. */
export function elideRunName(text: string, max: number): string {
  return elideMiddle(text, max, 3);
}

interface Group {
  name: string;
  columns: number[];
  widths: number[];
  width: number;
}

/** Long lines (a note) broken at spaces to `width`, each continuation indented 4 more than the line's own indent. */
export function wrapLine(line: string, width = TEXT_WIDTH): string[] {
  const indent = ' '.repeat((/^ */.exec(line)?.[0].length ?? 0) + 4);
  if (line.length <= width || indent.length >= width) return [line];
  const out: string[] = [];
  let rest = line;
  while (rest.length > width) {
    const cut = rest.lastIndexOf(' ', width);
    // a word longer than the line (a run's name) is cut where the line ends
    const hard = cut <= indent.length;
    out.push(rest.slice(0, hard ? width : cut).trimEnd());
    rest = indent + rest.slice(hard ? width : cut + 1).trimStart();
  }
  out.push(rest);
  return out;
}

/** `footnote: false` leaves the coverage footnote out, for a caller that prints it once under several tables. */
export function tableText(t: TableModel, { width = TEXT_WIDTH, footnote = true } = {}): string {
  const cellText = (ri: number, ci: number) => t.rows[ri].cells[ci].text;
  const groups: Group[] = [];
  t.columns.forEach((c, ci) => {
    const w = Math.max(c.head.length, ...t.rows.map((_, ri) => cellText(ri, ci).length));
    const last = groups.at(-1);
    if (last && last.name === c.group) {
      last.columns.push(ci);
      last.widths.push(w);
    } else groups.push({ name: c.group, columns: [ci], widths: [w], width: 0 });
  });
  for (const g of groups) {
    const span = () => g.widths.reduce((s, w) => s + w, 0) + GAP.length * (g.widths.length - 1);
    // a group name wider than its columns widens its first column
    if (g.name.length > span()) g.widths[0] += g.name.length - span();
    g.width = span();
  }
  const widest = Math.max(0, ...groups.map((g) => g.width));
  const names = t.rows.map((r) => rowName(r));
  const runWidth = Math.min(Math.max(3, ...names.map((n) => n.length)), Math.max(12, width - GAP.length - widest));
  const blocks: Group[][] = [];
  for (const g of groups) {
    const block = blocks.at(-1);
    const used = block ? runWidth + block.reduce((s, b) => s + GAP.length + b.width, 0) : Infinity;
    if (block && used + GAP.length + g.width <= width) block.push(g);
    else blocks.push([g]);
  }
  const center = (text: string, w: number) => {
    if (!text) return ' '.repeat(w);
    const fill = text.length + 2 <= w ? '-' : ' ';
    const label = fill === '-' ? ` ${text} ` : text;
    const left = Math.floor((w - label.length) / 2);
    return fill.repeat(left) + label + fill.repeat(w - label.length - left);
  };
  const render = (block: Group[]) => {
    const line = (first: string, cells: (g: Group) => string) =>
      [first.padEnd(runWidth), ...block.map(cells)].join(GAP).trimEnd();
    const lines = [
      line('', (g) => center(g.name, g.width)),
      line('Run', (g) => g.columns.map((ci, i) => t.columns[ci].head.padStart(g.widths[i])).join(GAP)),
      line('-'.repeat(runWidth), (g) => g.widths.map((w) => '-'.repeat(w)).join(GAP)),
      ...names.map((name, ri) =>
        line(elideRunName(name, runWidth), (g) =>
          g.columns.map((ci, i) => cellText(ri, ci).padStart(g.widths[i])).join(GAP),
        ),
      ),
    ];
    return (block.every((g) => !g.name) ? lines.slice(1) : lines).join('\n');
  };
  const notes = footnote ? footnoteText(t, width) : [];
  return [...wrapLine(t.title, width), blocks.map(render).join('\n\n'), ...(notes.length ? ['', ...notes] : [])].join(
    '\n',
  );
}

/** The coverage footnote as text lines: the heading, each run indented, wrapped to `width`. */
export function footnoteText(t: TableModel, width = TEXT_WIDTH): string[] {
  return coverageFootnote(t).flatMap((l, i) => wrapLine(i === 0 ? l : `  ${l}`, width));
}

/** Columns aligned: the first `left` to the left (text), the others to the right (figures). */
export function alignColumns(rows: string[][], left = 1): string[] {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => [...r[i]].length)));
  return rows.map((r) =>
    r
      .map((c, i) => (i < left ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join('  ')
      .trimEnd(),
  );
}
