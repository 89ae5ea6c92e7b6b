// The CLI's own table text, which the extension's tables must show cell for cell.

/** The blank-line separated CSV tables of `score --format csv` (CRLF lines), each as run → column → cell text. */
export function csvTables(text: string): Map<string, Record<string, string>>[] {
  return text
    .trim()
    .split(/\r?\n\s*\r?\n/)
    .map((block) => {
      const [head, ...lines] = block.trim().split(/\r?\n/);
      const cols = head!.split(',');
      return new Map(
        lines.map((line) => {
          const cells = line.split(',');
          return [cells[0]!, Object.fromEntries(cols.map((c, i) => [c, cells[i]!]))];
        }),
      );
    });
}
