// Labels feature, for every format in one place: the label database and set (LabelService), the label files'
// commands, labelling projects, and each format's part (its contribution's `labels`: what a label goes on, labelling
// in its views, badges in its tree, its projects' items; labels/part.ts).
import type * as vscode from 'vscode';
import { formatLabelSets } from '../../core/formats';
import { unitNamer } from '../../core/labels/unitNoun';
import type { Benchmarks } from '../benchmarks';
import type { TreeApi } from '../tree/api';
import { labelFileCommands, type LabelFileCommands } from './fileCommands';
import type { LabelHost, LabelPart } from './part';
import { LabelProjects } from './projects';
import { LabelService } from './service';
import { AdjudicationPass } from './adjudicate/pass';

export interface LabelsApi {
  service: LabelService;
  files: LabelFileCommands;
  projects: LabelProjects;
  adjudication: AdjudicationPass;
  /** The label part a format's contribution made (a format's own commands read theirs). */
  partOf(formatId: string): LabelPart | undefined;
}

export function activateLabels(context: vscode.ExtensionContext, benchmarks: Benchmarks, tree: TreeApi): LabelsApi {
  // The label database of a window without a workspace folder goes beside the first format's benchmark.
  const formatSets = formatLabelSets(benchmarks.contributions.map((c) => c.format));
  const labels = new LabelService(benchmarks.all[0], context.globalStorageUri.fsPath, context.secrets, formatSets);
  context.subscriptions.push(labels);
  // A benchmark's units are named by the format of the open benchmark whose `benchmark` column it is.
  labels.unitOf = unitNamer(
    (benchmark) => benchmarks.contributions.find((c) => labels.benchmarkOf(benchmarks.of(c)) === benchmark)?.format,
  );
  const host: LabelHost = { labels, tree, state: context.workspaceState };
  const parts = new Map<string, LabelPart>();
  for (const c of benchmarks.contributions) {
    const part = c.labels?.(benchmarks.of(c), host);
    if (!part) continue;
    parts.set(c.format.id, part);
    context.subscriptions.push(part);
  }
  const sources = [...parts.values()].flatMap((p) => (p.project ? [p.project] : []));
  const projects = new LabelProjects(labels, sources, context.workspaceState, context.secrets, tree.message);
  const adjudication = new AdjudicationPass(labels, sources, projects, tree.message, context.secrets);
  context.subscriptions.push(
    adjudication,
    projects,
    labels.onDidChange(() => void projects.refreshProgress()),
  );
  return {
    service: labels,
    files: labelFileCommands(context, labels, (ref) => {
      for (const part of parts.values()) {
        const open = part.unitOpener?.(ref);
        if (open) return open;
      }
      return undefined;
    }),
    projects,
    adjudication,
    partOf: (id) => parts.get(id),
  };
}
