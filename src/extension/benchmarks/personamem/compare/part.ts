// PersonaMem's part of Compare Runs (compare/part.ts): its runs with each one's split and accuracy, only runs of
// one split compared (the questions are paired by id), its compare view, restored after a reload, and compare mode's
// badges: the questions A answered right and B wrong, and their count on each persona's row.
import { PM_COMPARE_VIEW_TYPE } from '../../../../shared/personamem/compareProtocol';
import { runPairPart } from '../../../compare/panel';
import type { CompareHost, ComparePart } from '../../../compare/part';
import { restoreReusedPanel } from '../../../webviewPanel';
import { pmBadgePath } from '../nodes';
import type { PersonaMemStore } from '../store';
import { PersonaMemComparePanel } from './panel';

const pct = (x: number | null) => (x === null ? '—' : `${(100 * x).toFixed(1)}%`);

export function personaMemComparePart(store: PersonaMemStore, host: CompareHost): ComparePart {
  const panel = new PersonaMemComparePanel(host.extensionUri, store, host.state);
  const restore = restoreReusedPanel(PM_COMPARE_VIEW_TYPE, panel, () => store.ready());
  return runPairPart(panel, restore, {
    selectedRun: () => store.runName,
    badges: (pair, cmp) => ({
      pair,
      items: new Map(
        cmp.differing
          .filter((d) => d.change === 'lost')
          .map((d) => [
            pmBadgePath(cmp.split, d.personaId, d.questionId).join('/'),
            `right in ${pair.a}, ${pair.b} picked ${d.pickB ?? 'no single option'} (answer ${d.correctAnswer})`,
          ]),
      ),
      unit: 'question',
      explain: `Compare mode: questions ${pair.a} answered right and ${pair.b} wrong are badged ↓ in the Benchmarks tree.`,
    }),
    runs: () =>
      [...(store.bench?.runs.keys() ?? [])].sort().map((run) => {
        const s = store.score(run);
        return {
          run,
          description: s
            ? `${s.split} · ${pct(s.overall.accuracy)} right (${s.overall.correct} of ${s.overall.answered})`
            : '',
          detail: run === store.runName ? 'selected run' : undefined,
        };
      }),
  });
}
