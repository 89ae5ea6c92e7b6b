// OmniBehavior's part of Compare Runs (compare/part.ts): its runs with each one's overall and coverage, any two runs
// that share a test action compared (paired by user and index), and its compare view, restored after a reload.
import { pyFixed } from '../../../../core/io/pyNumber';
import { OMNI_COMPARE_VIEW_TYPE } from '../../../../shared/omni/compareProtocol';
import { runPairPart } from '../../../compare/panel';
import type { CompareHost, ComparePart } from '../../../compare/part';
import { restoreReusedPanel } from '../../../webviewPanel';
import type { OmniStore } from '../store';
import { OmniComparePanel } from './panel';

export function omniComparePart(store: OmniStore, host: CompareHost): ComparePart {
  const panel = new OmniComparePanel(host.extensionUri, store, host.state);
  const restore = restoreReusedPanel(OMNI_COMPARE_VIEW_TYPE, panel, () => store.ready());
  return runPairPart(panel, restore, {
    selectedRun: () => store.runName,
    runs: () =>
      [...(store.bench?.runs.keys() ?? [])].sort().map((run) => {
        const s = store.score(run);
        const items = s?.coverage.items;
        return {
          run,
          description: s
            ? `overall ${s.overall === undefined ? '—' : pyFixed(s.overall, 1)} · ${items?.covered} of ${items?.total} test actions`
            : '',
          detail: run === store.runName ? 'selected run' : undefined,
        };
      }),
  });
}
