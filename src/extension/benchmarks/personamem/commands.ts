// Choose PersonaMem Run: the run whose answers the tree and the question view show, picked from the results CSVs
// with each run's split and share right. Run by a click on the benchmark row.
import * as vscode from 'vscode';
import type { PersonaMemStore } from './store';

const pct = (x: number | null) => (x === null ? '—' : `${(100 * x).toFixed(1)}%`);

export async function choosePersonaMemRun(store: PersonaMemStore, arg: unknown): Promise<void> {
  await store.ready();
  const bench = store.bench;
  if (!bench) return;
  if (typeof arg === 'string' && bench.runs.has(arg)) return store.selectRun(arg);
  if (bench.runs.size === 0) {
    void vscode.window.showInformationMessage(`Persona Lab: no results CSVs under ${bench.root}/results/.`);
    return;
  }
  const items = [...bench.runs.keys()].sort().map((name) => {
    const s = store.score(name);
    const figures = s ? `${pct(s.overall.accuracy)} right (${s.overall.correct} of ${s.overall.answered})` : '';
    return {
      label: name,
      description: `${s?.split ?? ''} · ${figures}${name === store.runName ? ' · selected' : ''}`,
      iconPath: name === store.runName ? new vscode.ThemeIcon('check') : undefined,
    };
  });
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Choose PersonaMem Run',
    placeHolder: 'The run whose answers the tree and the question view show',
  });
  if (picked && picked.label !== store.runName) await store.selectRun(picked.label);
}
