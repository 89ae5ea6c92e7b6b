// Batch Run… on a PersonaMem benchmark: from a persona's row its questions; from the benchmark or a split row (or the
// palette) a pick of what to ask: a split's questions, a sample of questions stratified by question type (an
// experiment, compared with a base run), or a new such sample.
import * as vscode from 'vscode';
import { pmSamples, type PmSample } from '../../../../core/personamem/experiment/sample';
import { PmPersonaNode, PmSplitNode } from '../nodes';
import { pmScopeRun, type PmBatchDeps } from './batch';
import { newPmSampleCommand, runPmExperiment } from './experiment';

type Choice = { kind: 'split'; size: string } | { kind: 'sample'; sample: PmSample } | { kind: 'new'; size: string };

async function choose(deps: PmBatchDeps, only?: string): Promise<Choice | undefined> {
  const bench = deps.store.bench;
  if (!bench) return undefined;
  const splits = [...bench.splits.values()].filter((s) => only === undefined || s.size === only);
  const several = splits.length > 1;
  const items = [
    ...splits.map((s) => ({
      label: `$(files) Split ${s.size}`,
      description: `every question (${s.questions.length})`,
      choice: { kind: 'split', size: s.size } as Choice,
    })),
    ...pmSamples(bench.root)
      .filter((s) => splits.some((x) => x.size === s.size))
      .map((s) => ({
        label: `$(beaker) Sample ${s.name}`,
        description: `${s.questions.length} questions of ${s.size} by question type (seed ${s.seed}), compared with a base run`,
        choice: { kind: 'sample', sample: s } as Choice,
      })),
    ...splits.map((s) => ({
      label: `$(add) New Sample by Question Type…${several ? ` (${s.size})` : ''}`,
      description: `a seeded sample of the ${s.size} questions, then run on it`,
      choice: { kind: 'new', size: s.size } as Choice,
    })),
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Batch Run: questions',
    placeHolder: 'What to ask',
    ignoreFocusOut: true,
  });
  return picked?.choice;
}

export async function pmBatchRun(deps: PmBatchDeps, arg: unknown): Promise<void> {
  await deps.store.ready();
  if (arg instanceof PmPersonaNode)
    return pmScopeRun(deps, {
      size: arg.split,
      selection: { personaId: arg.personaId },
      what: `persona ${arg.personaId} (${arg.split})`,
    });
  const choice = await choose(deps, arg instanceof PmSplitNode ? arg.split : undefined);
  if (!choice) return;
  if (choice.kind === 'split')
    return pmScopeRun(deps, { size: choice.size, selection: {}, what: `split ${choice.size}` });
  const sample = choice.kind === 'sample' ? choice.sample : await newPmSampleCommand(deps.store, choice.size);
  if (sample) await runPmExperiment(deps, sample);
}
