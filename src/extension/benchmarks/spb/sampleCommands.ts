// Filter Tree to Sample… (a pick of the benchmark's samples, or the sample of an Experiments row or a name given
// as argument) and Clear Sample Filter, and the part of the Benchmarks view's message that says a sample is shown.
import * as vscode from 'vscode';
import { sampleLabel } from '../../../core/spb/experiments/sampleScope';
import { listSamples, samplePath } from '../../../core/experiments/sampleFile';
import { readSample, type Sample } from '../../../core/spb/experiments/sampleFile';
import type { SpbStore } from './store';
import { ExperimentNode } from './experiments/provider';
import type { TreeMessage } from '../../tree/message';

/** Keeps the view's message saying which sample the tree shows ("Sample s5 · 5 users"), or why it shows none. */
export function sampleMessage(store: SpbStore, message: TreeMessage): vscode.Disposable {
  const update = () => {
    const state = store.tree.sample.current();
    if (state.kind === 'none') return message.set('sample', undefined);
    if (state.kind === 'unreadable')
      return message.set('sample', `Sample ${state.name} cannot be read: showing the whole benchmark.`);
    const { scope } = state;
    const users = `${scope.size.toLocaleString('en-US')} ${scope.size === 1 ? 'user' : 'users'}`;
    const note = scope.problems.length
      ? ` (${scope.problems.length} problem(s) with the sample file: see the log)`
      : '';
    message.set('sample', `Sample ${scope.name} · ${users}${note}; figures are over its users.`);
  };
  update();
  return vscode.Disposable.from(store.tree.onDidChange(update));
}

type Item = vscode.QuickPickItem & { name: string };

function sampleItem(root: string, name: string, current: string | undefined): Item {
  let sample: Sample;
  try {
    sample = readSample(root, name);
  } catch (e) {
    return { name, label: `$(warning) ${name}`, description: 'cannot be read', detail: (e as Error).message };
  }
  const users = Object.values(sample.users).reduce((n, ids) => n + (ids?.length ?? 0), 0);
  const created = sample.createdAt ? new Date(sample.createdAt).toLocaleString() : 'no date';
  return {
    name,
    label: `${name === current ? '$(check)' : '$(beaker)'} ${name}`,
    description: `${users} users · seed ${sample.seed} · by ${sample.by}${sample.baseRun ? ` (${sample.baseRun})` : ''}`,
    detail: `created ${created} · ${samplePath('', name).replace(/^[\\/]/, '')}`,
  };
}

function nameOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (arg instanceof ExperimentNode) return arg.row.sample.name;
  return undefined;
}

/** Needs an open benchmark. A name or an Experiments row as argument skips the pick. */
export async function filterTreeToSample(store: SpbStore, arg: unknown): Promise<void> {
  const bench = store.bench;
  if (!bench) return;
  let name = nameOf(arg);
  if (name === undefined) {
    const names = listSamples(bench.root);
    if (names.length === 0) {
      const make = 'New Sample…';
      const answer = await vscode.window.showInformationMessage(
        'Persona Lab: this benchmark has no sample yet (.personalab/samples/).',
        make,
      );
      if (answer === make) await vscode.commands.executeCommand('personaLab.newSample');
      return;
    }
    const current = store.tree.sample.name;
    const items = names.map((n) => sampleItem(bench.root, n, current));
    const picked = await vscode.window.showQuickPick(items, {
      title: 'Filter Tree to Sample',
      placeHolder: 'The Benchmarks view shows only the users of the sample (kept for this benchmark)',
      matchOnDescription: true,
      matchOnDetail: true,
      ignoreFocusOut: true,
    });
    if (!picked) return;
    name = picked.name;
  }
  await store.tree.sample.set(name);
  const scope = store.tree.sample.scope();
  if (scope)
    vscode.window.setStatusBarMessage(`Persona Lab: the tree shows ${sampleLabel(scope.name, scope.size)}`, 4000);
}

export async function clearSampleFilter(store: SpbStore): Promise<void> {
  await store.tree.sample.set(undefined);
}
