// PersonaMem's part of the Experiments view (extension/experiments/): its rows of the benchmark's experiment log,
// newest first, each with the paired accuracy difference and its interval over personas (description), and what it
// covers with the figures per question type (tooltip), as `persona-lab experiments` prints them. A row opens Compare
// Runs of its base run and its run. Read again when the benchmark reloads and when an experiment is logged.
import * as vscode from 'vscode';
import { pmExperimentRows, type PmExperimentRow } from '../../../../core/personamem/experiment/log';
import { pmExperimentLines, pmExperimentSummary } from '../../../../core/personamem/experiment/text';
import { hoverText } from '../../../../core/glossary';
import type { ExperimentsPart } from '../../../experiments/part';
import { log } from '../../../log';
import type { PersonaMemStore } from '../store';

export const PM_EXPERIMENT_CONTEXT = 'pmExperiment';

export class PmExperimentNode {
  constructor(readonly row: PmExperimentRow) {}
}

/** Whether the interval over personas is above 0 (+1), below (−1), or takes in 0 or is not given (0). */
const verdict = (r: PmExperimentRow): -1 | 0 | 1 => {
  const o = r.figures?.rows[0];
  if (!o || !Number.isFinite(o.low) || !Number.isFinite(o.high)) return 0;
  return o.low > 0 ? 1 : o.high < 0 ? -1 : 0;
};

function item(row: PmExperimentRow): vscode.TreeItem {
  const t = new vscode.TreeItem(row.run, vscode.TreeItemCollapsibleState.None);
  t.id = `pm-experiment:${row.id}`;
  t.contextValue = PM_EXPERIMENT_CONTEXT;
  t.description = pmExperimentSummary(row);
  const v = verdict(row);
  t.iconPath = new vscode.ThemeIcon(
    v > 0 ? 'arrow-up' : v < 0 ? 'arrow-down' : 'beaker',
    v === 0 ? undefined : new vscode.ThemeColor(v > 0 ? 'testing.iconPassed' : 'testing.iconFailed'),
  );
  const md = new vscode.MarkdownString();
  md.appendText(`${new Date(row.createdAt).toLocaleString()} · ${row.author} · ${row.endpoint.model}\n`);
  md.appendCodeblock(pmExperimentLines(row).join('\n'), 'text');
  if (row.figures) md.appendText(hoverText('Δ'));
  t.tooltip = md;
  if (row.baseRun)
    t.command = { command: 'personaLab.compareRuns', title: 'Compare Runs', arguments: [row.baseRun, row.run] };
  return t;
}

const made = new WeakMap<PersonaMemStore, PmExperimentsPart>();

/** Reads the log again (after an experiment was logged from the editor). */
export const refreshPmExperiments = (store: PersonaMemStore) => made.get(store)?.refresh();

class PmExperimentsPart implements ExperimentsPart<PmExperimentNode> {
  private readonly changed = new vscode.EventEmitter<undefined>();
  readonly onDidChange = this.changed.event;
  private rows: PmExperimentRow[] = [];
  private readonly subscription: vscode.Disposable;

  constructor(private readonly store: PersonaMemStore) {
    this.subscription = store.onDidChange(() => this.refresh());
    this.refresh();
  }

  refresh(): void {
    const root = this.store.bench?.root;
    try {
      this.rows = root ? pmExperimentRows(root) : [];
    } catch (e) {
      log.warn(`experiments: cannot read the log of ${root}: ${(e as Error).message}`);
      this.rows = [];
    }
    this.changed.fire(undefined);
  }

  nodes(): PmExperimentNode[] {
    return this.rows.map((r) => new PmExperimentNode(r));
  }

  item(node: PmExperimentNode): vscode.TreeItem {
    return item(node.row);
  }

  dispose(): void {
    made.delete(this.store);
    this.subscription.dispose();
    this.changed.dispose();
  }
}

export function pmExperimentsPart(store: PersonaMemStore): ExperimentsPart<PmExperimentNode> {
  const part = new PmExperimentsPart(store);
  made.set(store, part);
  return part;
}
