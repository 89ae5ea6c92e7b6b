// The open PersonaMem benchmark: its splits, questions and runs (results CSVs), the selected run and its score.
import type * as vscode from 'vscode';
import { personaMem } from '../../../core/personamem/format';
import { scorePersonaMemRun, type PmRunScore } from '../../../core/personamem/score';
import type { PersonaMemBench, PmQuestion, PmRun } from '../../../core/personamem/types';
import { BenchmarkSession } from '../session';
import type { LoadHost } from '../types';
import { PersonaMemRoots } from './roots';

const RUN_KEY = 'personaLab.personamem.selectedRun';

export class PersonaMemStore extends BenchmarkSession<PersonaMemBench, PmRun, PmRunScore> {
  readonly format = personaMem;
  readonly tree = new PersonaMemRoots(this, this.state);

  constructor(state: vscode.Memento, host: LoadHost) {
    super(state, host, { runKey: RUN_KEY, loadTitle: 'Persona Lab: loading PersonaMem', scoreOf: scorePersonaMemRun });
  }

  question(split: string, questionId: string): PmQuestion | undefined {
    return this.benchmark?.splits.get(split)?.questions.find((q) => q.questionId === questionId);
  }

  /** `root`: the PersonaMem folder itself (personaMemRoot of what the user opened). */
  protected async loadBench(root: string, onProgress: (done: number, total: number) => void): Promise<PersonaMemBench> {
    return (await personaMem.load(root, { onProgress })).bench;
  }

  protected firstRun(bench: PersonaMemBench): string | undefined {
    return [...bench.runs.keys()].sort()[0];
  }
}
