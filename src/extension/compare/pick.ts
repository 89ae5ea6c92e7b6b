// Compare Runs…: two quick picks, run A (the reference) then run B (compared against A). Run A is picked among the
// runs of every open benchmark that offers a comparison (under a separator per benchmark when there are several);
// run B among the runs of A's benchmark that its format can compare with A.
import * as vscode from 'vscode';
import type { ComparePart, CompareRunChoice, RunPair } from './part';

/** An open benchmark that offers a comparison: its format's name and its part. */
export interface Comparable {
  label: string;
  part: ComparePart;
}

interface RunItem extends vscode.QuickPickItem {
  run?: string;
  owner?: Comparable;
}

const item = (c: CompareRunChoice, owner: Comparable): RunItem => ({
  run: c.run,
  owner,
  label: c.run,
  description: c.description,
  detail: c.detail,
});

async function pickOne(
  title: string,
  placeHolder: string,
  list: RunItem[],
  preferred: string | undefined,
): Promise<RunItem | undefined> {
  const qp = vscode.window.createQuickPick<RunItem>();
  qp.title = title;
  qp.placeholder = placeHolder;
  qp.items = list;
  qp.matchOnDescription = true;
  const active = list.find((i) => i.run !== undefined && i.run === preferred);
  if (active) qp.activeItems = [active];
  return new Promise((resolve) => {
    let picked: RunItem | undefined;
    qp.onDidAccept(() => {
      picked = qp.selectedItems[0] ?? qp.activeItems[0];
      qp.hide();
    });
    qp.onDidHide(() => {
      qp.dispose();
      resolve(picked?.run === undefined ? undefined : picked);
    });
    qp.show();
  });
}

/**
 * Asks for run A then run B (different runs of one benchmark); undefined when cancelled or when no open benchmark
 * has two runs.
 */
export async function pickRunPair(
  open: readonly Comparable[],
): Promise<{ owner: Comparable; pair: RunPair } | undefined> {
  const withRuns = open.map((o) => ({ o, runs: o.part.runs() })).filter((x) => x.runs.length >= 2);
  if (withRuns.length === 0) {
    void vscode.window.showInformationMessage(
      'Persona Lab: comparing needs an open benchmark with at least two runs under results/.',
    );
    return undefined;
  }
  const several = withRuns.length > 1;
  const first: RunItem[] = withRuns.flatMap(({ o, runs }) => [
    ...(several ? [{ label: o.label, kind: vscode.QuickPickItemKind.Separator }] : []),
    ...runs.map((r) => item(r, o)),
  ]);
  const preferred = withRuns.map(({ o }) => o.part.lastPair?.a ?? o.part.selectedRun).find((r) => r !== undefined);
  const a = await pickOne(
    'Compare Runs (1/2): run A, the reference',
    'Pick the run to compare against (A)',
    first,
    preferred,
  );
  const owner = a?.owner;
  if (!a?.run || !owner) return undefined;
  const runA = a.run;
  const candidates = owner.part
    .runs()
    .filter((r) => r.run !== runA && !owner.part.problem?.({ a: runA, b: r.run }))
    .map((r) => item(r, owner));
  if (candidates.length === 0) {
    void vscode.window.showInformationMessage(
      `Persona Lab: no other run of ${owner.label} can be compared with ${runA}.`,
    );
    return undefined;
  }
  const b = await pickOne(
    `Compare Runs (2/2): run B, compared against ${runA}`,
    'Pick the run to compare with A',
    candidates,
    owner.part.lastPair?.b,
  );
  return b?.run ? { owner, pair: { a: runA, b: b.run } } : undefined;
}
