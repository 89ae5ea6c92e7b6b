// Reading CSV text (RFC 4180): label files and the formats' own CSV files share this reader.

/** RFC 4180 records with the line each starts on; `unterminated` marks a quote still open at the end of the text. */
export function csvRecords(text: string): { fields: string[]; line: number; unterminated?: true }[] {
  const records: { fields: string[]; line: number; unterminated?: true }[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let start = 1;
  let i = 0;
  let quoted = false;
  let any = false;
  const endRecord = () => {
    fields.push(field);
    records.push({ fields, line: start });
    fields = [];
    field = '';
    any = false;
  };
  while (i < text.length) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
      } else if (ch === '"') {
        quoted = false;
        i++;
      } else {
        if (ch === '\n') line++;
        field += ch;
        i++;
      }
      continue;
    }
    if (!any) start = line;
    if (ch === '"' && field === '') {
      quoted = true;
      any = true;
      i++;
    } else if (ch === ',') {
      fields.push(field);
      field = '';
      any = true;
      i++;
    } else if (ch === '\r' && text[i + 1] === '\n') {
      i++;
    } else if (ch === '\n') {
      if (any) endRecord();
      line++;
      i++;
    } else {
      field += ch;
      any = true;
      i++;
    }
  }
  if (quoted) {
    fields.push(field);
    records.push({ fields, line: start, unterminated: true });
  } else if (any) {
    endRecord();
  }
  return records;
}
