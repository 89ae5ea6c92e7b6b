// An adjudication pass's progress as its pages say it. Apart from adjudication.ts so that the pages' bundles reach no
// more of the labels than this (the gold set reads the formats' registry, which a page never loads).

export interface PassProgress {
  settled: number;
  agreed: number;
  open: number;
}

export function progressText(p: PassProgress): string {
  return `${p.settled} settled · ${p.agreed} agreed · ${p.open} open of ${p.settled + p.agreed + p.open}`;
}
