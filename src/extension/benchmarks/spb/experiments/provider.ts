// StreamProfileBench's part of the Experiments view (extension/experiments/): the rows of
// <benchmark>/.personalab/experiments.db, newest first, each with its paired deltas against its base run
// (description) and the whole comparison and cost (tooltip). Read again on every refresh.
// Long-context rows (the appendix E baseline) have their own icon, "long-context" in the description, their Table 7
// in the tooltip, and open it on a click.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { coverageNote } from '../../../../core/coverage';
import { thinPlatforms } from '../../../../core/spb/experiments/experiment';
import { benchmarkSize, experimentCoverage, type BenchmarkSize } from '../../../../core/spb/experiments/coverage';
import { deltaText, figureLines, verdict } from '../../../../core/spb/experiments/text';
import { EXPERIMENTS_DB, ExperimentLog, templateLabel, type ExperimentRow } from '../../../../core/spb/experiments/log';
import {
  LONG_CONTEXT_READING,
  longContextLines,
  longContextTableOf,
} from '../../../../core/spb/experiments/longContext';
import type { SpbStore } from '../store';
import type { ExperimentsPart } from '../../../experiments/part';
import { log } from '../../../log';
import { hoverText } from '../../../../core/glossary';

export const EXPERIMENT_CONTEXT = 'experiment';
export const LONG_CONTEXT_CONTEXT = 'longContextExperiment';
export const SHOW_LONG_CONTEXT_COMMAND = 'personaLab.showLongContextTable';

export class ExperimentNode {
  constructor(readonly row: ExperimentRow) {}
}

/** What the figures of an experiment's tooltip are: the glossary's sentences (src/core/glossary.ts). */
const TERMS = ['Δ', '95 % CI', 'W/T/L'].map(hoverText).join('\n');

export const costLine = (row: ExperimentRow) =>
  `cost: ${row.cost.requests} requests, ${row.cost.promptTokens} prompt + ${row.cost.completionTokens} completion tokens, ${(row.cost.latencyMs / 1000).toFixed(1)} s of requests`;

function longContextItem(row: ExperimentRow): vscode.TreeItem {
  const recall = row.figures?.summary.find((r) => r.metric === 'Recall');
  // The figure first (a side bar cuts the end of a row); the sample and the base run follow, all in the tooltip too.
  const t = new vscode.TreeItem(templateLabel(row.template), vscode.TreeItemCollapsibleState.None);
  t.id = `experiment:${row.id}`;
  t.contextValue = LONG_CONTEXT_CONTEXT;
  t.description = `long-context · ΔR ${deltaText(recall, row.figures)} vs streaming ${row.baseRun} · ${row.sample.name}`;
  t.iconPath = new vscode.ThemeIcon('layers');
  const table = longContextTableOf(row.figures, row.scopes);
  const md = new vscode.MarkdownString();
  md.appendText(
    `${row.run}\ntemplate ${templateLabel(row.template)} (${row.template.id})\n${new Date(row.createdAt).toLocaleString()} · ${row.author} · ${row.endpoint.model} · ${row.sample.users} users with ≥ 4 steps of ${row.sample.name}\n`,
  );
  md.appendCodeblock(
    [...(table ? longContextLines(table) : [`${LONG_CONTEXT_READING}.`]), costLine(row)].join('\n'),
    'text',
  );
  t.tooltip = md;
  t.command = {
    command: SHOW_LONG_CONTEXT_COMMAND,
    title: 'Show Long-Context Table',
    arguments: [new ExperimentNode(row)],
  };
  return t;
}

/** "figures over 5 of 10 users, 30 of 166 steps": a sample's deltas are not the whole benchmark's. */
const coverageLine = (row: ExperimentRow, size: BenchmarkSize | undefined) => {
  const note = size && coverageNote(experimentCoverage(row, size));
  return note ? `figures ${note}\n` : '';
};

function item(row: ExperimentRow, size: BenchmarkSize | undefined): vscode.TreeItem {
  if (row.kind === 'long-context') return longContextItem(row);
  const recall = row.figures?.summary.find((r) => r.metric === 'Recall');
  const f1 = row.figures?.summary.find((r) => r.metric === 'F1NS');
  const t = new vscode.TreeItem(templateLabel(row.template), vscode.TreeItemCollapsibleState.None);
  t.id = `experiment:${row.id}`;
  t.contextValue = EXPERIMENT_CONTEXT;
  t.description = row.figures
    ? `ΔR ${deltaText(recall, row.figures)} · ΔF1^NS ${deltaText(f1, row.figures)} · ${row.sample.name}`
    : `${row.sample.name} · ${row.run} (no base run)`;
  // An interval from platforms of one user is too narrow to call a change (see thinPlatforms).
  const v = row.figures && thinPlatforms(row.figures).length === 0 ? verdict(recall) : 0;
  t.iconPath = new vscode.ThemeIcon(
    v > 0 ? 'arrow-up' : v < 0 ? 'arrow-down' : 'beaker',
    v > 0
      ? new vscode.ThemeColor('testing.iconPassed')
      : v < 0
        ? new vscode.ThemeColor('testing.iconFailed')
        : undefined,
  );
  const md = new vscode.MarkdownString();
  md.appendText(
    `${row.run}\ntemplate ${templateLabel(row.template)} (${row.template.id})\n${new Date(row.createdAt).toLocaleString()} · ${row.author} · ${row.endpoint.model} · sample ${row.sample.name} (${row.sample.users} users, seed ${row.sample.seed})\n${coverageLine(row, size)}`,
  );
  md.appendCodeblock(
    [...(row.figures ? figureLines(row.figures) : ['not compared with a run']), costLine(row)].join('\n'),
    'text',
  );
  if (row.figures) md.appendText(TERMS);
  t.tooltip = md;
  return t;
}

export class ExperimentsProvider implements ExperimentsPart<ExperimentNode> {
  private readonly changed = new vscode.EventEmitter<undefined>();
  readonly onDidChange = this.changed.event;
  private rows: ExperimentRow[] = [];
  private readonly subscription: vscode.Disposable;

  constructor(private readonly store: SpbStore) {
    this.subscription = store.onDidChange(() => this.refresh());
  }

  /** The log's rows, newest first (read when the view refreshes). */
  get current(): readonly ExperimentRow[] {
    return this.rows;
  }

  refresh(): void {
    this.rows = this.read();
    void vscode.commands.executeCommand('setContext', 'personaLab.hasExperiments', this.rows.length > 0);
    this.changed.fire(undefined);
  }

  private read(): ExperimentRow[] {
    const root = this.store.root;
    const path = root && join(root, EXPERIMENTS_DB);
    if (!path || !existsSync(path)) return [];
    try {
      const db = ExperimentLog.open(path, { mustExist: true });
      try {
        return db.list();
      } finally {
        db.close();
      }
    } catch (e) {
      log.warn(`experiments: cannot read ${path}: ${(e as Error).message}`);
      return [];
    }
  }

  item(node: ExperimentNode): vscode.TreeItem {
    const bench = this.store.bench;
    return item(node.row, bench && benchmarkSize(bench));
  }

  nodes(): ExperimentNode[] {
    return this.rows.map((r) => new ExperimentNode(r));
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
