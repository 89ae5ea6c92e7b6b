// What PersonaMem's `score --json` prints (docs/scoring.md), the fields the dashboard tests compare with.
export interface PmTally {
  answered: number;
  correct: number;
  accuracy: number | null;
}

export interface PmScoreJson {
  splits: { size: string; questions: number }[];
  runs: (PmTally & {
    name: string;
    split: string;
    model: string;
    byType: Record<string, PmTally>;
    byTopic: Record<string, PmTally>;
    coverage: { questions: { covered: number; total: number }; whole: boolean };
  })[];
  byContextLength: { model: string; splits: Record<string, PmTally & { whole: boolean }> }[];
}
