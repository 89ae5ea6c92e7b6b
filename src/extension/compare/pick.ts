// Compare Runs…: two quick picks, run A (the reference) then run B (compared against A).
import * as vscode from 'vscode';
import { pctText } from '../../core/tables/format';
import { readRunOrigin } from '../../core/spb/prompt/runOrigin';
import type { SpbStore } from '../benchmarks/spb/store';
import type { RunPair } from './session';

interface RunItem extends vscode.QuickPickItem {
  run: string;
}

function items(store: SpbStore, exclude?: string): RunItem[] {
  const bench = store.bench;
  if (!bench) return [];
  return [...bench.runs.keys()]
    .filter((r) => r !== exclude)
    .map((run) => {
      const s = store.score(run);
      return {
        run,
        label: run,
        description: s ? `Avg. Recall ${pctText(s.avg.Recall)} · F1^NS ${pctText(s.avg.F1NS)}` : '',
        detail:
          [run === store.runName ? 'selected run' : '', readRunOrigin(bench.root, run)?.mark ?? '']
            .filter(Boolean)
            .join(' · ') || undefined,
      };
    });
}

async function pickOne(
  title: string,
  placeHolder: string,
  list: RunItem[],
  preferred: string | undefined,
): Promise<string | undefined> {
  const qp = vscode.window.createQuickPick<RunItem>();
  qp.title = title;
  qp.placeholder = placeHolder;
  qp.items = list;
  qp.matchOnDescription = true;
  const active = list.find((i) => i.run === preferred);
  if (active) qp.activeItems = [active];
  return new Promise((resolve) => {
    let picked: string | undefined;
    qp.onDidAccept(() => {
      picked = qp.selectedItems[0]?.run ?? qp.activeItems[0]?.run;
      qp.hide();
    });
    qp.onDidHide(() => {
      qp.dispose();
      resolve(picked);
    });
    qp.show();
  });
}

/** Asks for run A then run B (different runs); undefined when cancelled or when there are fewer than two runs. */
export async function pickRunPair(store: SpbStore, last: RunPair | undefined): Promise<RunPair | undefined> {
  const bench = store.bench;
  if (!bench || bench.runs.size < 2) {
    void vscode.window.showInformationMessage(
      'Persona Lab: comparing needs a benchmark with at least two runs under results/.',
    );
    return undefined;
  }
  const a = await pickOne(
    'Compare Runs (1/2): run A, the reference',
    'Pick the run to compare against (A)',
    items(store),
    last?.a ?? store.runName,
  );
  if (!a) return undefined;
  const b = await pickOne(
    `Compare Runs (2/2): run B, compared against ${a}`,
    'Pick the run to compare with A',
    items(store, a),
    last?.b,
  );
  return b ? { a, b } : undefined;
}
