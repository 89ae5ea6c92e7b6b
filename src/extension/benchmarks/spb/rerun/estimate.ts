// The estimate shown before a batch run or an experiment starts: requests, prompt tokens from the rendered prompts,
// and the cost where personaLab.cost.* give prices per million tokens (core/runner/estimate.ts says how).
import { join } from 'node:path';
import * as vscode from 'vscode';
import { estimateLine, type Prices } from '../../../../core/runner/estimate';
import { readJournalSteps } from '../../../../core/runner/journal';
import { estimateRun, renderPlanned, type PlannedSelection } from '../../../../core/spb/run/preflight';
import { JOURNAL_FILE } from '../../../../core/runner/runFolder';
import { isPlatform, type Benchmark } from '../../../../core/spb/types';
import type { ResolvedEndpoint } from '../../../endpoint';

export function costPrices(): Prices {
  const c = vscode.workspace.getConfiguration('personaLab.cost');
  const get = (k: string) => {
    const v = c.get<number | null>(k);
    return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;
  };
  return { inputPerMTok: get('inputPerMTok'), outputPerMTok: get('outputPerMTok') };
}

/** "estimate: N requests, ~T prompt tokens, …" for the selection, skipping steps the run folder `name` has done. */
export async function estimateText(
  bench: Benchmark,
  selection: PlannedSelection,
  target: ResolvedEndpoint,
  name?: string,
): Promise<string> {
  const prompts = await renderPlanned(bench, { systemMessage: target.systemMessage, ...selection });
  const done = name
    ? new Set(readJournalSteps(join(bench.root, 'results', name, JOURNAL_FILE), isPlatform).keys())
    : undefined;
  return estimateLine(estimateRun(prompts, { done, maxTokens: target.config.maxTokens, prices: costPrices() }));
}
